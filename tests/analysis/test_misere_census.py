"""The misère census (kayles census --misere) and the quotients past the reference solver:
rows against the brute-force oracle, their storage and resumption, the committed census
(docs/census/misere-4.csv) and the frontier quotients (tests/data/misere_frontier.json),
each derived again from a sample."""

from __future__ import annotations

import csv
import functools
import io
import itertools
import json
import random
import sqlite3

import pytest

from kayles.analysis.census import census_codes
from kayles.analysis.quotient import quotient
from kayles.engine.rules import parse_octal

import oracle
from conftest import ROOT, in_process, load_kernel

COMMITTED = ROOT / "docs" / "census" / "misere-4.csv"
FRONTIER = json.loads((ROOT / "tests" / "data" / "misere_frontier.json").read_text())
NUMBERS = ("heaps", "order", "p_size", "solved_at", "period", "preperiod")


def read(text: str) -> tuple[list[str], list[dict]]:
    """(the '#' lines, the rows with their numbers as integers, '' as None)."""
    comments = [line for line in text.splitlines() if line.startswith("#")]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    rows = list(csv.DictReader(io.StringIO(body)))
    for row in rows:
        for key in NUMBERS:
            row[key] = int(row[key]) if row[key] != "" else None
    return comments, rows


def census(tmp_path, *args: str):
    return in_process("kayles", ["census", *args, "--jobs", "1", "--db",
                                 tmp_path / "m.sqlite"])


def predicts_the_oracle(code: str, heaps: int, states: int, tokens: int = 16) -> None:
    """The quotient of a row gives the misère outcome of every position of up to three
    heaps and ``tokens`` tokens that the literal rules give (tests/oracle.py)."""
    q = quotient(parse_octal(code), heaps, states)
    splits = functools.cache(functools.partial(oracle.octal_splits, code))
    for count in (1, 2, 3):
        for position in itertools.combinations_with_replacement(range(1, heaps + 1), count):
            if sum(position) <= tokens:
                lost = oracle.heap_misere_value(splits, position) == 0
                assert q.outcome(list(position)) == ("P" if lost else "N"), (code, position)


def test_a_misere_census_of_two_digits_and_its_rerun(tmp_path):
    """63 codes to heap 12: each row is the quotient kayles.analysis.quotient proves (whose
    outcomes a sample checks against the oracle), stored; a rerun reads the rows back (not
    written again), an edited row (its signature fails) is computed again, never shown, and
    a damaged one is refused in one line."""
    args = ("--digits", "2", "--misere", "12", "--states", "50000", "--csv")
    done = census(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    comments, rows = read(done.stdout.decode())
    assert comments[0] == "# kayles census --digits 2 --misere 12 --states 50000"
    assert [row["code"] for row in rows] == census_codes(2)
    for row in rows:
        q = quotient(parse_octal(row["code"]), 12, 50000, as_far_as_it_goes=True)
        assert (row["heaps"], row["order"], row["p_size"], row["checksum"]) == (
            q.max_heap, q.order, q.p_size, q.checksum()[:16]), row
        assert row["status"] == ("solved" if q.solved else "short" if q.beyond else "done")
    assert {row["status"] for row in rows} >= {"solved", "done"}
    for row in random.Random(2026).sample([r for r in rows if r["heaps"] >= 8], 6):
        predicts_the_oracle(row["code"], min(row["heaps"], 10), 50000)
    with sqlite3.connect(tmp_path / "m.sqlite") as con:
        assert con.execute("SELECT COUNT(*) FROM quotients").fetchone()[0] == 63
        written = dict(con.execute("SELECT code, updated FROM quotients"))
        con.execute("UPDATE quotients SET quotient_order = 7777 WHERE code = '0.07'")
    again = read(census(tmp_path, *args).stdout.decode())[1]
    assert again == rows
    with sqlite3.connect(tmp_path / "m.sqlite") as con:
        rewritten = dict(con.execute("SELECT code, updated FROM quotients"))
    assert {code for code in written if rewritten[code] != written[code]} == {"0.07"}
    with sqlite3.connect(tmp_path / "m.sqlite") as con:
        con.execute("UPDATE quotients SET heaps = -3 WHERE code = '0.07'")
    refused = census(tmp_path, *args)
    assert refused.returncode == 2 and refused.stdout == b""
    assert refused.stderr.decode().count("\n") == 1
    assert "the quotient row of 0.07 (heap 12) is damaged or was edited" in \
        refused.stderr.decode()


def test_the_misere_summary_counts_the_rows(tmp_path):
    done = census(tmp_path, "--digits", "1", "--misere", "10", "--summary")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0].startswith("| digits | codes | solved |")
    solved, proved, short = (int(cell) for cell in lines[2].split("|")[3:6])
    assert lines[2].startswith("| 1 | 7 |") and solved + proved + short == 7


