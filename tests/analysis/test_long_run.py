"""kayles run: a record at each power of two, flat memory, checkpoints, resumes and stops.

Oracles: the published frequency tables of the octal-game records
(tests/data/published_frequencies.json, from the results of the public Rust
record solver), the plain scan (every option of every heap: extend_plain,
itself checked against literal play in test_kernels) with the textbook
Fletcher-32 (oracle.fletcher32), and an unbroken run for every broken one.
Small windows force each phase and each stop on short runs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import pytest

from kayles.analysis.long_run import CHECKPOINT, TABLE, Run, RunStopped
from kayles.engine.codes import get_game
from kayles.engine.rules import encode
from kayles.kernels.chooser import IMPLEMENTATION
from kayles.storage.checkpoint import MAGIC
from kayles.storage.store import Store

import oracle
from conftest import ROOT, assert_usage_error

COMPILED = IMPLEMENTATION == "cython"
PUBLISHED = json.loads((ROOT / "tests" / "data" / "published_frequencies.json")
                       .read_text())["games"]
TIMEOUT = 300

# game: (window, last heap) of a run that spends most of its heaps bounded
RUNS = ({".167": (2048, 1 << 16), ".161": (1 << 15, 1 << 17), ".014": (1 << 17, 1 << 19),
         ".172": (1 << 16, 1 << 18), "grundy": (1 << 17, 1 << 19)} if COMPILED else
        {".167": (2048, 1 << 16), ".356": (128, 1 << 12)})


def plain_values(game: str, count: int) -> list[int]:
    """G(0..count-1) by the plain scan (compiled where it is built: fast)."""
    from kayles.kernels.chooser import kernel

    table = memoryview(bytearray(2 * count)).cast("H")
    kernel.extend_plain(table, 0, count, encode(get_game(game).kinds))
    return table.tolist()


def full_values(game: str, count: int) -> list[int]:
    """G(0..count-1) by the full-table kernel."""
    from kayles.kernels.chooser import kernel

    table = memoryview(bytearray(2 * count)).cast("H")
    kernel.extend_sparse(table, 0, count, encode(get_game(game).kinds))
    return table.tolist()


def figures(values: list[int], n: int) -> dict:
    """What a record at n says of the values, by the textbook."""
    counts = Counter(values[1:n + 1])
    largest = max(counts)
    return {"frequencies": {str(v): c for v, c in sorted(counts.items())},
            "largest": largest, "first": values.index(largest, 1),
            "fletcher32": f"{oracle.fletcher32(values[:n + 1]):08x}"}


def run_to_end(folder, game: str, to: int, window: int, **options) -> list:
    with Run(folder, get_game(game), to, window, **options) as run:
        assert run.advance()
        return run.records


@pytest.mark.parametrize("game", RUNS)
def test_records_are_the_published_tables_and_the_plain_scan(tmp_path, game):
    window, to = RUNS[game]
    records = run_to_end(tmp_path, game, to, window)
    assert [r.n for r in records] == [1 << k for k in range(to.bit_length())]
    published = PUBLISHED.get(f"0{game}", {})
    plain_to = min(to, 1 << 14 if COMPILED else 1 << 11)
    plain = plain_values(game, plain_to + 1)
    full = full_values(game, to + 1)
    assert full[:plain_to + 1] == plain
    for record in records:
        said = record.as_json()
        if str(record.n) in published:
            assert said["frequencies"] == published[str(record.n)], record.n
        expected = figures(plain if record.n <= plain_to else full, record.n)
        assert {k: said[k] for k in expected} == expected, record.n
    assert str(to) in published or game == "grundy" or not COMPILED
    bounded = [r for r in records if r.n >= 2 * window]
    assert bounded and all(r.mask == bounded[0].mask > 0 for r in bounded)


@pytest.mark.parametrize("gain", [0.0, 1e9], ids=["never-the-crew", "always-the-crew"])
def test_a_run_on_several_threads_has_the_records_of_one(tmp_path, monkeypatch, gain):
    """A run on threads has crew trials as a sequence has (CrewTrials, its verdict forced
    here and the cores seen idle): crews solve the bounded heaps of .161 where chosen
    (threads_used: compiled only); a run broken and resumed with another number of threads
    goes on alike."""
    from kayles.engine import cpu_load
    from kayles.engine.sequence import CrewTrials

    monkeypatch.setattr(CrewTrials, "TRIAL_GAIN", gain)
    monkeypatch.setattr(CrewTrials, "TRIAL_SECONDS", 0.0)  # n/32 heaps a half: on a fast
                                                        # machine 0.05 s was more than the run
    monkeypatch.setattr(cpu_load, "others_busy", lambda *stretch: 0.0)
    monkeypatch.setattr(cpu_load, "cores", lambda: 2)
    for game in (".161",) if COMPILED else (".356",):
        window, to = RUNS[game]
        alone = untimed(run_to_end(tmp_path / game / "1", game, to, window))
        with Run(tmp_path / game / "2", get_game(game), to, window, threads=2) as run:
            assert run.advance()
            assert untimed(run.records) == alone
            crew = min(2, len(os.sched_getaffinity(0))) if COMPILED and gain else 1
            assert run.scratch.threads_used == crew
        resumed = broken_run(tmp_path / game / "3", game, to, window, [3, 7], threads=3)
        assert untimed(resumed) == alone


def untimed(records) -> list[dict]:
    return [r.as_json() | {"seconds": 0} for r in records]


def test_the_rare_figures_are_the_masks_and_heaps_of_the_values(tmp_path):
    """mask, rare and last_rare: how many heaps 0..n are rare under the mask, the last."""
    game, (window, to) = next(iter(RUNS.items()))
    values = full_values(game, to + 1)
    for record in run_to_end(tmp_path, game, to, window):
        with_parity, split_parity = record.mask >> 16, oracle.split_parity_of_code(game)
        rare = [a for a in range(record.n + 1)
                if (bin(values[a] & record.mask).count("1") + with_parity * (a ^ split_parity)) % 2
                == 0]
        if record.mask:
            assert (record.rare, record.last_rare) == (len(rare), rare[-1]), record.n
        else:
            assert (record.rare, record.last_rare) == (0, -1)


def stop_after(calls: int):
    """A should_stop that says yes when asked for the (calls + 1)-th time."""
    asked = iter(range(calls + 1))
    return lambda: next(asked) == calls


def broken_run(folder, game: str, to: int, window: int, breaks: list[int], **options) -> list:
    """The run stopped after each number of calls in ``breaks``, then resumed (a new Run:
    a new process would do the same), to the end."""
    for calls in breaks:
        with Run(folder, get_game(game), to, window, **options) as run:
            assert not run.advance(should_stop=stop_after(calls))
    with Run(folder, get_game(game), None, None, **options) as run:
        assert run.advance()
        return run.records


@pytest.mark.parametrize("keep_table", [False, True])
def test_a_run_stopped_and_resumed_anywhere_gives_the_unbroken_records(tmp_path, keep_table):
    game, (window, to) = next(iter(RUNS.items()))
    calls = []
    with Run(tmp_path / "unbroken", get_game(game), to, window) as run:
        assert run.advance(should_stop=lambda: calls.append(1) and False)
        unbroken = run.records
    total = len(calls)   # kernel calls: the full phase's, then the bounded phase's
    for breaks in ([1], [total // 2, 1], [total - 4, 1, 1, 1]):
        folder = tmp_path / "-".join(map(str, breaks))
        records = broken_run(folder, game, to, window, breaks, keep_table=keep_table)
        assert [r.as_json() | {"seconds": 0} for r in records] == \
            [r.as_json() | {"seconds": 0} for r in unbroken]


def test_a_run_goes_on_past_its_first_end(tmp_path):
    game, (window, to) = next(iter(RUNS.items()))
    first = run_to_end(tmp_path / "a", game, to // 4, window)
    records = run_to_end(tmp_path / "a", game, to, None)
    assert [r.as_json() for r in records[:len(first)]] == [r.as_json() for r in first]
    assert records[-1].n == to
    assert [r.fletcher32 for r in records] == \
        [r.fletcher32 for r in run_to_end(tmp_path / "b", game, to, window)]


def test_a_deep_search_stops_the_run_and_a_doubled_window_resumes_it(tmp_path):
    """With a window of 1,304 (.167's last rare heap is 1,303) some heap needs a pair whose
    smaller part is past it: the run saves and stops, naming the heap and the window that
    resumes it; resumed so, it ends with the records of a run with a wide window."""
    to = 1 << 16
    with Run(tmp_path / "narrow", get_game(".167"), to, 1304) as run:
        with pytest.raises(RunStopped, match=r"heap [\d,]+: its value needs a pair with a "
                           r"smaller part of 1,304 or more, past the window, or it is a new "
                           r"rare heap: resume with --window 2,608"):
            run.advance()
        assert run.n == 48432
    records = run_to_end(tmp_path / "narrow", ".167", to, 2608)
    wide = run_to_end(tmp_path / "wide", ".167", to, 4096)
    assert [r.fletcher32 for r in records] == [r.fletcher32 for r in wide]
    with Run(tmp_path / "narrow", get_game(".167"), to, None) as run:
        assert run.window == 2608


def test_a_rare_heap_past_the_window_stops_a_run_and_a_table_on_disk_goes_on(tmp_path):
    """.034's rare heaps pause from 31,025 to 71,722 (then 374,473): a run with a window of
    32,768 bounds itself at 65,536, then cannot settle heap 71,722 within its reach; with
    the window doubled it can, and finds it rare, past the window; with the table on disk
    it takes the rare heaps into its prefix and goes on, exactly."""
    if not COMPILED:
        pytest.skip("a pure run to 2**17 takes minutes")
    to = 1 << 17
    with Run(tmp_path / "memory", get_game(".034"), to, 1 << 15) as run:
        with pytest.raises(RunStopped, match="heap 71,722: .* or it is a new rare heap: "
                           "resume with --window 65,536, or .* --keep-table"):
            run.advance()
    with Run(tmp_path / "memory", get_game(".034"), to, 1 << 16) as run:
        with pytest.raises(RunStopped, match="heap 71,722 is rare under the mask 511, past "
                           "the window of 65,536: .* --keep-table"):
            run.advance()
    records = run_to_end(tmp_path / "disk", ".034", to, 1 << 15, keep_table=True)
    full = full_values(".034", to + 1)
    assert records[-1].last_rare == 71722
    for record in records[1:]:
        assert record.as_json()["frequencies"] == PUBLISHED["0.034"][str(record.n)]
        assert f"{record.fletcher32:08x}" == figures(full, record.n)["fletcher32"]
    assert (tmp_path / "disk" / TABLE).stat().st_size == 2 * (to + 1)


def test_a_window_below_the_rare_heaps_is_refused_at_the_switch(tmp_path):
    with Run(tmp_path, get_game(".167"), 1 << 13, 1024) as run:
        with pytest.raises(RunStopped, match="reach heap 1,303, past the window of 1,024: "
                           "resume with --window 2,048 or more"):
            run.advance()
        at = run.n
    records = run_to_end(tmp_path, ".167", 1 << 13, 2048)
    assert at == 2048 and records[-1].n == 1 << 13


def test_a_game_whose_rare_heaps_are_many_is_refused_at_2_16(tmp_path):
    """0.07's period makes a third of its heaps rare under its best mask: refused at the
    record of 2**16, after the record is kept, instead of crawling toward the window."""
    with Run(tmp_path, get_game("0.07"), 1 << 24, 1 << 22) as run:
        with pytest.raises(RunStopped, match=r"0.07 has 2\d,\d{3} rare heaps among the first "
                                             r"65,537 \(mask 6\+parity\)"):
            run.advance()
        assert run.records[-1].n == 1 << 16 and run.n == (1 << 16) + 1


def test_a_game_without_rare_values_cannot_run_bounded(tmp_path):
    with Run(tmp_path, get_game("dawsons-kayles"), 1 << 12, 128) as run:
        with pytest.raises(RunStopped, match="no rare values by heap 256"):
            run.advance()


def test_memory_is_given_back_behind_the_window(tmp_path):
    """The middle of the table is released, whole pages: they read as zeros again."""
    import mmap

    game, (window, to) = next(iter(RUNS.items()))
    with Run(tmp_path, get_game(game), to, window) as run:
        assert run.advance()
        values = run.table.values
        middle = values[2 * window: to - 2 * window - 64 - mmap.PAGESIZE // 2].tolist()
        assert middle and not any(middle)
        assert any(values[:window].tolist()) and any(values[to - window: to].tolist())


# -- the command ----------------------------------------------------------------------------

def kayles(*args: str, env=None, **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kayles", *args], capture_output=True,
                          cwd=ROOT, timeout=TIMEOUT, env=env, **options)


def ok(result: subprocess.CompletedProcess) -> str:
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    return result.stdout.decode()


def test_json_lines_name_every_power_of_two_and_a_resume_repeats_them(tmp_path):
    game, (window, to) = next(iter(RUNS.items()))
    db = str(tmp_path / "records.sqlite")
    common = ["--dir", str(tmp_path / "run"), "--window", str(window), "--db", db, "--json"]
    first = kayles("run", game, "--to", str(to // 2), *common)
    assert first.returncode == 0, first.stderr
    second = kayles("run", game, "--to", f"2**{to.bit_length() - 1}", *common)
    assert second.returncode == 0, second.stderr
    lines = [json.loads(line) for line in second.stdout.decode().splitlines()]
    assert first.stdout.decode().splitlines() == second.stdout.decode().splitlines()[:-1]
    assert [line["n"] for line in lines] == [1 << k for k in range(to.bit_length())]
    values = full_values(game, to + 1)
    for line in lines:
        assert {"n", "frequencies", "largest", "last_rare", "fletcher32"} <= set(line)
        expected = figures(values, line["n"])
        assert {k: line[k] for k in expected} == expected
    show = kayles("run", game, "--show", "--db", db, "--json")
    assert [json.loads(line) for line in show.stdout.decode().splitlines()] == lines
    # A run in a new folder computes, whatever the database holds (the docs' examples run
    # after one another), and its records agree with those stored.
    again = kayles("run", game, "--to", str(to), "--dir", str(tmp_path / "new"), "--db", db,
                   "--json")
    assert again.returncode == 0 and (tmp_path / "new" / CHECKPOINT).exists(), again.stderr
    assert [{**json.loads(line), "seconds": 0} for line in again.stdout.splitlines()] == [
        {**line, "seconds": 0} for line in lines]


def test_sigkill_at_any_moment_loses_nothing_but_time(tmp_path):
    """Killed (SIGKILL) at several moments while it runs, then resumed: the records of an
    unbroken run, every one."""
    game, (window, to) = next(iter(RUNS.items()))
    unbroken = kayles("run", game, "--to", str(to), "--window", str(window), "--dir",
                      str(tmp_path / "unbroken"), "--db", str(tmp_path / "a.sqlite"), "--json")
    folder = str(tmp_path / "killed")
    command = [sys.executable, "-m", "kayles", "run", game, "--to", str(to), "--window",
               str(window), "--dir", folder, "--db", str(tmp_path / "b.sqlite"), "--json",
               "--checkpoint", "0.01"]
    for delay in (0.3, 0.5, 0.8, 1.2):
        with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) as proc:
            time.sleep(delay)
            proc.kill()
    result = subprocess.run(command, capture_output=True, cwd=ROOT, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    strip = [{**json.loads(line), "seconds": 0} for line in unbroken.stdout.splitlines()]
    assert [{**json.loads(line), "seconds": 0} for line in result.stdout.splitlines()] == strip


@pytest.mark.parametrize(("number", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_save_and_stop(tmp_path, number, status):
    game = ".161" if COMPILED else ".356"
    to = (1 << 30) if COMPILED else (1 << 20)
    folder = tmp_path / "run"
    with subprocess.Popen([sys.executable, "-m", "kayles", "run", game, "--to", str(to),
                           "--window", "65536" if COMPILED else "128", "--dir", str(folder),
                           "--db", str(tmp_path / "db")],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        while not (folder / CHECKPOINT).exists():
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(number)
        out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == status, err
    # Ctrl-C says that the same command goes on from the checkpoint; SIGTERM is quiet
    assert err == (b"kayles run: stopped; the same command resumes\n"
                   if number == signal.SIGINT else b"")
    with Run(folder, get_game(game)) as run:
        assert 0 < run.n < to
        assert len(out.splitlines()) == len(run.records)


def saved_run(tmp_path, share: int) -> tuple[str, Path, bytes]:
    """(game, its run's checkpoint file, the file's bytes) of a run of the first RUNS game
    to its last heap // share, in tmp_path/run."""
    game, (window, to) = next(iter(RUNS.items()))
    folder = tmp_path / "run"
    assert kayles("run", game, "--to", str(to // share), "--window", str(window), "--dir",
                  str(folder), "--db", str(tmp_path / "db")).returncode == 0
    checkpoint = folder / CHECKPOINT
    return game, checkpoint, checkpoint.read_bytes()


def test_bad_folders_and_checkpoints_are_refused_and_left_alone(tmp_path):
    game, checkpoint, good = saved_run(tmp_path, 8)
    folder = checkpoint.parent

    def refused(*args: str, says: str) -> None:
        result = kayles("run", *args, "--db", str(tmp_path / "db"))
        assert result.returncode == 2 and result.stdout == b"", result.stderr
        assert says.encode() in result.stderr and b"Traceback" not in result.stderr
        assert result.stderr.count(b"\n") == 1

    refused(".14", "--dir", str(folder), says="holds a run of 0.167, not of 0.14")
    refused(game, "--to", "5", "--dir", str(tmp_path / "new"), "--window", "3",
            says="--window must be 65 to")
    refused(game, "--dir", str(tmp_path / "empty"), says="holds no run yet: give --to N")
    refused(game, "--to", "2**47", "--dir", str(tmp_path / "x"), says="--to must be 1 to 2**46")
    refused(game, "--to", "2**x", "--dir", str(tmp_path / "x"), says="decimal integer or 2**K")
    (tmp_path / "file").write_text("mine")
    refused(game, "--to", "100", "--dir", str(tmp_path / "file"), says="not a folder")
    assert (tmp_path / "file").read_text() == "mine"
    damaged = [good[:-1], good[:len(MAGIC) + 10], good[:-30] + bytes(30),
               good.replace(b'"n":', b'"n" :', 1), b"", b"not a checkpoint\n"]
    flipped = bytearray(good)
    flipped[len(good) - 100] ^= 1
    damaged.append(bytes(flipped))
    for data in damaged:
        checkpoint.write_bytes(data)
        refused(game, "--dir", str(folder), says="not a checkpoint kayles can use")
        assert checkpoint.read_bytes() == data
    checkpoint.unlink()
    os.mkfifo(checkpoint)
    refused(game, "--dir", str(folder), says="not a regular file")


def test_two_runs_in_one_folder_at_once(tmp_path):
    game, (window, to) = next(iter(RUNS.items()))
    with Run(tmp_path, get_game(game), to, window):
        result = kayles("run", game, "--to", str(to), "--dir", str(tmp_path), "--db",
                        str(tmp_path / "db"))
    assert_usage_error(result)
    assert b"another kayles run is working in it" in result.stderr


def test_a_full_disk_is_status_1_and_the_last_checkpoint_stays(tmp_path):
    """A full disk, as the file size limit (RLIMIT_FSIZE) makes it: the checkpoint at 2**18
    (512 KB of values) cannot be written; the one at 2**17 (256 KB) stays, whole."""
    import resource

    if not COMPILED:
        pytest.skip("a pure run takes minutes to make a checkpoint larger than the database")
    folder = tmp_path / "run"

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (400_000, 400_000))

    result = kayles("run", ".167", "--to", str(1 << 19), "--window", str(1 << 17), "--dir",
                    str(folder), "--db", str(tmp_path / "db"), preexec_fn=small_files)
    assert result.returncode == 1, result.stderr
    assert result.stderr == (f"kayles run: cannot write {folder / CHECKPOINT}: File too "
                             "large\n").encode()
    assert len(result.stdout.splitlines()) == 18   # 2**0 .. 2**17: each printed once saved
    with Run(folder, get_game(".167")) as run:   # the checkpoint it had, whole
        assert run.n == (1 << 17) + 1 and len(run.records) == 18
    assert sorted(p.name for p in folder.iterdir()) == [CHECKPOINT, "kayles-run.lock"]


def signed_again(db) -> None:
    """Sign every record of ``db`` with the tests' key, as kayles signs them: what someone
    who can read the key (or a bug) could write, for the checks behind the signature."""
    import sqlite3

    from kayles.storage import signing
    from kayles.storage.store import _plain_row

    with sqlite3.connect(db) as connection:
        for row in connection.execute(
                "SELECT game, n, largest, first, mask, rare, last_rare, checksum, seconds, "
                "frequencies FROM records").fetchall():
            signature = signing.sign(_plain_row("record", row[:-1], row[-1]))
            connection.execute("UPDATE records SET signature = ? WHERE game = ? AND n = ?",
                               (signature, row[0], row[1]))


def test_a_stored_record_that_disagrees_stops_the_run(tmp_path):
    """An edited record (its signature fails) is as if absent: the run stores its own over
    it; one signed (with the key) that disagrees stops the run; a damaged one is refused."""
    game, (window, to) = next(iter(RUNS.items()))
    db = tmp_path / "db"
    assert kayles("run", game, "--to", "64", "--window", str(window), "--dir",
                  str(tmp_path / "a"), "--db", str(db)).returncode == 0
    import sqlite3

    edit = "UPDATE records SET checksum = (checksum + 1) % 65536 WHERE n = 32"
    with sqlite3.connect(db) as connection:
        before = connection.execute("SELECT * FROM records ORDER BY n").fetchall()
        connection.execute(edit)
    assert b"2**5" not in kayles("run", game, "--show", "--db", str(db)).stdout
    result = kayles("run", game, "--to", "64", "--window", str(window), "--dir",
                    str(tmp_path / "b"), "--db", str(db), "--recompute")
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db) as connection:
        after = connection.execute("SELECT * FROM records ORDER BY n").fetchall()
        connection.execute(edit)
    assert [row[:9] for row in after] == [row[:9] for row in before]  # the time aside
    signed_again(db)
    result = kayles("run", game, "--to", "64", "--window", str(window), "--dir",
                    str(tmp_path / "c"), "--db", str(db), "--recompute")
    assert result.returncode == 2 and b"differs from this run's" in result.stderr
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE records SET frequencies = x'00' WHERE n = 32")
    result = kayles("run", game, "--show", "--db", str(db))
    assert_usage_error(result)
    assert b"is damaged or was edited" in result.stderr


