"""kayles census: its passes, its rows against brute force and Czajka's published tables,
its resumption, and the committed census of the 4-digit codes (docs/census/)."""

from __future__ import annotations

import csv
import io
import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from kayles.analysis.census import census_codes, passes
from kayles.analysis.survey import summarise

import oracle
from conftest import ROOT, in_process

pytestmark = pytest.mark.xdist_group("census")  # its module fixture is a census: once

CZAJKA = json.loads((ROOT / "tests" / "data" / "czajka_octal_tables.json").read_text())
# solutions published after (or beside) Czajka's tables: OEIS, from Flammenkamp's
PUBLISHED = json.loads((ROOT / "tests" / "data" / "published_octal.json").read_text())
COMMITTED = ROOT / "docs" / "census" / "census-4.csv"
INTEGER_COLUMNS = ("computed", "values", "largest", "largest_heap", "mask", "rare")


def read_census(text: str) -> tuple[list[str], list[dict]]:
    """(the '#' lines, the rows with their numbers as integers, '' as None)."""
    comments = [line for line in text.splitlines() if line.startswith("#")]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    rows = []
    for row in csv.DictReader(io.StringIO(body)):
        for key in (*INTEGER_COLUMNS, "preperiod", "period", "last_rare"):
            row[key] = int(row[key]) if row[key] != "" else None
        rows.append(row)
    return comments, rows


def test_the_codes_and_the_passes():
    assert [len(census_codes(k)) for k in (1, 2, 3, 4)] == [7, 63, 511, 4095]
    assert census_codes(2)[:8] == ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.01"]
    assert passes(1 << 16) == [1 << 16]
    assert passes(1 << 24) == [1 << 16, 1 << 20, 1 << 24]
    assert passes(3 << 16) == [1 << 16, 3 << 16]
    for bad in (lambda: census_codes(5), lambda: census_codes(0), lambda: passes(1000)):
        with pytest.raises(ValueError):
            bad()


