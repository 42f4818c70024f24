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