def left_out(result: subprocess.CompletedProcess, db, records: str, verb: str) -> bool:
    """Whether ``result`` said, in one stderr line, that ``records`` (not signed with this
    user's key) ``verb`` left out."""
    said = result.stderr.decode()
    return said.count("\n") == 1 and said.startswith(
        f"kayles run: {db}: {records} not signed with this user's key {verb} left out")


def test_stored_records_are_derived_again_when_shown(tmp_path):
    """`run --show` derives the records of heaps up to 2**16 from the game's rules: .167's
    records copied under .161's name, or one edited consistently (a heap moved from value 0
    to 1, its checksum's first sum to match), are left out unsigned, and refused, one line,
    status 2, once signed with the key."""
    import sqlite3

    db = tmp_path / "db"
    assert kayles("run", ".167", "--to", "4096", "--window", "2048", "--dir",
                  str(tmp_path / "run"), "--db", str(db)).returncode == 0
    shown = kayles("run", ".167", "--show", "--db", str(db))
    assert shown.returncode == 0 and shown.stdout.count(b"\n") == 13, shown.stderr
    with sqlite3.connect(db) as connection:
        connection.execute("INSERT INTO records SELECT '0.161', n, largest, first, mask, rare, "
                           "last_rare, checksum, frequencies, seconds, updated, signature "
                           "FROM records")
    copied = kayles("run", ".161", "--show", "--db", str(db))
    assert (copied.returncode, copied.stdout) == (0, b"")
    assert left_out(copied, db, "13 records of long runs", "are")
    signed_again(db)
    result = kayles("run", ".161", "--show", "--db", str(db))
    assert_usage_error(result)
    assert b"the records of 0.161 are not its game's" in result.stderr, result.stderr
    from kayles.storage.records import pack_counts, unpack_counts

    with sqlite3.connect(db) as connection:
        blob, = connection.execute("SELECT frequencies FROM records WHERE game = '0.167' "
                                   "AND n = 1024").fetchone()
        counts = unpack_counts(blob)
        counts[0] -= 1
        counts[1] += 1
        connection.execute("UPDATE records SET frequencies = ?, checksum = checksum + 1 "
                           "WHERE game = '0.167' AND n = 1024", (pack_counts(counts),))
    edited = kayles("run", ".167", "--show", "--db", str(db))
    assert edited.returncode == 0 and b"2**10" not in edited.stdout
    assert left_out(edited, db, "1 record of a long run", "is")
    signed_again(db)
    result = kayles("run", ".167", "--show", "--db", str(db))
    assert_usage_error(result)
    assert b"its record at 2**10" in result.stderr, result.stderr