@pytest.mark.parametrize("args, says", [
    (["--digits", "2", "--misere", "0"], "--misere HEAP must be"),
    (["--digits", "2", "--misere", "10", "--states", "0"], "--states must be at least 1"),
    (["--digits", "2", "--states", "10"], "--states goes with --misere"),
    (["--digits", "2", "--misere", "10", "--plot", "x.png"], "--plot draws the normal-play"),
])
def test_bad_misere_census_options_are_one_line(args, says, tmp_path):
    done = census(tmp_path, *args)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1 and says in done.stderr.decode()


@pytest.fixture(scope="module")
def committed():
    return read(COMMITTED.read_text())


def test_the_committed_misere_census_says_what_made_it(committed):
    comments, rows = committed
    assert comments[0].startswith("# kayles census --digits 4 --misere 30 --states ")
    assert "cython core" in comments[1] and "UTC" in comments[1]
    assert [row["code"] for row in rows] == census_codes(4)
    assert all(row["status"] in ("solved", "done", "short") for row in rows)
    assert all((row["status"] == "short") == bool(row["stopped_by"]) for row in rows)


def test_the_committed_misere_census_has_the_published_quotients(committed):
    """Plambeck and Siegel: Kayles (0.77) has order 40 and |P| 9 at heap 30 (solved
    only at heap 166, past the census), 0.75 is R8 (order 8, |P| 2, solved), 0.31 the tame
    T2 (order 6, |P| 2, solved); Dawson's Kayles (0.07) to heap 30 has order 360 and |P|
    65 (MisereSolver)."""
    by_code = {row["code"]: row for row in committed[1]}
    assert (by_code["0.77"]["order"], by_code["0.77"]["p_size"], by_code["0.77"]["status"]) \
        == (40, 9, "done")
    assert (by_code["0.75"]["order"], by_code["0.75"]["p_size"], by_code["0.75"]["status"]) \
        == (8, 2, "solved")
    assert (by_code["0.31"]["order"], by_code["0.31"]["p_size"], by_code["0.31"]["status"]) \
        == (6, 2, "solved")
    assert (by_code["0.07"]["heaps"], by_code["0.07"]["order"],
            by_code["0.07"]["p_size"]) == (30, 360, 65)


def test_a_sample_of_the_committed_misere_census_is_derived_again(committed):
    """Twelve rows drawn with a fixed seed (cheap ones: order at most 2000), computed again
    under the census's own --states: the same heaps, order, |P| and checksum."""
    comments, rows = committed
    states = int(comments[0].split("--states ")[1])
    cheap = [row for row in rows if row["order"] <= 2000]
    for row in random.Random(37).sample(cheap, 12):
        q = quotient(parse_octal(row["code"]), row["heaps"], states,
                     kernel=load_kernel("cython", "quotient"))
        assert (q.order, q.p_size, q.checksum()[:16]) == (row["order"], row["p_size"],
                                                         row["checksum"]), row["code"]


def test_the_frontier_quotients_say_what_made_them():
    assert {"command", "date", "machine"} <= set(FRONTIER)
    for entry in FRONTIER["quotients"]:
        assert set(entry) >= {"code", "heap", "order", "p_size", "checksum", "seconds",
                              "presentation", "p_portion"}


@pytest.mark.slow  # make test-slow (CI runs it)
@pytest.mark.parametrize("entry", [e for e in FRONTIER["quotients"] if e["seconds"] < 10],
                         ids=lambda e: f"{e['code']}@{e['heap']}")
def test_the_frontier_quotients_are_derived_again(entry):
    """Those of the kept quotients that take seconds (the rest: benchmarks/quotient.py
    --frontier): the same presentation, P-portion and checksum."""
    q = quotient(parse_octal(entry["code"]), entry["heap"],
                 kernel=load_kernel("cython", "quotient"))
    assert (q.order, q.p_size, q.presentation(), q.p_words(), q.checksum()) == (
        entry["order"], entry["p_size"], entry["presentation"], entry["p_portion"],
        entry["checksum"])


def test_the_census_page_shows_the_committed_misere_summary(committed):
    from kayles.analysis.census import misere_markdown

    page = (ROOT / "docs" / "census.md").read_text()
    assert "census/misere-4.csv" in page and misere_markdown(committed[1]) in page


def test_a_foreign_quotients_table_is_refused(tmp_path):
    """The database is input that may be hostile: a quotients table kayles did not make
    (other columns) is refused in one line before anything is computed or printed."""
    with sqlite3.connect(tmp_path / "m.sqlite") as con:
        con.execute("CREATE TABLE quotients (code TEXT, max_heap INTEGER, evil TEXT)")
    done = census(tmp_path, "--digits", "1", "--misere", "10")
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1
    assert "its quotients table has other columns" in done.stderr.decode()
