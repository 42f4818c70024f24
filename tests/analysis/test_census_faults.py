"""A census pass under faults, with real processes: a pool worker killed (SIGKILL), a Dask
worker killed, the census itself killed, the disk full.  Each time the rows finished stay
as they were, and the census (resumed where it must be) prints the same table as one run
with nothing going wrong.

The pass: the 2-digit codes to 2**18 values, whose second pass (14 codes of about a third
of a second each, 5 s in all on one core) is long enough to be interrupted in the middle:
a test kills once two of its rows are done.  (To 2**20, a second each, the file took
3 min 20 s.)"""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from kayles.analysis.executors import open_executor, survey
from kayles.analysis.survey import summarise
from kayles.storage.store import Store

from conftest import ROOT

pytestmark = pytest.mark.slow  # make test-slow (CI runs it): each kills or starves a census

TIMEOUT = 300
CENSUS = ["census", "--digits", "2", "--to", str(1 << 18), "--csv"]
SECOND = 1 << 18  # the second pass's rows
QUIET = dict(os.environ, KAYLES_PROGRESS_SECONDS="100000")  # no progress lines on stderr


def run_census(db, *more, preexec_fn=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kayles", *CENSUS, "--db", str(db), *more],
                          capture_output=True, cwd=ROOT, timeout=TIMEOUT, preexec_fn=preexec_fn,
                          env=QUIET)


def start_census(db, *more) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kayles", *CENSUS, "--db", str(db), *more],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=QUIET)


def table(result: subprocess.CompletedProcess | bytes) -> list[str]:
    """A census's CSV without its '#' lines (they say when it ran)."""
    out = result if isinstance(result, bytes) else result.stdout
    return [line for line in out.decode().splitlines() if not line.startswith("#")]


def done_rows(db) -> dict[tuple, tuple]:
    """{(code, max): (seconds, checksum, head)} of the finished rows."""
    with sqlite3.connect(db) as connection:
        found = connection.execute("SELECT code, max, seconds, checksum, head FROM games "
                                   "WHERE status = 'done'").fetchall()
    return {(code, limit): rest for code, limit, *rest in found}


def wait_for_second_pass_rows(db, count: int, proc: subprocess.Popen) -> None:
    """Until ``count`` rows of the second pass are done (the pass is then under way)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1].decode()
        try:
            if sum(limit == SECOND for _, limit in done_rows(db)) >= count:
                return
        except sqlite3.DatabaseError:  # not created yet
            pass
        time.sleep(0.02)
    raise AssertionError("the second pass did not begin")


def resumes_intact(db, finished: dict, expected: list[str], jobs: str) -> None:
    """The next run on ``db`` ends well with the undisturbed table, and every row that was
    finished before (``done_rows``) is as it was."""
    again = run_census(db, "--jobs", jobs)
    assert (again.returncode, again.stderr) == (0, b""), again.stderr
    assert table(again) == expected
    after = done_rows(db)
    assert all(after[key] == row for key, row in finished.items())


def ends_as_one_run(db, victim, expected: list[str], *more) -> None:
    """A census on ``db`` whose process ``victim(census)`` is killed (SIGKILL) once two rows
    of the second pass are done: it ends well, quietly, with the undisturbed table."""
    proc = start_census(db, *more)
    try:
        wait_for_second_pass_rows(db, 2, proc)
        os.kill(victim(proc), signal.SIGKILL)
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, err.count(b"\n")) == (0, 0), err
    assert table(out) == expected


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return [int(word) for word in listing.read().split()]


@pytest.fixture(scope="module")
def expected(tmp_path_factory):
    """The table of one census with nothing going wrong, on one process."""
    done = run_census(tmp_path_factory.mktemp("census") / "c.sqlite", "--jobs", "1")
    assert (done.returncode, done.stderr) == (0, b"")
    return table(done)


def test_a_killed_pool_worker_loses_nothing(tmp_path, expected):
    """SIGKILL to a worker of two in the middle of the second pass: a fresh pool takes over,
    the codes that were in flight are computed again, and the census ends as one run."""
    ends_as_one_run(tmp_path / "c.sqlite", lambda proc: children(proc.pid)[0], expected,
                    "--jobs", "2")


def test_a_killed_census_resumes_with_its_finished_rows_intact(tmp_path, expected):
    """SIGKILL to the census in the middle of the second pass: its workers end with it, the
    rows it finished stay as they were, and the next run takes over the rest."""
    db = tmp_path / "c.sqlite"
    proc = start_census(db, "--jobs", "2")
    try:
        wait_for_second_pass_rows(db, 2, proc)
        workers = children(proc.pid)
        proc.kill()
        proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    finished = done_rows(db)
    with sqlite3.connect(db) as connection:
        left = connection.execute("SELECT COUNT(*) FROM games WHERE status = 'running'")
        assert left.fetchone()[0] >= 1   # rows the killed census had claimed
    deadline = time.monotonic() + 10   # its workers see their parent gone within a second
    while any(os.path.exists(f"/proc/{pid}") for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(os.path.exists(f"/proc/{pid}") for pid in workers)
    resumes_intact(db, finished, expected, "2")


def test_a_full_disk_stops_the_census_in_one_line_and_the_next_run_resumes(tmp_path, expected):
    """The database's file may not grow past 300 kB (RLIMIT_FSIZE: a write past it fails as
    on a full disk; the census was measured to need more): the census stops with one line
    naming the file, exit status 1, nothing on stdout; the rows it finished are whole, and a
    run with room takes over."""
    db = tmp_path / "c.sqlite"

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a failed write, not a signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000))

    full = run_census(db, "--jobs", "1", preexec_fn=small_disk)
    lines = full.stderr.decode().splitlines()
    assert (full.returncode, full.stdout, len(lines)) == (1, b"", 1), lines
    assert lines[0].startswith(f"kayles census: cannot write {db}: ") and "run the same " \
        "command again" in lines[0] and "delete" not in lines[0]
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finished = done_rows(db)
    assert 0 < len(finished) < len(expected) - 1
    resumes_intact(db, finished, expected, "1")


def test_a_killed_dask_worker_loses_nothing(tmp_path, expected):
    """A real local Dask cluster of two worker processes, one killed in the middle of the
    second pass: Dask computes its calls again elsewhere, and the table is the pool's."""
    distributed = pytest.importorskip("distributed")
    db = tmp_path / "c.sqlite"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:  # any free port
        with distributed.Client(cluster) as client:
            pids = list(client.run(os.getpid).values())
            ends_as_one_run(db, lambda proc: pids[0], expected, "--dask",
                            cluster.scheduler_address)