def test_a_survey_database_of_schema_1_gains_the_records_table(tmp_path):
    import sqlite3

    from kayles import store

    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute(store._SCHEMA)
        connection.execute("PRAGMA user_version = 1")
    with Store(db) as opened:
        assert opened.records("0.167") == []
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "records" in tables


def in_a_small_filesystem(command: list[str], folder: str,
                           size: str) -> subprocess.CompletedProcess:
    """Run ``command`` with a tmpfs of ``size`` mounted at ``folder`` (a user and mount
    namespace of its own: unshare -rm); skipped where namespaces are not allowed, except
    under CI (which runs as root, where they are)."""
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0 and os.environ.get("CI") != "true":
        pytest.skip(f"no user and mount namespaces here: {probe.stderr.decode().strip()}")
    script = 'mount -t tmpfs -o size="$1" none "$2" && shift 2 && exec "$@"'
    return subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", size, folder, *command],
                          capture_output=True, cwd=ROOT, timeout=TIMEOUT)


def test_a_full_disk_is_one_line_not_a_crash(tmp_path):
    """--keep-table maps a sparse file: a value written where the disk has no room would
    kill the run (SIGBUS).  Blocks are allocated ahead, so a full disk is one line naming
    the table file, exit status 1."""
    folder = tmp_path / "small"
    folder.mkdir()
    to = str(1 << 22)  # an 8 MiB table on a disk of 1.5 MiB: full between two checkpoints
    result = in_a_small_filesystem(
        [sys.executable, "-m", "kayles", "run", ".161", "--to", to, "--dir",
         str(folder / "run"), "--keep-table", "--db", str(tmp_path / "db")], str(folder), "1500k")
    err = result.stderr.decode()
    assert result.returncode == 1, (result.returncode, err)
    assert err.count("\n") == 1 and "No space left on device" in err and TABLE in err, err


