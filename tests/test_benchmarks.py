"""The benchmark scripts still start: each one's --help, in a fresh interpreter (a moved module
or a renamed helper breaks a benchmark long before anyone times anything)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.name for path in SCRIPTS])
def test_each_benchmark_starts(script):
    result = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                            text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0 and "usage" in result.stdout, result.stderr[-2000:]


def test_the_frontier_run_keeps_its_quotients_and_draws_them(tmp_path):
    """benchmarks/quotient.py --frontier: each game in a process of its own, the quotients
    kept with what made them (the same as the API's), the orders drawn as a real PNG."""
    import json

    from kayles.analysis.quotient import quotient
    from kayles.engine.rules import parse_octal

    kept, picture = tmp_path / "kept.json", tmp_path / "growth.png"
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "quotient.py"),
                             "--frontier", "0.75:12", "0.07:14", "--memory", "256M", "--keep",
                             str(kept), "--plot", str(picture)], capture_output=True, text=True,
                            timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "heap  14: order" in result.stdout and "an element costs" in result.stdout
    made = json.loads(kept.read_text())
    assert made["command"].startswith("benchmarks/quotient.py --frontier 0.75:12")
    for entry, (code, heap) in zip(made["quotients"], [("0.75", 12), ("0.07", 14)]):
        q = quotient(parse_octal(code), heap)
        assert (entry["code"], entry["heap"], entry["order"], entry["checksum"],
                entry["presentation"]) == (code, heap, q.order, q.checksum(), q.presentation())
    import matplotlib.image

    pixels = matplotlib.image.imread(picture)
    assert pixels.shape[:2] == (480, 840) and pixels.std() > 0.05  # drawn, not blank


def test_the_dense_sample_is_drawn_from_the_census_dense_frontier():
    """benchmarks/engine.py --dense draws among the census's dense codes: the open rows the
    sparse passes never took past their first pass (every other open row reaches 2**20)."""
    import csv
    import importlib.util

    spec = importlib.util.spec_from_file_location("engine", ROOT / "benchmarks" / "engine.py")
    engine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine)
    text = (ROOT / "docs" / "census" / "census-4.csv").read_text()
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    frontier = [row["code"] for row in rows
                if row["status"] == "open" and int(row["computed"]) < 1 << 20]
    assert engine.dense_codes() == frontier and len(frontier) == 849
