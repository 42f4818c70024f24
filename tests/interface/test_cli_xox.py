"""The ./Kayles-xox executable, end to end through a subprocess (in-process only for the
511 short rows, whose answers are the same lines: their start-ups took 14 s).

The contract is the seed (000_*.txt) and issue 2: byte-exact output for ``grundy N``
and for a POSITION, one stderr line and exit status 2 for any bad input, quiet ends
on a closed pipe and on Ctrl-C, streaming output for huge N.  Expected values come
from tests/oracle.py (brute force from the rules), never from the package.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import select
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import oracle
from conftest import (
    REQUIRE_NATIVE,
    ROOT,
    assert_usage_error,
    directory_fd,
    in_process,
    listing,
    read_prefix_then_close,
    wait_until_busy,
)

XOX = ROOT / "Kayles-xox"
PURE = os.environ.get("KAYLES_PURE", "") not in ("", "0")
TIMEOUT = 120
WORKERS = max(2, os.cpu_count() or 2)

needs_compiled = pytest.mark.skipif(
    PURE, reason="KAYLES_PURE is set: the pure core needs ~30 s to prove the period"
)


# -- helpers ---------------------------------------------------------------------------------


def env_with(pure: bool | None = None) -> dict[str, str]:
    """The current environment, or one that forces the pure (True) or compiled (False) core."""
    env = dict(os.environ)
    if pure is True:
        env["KAYLES_PURE"] = "1"
        env.pop("KAYLES_REQUIRE_NATIVE", None)  # both set is an import error by design
    elif pure is False:
        env.pop("KAYLES_PURE", None)
        env["KAYLES_REQUIRE_NATIVE"] = "1"  # never fall back silently to the slow core
    return env


def compiled_core_built() -> bool:
    kernels = ROOT / "kayles" / "kernels"
    return any(kernels.glob("_core*.so")) or any(kernels.glob("_core*.pyd"))


@pytest.fixture
def compiled_env() -> dict[str, str]:
    if not compiled_core_built():
        if REQUIRE_NATIVE:
            pytest.fail("KAYLES_REQUIRE_NATIVE is set but the compiled core is not built")
        pytest.skip("compiled core not built")
    return env_with(pure=False)


def xox(*args, env=None, cwd=None, exe=XOX) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), *args], capture_output=True, env=env, cwd=cwd, timeout=TIMEOUT)


def xox_many(arg_lists, env=None) -> list[subprocess.CompletedProcess]:
    """Run Kayles-xox once per argument list, a few at a time (each run is mostly start-up)."""
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(lambda args: xox(*args, env=env), arg_lists))


def parse_listing(stdout: bytes) -> list[int]:
    text = stdout.decode("ascii")
    assert text.startswith("[") and text.endswith("]\n") and text.count("\n") == 1
    return [int(word) for word in text[1:-2].split(", ")]


def assert_ok(result: subprocess.CompletedProcess, stdout: bytes) -> None:
    assert (result.returncode, result.stderr, result.stdout) == (0, b"", stdout)


# -- the seed's examples, byte for byte -------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        (["grundy", "6"], b"[0, 1, 0, 2, 3, 2, 1]\n"),
        ([".x"], b"..\n"),
        (["xxxxxxx.xxxxxxxx..xxxxxxxx."], b"xxx.xxx.xxxxxxxx..xxxxxxxx.\n"),
        (["xxx.x.xxxx"], b"LOSS\n"),
        (["xx.x"], b"xx..\n"),  # the first run's move wins too, but raises its value
        ([""], b"LOSS\n"),
        (["grundy", "0"], b"[0]\n"),
    ],
    ids=["seed-grundy-6", "seed-.x", "seed-long-row", "seed-LOSS", "xx.x", "empty", "grundy-0"],
)
def test_seed_examples_verbatim(args, stdout):
    assert_ok(xox(*args), stdout)


# -- grundy N ---------------------------------------------------------------------------------


def test_sum_theorem_reference_agrees_with_the_oracle():
    assert oracle.xox_nimbers_by_sum(30) == oracle.KAYLES_XOX.nimbers(30)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 30])
def test_grundy_small_n_matches_oracle(n):
    assert_ok(xox("grundy", str(n)), listing(oracle.KAYLES_XOX.nimbers(n)))


def test_grundy_1000_is_one_line_of_1001_values():
    result = xox("grundy", "1000")
    assert (result.returncode, result.stderr) == (0, b"")
    values = parse_listing(result.stdout)
    assert len(values) == 1001
    assert values[:31] == oracle.KAYLES_XOX.nimbers(30)
    assert values == oracle.xox_nimbers_by_sum(1000)


# -- winning moves ----------------------------------------------------------------------------


def expected_move(row: str) -> bytes:
    move = oracle.KAYLES_XOX.winning_move(row)
    return ("LOSS" if move is None else move).encode() + b"\n"


def check_rows(rows: list[str], env=None, in_this_process: bool = False) -> None:
    if in_this_process:   # xox_cli.main, its stdout and stderr caught (conftest.in_process)
        results = [in_process("Kayles-xox", [row]) for row in rows]
    else:
        results = xox_many([[row] for row in rows], env=env)
    wrong = [
        (row, r.returncode, r.stdout, r.stderr)
        for row, r in zip(rows, results)
        if (r.returncode, r.stderr, r.stdout) != (0, b"", expected_move(row))
    ]
    assert not wrong, f"{len(wrong)} of {len(rows)} rows wrong, e.g. {wrong[:5]}"


ALL_SHORT_ROWS = ["".join(p) for k in range(9) for p in itertools.product(".x", repeat=k)]


def random_rows(count: int, seed: int, shortest: int, longest: int) -> list[str]:
    rng = random.Random(seed)
    return [
        "".join(rng.choice("xxx.") for _ in range(rng.randint(shortest, longest)))
        for _ in range(count)
    ]


def test_winning_move_on_every_row_up_to_8_pins():
    """Every row by xox_cli.main in this process; those up to 4 pins (31) by the executable
    as well, as are the random longer rows below."""
    assert len(ALL_SHORT_ROWS) == 511
    check_rows(ALL_SHORT_ROWS, in_this_process=True)
    check_rows(ALL_SHORT_ROWS[:31])


def test_winning_move_on_random_longer_rows():
    check_rows(random_rows(60, seed=474, shortest=9, longest=22))


def move_by_the_sum_theorem(groups: list[int]) -> str:
    """The seed's winning move on rows of these sizes (gaps between), each group's moves
    and values from the oracle, the nim-sum joining them: the leftmost group whose value
    the move can lower to make the sum 0, its leftmost such move (single pin first)."""
    values = [oracle.KAYLES_XOX.grundy("x" * size) for size in groups]
    total = 0
    for value in values:
        total ^= value
    row = ".".join("x" * size for size in groups)
    if total == 0:
        return "LOSS"
    start = 0
    for size, value in zip(groups, values):
        if total ^ value < value:
            for _, _, after in oracle.KAYLES_XOX.moves("x" * size):
                if oracle.KAYLES_XOX.grundy(after) == total ^ value:
                    return row[:start] + after + row[start + size:]
        start += size + 1
    raise AssertionError("no winning move in a position of non-zero value")


def test_a_position_past_the_argument_limit_is_read_from_standard_input():
    """Linux refuses an argument of 128 KiB or more (E2BIG): 'Kayles-xox -' reads the
    position from standard input, one line, its line ending (LF or CRLF) not part of it."""
    draw = random.Random(2026)
    groups = []
    while sum(groups) + len(groups) < 200_000:
        groups.append(draw.randint(1, 14))
    row = ".".join("x" * size for size in groups)
    with pytest.raises(OSError):
        xox(row)
    expected = move_by_the_sum_theorem(groups)
    assert expected != "LOSS"
    for ending in (b"\n", b"\r\n", b""):
        result = subprocess.run([str(XOX), "-"], input=row.encode() + ending,
                                capture_output=True, timeout=TIMEOUT)
        assert_ok(result, expected.encode() + b"\n")
    for row in ["xxxxxxx.xxxxxxxx..xxxxxxxx.", "xxx.x.xxxx", "", ".x"]:
        result = subprocess.run([str(XOX), "-"], input=row.encode() + b"\n",
                                capture_output=True, timeout=TIMEOUT)
        assert_ok(result, expected_move(row))
    bad = subprocess.run([str(XOX), "-"], input=b"xx-x\n", capture_output=True,
                         timeout=TIMEOUT)
    assert (bad.returncode, bad.stdout, bad.stderr.count(b"\n")) == (2, b"", 1)


def test_any_standard_input_keeps_the_one_line_contract(tmp_path):
    """Issue 53: with a directory on standard input CPython stopped before kayles ran (a
    4-line "Fatal Python error", status 1); the sh launcher starts it on /dev/null there."""
    with directory_fd(tmp_path) as folder:
        refused = subprocess.run([str(XOX), "-"], stdin=folder, capture_output=True,
                                 timeout=TIMEOUT)
        assert_usage_error(refused)
        assert b"standard input is a directory" in refused.stderr
        for args, stdout in ((["grundy", "6"], b"[0, 1, 0, 2, 3, 2, 1]\n"), (["xx.x"], b"xx..\n")):
            assert_ok(subprocess.run([str(XOX), *args], stdin=folder, capture_output=True,
                                     timeout=TIMEOUT), stdout)
    closed = subprocess.run(["/bin/sh", "-c", f"exec '{XOX}' - <&-"], capture_output=True,
                            timeout=TIMEOUT)
    assert_usage_error(closed)
    assert b"standard input is closed" in closed.stderr
    for device in ("/dev/null", "/dev/zero"):
        with open(device, "rb") as stdin:
            result = subprocess.run([str(XOX), "grundy", "2"], stdin=stdin,
                                    capture_output=True, timeout=TIMEOUT)
        assert_ok(result, b"[0, 1, 0]\n")


# -- bad input --------------------------------------------------------------------------------

BAD_INPUTS = {
    "no-arguments": [],
    "grundy-two-numbers": ["grundy", "5", "6"],
    "two-positions": ["xx", "xx"],
    "grundy-alone": ["grundy"],
    "grundy-negative": ["grundy", "-1"],
    "grundy-fraction": ["grundy", "1.5"],
    "grundy-word": ["grundy", "abc"],
    "grundy-empty": ["grundy", ""],
    "grundy-plus-sign": ["grundy", "+3"],
    "grundy-leading-space": ["grundy", " 3"],
    "grundy-trailing-space": ["grundy", "3 "],
    "grundy-underscore": ["grundy", "1_000"],
    "grundy-hex": ["grundy", "0x10"],
    "grundy-arabic-indic-digit": ["grundy", "\u0663"],
    "grundy-fullwidth-digit": ["grundy", "\uff13"],
    "position-with-o": ["xxo"],
    "capital-X": ["X"],
    "position-with-space": ["x x"],
    "position-with-tab": ["x\tx"],
    "position-with-newline": ["x\nx"],
    "non-ascii": ["\u00e9"],
    "dash-x": ["-x"],
    "undecodable-byte": [b"x\xffx"],
    "help-with-extra": ["--help", "x"],
    "three-arguments": ["grundy", "5", "x"],
}


@pytest.mark.parametrize("args", list(BAD_INPUTS.values()), ids=list(BAD_INPUTS))
def test_bad_input_is_one_stderr_line_and_status_2(args):
    assert_usage_error(xox(*args))


# -- --help and --version ---------------------------------------------------------------------


def test_conflicting_core_settings_are_one_line_errors():
    env = {**os.environ, "KAYLES_PURE": "1", "KAYLES_REQUIRE_NATIVE": "1"}
    for command in ([str(XOX), "grundy", "3"], [sys.executable, "-m", "kayles", "grundy", "3"]):
        result = subprocess.run(command, capture_output=True, env=env, cwd=ROOT, timeout=TIMEOUT)
        assert_usage_error(result)
        assert b"both set" in result.stderr


def test_help():
    result = xox("--help")
    assert (result.returncode, result.stderr) == (0, b"")
    assert b"usage" in result.stdout.lower()
    assert b"grundy" in result.stdout


def version_line(env) -> str:
    result = xox("--version", env=env)
    assert (result.returncode, result.stderr) == (0, b"")
    text = result.stdout.decode()
    assert text.endswith("\n") and text.count("\n") == 1
    return text.lower()


def test_version_says_pure_in_pure_mode():
    line = version_line(env_with(pure=True))
    assert "pure" in line and "compiled" not in line


def test_version_says_compiled_by_default(compiled_env):
    from kayles.kernels import _core

    line = version_line(compiled_env)
    assert "compiled" in line and "pure" not in line
    assert line.rstrip().endswith(_core.VECTORS[0])  # the instructions its searches use


# -- where it runs from -----------------------------------------------------------------------


def test_runs_from_another_directory_by_absolute_path(tmp_path):
    assert_ok(xox(".x", cwd=tmp_path, exe=XOX.resolve()), b"..\n")


def test_runs_from_another_directory_by_relative_path(tmp_path):
    relative = os.path.relpath(XOX, tmp_path)
    assert not os.path.isabs(relative)
    assert_ok(xox("grundy", "6", cwd=tmp_path, exe=relative), b"[0, 1, 0, 2, 3, 2, 1]\n")


def test_runs_as_dot_slash_from_the_repository():
    assert_ok(xox("xxx.x.xxxx", cwd=ROOT, exe="./Kayles-xox"), b"LOSS\n")


def test_runs_through_a_symlink_and_through_path(tmp_path):
    (tmp_path / "bin").mkdir()
    link = tmp_path / "bin" / "Kayles-xox"
    link.symlink_to(XOX.resolve())
    assert_ok(xox(".x", cwd=tmp_path, exe=link), b"..\n")
    env = env_with()
    env["PATH"] = str(tmp_path / "bin") + os.pathsep + env.get("PATH", "")
    assert_ok(xox("xx.x", cwd=tmp_path, exe="Kayles-xox", env=env), b"xx..\n")


# -- pure mode --------------------------------------------------------------------------------


def test_pure_mode_prints_the_same_grundy_200():
    pure = xox("grundy", "200", env=env_with(pure=True))
    assert_ok(pure, listing(oracle.xox_nimbers_by_sum(200)))
    assert_ok(xox("grundy", "200"), pure.stdout)


def test_pure_mode_prints_the_same_moves():
    rows = ["xx.x", ".x", "xxx.x.xxxx", "xxxxxxx.xxxxxxxx..xxxxxxxx."]
    rows += random_rows(10, seed=7, shortest=5, longest=18)
    check_rows(rows, env=env_with(pure=True))


# -- huge N: streaming, bounded memory, closed pipes, Ctrl-C ---------------------------------

STREAM_WRAPPER = r"""
import json, resource, subprocess, sys
proc = subprocess.Popen([sys.argv[1], "grundy", sys.argv[2]],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
size = commas = spaces = newlines = 0
head = tail = b""
while True:
    chunk = proc.stdout.read1(1 << 20)
    if not chunk:
        break
    if len(head) < 40:
        head = (head + chunk)[:40]
    tail = (tail + chunk)[-40:]
    size += len(chunk)
    commas += chunk.count(b",")
    spaces += chunk.count(b" ")
    newlines += chunk.count(b"\n")
err = proc.stderr.read()
status = proc.wait()
print(json.dumps({
    "status": status, "stderr": err.decode("utf-8", "replace"), "size": size,
    "commas": commas, "spaces": spaces, "newlines": newlines,
    "head": head.decode("ascii"), "tail": tail.decode("ascii"),
    "maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
}))
"""


@needs_compiled
def test_grundy_100_million_streams_in_bounded_memory(compiled_env):
    n = 100_000_000
    wrapper = subprocess.run(
        [sys.executable, "-c", STREAM_WRAPPER, str(XOX), str(n)],
        capture_output=True,
        env=compiled_env,
        timeout=300,
        check=True,
    )
    report = json.loads(wrapper.stdout)
    assert (report["status"], report["stderr"]) == (0, "")
    assert report["commas"] == n and report["spaces"] == n and report["newlines"] == 1
    assert report["head"] == listing(oracle.KAYLES_XOX.nimbers(30)).decode()[:40]
    assert report["tail"].endswith("]\n")
    assert report["maxrss_kib"] < 100 * 1024, f"peak RSS {report['maxrss_kib']} KiB"


QUIET_PIPE_ENDS = (0, 141, -signal.SIGPIPE)


@needs_compiled
@pytest.mark.parametrize("n", ["1000000", "1" + "0" * 30], ids=["1e6", "1e30"])
def test_closed_pipe_ends_quietly(compiled_env, n):
    prefix, status, err = read_prefix_then_close([str(XOX), "grundy", n], compiled_env)
    assert prefix == listing(oracle.KAYLES_XOX.nimbers(30))[:20]
    assert status in QUIET_PIPE_ENDS
    assert err == b""


def interrupt(args, env, wait_for_output: bool) -> tuple[int, bytes]:
    """Start Kayles-xox with stdout to a pipe nobody drains, then send SIGINT."""
    with subprocess.Popen(
        [str(XOX), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as proc:
        try:
            if wait_for_output:  # writing has begun: the pipe fills and the write blocks
                ready, _, _ = select.select([proc.stdout], [], [], TIMEOUT)
                assert ready, "no output"
            else:
                wait_until_busy(proc, 0.3)  # well past interpreter start-up
            assert proc.poll() is None, "finished before the interrupt"
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
    return proc.returncode, err


def test_ctrl_c_while_writing_ends_quietly():
    status, err = interrupt(["grundy", "100000000"], env_with(), wait_for_output=not PURE)
    assert status == 130, err
    assert b"Traceback" not in err


def test_ctrl_c_while_computing_in_pure_mode_ends_quietly():
    status, err = interrupt(["grundy", "100000000"], env_with(pure=True), wait_for_output=False)
    assert status == 130, err
    assert b"Traceback" not in err


def test_a_pure_core_asked_for_says_so_once_on_a_terminal_only():
    """KAYLES_PURE=1 on a terminal: one line on stderr (it is slower); to a file or a pipe
    (a script, a grader): nothing; stdout is the contract's either way."""
    import pty

    from kayles.interface._frontend import FORCED_PURE_NOTICE

    env = env_with(pure=True)
    main, terminal = pty.openpty()
    try:
        result = subprocess.run([str(XOX), "grundy", "30"], stdout=subprocess.PIPE,
                                stderr=terminal, env=env, timeout=TIMEOUT)
        os.close(terminal)
        said = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal's other end closed: all is read
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(main)
    assert result.stdout == listing(oracle.KAYLES_XOX.nimbers(30))
    assert said.decode().replace("\r\n", "\n") == FORCED_PURE_NOTICE + "\n"
    piped = xox("grundy", "30", env=env)
    assert (piped.returncode, piped.stderr) == (0, b"")


def test_a_pure_install_says_so_on_stderr_whatever_stderr_is(tmp_path):
    """The package without its compiled core (a build with no compiler: pip says nothing)
    says so once on stderr, a file here, when the work lasts (KAYLES_PROGRESS_SECONDS 0:
    at once);
    a short answer says nothing (the default wait), and the output is the contract's."""
    import shutil

    from kayles.interface._frontend import PURE_NOTICE

    shutil.copytree(ROOT / "kayles", tmp_path / "kayles",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    env = {k: v for k, v in env_with().items() if k not in ("KAYLES_PURE",
                                                             "KAYLES_REQUIRE_NATIVE")}
    env["PYTHONPATH"] = str(tmp_path)
    program = [sys.executable, "-c",
               "import sys; from kayles.interface.xox_cli import main; sys.exit(main())"]

    def run(*args: str, **changes: str) -> tuple[bytes, str]:
        with open(tmp_path / "log", "w+b") as log:
            result = subprocess.run([*program, *args], stdout=subprocess.PIPE, stderr=log,
                                    env={**env, **changes}, cwd=tmp_path, timeout=TIMEOUT)
            log.seek(0)
            assert result.returncode == 0
            return result.stdout, log.read().decode()

    out, err = run("grundy", "30", KAYLES_PROGRESS_SECONDS="0")
    assert out == listing(oracle.KAYLES_XOX.nimbers(30))
    assert err == PURE_NOTICE + "\n"
    assert run("xx.x") == (b"xx..\n", "")
    assert "pure-Python core" in run("--version")[0].decode()
