"""Long runs through the ``kayles`` command: --save, --resume, --checksum, bare d0 codes.

Runs are interrupted for real (SIGINT, SIGKILL) in subprocesses; a resumed run
must print exactly what an uninterrupted one prints.  Checksums are checked
against the textbook Fletcher-32 loop over values of tests/oracle.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from kayles.storage.table_file import read_table

import oracle
from conftest import ROOT, assert_io_failure, assert_usage_error, listing, ok, run_kayles

TIMEOUT = 120
PURE = os.environ.get("KAYLES_PURE", "") not in ("", "0")
# Grundy's game: sizes that take a fraction of a second (RESUMED) and many seconds
# (ENDLESS, a run that is always interrupted) on the core under test.
RESUMED, ENDLESS, CHUNK = (4000, 10**6, 200) if PURE else (60000, 10**7, 2000)



def checksum_line(values, game: str) -> str:
    return f"{oracle.fletcher32(values):08x}  fletcher32 of G(0..{len(values) - 1}), {game}\n"


def start_then_stop(path, how: signal.Signals, meanwhile=None) -> subprocess.CompletedProcess:
    """Start an endless saved run of Grundy's game; once two chunks are on disk, call
    ``meanwhile()`` (if given), then signal the run."""
    command = [sys.executable, "-m", "kayles", "grundy", str(ENDLESS), "--game", "grundy",
               "--save", str(path), "--chunk", str(CHUNK)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          cwd=ROOT) as proc:
        deadline = time.monotonic() + TIMEOUT
        try:
            while not (path.exists() and path.stat().st_size > 2 * (24 + 2 * CHUNK)):
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.01)
            if meanwhile is not None:
                meanwhile()
            proc.send_signal(how)
            out, err = proc.communicate(timeout=TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


@pytest.fixture(scope="module")
def uninterrupted():
    """What an uninterrupted run prints: the listing and the checksum line."""
    values = ok(run_kayles("grundy", str(RESUMED), "--game", "grundy"))
    check = ok(run_kayles("grundy", str(RESUMED), "--game", "grundy", "--checksum"))
    return values, check


def test_save_then_resume_equals_an_uninterrupted_run(tmp_path, uninterrupted):
    path = tmp_path / "grundy.table"
    first = ok(run_kayles("grundy", str(RESUMED // 3), "--game", "grundy", "--save", str(path),
                      "--chunk", str(CHUNK)))
    assert first.startswith(listing(oracle.grundys_game_nimbers(1000)).decode()[:-2] + ", ")
    resumed = ["grundy", str(RESUMED), "--game", "grundy", "--resume", str(path)]
    assert ok(run_kayles(*resumed)) == uninterrupted[0]
    assert ok(run_kayles(*resumed, "--checksum")) == uninterrupted[1]
    assert first[:-2] == uninterrupted[0][: len(first) - 2]


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL],
                         ids=["SIGINT", "SIGTERM", "SIGKILL"])
def test_an_interrupted_run_resumes(tmp_path, uninterrupted, how):
    path = tmp_path / "grundy.table"
    stopped = start_then_stop(path, how)
    if how != signal.SIGKILL:  # Ctrl-C, SIGTERM: the call in progress saved, 130 / 143
        kept = len(read_table(str(path)).values)
        said = (b"" if how == signal.SIGTERM else  # Ctrl-C says where the work is kept
                f"kayles grundy: stopped after {kept:,} values, saved in {path}; --resume "
                f"{path} goes on\n".encode())
        assert (stopped.returncode, stopped.stdout, stopped.stderr) == (128 + how, b"", said)
    else:
        assert stopped.returncode == -signal.SIGKILL
    resumed = ["grundy", str(RESUMED), "--game", "grundy", "--resume", str(path)]
    assert ok(run_kayles(*resumed, "--checksum")) == uninterrupted[1]
    assert ok(run_kayles(*resumed)) == uninterrupted[0]


def test_a_table_being_written_is_not_written_by_another_run(tmp_path):
    path = tmp_path / "grundy.table"

    def try_others() -> None:
        for option in ("--resume", "--save"):
            result = run_kayles("grundy", "100", "--game", "grundy", option, str(path))
            assert_usage_error(result)
            assert b"another run is writing this table" in result.stderr

    assert start_then_stop(path, signal.SIGINT, try_others).returncode == 130
    ok(run_kayles("grundy", "100", "--game", "grundy", "--resume", str(path)))


def test_period_saves_and_resumes(tmp_path):
    path = tmp_path / "077.table"
    first = json.loads(ok(run_kayles("period", "--game", "0.77", "--max", "100", "--save",
                                     str(path), "--chunk", "30", "--json")))
    assert (first["proved"], first["values"]) == (False, 100)
    resumed = json.loads(ok(run_kayles("period", "--game", "kayles", "--resume", str(path),
                                       "--json")))
    assert resumed == {**json.loads(ok(run_kayles("period", "--game", "0.77", "--json"))),
                       "game": "kayles"}
    values = oracle.octal_nimbers("0.77", resumed["values"] - 1)
    assert resumed["fletcher32"] == f"{oracle.fletcher32(values):08x}"
    bounded = ["period", "--game", "0.77", "--max", "100", "--json"]  # less than the file holds
    assert ok(run_kayles(*bounded, "--resume", str(path))) == ok(run_kayles(*bounded))


def test_another_games_file_is_refused(tmp_path):
    path = tmp_path / "077.table"
    ok(run_kayles("grundy", "50", "--game", "0.77", "--save", str(path)))
    before = path.read_bytes()
    for game in ("grundy", "0.07", "kayles-xox"):
        result = run_kayles("grundy", "80", "--game", game, "--resume", str(path))
        assert_usage_error(result)
        assert b"another game" in result.stderr
    assert path.read_bytes() == before
    assert ok(run_kayles("grundy", "80", "--game", "kayles", "--resume", str(path))) == listing(
        oracle.octal_nimbers("0.77", 80)).decode()


def test_a_damaged_or_cut_file_is_refused(tmp_path):
    path = tmp_path / "t.table"
    ok(run_kayles("grundy", "500", "--game", "grundy", "--save", str(path), "--chunk", "100"))
    good = path.read_bytes()
    damaged = bytearray(good)
    damaged[len(good) // 2] ^= 0x10
    for content in (bytes(damaged), good[:20], b"not a table\n"):
        path.write_bytes(content)
        result = run_kayles("grundy", "600", "--game", "grundy", "--resume", str(path))
        assert_usage_error(result)
        assert b"not a usable kayles table file" in result.stderr
        assert path.read_bytes() == content  # refused files are left alone
    result = run_kayles("grundy", "5", "--resume", str(tmp_path / "missing"))
    assert_io_failure(result, tmp_path / "missing")


def test_a_file_cut_inside_its_last_chunk_resumes(tmp_path):
    path = tmp_path / "t.table"
    ok(run_kayles("grundy", "500", "--game", "grundy", "--save", str(path), "--chunk", "100"))
    path.write_bytes(path.read_bytes()[:-7])
    expected = listing(oracle.grundys_game_nimbers(700)).decode()
    assert ok(run_kayles("grundy", "700", "--game", "grundy", "--resume", str(path))) == expected
    again = ok(run_kayles("grundy", "700", "--game", "grundy", "--resume", str(path)))
    assert again == expected


def test_save_and_resume_are_exclusive_and_chunk_is_positive(tmp_path):
    path = str(tmp_path / "t")
    assert_usage_error(run_kayles("grundy", "5", "--save", path, "--resume", path))
    assert_usage_error(run_kayles("grundy", "5", "--save", path, "--chunk", "0"))
    missing = tmp_path / "no" / "such" / "dir"
    assert_io_failure(run_kayles("grundy", "5", "--save", str(missing)), missing)


@pytest.mark.parametrize(("game", "reference", "n"), [
    ("kayles-xox", lambda n: oracle.xox_nimbers_by_sum(n), 700),
    ("0.77", lambda n: oracle.octal_nimbers("0.77", n), 600),  # past the proof: pieces
    ("0.07", lambda n: oracle.octal_nimbers("0.07", n), 500),
    ("grundy", oracle.grundys_game_nimbers, 1500),
    ("4", oracle.split_game_nimbers, 20),
    ("0", lambda n: oracle.octal_nimbers("0.0", n), 10),
])
def test_checksum_is_the_textbook_fletcher_loop(game, reference, n):
    values = reference(n)
    for last in (0, 1, 2, n // 2, n):
        assert ok(run_kayles("grundy", str(last), "--game", game, "--checksum")) == checksum_line(
            values[: last + 1], game if game not in ("4", "0") else game + ".0")


def test_checksum_of_a_huge_count_folds_whole_periods():
    """G(0..N) of 0.77 for N far past any table: the same as the textbook loop over the
    preperiod and N // 12 periods, summed in closed form here (s1, s2 are linear in N)."""
    n0, p = 71, 12  # Kayles' published preperiod and period
    g = oracle.octal_nimbers("0.77", n0 + 2 * p)
    head, block = g[:n0], g[n0 : n0 + p]
    count = n0 + p * 10**6
    s1 = s2 = 0
    for v in head:
        s1, s2 = (s1 + v) % 65535, (s2 + s1 + v) % 65535
    t = 10**6  # t blocks: s2 grows by t*k*s1 + t*(t-1)/2*k*sum(block) + t*sum((k-i)*b_i)
    k, b1 = p, sum(block)
    b2 = sum((k - i) * v for i, v in enumerate(block))
    s2 = (s2 + t * k * s1 + t * (t - 1) // 2 * k * b1 + t * b2) % 65535
    s1 = (s1 + t * b1) % 65535
    line = ok(run_kayles("grundy", str(count - 1), "--game", "0.77", "--checksum"))
    assert line.split()[0] == f"{s2 << 16 | s1:08x}"


@pytest.mark.parametrize(("code", "name"), [("4", "4.0"), ("4.", "4.0"), ("4.0", "4.0"),
                                            ("0", "0.0"), ("0.", "0.0"), ("0.0", "0.0")])
def test_bare_d0_codes(code, name):
    n = 22
    expected = oracle.split_game_nimbers(n) if name == "4.0" else oracle.octal_nimbers("0.0", n)
    assert ok(run_kayles("grundy", str(n), "--game", code)) == listing(expected).decode()
    report = json.loads(ok(run_kayles("period", "--game", code, "--json")))
    assert report["game"] == name and report["proved"]
    # the oracle's values: 4.0 is 0, 0, 1, 0, 1, ... (period 2 from heap 1); 0.0 is all 0
    assert expected[1:] == [0, 1] * (n // 2) if name == "4.0" else set(expected) == {0}
    assert (report["preperiod"], report["period"]) == ((1, 2) if name == "4.0" else (0, 1))


@pytest.mark.parametrize("code", ["1", "2", "3", "5", "7", "04", "44", "4..", "."])
def test_other_bare_codes_are_refused(code):
    assert_usage_error(run_kayles("grundy", "5", "--game", code))


# -- what --save may write over (issue 21) -----------------------------------------------------


def test_save_never_replaces_a_file_unless_told(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("the user's own words\n")
    refused = run_kayles("grundy", "100", "--game", "kayles", "--save", str(other))
    assert_usage_error(refused)
    assert b"exists; --force replaces it" in refused.stderr
    assert other.read_text() == "the user's own words\n"
    table = tmp_path / "kayles.table"
    ok(run_kayles("grundy", "100", "--game", "kayles", "--save", str(table)))
    saved = table.read_bytes()
    again = run_kayles("grundy", "200", "--game", "kayles", "--save", str(table))
    assert_usage_error(again)
    assert b"holds a saved table of kayles: --resume continues it" in again.stderr
    assert table.read_bytes() == saved
    ok(run_kayles("grundy", "100", "--game", "kayles", "--save", str(other), "--force"))
    assert other.read_bytes() == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kayles.table", "notes.txt"]


def test_save_and_resume_refuse_what_is_not_a_regular_file(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    for target in (fifo, link):
        for option in ("--save", "--resume"):
            for force in ([], ["--force"]):
                result = run_kayles("grundy", "50", "--game", "kayles", option, str(target), *force)
                assert_usage_error(result)
                assert b"not a regular file" in result.stderr
        assert fifo.exists() and not fifo.is_file()
    result = run_kayles("grundy", "50", "--save", str(tmp_path), "--force")
    assert_usage_error(result)
    assert b"is a directory" in result.stderr and b".tmp" not in result.stderr
    result = run_kayles("grundy", "50", "--resume", "/dev/zero")
    assert_usage_error(result)
    assert b"not a regular file" in result.stderr


def test_a_save_that_cannot_be_written_names_the_file(tmp_path):
    """A full disk, as the file size limit (RLIMIT_FSIZE) makes it: status 1, the file named."""
    import resource

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    path = tmp_path / "big.table"
    result = subprocess.run([sys.executable, "-m", "kayles", "grundy", "20000", "--game",
                             "grundy", "--save", str(path), "--chunk", "1000"],
                            capture_output=True, cwd=ROOT, timeout=TIMEOUT, preexec_fn=small_files)
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr == f"kayles grundy: cannot write {path}: File too large\n".encode()


def edited_table(data: bytes, index: int, value: int | None) -> bytes:
    """A table file's bytes with G(index) set to ``value`` (None: the value there XOR 1)
    and its chunk's values CRC made again (the format of kayles.storage.table_file, read
    here on its own)."""
    import struct
    import zlib

    (size,) = struct.unpack_from("<I", data, 12)
    at, copy = 16 + size + 4 + 32, bytearray(data)  # past the header's signature
    while at < len(data):
        _, start, count, _, _ = struct.unpack_from("<4sQIII", data, at)
        values_at = at + 24
        if start <= index < start + count:
            where = values_at + 2 * (index - start)
            (old,) = struct.unpack_from("<H", copy, where)
            struct.pack_into("<H", copy, where, old ^ 1 if value is None else value)
            crc = zlib.crc32(copy[values_at:values_at + 2 * count])
            struct.pack_into("<I", copy, at + 20, crc)
            return bytes(copy)
        at = values_at + 2 * count + 32  # past the chunk's signature
    raise AssertionError(f"no chunk holds value {index}")


@pytest.mark.parametrize("index, value", [(RESUMED // 2, 0xFFFF), (100, None),
                                          (RESUMED - 5, None)])
def test_an_edited_value_is_refused_whatever_its_checksums(tmp_path, index, value):
    """A value edited with its chunk's CRC made again: 0xffff in the middle (more than any
    option of the heap can make), one among the first values, one among the last: its
    signature fails.  One line naming how to start afresh, status 2, the file untouched;
    the file as it was resumes."""
    path = tmp_path / "t.table"
    ok(run_kayles("grundy", str(RESUMED), "--game", "grundy", "--save", str(path), "--chunk",
              str(CHUNK)))
    good = path.read_bytes()
    forged = edited_table(good, index, value)
    assert forged != good
    path.write_bytes(forged)
    result = run_kayles("grundy", str(RESUMED + 10), "--game", "grundy", "--resume", str(path))
    assert_usage_error(result)
    assert b"not a table kayles wrote for this user" in result.stderr, result.stderr
    assert b"--save FILE --force in place of --resume FILE starts it afresh" in result.stderr
    assert path.read_bytes() == forged
    path.write_bytes(good)
    assert ok(run_kayles("grundy", str(RESUMED + 10), "--game", "grundy", "--resume", str(path)))