def agrees_with_the_published_tables(rows: list[dict]) -> None:
    """Every solved code Czajka lists has his preperiod and period where the census solved
    it, and every one he lists as unsolved is open here (computed as far as it went), or
    solved as a later publication gives it (tests/data/published_octal.json)."""
    by_code = {row["code"]: row for row in rows}
    compared = 0
    for code, (preperiod, period) in CZAJKA["solved"].items():
        row = by_code.get(code)
        if row is not None and row["status"] == "solved":
            assert (row["preperiod"], row["period"]) == (preperiod, period), code
            compared += 1
    assert compared >= min(10, len(rows) // 8), "too few published codes to compare with"
    for code in CZAJKA["unsolved"]:
        if code in by_code and code not in PUBLISHED["codes"]:
            assert by_code[code]["status"] == "open", code
        elif code in by_code and by_code[code]["status"] == "solved":  # solved since: OEIS
            published = PUBLISHED["codes"][code]
            assert (by_code[code]["preperiod"], by_code[code]["period"]) == \
                (published["preperiod"], published["period"]), code


@pytest.fixture(scope="module")
def two_digits(tmp_path_factory):
    """(the database, the run) of a census of the 63 codes of two digits to 2**16."""
    db = tmp_path_factory.mktemp("census") / "c.sqlite"
    done = in_process("kayles", ["census", "--digits", "2", "--to", str(1 << 16), "--jobs", "1",
                                 "--db", db, "--csv"])
    return db, done


def test_a_census_of_two_digits(two_digits):
    """63 codes to 2**16: the rows against brute force (the first values' checksum of every
    short solved row) and against Czajka's tables."""
    db, done = two_digits
    assert done.returncode == 0, done.stderr
    comments, rows = read_census(done.stdout.decode())
    assert comments[0] == f"# kayles census --digits 2 --to {1 << 16}"
    assert [row["code"] for row in rows] == census_codes(2)
    for row in rows:
        if row["status"] == "solved" and row["values"] <= 2000:
            values = oracle.octal_nimbers(row["code"], row["values"] - 1)
            assert f"{oracle.fletcher32(values):08x}" == row["checksum"], row["code"]
            assert row["largest"] == max(values)
        assert row["computed"] == 1 << 16
    agrees_with_the_published_tables(rows)
    classes = {row["class"] for row in rows}
    assert {"0.3", "0.4"} <= classes and next(r for r in rows if r["code"] == "0.5")["class"] \
        == "0.3"   # 0.5 and 0.7: G = 0, 1, 0, 1, ... as 0.3
    summary = in_process("kayles", ["census", "--digits", "2", "--to", str(1 << 16), "--jobs",
                                    "1", "--db", db, "--summary"])
    assert "| 2 | 56 |" in summary.stdout.decode()


def test_the_progress_lines_name_their_pass(tmp_path, monkeypatch):
    """A line's time left is its pass's: each line says which pass of how many it is."""
    monkeypatch.setenv("KAYLES_PROGRESS_SECONDS", "0")
    done = in_process("kayles", ["census", "--digits", "1", "--to", str(1 << 20), "--jobs", "1",
                                 "--db", tmp_path / "c.sqlite", "--summary"])
    assert done.returncode == 0, done.stderr
    lines = done.stderr.decode().splitlines()
    assert lines and all(line.startswith("census pass ") for line in lines), lines[:3]
    assert lines[0].startswith("census pass 1 of 2, to 65,536: ")
    assert any(line.startswith("census pass 2 of 2, to 1,048,576: ") for line in lines)


def test_a_resumed_pass_counts_only_its_own_games_in_the_rate(monkeypatch, capsys):
    """The stored rows of a resumed pass count as done, not as work done now: the rate and
    the time left come from the games computed since (a clock of our own: no wall time)."""
    from types import SimpleNamespace

    from kayles.interface import progress

    clock = [0.0]
    monkeypatch.setattr(progress, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    monkeypatch.setenv("KAYLES_PROGRESS_SECONDS", "10")
    shown = progress.bar(1419, "census pass 3 of 3, to 16,777,216", "games")
    clock[0] = 1000.0   # reading the stored rows took long
    shown.resume(330)
    clock[0] = 1005.0
    shown.update(331)   # too soon for a line
    clock[0] = 1010.0
    shown.update(332)
    assert capsys.readouterr().err == ("census pass 3 of 3, to 16,777,216: 332 of 1,419 games "
                                       "(23%), 0.2 games/s, about 1 h 30 min left\n")


def test_a_census_resumes_from_its_database(tmp_path, monkeypatch):
    """A second census reads the first one's rows (none computed again, their seconds
    unchanged) and computes its new pass for the open codes with few rare heaps only (of
    one digit: 0.6).  Its progress lines are the new pass's: the stored rows are no work
    done now (before, they read "1 of 7 games ..., about 11 h left")."""
    db = tmp_path / "c.sqlite"
    first = in_process("kayles", ["census", "--digits", "1", "--to", str(1 << 16), "--jobs",
                                  "1", "--db", db, "--json"])
    monkeypatch.setenv("KAYLES_PROGRESS_SECONDS", "0")
    rows_before = sqlite3.connect(db).execute(
        "SELECT code, max, seconds FROM games ORDER BY code, max").fetchall()
    again = in_process("kayles", ["census", "--digits", "1", "--to", str(1 << 17), "--jobs",
                                  "1", "--db", db, "--json", "--plot", tmp_path / "c.png"])
    rows_after = sqlite3.connect(db).execute(
        "SELECT code, max, seconds FROM games ORDER BY code, max").fetchall()
    assert set(rows_before) <= set(rows_after)
    assert {code for code, limit, _ in rows_after if limit == 1 << 17} == {
        row["code"] for row in json.loads(first.stdout)
        if row["status"] == "open" and row["mask"] and row["rare"] * 16 <= row["values"]}
    lines = again.stderr.decode().splitlines()
    assert lines and all(line.startswith("census pass 2 of 2, to 131,072: ") for line in lines)
    again = {row["code"]: row for row in json.loads(again.stdout)}
    assert again["0.6"]["computed"] == 1 << 17 and again["0.1"]["computed"] == 1 << 16
    png = (tmp_path / "c.png").read_bytes()   # the picture: 1600x700 pixels
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[16:24] == (1600).to_bytes(4, "big") + (
        700).to_bytes(4, "big")


@pytest.mark.parametrize("args", [["--digits", "5"], ["--to", "1000"], ["--digits", "0"]])
def test_bad_census_options_are_one_line(args, tmp_path):
    done = in_process("kayles", ["census", *args, "--db", tmp_path / "c.sqlite"])
    assert done.returncode == 2 and done.stdout == b""
    assert len(done.stderr.decode().splitlines()) == 1


@pytest.fixture(scope="module")
def committed():
    return read_census(COMMITTED.read_text())


def test_the_committed_census_says_what_made_it(committed):
    comments, rows = committed
    assert comments[0].startswith("# kayles census --digits 4 --to ")
    assert comments[1].startswith("# kayles ") and " UTC, " in comments[1]
    assert [row["code"] for row in rows] == census_codes(4)


def test_the_committed_census_agrees_with_czajkas_tables(committed):
    agrees_with_the_published_tables(committed[1])


@pytest.mark.slow  # make test-slow (CI runs it)
def test_a_sample_of_the_committed_census_is_derived_again(committed):
    """Twelve rows drawn with a fixed seed among those cheap to recompute (at most 2**18
    values, each below 2**15: the 8 rows of 0.7246's class, values to 37,623, take 30 s
    each), computed again from the rules: the same row."""
    _, rows = committed
    cheap = [row for row in rows if row["computed"] <= 1 << 18 and row["values"] <= 1 << 18
             and row["largest"] < 1 << 15]
    for row in random.Random(2026).sample(cheap, 12):
        summary = summarise(row["code"], row["computed"])
        again = summary.row()
        for key in ("preperiod", "period", "values", "largest", "largest_heap", "mask", "rare",
                    "checksum"):
            assert again[key] == row[key], (row["code"], key)
        assert ("solved" if summary.proved else "open") == row["status"]


def test_the_committed_census_classes_share_their_first_values(committed):
    """Codes of one class have the same checksum where both rows describe the same values."""
    _, rows = committed
    by_code = {row["code"]: row for row in rows}
    place = {code: i for i, code in enumerate(census_codes(4))}
    for row in rows:
        first = by_code[row["class"]]
        assert place[first["code"]] <= place[row["code"]] and first["class"] == first["code"]
        if row["status"] == first["status"] == "solved":
            assert (row["preperiod"], row["period"]) == (first["preperiod"], first["period"])


def test_the_census_page_shows_the_committed_summary():
    page = (ROOT / "docs" / "census.md").read_text()
    assert Path(COMMITTED).name in page and "| digits | codes | solved | open | classes |" in page


def test_a_named_longer_run_and_the_stored_rows(tmp_path):
    """--further takes codes on past the passes (each row says how far); --stored prints
    what the database holds without computing anything, and says which pass is not done."""
    db = tmp_path / "c.sqlite"
    done = in_process("kayles", ["census", "--digits", "1", "--to", str(1 << 16), "--further",
                                 ".6,.4=2**17", "--jobs", "1", "--db", db, "--csv"])
    assert done.returncode == 0, done.stderr
    comments, rows = read_census(done.stdout.decode())
    assert comments[0] == f"# kayles census --digits 1 --to {1 << 16} --further 0.6,0.4={1 << 17}"
    by_code = {row["code"]: row for row in rows}
    assert by_code["0.6"]["computed"] == by_code["0.6"]["values"] == 1 << 17
    assert by_code["0.6"]["settled"] == f"open, computed to {1 << 17}"
    assert by_code["0.4"]["computed"] == 1 << 17 and by_code["0.3"]["computed"] == 1 << 16
    assert by_code["0.4"]["settled"] == f"proved at {by_code['0.4']['values']} values"
    before = sqlite3.connect(db).execute("SELECT * FROM games ORDER BY code, max").fetchall()
    stored = in_process("kayles", ["census", "--digits", "1", "--to", str(1 << 20), "--stored",
                                   "--further", ".6=2**17", "--further", ".4=2**17", "--db", db,
                                   "--csv"])
    assert stored.returncode == 0
    assert stored.stderr.decode() == ("kayles census: the pass to 1,048,576 values is not "
                                      "finished: 0 of its 1 code done\n")
    comments, again = read_census(stored.stdout.decode())
    assert "# the pass to 1,048,576 values is not finished: 0 of its 1 code done; each " \
        "code's row is the furthest the database holds" in comments
    assert again == rows
    after = sqlite3.connect(db).execute("SELECT * FROM games ORDER BY code, max").fetchall()
    assert after == before   # nothing computed, nothing written
    nothing = in_process("kayles", ["census", "--digits", "2", "--to", str(1 << 16), "--stored",
                                    "--db", db, "--csv"])
    assert nothing.returncode == 1 and nothing.stderr.decode().endswith(
        "kayles census: 56 codes have no row yet, 0.01, 0.02, 0.03, 0.04, 0.05, ...\n")


@pytest.mark.parametrize("args", [
    ["--further", ".12"], ["--further", ".6=100"], ["--further", ".1234=2**20"],
    ["--further", "0.6=2**70"], ["--further", "4.07=2**20"], ["--dense-to", "1000"],
    ["--stored", "--misere"], ["--further", ".6=2**17", "--misere", "4"],
    ["--further", ".6,0.6=2**17"], ["--further", ".6,=2**17"], ["--further", "=2**17"]])
def test_bad_further_runs_are_one_line(args, tmp_path):
    done = in_process("kayles", ["census", "--digits", "2", *args, "--db", tmp_path / "c.sqlite"])
    assert done.returncode == 2 and done.stdout == b""
    assert len(done.stderr.decode().splitlines()) == 1
    assert not (tmp_path / "c.sqlite").exists()


def test_the_published_codes_beyond_the_census_are_proved_as_published():
    """Czajka's solved codes 4 and 4.d1..dk (d0 = 4: a move may also split a heap in two
    without taking from it) lie outside the census's 0.d1..dk: each is proved here with his
    preperiod and period."""
    beyond = {code: published for code, published in CZAJKA["solved"].items()
              if not code.startswith("0.")}
    assert len(beyond) == 14
    for code, (preperiod, period) in beyond.items():
        summary = summarise(code, 1 << 16)
        assert summary.proved and (summary.preperiod, summary.period) == (preperiod, period), code


@pytest.mark.slow  # make test-slow (CI runs it)
def test_the_dense_frontier_goes_on_by_its_own_pass(tmp_path, two_digits):
    """--dense-to N: the codes the first pass left open that no mask makes sparse (they do
    not escalate) are computed to N; the open codes that escalate stay at --to, the solved
    ones as they were.  It runs on a copy of the first pass's database (two_digits's), as
    a user would add --dense-to to a finished census."""
    db = tmp_path / "c.sqlite"
    shutil.copyfile(two_digits[0], db)
    done = in_process("kayles", ["census", "--digits", "2", "--to", str(1 << 16), "--dense-to",
                                 "2**17", "--jobs", "1", "--db", db, "--csv"])
    assert done.returncode == 0, done.stderr
    comments, rows = read_census(done.stdout.decode())
    assert comments[0] == f"# kayles census --digits 2 --to {1 << 16} --dense-to {1 << 17}"
    dense = {row["code"] for row in rows if row["computed"] == 1 << 17}
    first = {row["code"]: row for row in rows if row["computed"] == 1 << 16}
    assert dense and {"0.04", "0.06"} <= dense
    for code in dense:   # open at the first pass, with no mask that leaves few heaps rare
        again = summarise(code, 1 << 16)
        assert not again.proved and (again.mask == 0 or again.rare * 16 > again.values), code
    assert any(row["status"] == "open" for row in first.values())   # 0.6: sparse, stays
    assert all(row["status"] == "solved" or row["mask"] and row["rare"] * 16 <= row["values"]
               for row in first.values())
