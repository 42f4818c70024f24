"""What a take-and-break table will cost (kayles.kernels.cost) against what the compiled
kernel really takes, and the progress lines' time left from the work's measured growth."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kayles.engine.codes import get_game
from kayles.engine.rules import encode_takebreak
from kayles.interface import progress
from kayles.kernels.cost import bytes_needed, largest_fitting, predicted_largest, row_sets

from conftest import ROOT

MEASURE = r"""
import json, sys
from kayles.kernels import _takebreak
from kayles.engine.codes import get_game
from kayles.engine.rules import encode_takebreak

def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS"))

count = int(sys.argv[2])
rules = encode_takebreak(get_game(sys.argv[1]))
table = memoryview(bytearray(2 * count)).cast("H")
scratch = _takebreak.Scratch()
before = rss()
_takebreak.extend(table, 0, count, rules, scratch)
print(json.dumps({"grown": rss() - before, "largest": max(table)}))
"""


@pytest.mark.parametrize("code, sets", [("0.3F", 2), ("0.C9", 2), ("0.{2+}", 4), ("0.[3]", 3)])
def test_the_row_sets_are_the_kernels(code, sets):
    """Pairs and three parts; pairs and the sets of every split (P, Q2, Q3); a tail's pairs
    with its running unions of one part and of pairs."""
    assert row_sets(encode_takebreak(get_game(code))) == sets


@pytest.mark.parametrize("code, count", [("0.3F", 8192), ("0.F6", 4096)])
def test_the_memory_foreseen_covers_what_the_kernel_takes(code, count):
    """The compiled kernel's resident memory grown by a run, against the model's bytes for
    it: never more, and at most twice as much (the model counts a growth's copy)."""
    out = subprocess.run([sys.executable, "-c", MEASURE, code, str(count)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    measured = json.loads(out)
    foreseen = bytes_needed(encode_takebreak(get_game(code)), measured["largest"], count, count)
    assert measured["grown"] <= foreseen <= 2 * measured["grown"], (measured, foreseen)


def test_growth_and_the_most_that_fits():
    """Values grow in proportion to the heaps; the most values that fit stop below 2**16
    values, or where the memory ends."""
    assert predicted_largest(2048, 4096, 4096) == 2048
    assert predicted_largest(2048, 4096, 8192) == 4096
    rules = encode_takebreak(get_game("0.3F"))
    assert largest_fitting(rules, 2048, 4096, 1 << 40) == 131070  # G(n) near n / 2
    most = largest_fitting(rules, 2048, 4096, 1 << 30)
    assert bytes_needed(rules, 2048, 4096, most) <= 1 << 30 < bytes_needed(rules, 2048, 4096,
                                                                           most + 1)


@pytest.mark.parametrize("exponent", [1, 2, 3])
def test_the_time_left_follows_the_measured_growth(exponent):
    """Work whose time to n grows as n**e (samples as a run gives them, no clock read):
    the time left is the rest of that curve, not the work left at the rate so far."""
    lines = progress._Lines(1000, "test", "values")
    for done in range(10, 501, 10):
        lines.samples.append((done, (done / 100) ** exponent))
    elapsed = 5.0 ** exponent
    assert lines.growth(500, elapsed) == pytest.approx(exponent)
    assert lines.left(500, elapsed) == pytest.approx(10.0 ** exponent - elapsed)