def test_dasks_rescheduling_warning_is_not_shown():
    """Dask's client warns "Couldn't gather 1 keys, rescheduling" when a worker is lost
    while its result is fetched (the test above, when the kill lands then), and computes it
    again: a survey on Dask keeps that quiet, errors still shown, the level given back."""
    distributed = pytest.importorskip("distributed")
    import logging

    client_log = logging.getLogger("distributed.client")
    before = client_log.level
    with distributed.LocalCluster(n_workers=1, processes=False,
                                  dashboard_address=":0") as cluster:  # any free port
        with open_executor(dask=cluster.scheduler_address):
            assert not client_log.isEnabledFor(logging.WARNING)
            assert client_log.isEnabledFor(logging.ERROR)
    assert client_log.level == before


def kill_own_worker_at_06(code: str, limit: int):
    """summarise, except that 0.06 kills the process computing it, every time."""
    if code == "0.06":
        os.kill(os.getpid(), signal.SIGKILL)
    return summarise(code, limit)


def test_a_code_that_kills_its_worker_fails_alone(tmp_path):
    """A code whose worker dies each time it is computed is tried once more beside the
    others, then alone: it fails with a row that says so, every other code is done."""
    codes = ["0.07", "0.06", "0.77", "0.16", "0.6", "0.14"]
    with Store(tmp_path / "s.sqlite") as store, open_executor(2) as (pool, window):
        failures = survey(codes, 3000, store, pool, window, lambda code: None,
                          compute=kill_own_worker_at_06)
        found = store.summaries(codes, 3000)
    assert list(failures) == ["0.06"] and "died twice" in failures["0.06"]
    assert sorted(found) == sorted(set(codes) - {"0.06"})
    with sqlite3.connect(tmp_path / "s.sqlite") as connection:
        assert connection.execute("SELECT status, error FROM games WHERE code = '0.06'"
                                  ).fetchone() == ("failed", failures["0.06"])


@pytest.mark.parametrize("damage", ["truncated", "newer schema"])
def test_a_damaged_census_database_is_refused_in_one_line(tmp_path, damage):
    """A census database cut to half its size, or written by a later kayles: one line that
    names the file, exit status 2, nothing on stdout, with --stored as without."""
    db = tmp_path / "c.sqlite"
    first = subprocess.run([sys.executable, "-m", "kayles", "census", "--digits", "1", "--to",
                            str(1 << 16), "--jobs", "1", "--db", str(db), "--csv"],
                           capture_output=True, cwd=ROOT, timeout=TIMEOUT, env=QUIET)
    assert first.returncode == 0, first.stderr
    if damage == "truncated":
        with open(db, "r+b") as handle:
            handle.truncate(os.path.getsize(db) // 2)
    else:
        with sqlite3.connect(db) as connection:
            connection.execute("PRAGMA user_version = 99")
    for more in ([], ["--stored"]):
        done = subprocess.run([sys.executable, "-m", "kayles", "census", "--digits", "1",
                               "--to", str(1 << 16), "--jobs", "1", "--db", str(db), "--csv",
                               *more], capture_output=True, cwd=ROOT, timeout=TIMEOUT, env=QUIET)
        lines = done.stderr.decode().splitlines()
        assert (done.returncode, done.stdout, len(lines)) == (2, b"", 1), lines
        assert lines[0].startswith(f"kayles census: {db}: ")