def test_a_symbolic_link_in_place_of_the_table_is_refused_untouched(tmp_path):
    game, (window, to) = next(iter(RUNS.items()))
    folder = tmp_path / "run"
    command = ["run", game, "--to", str(to // 8), "--window", str(window), "--dir", str(folder),
               "--keep-table", "--db", str(tmp_path / "db")]
    assert kayles(*command).returncode == 0
    target = tmp_path / "elsewhere"
    target.write_bytes(b"someone's file")
    (folder / TABLE).unlink()
    (folder / TABLE).symlink_to(target)
    command[3] = str(to)
    result = kayles(*command)
    assert_usage_error(result)
    assert b"a symbolic link" in result.stderr
    assert target.read_bytes() == b"someone's file"


SIGNATURE_LINE = len(b"signature \n") + 64


def signed(head: bytes, values: bytes, sign=None) -> bytes:
    """A checkpoint of a header line and values, with the signature and CRC-32 lines they
    need (signed with the tests' key, or by ``sign``): what someone who can read the key
    could write, for the checks behind the signature."""
    from kayles.storage import signing

    sign = sign or signing.sign
    top = MAGIC + head
    top += f"signature {sign(top)}\n".encode()
    body = top + values + f"crc32 {zlib.crc32(top + values):08x}\n".encode()
    return body + f"signature {sign(body)}\n".encode()


def test_a_forged_checkpoint_is_refused_whatever_its_checksum(tmp_path):
    """Hostile checkpoints whose CRC was recomputed and signed with the key (as someone who
    can read it could): header figures edited (the first sum, the largest value; a record's
    frequency and checksum; a record the prefix's values derive, edited consistently), a
    header nested 200,000 deep, a number that is not one (Infinity), numbers of a million
    digits, and values edited with the histogram made to fit (one edit among the recent
    values, one in the prefix they read).  Each is one line, exit 2, and the file is left
    as it was; without the signature each is refused as unsigned."""
    game, checkpoint, good = saved_run(tmp_path, 2)
    folder = checkpoint.parent
    to = next(iter(RUNS.values()))[1]
    line_end = good.index(b"\n", len(MAGIC)) + 1
    header = json.loads(good[len(MAGIC):line_end])
    values = bytearray(good[line_end + SIGNATURE_LINE:-len(b"crc32 00000000\n") - SIGNATURE_LINE])
    assert good == signed(good[len(MAGIC):line_end], bytes(values))
    assert header["mask"] > 0 and header["n"] == to // 2 + 1, "the run is past the switch"

    def forged(head: bytes, values: bytes = bytes(values)) -> bytes:
        return signed(head, values)

    def edited(at: int) -> bytes:
        """The value at byte ``at`` of the saved values changed, the histogram to match."""
        copy = bytearray(values)
        old = int.from_bytes(copy[at:at + 2], "little")
        new = next(v for v in range(len(header["counts"])) if v != old)
        copy[at:at + 2] = new.to_bytes(2, "little")
        counts = list(header["counts"])
        counts[old] -= 1
        counts[new] += 1
        head = json.dumps({**header, "counts": counts}, separators=(",", ":")).encode() + b"\n"
        return forged(head, bytes(copy))

    def header_edit(**changes) -> bytes:
        head = json.dumps({**header, **changes}, separators=(",", ":")).encode() + b"\n"
        return forged(head)

    def record_edit(index: int, consistent: bool) -> bytes:
        """Record ``index`` with one heap moved from value 0 to value 1 (and, consistent,
        its first sum made to match), or with one frequency and its checksum changed."""
        records = [dict(record) for record in header["records"]]
        record = records[index]
        counts = list(record["counts"])
        if consistent:
            counts[0] -= 1
            counts[1] += 1
            record["fletcher32"] += 1
        else:
            counts[1] += 1
            record["fletcher32"] ^= 0x10001
        record["counts"] = counts
        return header_edit(records=records)

    def seconds_as(text: bytes) -> bytes:
        return forged(good[len(MAGIC):line_end].replace(
            f'"seconds":{json.dumps(header["seconds"])}'.encode(), b'"seconds":' + text))

    small = next(i for i, record in enumerate(header["records"])
                 if record["n"] >= 64 and record["counts"][0] > 0)
    assert header["records"][small]["n"] < header["prefix"], "a record the prefix derives"
    attacks = {
        "first sum": header_edit(s1=(header["s1"] + 1) % 65535),
        "largest": header_edit(largest=header["largest"] + 1),
        "last record": record_edit(-1, consistent=False),
        "derived record": record_edit(small, consistent=True),
        "deep": forged(b"[" * 200_000 + b"]" * 200_000 + b"\n"),
        "million digits": seconds_as(b"1" * 1_000_000),
        "long float": seconds_as(b"0." + b"1" * 1_000_000),
        "infinite": seconds_as(b"Infinity"),
        "recent value": edited(len(values) - 2 * 50),
        "prefix value": edited(2 * 40),
    }
    assert attacks["infinite"] != forged(good[len(MAGIC):line_end])
    for name, data in attacks.items():
        checkpoint.write_bytes(data)
        result = kayles("run", game, "--dir", str(folder), "--db", str(tmp_path / "db"))
        assert_usage_error(result)
        assert b"kayles can use" in result.stderr or b"not those of" in result.stderr, name
        assert len(result.stderr) < 400, name  # one short line, whatever the file holds
        assert checkpoint.read_bytes() == data, name


def test_a_kept_table_that_never_reached_a_checkpoint_is_removed(tmp_path, monkeypatch):
    """--keep-table on a full disk: the start fails (its error names the table), and leaves
    no table behind to block the next start in that folder, which then runs."""
    import errno

    from kayles.errors import WriteError
    from kayles.storage import long_table

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    folder = tmp_path / "run"
    monkeypatch.setattr(long_table.os, "posix_fallocate", full)
    with pytest.raises(WriteError, match=TABLE):
        with Run(folder, get_game(".167"), 4096, 2048, keep_table=True) as run:
            run.advance()
    assert not (folder / TABLE).exists() and not (folder / CHECKPOINT).exists()
    monkeypatch.undo()
    with Run(folder, get_game(".167"), 4096, 2048, keep_table=True) as run:
        assert run.advance()
    assert (folder / TABLE).exists() and (folder / CHECKPOINT).exists()
