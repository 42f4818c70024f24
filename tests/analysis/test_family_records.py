"""The records of docs/records/families.csv (benchmarks/family_records.py): every row says
how it was made (its command, date and machine), the rows inside a published table agree
with it, and a sample of the rows is derived again by the command's own family and
position (those that took under two seconds of CPU when recorded)."""

from __future__ import annotations

import csv
import datetime
import json
import subprocess
import sys

import pytest

from kayles.analysis.games.families import GameSource

import oracle
from conftest import ROOT, is_compiled

RECORDS = ROOT / "docs" / "records" / "families.csv"
OEIS = json.loads((ROOT / "tests" / "data" / "graph_games_oeis.json").read_text())
with RECORDS.open(newline="") as _file:
    ROWS = list(csv.DictReader(_file))


def test_every_row_says_how_it_was_made():
    assert ROWS, "no records"
    for row in ROWS:
        family, position = row["command"].split()[1:]
        assert row["command"] == f"benchmarks/family_records.py {family} {position}"
        assert (family, position) == (row["family"], row["position"])
        datetime.datetime.strptime(row["date"], "%Y-%m-%d %H:%M")
        assert row["machine"] and int(row["value"]) >= 0 and float(row["cpu_seconds"]) >= 0


def test_rows_inside_a_published_table_agree_with_it():
    """Node Kayles on the 3 x n grid: A316632 (its terms are a(1), a(2), ...)."""
    terms = OEIS["A316632"]["data"]
    for row in ROWS:
        if row["family"] == "node-kayles" and row["position"].startswith("grid:3x"):
            n = int(row["position"].removeprefix("grid:3x"))
            if n <= len(terms):
                assert int(row["value"]) == terms[n - 1], row


@pytest.mark.parametrize("row", [r for r in ROWS if float(r["cpu_seconds"]) < 2.0],
                         ids=lambda r: f"{r['family']}-{r['position']}")
def test_a_sample_is_derived_again(row):
    """Under the pure twins (make test-pure), only the rows of a few hundredths of a
    second: the rest would take minutes there (tests/kernels/ compares the twins)."""
    from kayles.kernels import chooser

    if not is_compiled(chooser.board_kernel) and float(row["cpu_seconds"]) > 0.05:
        return
    game = GameSource.parse(row["family"]).make()
    assert game.nimber(game.parse(row["position"])) == int(row["value"])


def test_the_command_appends_a_row_through_a_rename(tmp_path):
    out = tmp_path / "records.csv"
    command = [sys.executable, str(ROOT / "benchmarks" / "family_records.py"), "--out",
               str(out), "chomp"]
    for position in ("3x3", "4,4,2"):
        subprocess.run(command + [position], check=True, capture_output=True, timeout=600)
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["position"], int(r["value"])) for r in rows] == [
        ("3x3", oracle.chomp_value((3, 3, 3))), ("4,4,2", oracle.chomp_value((4, 4, 2)))]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.csv"]  # no temporary left
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    refused = subprocess.run(command[:3] + [str(other), "chomp", "3x3"], capture_output=True,
                             text=True, timeout=600)
    assert refused.returncode != 0 and "has columns" in refused.stderr
    assert other.read_text() == "a,b\n1,2\n"
