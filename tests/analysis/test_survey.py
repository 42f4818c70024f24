"""``kayles survey`` (issue 9): summaries, the rare mask, the SQLite store, executors.

Expected values come from tests/oracle.py (brute force from the rules), from
brute-force definitions written here (every mask tried, Fletcher-32 from its
definition), or from the published literature; never from the package.  Every
database is a real SQLite file in a temporary directory; concurrency and
interruption are tested with real processes, Dask with a real local cluster.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import zlib
from array import array
from pathlib import Path

import pytest

from kayles.analysis.survey import codes_with_digits, equivalence_classes, summarise
from kayles.kernels.chooser import IMPLEMENTATION

import oracle
from conftest import (
    ROOT,
    assert_io_failure,
    assert_usage_error,
    dashboard_port_taken,
    on_a_terminal,
)

TIMEOUT = 120


def survey(*args, db, check=True) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "kayles", "survey", *args, "--db", str(db)],
                            capture_output=True, cwd=ROOT,
                            timeout=TIMEOUT)
    if check:
        err = result.stderr.decode()
        assert (result.returncode, err) == (0, ""), err
    return result


def survey_json(*args, db) -> list[dict]:
    return json.loads(survey(*args, "--json", db=db).stdout)


def rows(db) -> dict[str, tuple]:
    with sqlite3.connect(db) as connection:
        found = connection.execute("SELECT code, status, owner, updated FROM games").fetchall()
    return {code: (status, owner, updated) for code, status, owner, updated in found}


# -- brute-force references ------------------------------------------------------------------


def fletcher32_by_definition(values: list[int]) -> str:
    return f"{oracle.fletcher32(values):08x}"


def smallest_period(values: list[int], start: int) -> int:
    """The least p with values[n + p] == values[n] for every n >= start in the list."""
    return next(p for p in range(1, len(values))
                if all(values[n] == values[n + p] for n in range(start, len(values) - p)))


# -- which codes -----------------------------------------------------------------------------


@pytest.mark.parametrize(("digits", "first"), [(1, "0"), (2, "0"), (3, "0"), (2, "4")])
def test_codes_with_digits_lists_every_code_ending_in_a_non_zero_digit(digits, first):
    codes = codes_with_digits(digits, first)
    assert len(codes) == len(set(codes)) == 8 ** (digits - 1) * 7
    assert all(c.startswith(first + ".") and len(c) == digits + 2 and c[-1] != "0"
               and set(c[2:]) <= set("01234567") for c in codes)


# -- one game's summary against the oracle ---------------------------------------------------

SMALL_CODES = [*codes_with_digits(2), *codes_with_digits(1, "4"), "0.137", "0.161", "4.07",
               "0.007"]


@pytest.mark.parametrize("code", SMALL_CODES)
def test_summary_matches_the_oracle(code):
    limit = 120
    summary = summarise(code, limit)
    reference = oracle.octal_nimbers(code, max(summary.values, limit) + 60)
    used = reference[: summary.values]
    known = len(reference) if summary.proved else summary.values
    assert summary.first(known) == reference[:known]  # a proved head continues the sequence
    if summary.proved:
        n0, p = summary.preperiod, summary.period
        assert p == smallest_period(reference, n0)
        assert n0 == 0 or reference[n0 - 1] != reference[n0 - 1 + p]
        assert summary.values <= limit
    else:
        assert summary.values == limit
    assert summary.largest == max(used) and summary.largest_heap == used.index(max(used))
    split_parity = oracle.split_parity_of_code(code)
    assert (summary.mask, summary.rare) == oracle.fewest_rare_by_trial(used, (), split_parity)
    with_parity = summary.mask >> 16   # the heap's parity counts too
    rare_heaps = [n for n, v in enumerate(used)
                  if (bin(v & summary.mask).count("1") + with_parity * (n ^ split_parity)) % 2
                  == 0]
    assert summary.last_rare == (rare_heaps or [None])[-1] and summary.rare == len(rare_heaps)
    assert summary.row()["checksum"] == fletcher32_by_definition(used)


def provable_within(values: list[int], t: int) -> bool:
    """The octal periodicity theorem on the first len(values) values: is there a period
    p and preperiod n0 with values[n + p] == values[n] for n0 <= n < L - p and
    L >= max(2 * max(n0, 1) + 2p + t - 1, p + t + 1)?  (For each p the least n0 is best.)"""
    size = len(values)
    for p in range(1, size):
        n0 = size - p
        while n0 > 0 and values[n0 - 1] == values[n0 - 1 + p]:
            n0 -= 1
        if size >= max(2 * max(n0, 1) + 2 * p + t - 1, p + t + 1):
            return True
    return False


@pytest.mark.parametrize("limit", [20, 40, 63, 100])
def test_a_period_is_proved_exactly_when_the_limit_allows(limit):
    # Limits below and between the sequence's checkpoints (64, 128, ...) included.
    for code in codes_with_digits(2):
        values = oracle.octal_nimbers(code, limit - 1)
        assert summarise(code, limit).proved == provable_within(values, len(code) - 2), code


def test_summary_of_kayles_xox_respects_its_pattern_constant():
    summary = summarise("kayles-xox", 200)
    values = oracle.xox_nimbers_by_sum(199)
    assert summary.first(200) == values
    assert (summary.mask, summary.rare) == oracle.fewest_rare_by_trial(values, [values[1]], 1)


# (code, period, preperiod): published (Winning Ways; Berlekamp, Conway and Guy).
PUBLISHED = [("0.77", 12, 71), ("0.07", 34, 53), ("0.137", 34, 52)]


def test_survey_proves_the_published_periods(tmp_path):
    db = tmp_path / "s.sqlite"
    found = survey_json(*[code for code, _, _ in PUBLISHED], "--max", "5000", db=db)
    assert [(r["code"], r["status"], r["period"], r["preperiod"]) for r in found] == [
        (code, "solved", period, preperiod) for code, period, preperiod in PUBLISHED]


# -- equivalence classes and the published table facts ---------------------------------------


def test_161_and_36_first_differ_at_heap_519(tmp_path):
    # Published: older tables merged .161 and .36; they first differ at heap 519.
    a, b = oracle.octal_nimbers("0.161", 520), oracle.octal_nimbers("0.36", 520)
    assert a[:519] == b[:519] and a[519] != b[519]
    db = tmp_path / "s.sqlite"
    assert [c["codes"] for c in survey_json(".161", ".36", "--max", "600", "--equivalent",
                                            "519", db=db)] == [["0.161", "0.36"]]
    assert [c["codes"] for c in survey_json(".161", ".36", "--max", "600", "--equivalent",
                                            "520", db=db)] == [["0.161"], ["0.36"]]


def test_27_equals_26_not_06(tmp_path):
    # Published correction: .27 has the nim-sequence of .26, not of .06.  The oracle agrees.
    s27, s26, s06 = (oracle.octal_nimbers(c, 400) for c in ("0.27", "0.26", "0.06"))
    assert s27 == s26 and s27 != s06
    db = tmp_path / "s.sqlite"
    zeros = next(n for n, v in enumerate(s27) if v)
    for extra, skip in (([], 0), (["--drop-zeros"], zeros)):
        classes = survey_json(".27", ".06", ".26", "--max", "2000", "--equivalent", "1000",
                              *extra, db=db)
        assert [c["codes"] for c in classes] == [["0.27", "0.26"], ["0.06"]]
        assert classes[0]["values"] == s27[skip: skip + 16]


def test_drop_zeros_matches_dawsons_kayles_with_dawsons_chess():
    # G_0.07(n + 1) == G_0.137(n): the oracle says so, dropping the leading zeros finds it.
    s07, s137 = oracle.octal_nimbers("0.07", 301), oracle.octal_nimbers("0.137", 300)
    assert s07[1:] == s137 and s07[:2] == [0, 0] and s137[:2] == [0, 1]
    summaries = [summarise(c, 400) for c in ("0.07", "0.137", "0.77")]
    assert [[s.code for s in group] for group in equivalence_classes(summaries, 300)] == [
        ["0.07"], ["0.137"], ["0.77"]]
    assert [[s.code for s in group] for group in equivalence_classes(summaries, 300, True)] == [
        ["0.07", "0.137"], ["0.77"]]


# -- the command: formats, bad codes, usage errors -------------------------------------------


def test_formats_agree(tmp_path):
    db = tmp_path / "s.sqlite"
    codes = ["0.77", ".07", "0.6"]
    as_json = survey_json(*codes, "--max", "3000", db=db)
    assert [r["code"] for r in as_json] == ["0.77", "0.07", "0.6"]
    table = survey(*codes, "--max", "3000", db=db).stdout.decode().splitlines()
    assert table[0].split()[:3] == ["code", "status", "computed"]
    assert [line.split()[0] for line in table[1:]] == ["0.77", "0.07", "0.6"]
    assert len({len(line) for line in table}) <= 2  # aligned (only trailing blanks stripped)
    parsed = list(csv.DictReader(io.StringIO(survey(*codes, "--max", "3000", "--csv",
                                                    db=db).stdout.decode())))
    assert [(r["code"], r["status"], r["period"], r["checksum"]) for r in parsed] == [
        (r["code"], r["status"], "" if r["period"] is None else str(r["period"]),
         r["checksum"]) for r in as_json]
    assert as_json[2]["status"] == "open" and as_json[0]["status"] == "solved"
    markdown = survey(*codes, "--max", "3000", "--markdown", db=db).stdout.decode().splitlines()
    assert markdown[0].startswith("| code |") and markdown[1].startswith("|---|")
    assert len(markdown) == 2 + len(codes)


def test_survey_and_census_tables_speak_one_vocabulary(tmp_path):
    """Issue 53: the survey said max and proved (true/false) where the census says computed
    and status (solved/open), and wrote mask 0 and rare 0 for a hexadecimal code (no rare
    mask) with --misere where the census leaves them blank.  The survey's CSV header is the
    census's (as committed in docs/census/) up to the census's own columns, in its order."""
    db = tmp_path / "s.sqlite"
    for codes, census in ((["0.77", "0.6"], "census-4.csv"), (["0.8", "0.6"], "hex-3.csv")):
        lines = survey(*codes, "--to", "2000", "--csv", db=db).stdout.decode().splitlines()
        published = (ROOT / "docs" / "census" / census).read_text().splitlines()
        header = next(line for line in published if not line.startswith("#"))
        assert header.startswith(lines[0] + ",class,settled"), (lines[0], header)
        assert [(r["status"], r["computed"]) for r in csv.DictReader(lines)] == [
            ("solved", "2000"), ("open", "2000")]
    (hexadecimal,) = survey_json("0.8", "--to", "2000", "--misere", "2", db=db)
    assert (hexadecimal["saltus"], hexadecimal["mask"], hexadecimal["rare"]) == (1, None, None)


def test_misere_adds_each_codes_quotient(tmp_path):
    """--misere: the quotient of each code as kayles.analysis.quotient finds it (its own tests check
    it against the oracle), in every form; past the search, the heaps it proved and why it
    stopped, never a guess.  Each is stored, and a rerun reads it back."""
    from kayles.analysis.quotient import quotient
    from kayles.engine.codes import get_game

    db = tmp_path / "s.sqlite"
    codes = ["0.77", "0.75", "0.07", "0.6"]
    bound = ("--misere", "20", "--budget", "200000")  # 0.6 at heap 17 needs more states
    found = survey_json(*codes, "--max", "3000", *bound, "--jobs", "2", db=db)
    assert [r["code"] for r in found] == codes
    for row in found[:3]:
        q = quotient(get_game(row["code"]), 20)
        solved = q.solved and dict(zip(("at_heap", "period", "preperiod"), q.solved))
        assert row["misere"] == {"max_heap": 20, "heaps": 20, "order": q.order,
                                 "p_size": q.p_size, "solved": solved,
                                 "checksum": q.checksum(), "error": None}
    assert found[1]["misere"]["solved"] == {"at_heap": 20, "period": 2, "preperiod": 8}
    beyond = found[3]["misere"]
    q = quotient(get_game("0.6"), 16)
    assert (beyond["heaps"], beyond["order"], beyond["p_size"], beyond["solved"]) == (
        16, q.order, q.p_size, None)
    assert "0.6 on heaps up to 17 is beyond this search (more than 200000 states" in \
        beyond["error"]
    table = survey(*codes, "--max", "3000", *bound, db=db).stdout.decode()
    lines = table.splitlines()
    assert lines[0].endswith("misere heaps  misere order  misere p  misere solved")
    assert lines[2].split()[-4:] == ["20", "8", "2", "20"]
    assert lines[4].split()[-4:] == ["16", str(q.order), str(q.p_size), "-"]
    parsed = list(csv.DictReader(io.StringIO(survey(*codes, "--max", "3000", *bound, "--csv",
                                                    db=db).stdout.decode())))
    assert [(r["misere_heaps"], r["misere_order"], r["misere_p"], r["misere_solved"])
            for r in parsed] == [
        ("20", str(found[0]["misere"]["order"]), str(found[0]["misere"]["p_size"]), ""),
        ("20", "8", "2", "20"),
        ("20", str(found[2]["misere"]["order"]), str(found[2]["misere"]["p_size"]), ""),
        ("16", str(q.order), str(q.p_size), "")]
    small = survey_json("0.77", "--max", "3000", "--misere", "30", "--budget", "5", db=db)
    assert "more than 5 states" in small[0]["misere"]["error"]


def test_misere_rows_are_stored_proved_and_read_back(tmp_path):
    """A rerun reads each stored quotient row instead of computing it (its time of writing
    unchanged); a row edited in the file (its signature fails) is computed again, the edit
    never shown; a row short of its heap is computed again under a larger budget only; a
    damaged row is refused in one line."""
    import sqlite3

    db = tmp_path / "s.sqlite"
    first = survey_json("0.77", "0.07", "--max", "3000", "--misere", "20", db=db)
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT code, max_heap, heaps, quotient_order, states, error "
                           "FROM quotients ORDER BY code").fetchall()
        assert [r[:5] for r in rows] == [
            ("0.07", 20, 20, first[1]["misere"]["order"], 1 << 21),
            ("0.77", 20, 20, first[0]["misere"]["order"], 1 << 21)]
        written = dict(con.execute("SELECT code, updated FROM quotients"))
        con.execute("UPDATE quotients SET p_size = 1 WHERE code = '0.07'")
    again = survey("0.77", "0.07", "--max", "3000", "--misere", "20", "--json", db=db,
                   check=False)
    assert (again.returncode, json.loads(again.stdout)) == (0, first)
    said = again.stderr.decode()  # one line: the edited row, computed again
    assert said.count("\n") == 1 and f"{db}: 1 misère quotient row not signed with this " \
        "user's key is computed again" in said, said
    with sqlite3.connect(db) as con:
        rewritten = dict(con.execute("SELECT code, updated FROM quotients"))
        assert con.execute("SELECT p_size FROM quotients WHERE code = '0.07'").fetchone() == (
            first[1]["misere"]["p_size"],)
    assert rewritten["0.77"] == written["0.77"] and rewritten["0.07"] > written["0.07"]
    short = survey_json("0.77", "--max", "3000", "--misere", "30", "--budget", "5", db=db)
    assert short[0]["misere"]["error"] and short[0]["misere"]["heaps"] < 30
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT heaps, states FROM quotients WHERE max_heap = 30"
                           ).fetchone() == (short[0]["misere"]["heaps"], 5)
    whole = survey_json("0.77", "--max", "3000", "--misere", "30", db=db)
    assert whole[0]["misere"]["error"] is None and whole[0]["misere"]["heaps"] == 30
    with sqlite3.connect(db) as con:
        con.execute("UPDATE quotients SET checksum = 'not hex' WHERE code = '0.77'")
    result = survey("0.77", "--max", "3000", "--misere", "20", db=db, check=False)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().count("\n") == 1
    assert "the quotient row of 0.77 (heap 20) is damaged or was edited" in \
        result.stderr.decode()


def test_bad_codes_are_reported_one_per_line_and_the_rest_runs(tmp_path):
    db = tmp_path / "s.sqlite"
    result = survey("0.77", "0.W", "x.1", "0.07", "--max", "500", "--json", db=db, check=False)
    assert result.returncode == 1
    err = result.stderr.decode().splitlines()
    assert len(err) == 2 and "'0.W'" in err[0] and "'x.1'" in err[1]
    assert all(line.startswith("kayles survey: ") for line in err)
    assert [r["code"] for r in json.loads(result.stdout)] == ["0.77", "0.07"]


USAGE_ERRORS = {
    "nothing": [],
    "codes-and-digits": ["0.77", "--digits", "2"],
    "first-without-digits": ["0.77", "--first", "4"],
    "first-bad": ["--digits", "1", "--first", "2"],
    "digits-zero": ["--digits", "0"],
    "jobs-zero": ["0.77", "--jobs", "0"],
    "jobs-and-dask": ["0.77", "--jobs", "2", "--dask", "tcp://127.0.0.1:1"],
    "max-zero": ["0.77", "--max", "0"],
    "equivalent-past-max": ["0.77", "--max", "10", "--equivalent", "11"],
    "drop-zeros-alone": ["0.77", "--drop-zeros"],
    "two-formats": ["0.77", "--json", "--csv"],
    "misere-zero": ["0.77", "--misere", "0"],
    "misere-past-the-largest": ["0.77", "--misere", "100001"],
    "misere-and-equivalent": ["0.77", "--misere", "--equivalent"],
    "budget-alone": ["0.77", "--budget", "10"],
    "budget-zero": ["0.77", "--misere", "--budget", "0"],
}


@pytest.mark.parametrize("args", list(USAGE_ERRORS.values()), ids=list(USAGE_ERRORS))
def test_usage_errors(args, tmp_path):
    assert_usage_error(survey(*args, db=tmp_path / "s.sqlite", check=False))


def test_a_file_that_is_not_a_database_is_a_usage_error(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all, " * 100)
    assert_usage_error(survey("0.77", db=junk, check=False))
    missing = tmp_path / "no" / "such" / "dir.sqlite"  # the system's refusal: status 1
    assert_io_failure(survey("0.77", db=missing, check=False), missing)


@pytest.mark.slow  # make test-slow (CI runs it)
def test_unreachable_dask_scheduler_is_one_line(tmp_path):
    result = survey("0.77", "--dask", "tcp://127.0.0.1:9", db=tmp_path / "s.sqlite",
                    check=False)
    assert_usage_error(result)
    assert b"Dask scheduler" in result.stderr


def test_dask_missing_names_the_extra(tmp_path):
    code = ("import sys; sys.modules['distributed'] = None; "
            "from kayles.interface.kayles_cli import main; "
            f"sys.exit(main(['survey', '0.77', '--dask', 'tcp://x:1', '--db', "
            f"{str(tmp_path / 's.sqlite')!r}]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT,
                            timeout=TIMEOUT)
    assert_usage_error(result)
    assert b"kayles[dask]" in result.stderr


# -- the store: resume, interruption, two surveys at once ------------------------------------


def test_rerun_skips_finished_rows(tmp_path):
    db = tmp_path / "s.sqlite"
    first = survey("--digits", "1", "--max", "300", db=db).stdout
    before = rows(db)
    assert set(before) == set(codes_with_digits(1))
    assert {status for status, _, _ in before.values()} == {"done"}
    again = survey("--digits", "1", "--max", "300", db=db).stdout
    assert again == first and rows(db) == before  # not one row was written again
    survey("0.77", "--max", "301", db=db)  # another max is another row
    assert len(rows(db)) == len(before) + 1


# Codes that take a second or so each (no period is proved within SLOW_MAX values, about
# as slow on either core), so a survey of them can be caught half way.
SLOW = ["0.06", "0.76", "0.64", "0.14"]
SLOW_MAX = "5000" if IMPLEMENTATION == "python" else "50000"


def start_survey(db, *args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kayles", "survey", *args, "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)


def wait_for_done_rows(db, count: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            try:
                done = [s for s, _, _ in rows(db).values() if s == "done"]
            except sqlite3.DatabaseError:  # the file or its table is not created yet
                done = []
            if len(done) >= count:
                return
        time.sleep(0.05)
    raise AssertionError("the survey finished or stalled before it could be interrupted")


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL],
                         ids=["ctrl-c", "term", "kill"])
def test_an_interrupted_survey_loses_nothing_finished(tmp_path, how):
    db = tmp_path / "s.sqlite"
    proc = start_survey(db, "0.77", "0.07", *SLOW, "--max", SLOW_MAX, "--jobs", "2")
    try:
        wait_for_done_rows(db, 2, proc)
        proc.send_signal(how)
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143,
                               signal.SIGKILL: -signal.SIGKILL}[how], err
    assert b"Traceback" not in err
    stopped = rows(db)
    finished = {c: r for c, r in stopped.items() if r[0] == "done"}
    assert {"0.77", "0.07"} <= set(finished) and len(finished) < 2 + len(SLOW)
    unfinished = {r[0] for c, r in stopped.items() if c not in finished}
    assert unfinished <= ({"running"} if how == signal.SIGKILL else {"stopped"})
    # The rerun keeps every finished row as it was and completes the rest.
    result = survey("0.77", "0.07", *SLOW, "--max", SLOW_MAX, "--json", "--jobs", "2", db=db)
    after = rows(db)
    assert all(after[c] == r for c, r in finished.items())
    assert {s for s, _, _ in after.values()} == {"done"}
    assert [r["code"] for r in json.loads(result.stdout)] == ["0.77", "0.07", *SLOW]


def test_two_surveys_at_once_share_one_database(tmp_path):
    db = tmp_path / "s.sqlite"
    args = ["--digits", "2", "--max", "1000", "--jobs", "1", "--csv"]
    procs = [start_survey(db, *args) for _ in range(2)]
    outputs = [proc.communicate(timeout=TIMEOUT) for proc in procs]
    for proc, (_, err) in zip(procs, outputs):
        assert (proc.returncode, err) == (0, b"")
    assert outputs[0][0] == outputs[1][0]
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    found = rows(db)
    assert set(found) == set(codes_with_digits(2))
    assert {status for status, _, _ in found.values()} == {"done"}
    # A third run on the same database reads the same table without computing anything.
    assert survey(*args, db=db).stdout == outputs[0][0] and rows(db) == found


# -- Dask --------------------------------------------------------------------------------------


@pytest.mark.slow  # make test-slow (CI runs it)
def test_dask_local_cluster_gives_the_same_table(tmp_path):
    distributed = pytest.importorskip("distributed")
    codes = ["0.77", "0.07", "0.137", "0.6", "0.16", "4.07"]
    expected = survey(*codes, "--max", "3000", "--jobs", "1", "--csv",
                      db=tmp_path / "local.sqlite").stdout
    quotients = survey(*codes, "--max", "3000", "--jobs", "1", "--misere", "12", "--csv",
                       db=tmp_path / "local.sqlite").stdout
    with dashboard_port_taken(), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True,
            dashboard_address=":0") as cluster:  # any free port: 8787 is taken
        result = survey(*codes, "--max", "3000", "--csv", "--dask", cluster.scheduler_address,
                        db=tmp_path / "dask.sqlite")
        with_quotients = survey(*codes, "--max", "3000", "--misere", "12", "--csv", "--dask",
                                cluster.scheduler_address, db=tmp_path / "dask.sqlite")
    assert result.stdout == expected
    assert with_quotients.stdout == quotients and b",beyond," not in quotients
    assert {status for status, _, _ in rows(tmp_path / "dask.sqlite").values()} == {"done"}


def test_default_database_lives_in_the_cache_directory(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-m", "kayles", "survey", "0.77", "--max", "200"],
                            capture_output=True, cwd=ROOT, env=env, timeout=TIMEOUT)
    assert (result.returncode, result.stderr) == (0, b"")
    assert set(rows(tmp_path / "cache" / "kayles" / "survey.sqlite")) == {"0.77"}


def test_progress_on_a_terminal_stays_off_stdout(tmp_path):
    pytest.importorskip("tqdm")
    expected = survey("0.77", "0.07", "--max", "500", db=tmp_path / "a.sqlite").stdout
    status, stdout, terminal = on_a_terminal(
        [sys.executable, "-m", "kayles", "survey", "0.77", "0.07", "--max", "500", "--db",
         str(tmp_path / "b.sqlite")], rows_columns=(24, 80))
    assert status == 0 and stdout == expected
    assert b"Traceback" not in terminal and b"survey" in terminal  # tqdm's bar was there


# -- a database is input that may be hostile (issue 21) ------------------------------------------


def surveyed(tmp_path, *codes: str) -> Path:
    """A database in which ``codes`` are done at --max 300."""
    db = tmp_path / "s.sqlite"
    survey(*codes, "--max", "300", "--jobs", "1", "--json", db=db)
    return db


def edit(db, *statements: str, params=()) -> None:
    with sqlite3.connect(db) as connection:
        for statement in statements:
            connection.execute(statement, params)


FOREIGN_SCHEMAS = {
    "view": ("CREATE VIEW everything AS SELECT * FROM games", "that kayles does not make"),
    "trigger": ("CREATE TRIGGER stop BEFORE UPDATE ON games BEGIN "
                "SELECT RAISE(ABORT, 'no'); END", "that kayles does not make"),
    "after-update-trigger": ("CREATE TABLE log (x); CREATE TRIGGER spy AFTER UPDATE ON games "
                             "BEGIN INSERT INTO log VALUES (1); END", "that kayles does not make"),
    "another-table": ("CREATE TABLE extra (x)", "that kayles does not make"),
    "another-index": ("CREATE INDEX by_status ON games (status)", "that kayles does not make"),
    "wrong-columns": ("ALTER TABLE games ADD COLUMN extra TEXT", "has other columns"),
}


@pytest.mark.parametrize("name", list(FOREIGN_SCHEMAS))
def test_a_database_kayles_did_not_make_is_refused(tmp_path, name):
    db = surveyed(tmp_path, "0.77")
    statements, says = FOREIGN_SCHEMAS[name]
    with sqlite3.connect(db) as connection:
        connection.executescript(statements)
    before = dump(db)
    result = survey("0.77", "0.07", "--max", "300", "--jobs", "1", db=db, check=False)
    assert_usage_error(result)
    assert says.encode() in result.stderr
    assert dump(db) == before  # nothing of it ran, nothing was written


def dump(db) -> list[str]:
    with sqlite3.connect(db) as connection:
        return list(connection.iterdump())


DAMAGED_ROWS = {
    "checksum-null": ("UPDATE games SET checksum = NULL", "the wrong type"),
    "values-edited": ("UPDATE games SET head = ?", "do not have its checksum"),
    "head-not-zlib": ("UPDATE games SET head = X'00ff00ff'", "not zlib data"),
    "head-bomb": ("UPDATE games SET head = ?", "not the number it claims"),
    "largest-out-of-range": ("UPDATE games SET largest = 70000", "out of range"),
    "status-foreign": ("UPDATE games SET status = 'running', owner = 17", "not one kayles wrote"),
}


@pytest.mark.parametrize("name", list(DAMAGED_ROWS))
def test_a_damaged_or_edited_row_is_refused_not_printed(tmp_path, name):
    db = surveyed(tmp_path, "0.77")
    statement, says = DAMAGED_ROWS[name]
    with sqlite3.connect(db) as connection:
        (head,) = connection.execute("SELECT head FROM games").fetchone()
    values = array("H", zlib.decompress(head))
    if name == "values-edited":  # G(5) of Kayles is 4: say 3, and pack it as kayles would
        values[5] = 3
        params = (zlib.compress(values.tobytes()),)
    elif name == "head-bomb":  # a megabyte of zeros packs to about a kilobyte
        params = (zlib.compress(bytes(1 << 24)),)
    else:
        params = ()
    edit(db, statement, params=params)
    result = survey("0.77", "--max", "300", "--jobs", "1", db=db, check=False)
    assert_usage_error(result)
    assert says.encode() in result.stderr and b"0.77" in result.stderr


def test_an_owner_past_any_pid_is_gone_and_its_row_reclaimed(tmp_path):
    db = surveyed(tmp_path, "0.07")
    edit(db, "UPDATE games SET status = 'running', owner = ?",
         params=(f"{socket.gethostname()} {2 ** 70}",))
    assert survey_json("0.07", "--max", "300", "--jobs", "1", db=db)[0]["code"] == "0.07"


def test_a_row_running_on_another_host_is_said_and_reclaimed_on_request(tmp_path):
    db = surveyed(tmp_path, "0.07")
    edit(db, "UPDATE games SET status = 'running', owner = 'node17 4242'")
    env = {**os.environ, "KAYLES_PROGRESS_SECONDS": "0.3"}
    with subprocess.Popen([sys.executable, "-m", "kayles", "survey", "0.07", "--max", "300",
                           "--jobs", "1", "--db", str(db)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, cwd=ROOT, env=env) as proc:
        try:
            line = proc.stderr.readline()
        finally:
            proc.kill()
    assert line == (b"kayles survey: waiting for 0.07, which the survey 'node17 4242' is "
                    b"computing (--reclaim takes it over)\n")
    reclaimed = survey("0.07", "--max", "300", "--jobs", "1", "--json", "--reclaim", db=db)
    assert json.loads(reclaimed.stdout)[0]["code"] == "0.07"


def test_rows_read_with_keep_hold_their_first_values_only_and_are_checked_whole(tmp_path):
    """Store.summaries(keep=K) (a census holds 1,419 rows of 2**24 values): each row is
    checked whole, then keeps its first K values; asking for more is one clear error, never
    values made up from a cut head.  An edited row is refused with keep=0 too."""
    from kayles.errors import InputError
    from kayles.storage.store import Store

    db = surveyed(tmp_path, "0.07", "0.6")
    with Store(db) as store:
        whole = store.summaries(["0.07", "0.6"], 300)
        kept = store.summaries(["0.07", "0.6"], 300, keep=40)
        assert not whole["0.6"].proved and whole["0.07"].proved
        dawson = whole["0.07"]   # a head of 53 + 34 values, past the 40 kept
        assert len(dawson.head) == dawson.preperiod + dawson.period == 87 and dawson.first(300) == \
            oracle.octal_nimbers("0.07", 299)
        for code in ("0.07", "0.6"):
            assert kept[code].first(40) == whole[code].first(40) == \
                oracle.octal_nimbers(code, 39)
            assert kept[code].row() == whole[code].row()
            with pytest.raises(InputError, match="only"):
                kept[code].first(41)
        assert store.summaries(["0.6"], 300, keep=0)["0.6"].head == []
    edit(db, "UPDATE games SET checksum = (checksum | 1) - (checksum & 1) WHERE code = '0.6'")
    with Store(db) as store, pytest.raises(InputError, match="0.6.*damaged or was edited"):
        store.summaries(["0.6"], 300, keep=0)


def test_a_row_read_again_unchanged_is_checked_once_and_a_changed_one_again(tmp_path,
                                                                           monkeypatch):
    """A census reads its pass's rows, then the furthest ones: the same row is checked once
    per Store (a 2**29 row takes seconds), but a row changed between the two reads, even
    by one byte of its values, is checked again and refused."""
    from kayles.errors import InputError
    from kayles.storage import store as store_module

    checks = []
    damage = store_module._damage
    monkeypatch.setattr(store_module, "_damage",
                        lambda fields, *rest: checks.append(fields["checksum"]) or
                        damage(fields, *rest))
    db = surveyed(tmp_path, "0.07", "0.6")
    with store_module.Store(db) as store:
        first = store.summaries(["0.07", "0.6"], 300, keep=0)
        again = store.furthest(["0.07", "0.6"], 1, 300)
        assert len(checks) == 2 and sorted(first) == sorted(again) == ["0.07", "0.6"]
        assert again["0.6"].first(300) == oracle.octal_nimbers("0.6", 299)
        with sqlite3.connect(db) as connection:
            head, = connection.execute("SELECT head FROM games WHERE code = '0.6'").fetchone()
        values = bytearray(zlib.decompress(head))
        values[-2] ^= 1  # one value of the last heap
        edit(db, "UPDATE games SET head = ? WHERE code = '0.6'",
             params=(zlib.compress(bytes(values)),))
        with pytest.raises(InputError, match="0.6.*damaged or was edited"):
            store.summaries(["0.6"], 300)
        assert len(checks) == 3
        edit(db, "UPDATE games SET seconds = seconds + 1 WHERE code = '0.07'")
        assert store.summaries(["0.07"], 300)["0.07"].proved and len(checks) == 4


def test_a_database_that_cannot_be_written_is_read_without_writing(tmp_path, monkeypatch):
    """In process, so that it runs as root too: the file is taken to be unwritable, opened
    read-only (SQLite's mode=ro), done rows are read, claims refused, nothing written."""
    from kayles.storage.store import Store

    db = surveyed(tmp_path, "0.77")
    edit(db, "PRAGMA journal_mode = DELETE")
    before = db.read_bytes()
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    with Store(db) as store:
        assert store.read_only and list(store.summaries(["0.77"], 300)) == ["0.77"]
        with pytest.raises(ValueError, match="cannot be written"):
            store.claim("0.6", 300)
    assert db.read_bytes() == before


def test_a_worker_stopped_by_its_survey_ends_quietly():
    """A survey stops its pool's workers with SIGTERM; a worker must not run the survey's
    own SIGTERM handler (inherited by the fork), which would print a traceback."""
    code = ("import os, signal, time\n"
            "from kayles.interface.commands import surveys as survey\n"
            "signal.signal(signal.SIGTERM, survey._terminated)  # as command_survey does\n"
            "from kayles.analysis.executors import _start_worker\n"
            "_start_worker()\n"
            "os.kill(os.getpid(), signal.SIGTERM)\n"
            "time.sleep(10)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT,
                            timeout=TIMEOUT)
    assert (result.returncode, result.stderr) == (-signal.SIGTERM, b"")
