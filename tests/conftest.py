"""Shared fixtures and helpers: every kernel test runs on both twins.

The ``kernel`` fixture is the compiled nim-sequence kernel (kayles.kernels._core) and its
pure twin (kayles.kernels.pure._core) in turn; ``misere_kernel``, ``quotient_kernel``,
``takebreak_kernel``, ``nimber_kernel`` and ``hackenbush_kernel`` the same for the other
kernels of the wing, and ``both_*`` each pair at once.  When the compiled core is missing
its case is skipped, unless KAYLES_REQUIRE_NATIVE is set (as CI and ``make test`` do):
then it fails, so a broken build cannot pass as "pure tested twice".
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/oracle.py

REQUIRE_NATIVE = os.environ.get("KAYLES_REQUIRE_NATIVE", "") not in ("", "0")

# A suite started in the background by a shell without job control inherits SIGINT
# ignored, and so would every program a test starts (an ignored signal stays ignored
# across exec): Ctrl-C tests would then wait on programs that cannot hear it.  A handler
# here is reset to the default in each child, so the tests see what a user's Ctrl-C does.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The proof cache (kayles.storage.proof_cache) of every test and subprocess: a fresh
# directory, never the user's ~/.cache.  Set before any test module imports kayles.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="kayles-test-cache-")
# The direct limit (the longest table without a proof) follows the memory: fixed here at
# 2**27 values (6 bytes each), so that every machine refuses the same requests.
os.environ["KAYLES_MEMORY"] = str(6 << 27)
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)
# The signing key (kayles.storage.signing) of every test and subprocess: one of their own,
# never the user's ~/.local/share/kayles/secret.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="kayles-test-data-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], True)
# A log's progress lines come with slowness (10 s of work on a loaded machine): none in any
# test's stderr unless the test asks for them (KAYLES_PROGRESS_SECONDS of its own).
os.environ["KAYLES_PROGRESS_SECONDS"] = "86400"


def load_kernel(name: str, concern: str = "core"):
    if name == "python":
        return importlib.import_module(f"kayles.kernels.pure._{concern}")
    try:
        return importlib.import_module(f"kayles.kernels._{concern}")
    except ImportError as exc:
        if REQUIRE_NATIVE:
            pytest.fail(f"KAYLES_REQUIRE_NATIVE is set but the compiled core is missing: {exc}")
        pytest.skip(f"compiled core not built: {exc}")


def is_compiled(kernel) -> bool:
    """Whether a kernel module is the compiled twin (kayles.kernels.<name>), not the pure
    one (kayles.kernels.pure.<name>)."""
    from kayles.kernels.chooser import compiled

    return compiled(kernel)


def _twin_fixtures(concern: str, each: str, both: str):
    """Two session fixtures of one kernel: ``each`` runs a test on the compiled twin, then
    on the pure one; ``both`` gives the pair (compiled, pure), to compare them directly."""

    @pytest.fixture(scope="session", params=["cython", "python"], name=each)
    def one_twin(request):
        return load_kernel(request.param, concern)

    @pytest.fixture(scope="session", name=both)
    def the_twins():
        return load_kernel("cython", concern), load_kernel("python", concern)

    return one_twin, the_twins


# One pair a kernel of the wing (kayles/kernels): every kernel test takes one of these.
kernel, both_kernels = _twin_fixtures("core", "kernel", "both_kernels")
misere_kernel, both_misere_kernels = _twin_fixtures(
    "misere", "misere_kernel", "both_misere_kernels")
quotient_kernel, both_quotient_kernels = _twin_fixtures(
    "quotient", "quotient_kernel", "both_quotient_kernels")
takebreak_kernel, both_takebreak_kernels = _twin_fixtures(
    "takebreak", "takebreak_kernel", "both_takebreak_kernels")
nimber_kernel, both_nimber_kernels = _twin_fixtures(
    "nimber", "nimber_kernel", "both_nimber_kernels")
hackenbush_kernel, both_hackenbush_kernels = _twin_fixtures(
    "hackenbush", "hackenbush_kernel", "both_hackenbush_kernels")
search_kernel, both_search_kernels = _twin_fixtures(
    "search", "search_kernel", "both_search_kernels")
board_kernel, both_board_kernels = _twin_fixtures("boards", "board_kernel", "both_board_kernels")
graph_kernel, both_graph_kernels = _twin_fixtures("graphs", "graph_kernel", "both_graph_kernels")
chomp_kernel, both_chomp_kernels = _twin_fixtures("chomp", "chomp_kernel", "both_chomp_kernels")


@contextlib.contextmanager
def directory_fd(path):
    """A directory opened read-only (what the shell's '< DIR' gives): its descriptor."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        yield fd
    finally:
        os.close(fd)


def assert_usage_error(result, status: int = 2) -> None:
    """A front end refused its input: one line on stderr, status 2, nothing on stdout."""
    err = result.stderr if isinstance(result.stderr, str) else result.stderr.decode(
        "utf-8", "replace")  # (kayles_said gives str)
    assert result.returncode == status, err
    assert result.stdout in (b"", "")
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1 and err.strip(), repr(err)


def assert_io_failure(result, path) -> None:
    """The system refused a file the user named: one line naming it, status 1, no stdout."""
    assert_usage_error(result, status=1)
    assert f": {path}: " in result.stderr.decode("utf-8", "replace")


DASK_DASHBOARD = 8787  # the port a Dask scheduler's dashboard takes unless told


@contextlib.contextmanager
def dashboard_port_taken():
    """Dask's dashboard port held by another program (as on a machine where a notebook's
    cluster runs), so a test's cluster that did not ask for a free port would fail."""
    import socket

    with socket.socket() as holder:
        try:
            holder.bind(("0.0.0.0", DASK_DASHBOARD))
            holder.listen()
        except OSError:  # taken already: by someone else, the same test
            pass
        yield


def new_table(size: int) -> memoryview:
    """A kernel's table: ``size`` unsigned 16-bit values, all 0."""
    return memoryview(bytearray(2 * size)).cast("H")


def run_kayles(*args, env: dict | None = None, stdin: bytes | None = None,
                   cwd=ROOT) -> subprocess.CompletedProcess:
    """``python -m kayles ARGS`` as a real process, its output caught as bytes.  ``env``:
    variables set over this process's (None as a value: unset).  The limit only ends a
    stuck program (DEADLINE, sized for a busy machine); no verdict rests on it."""
    environment = None
    if env is not None:
        environment = {**os.environ, **{k: v for k, v in env.items() if v is not None}}
        for name in [k for k, v in env.items() if v is None]:
            environment.pop(name, None)
    return subprocess.run([sys.executable, "-m", "kayles", *map(str, args)], input=stdin,
                          capture_output=True, cwd=cwd, env=environment, timeout=DEADLINE)


def kayles_said(*args, stdin: str | bytes | None = None, text: bool = True):
    """What ``kayles ARGS`` says (str, unless text is False), run in this process
    (``in_process``)."""
    return in_process("kayles", args, stdin, text=text)


def ok(result: subprocess.CompletedProcess, text: bool = True):
    """The output of a command that must succeed: status 0 and nothing on stderr."""
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    return result.stdout.decode() if text else result.stdout


def in_process(program: str, args, stdin: str | bytes | None = None,
               text: bool = False) -> subprocess.CompletedProcess:
    """Run ``kayles`` (or ``Kayles-xox``) in this process: its main(argv) with stdout and
    stderr caught as bytes, the exit status as a process's (argparse's SystemExit too).
    For the tests that check what a command says; those that check the process itself
    (signals, closed descriptors, start-up) start a real one."""
    import io

    if program == "kayles":
        from kayles.interface.kayles_cli import main
    else:
        from kayles.interface.xox_cli import main
    class Caught(io.BytesIO):
        def close(self) -> None:  # a wrapper that goes away keeps what was written
            pass

    streams = sys.stdin, sys.stdout, sys.stderr
    given = stdin.encode() if isinstance(stdin, str) else stdin or b""
    sys.stdin = io.TextIOWrapper(io.BytesIO(given), encoding="utf-8")
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    out, err = Caught(), Caught()
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        try:
            status = main([str(arg) for arg in args])
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        for number, handler in handlers.items():
            signal.signal(number, handler)
    said = out.getvalue(), err.getvalue()
    if text:
        said = tuple(part.decode("utf-8", "replace") for part in said)
    return subprocess.CompletedProcess([program, *args], status or 0, *said)


def on_a_terminal(command: list[str], env=None, cwd=ROOT,
                  rows_columns: tuple[int, int] | None = None) -> tuple[int, bytes, bytes]:
    """Run with stderr on a pseudo-terminal (of that size, when given): (status, stdout,
    everything the terminal showed)."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    if rows_columns is not None:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", *rows_columns, 0, 0))
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=follower, env=env,
                                cwd=cwd, timeout=120)
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: every writer has closed the terminal
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    return result.returncode, result.stdout, shown


def listing(values) -> bytes:
    """The seed's format: [a, b, c] and a newline."""
    return ("[" + ", ".join(map(str, values)) + "]\n").encode()


def read_prefix_then_close(command: list[str], env=None, count: int = 20):
    """Read ``count`` bytes of the command's output, close the pipe: (prefix, status, stderr)."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                          cwd=ROOT) as proc:
        try:
            prefix = proc.stdout.read(count)
            proc.stdout.close()
            err = proc.stderr.read()
            status = proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
    return prefix, status, err


# -- processes, judged by the work they did, never by the clock ------------------------------
# A loaded machine stretches every wall-clock wait, so a test that signals a running
# program waits till the program has used some CPU time (past start-up, into its work)
# and judges "stopped at once" by the CPU time it used after the signal.  The deadline
# only ends a test whose program is stuck; no assertion rests on it.

DEADLINE = 300  # seconds: a program this slow to get going or to end is stuck


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a running process has used so far, every thread."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_busy(proc: subprocess.Popen, seconds: float) -> None:
    """Wait till ``proc`` has used ``seconds`` of CPU time; it must not end first."""
    deadline = time.monotonic() + DEADLINE
    while cpu_seconds(proc.pid) < seconds:
        assert proc.poll() is None, "the program ended before it was busy"
        assert time.monotonic() < deadline, "the program never got busy"
        time.sleep(0.01)


def signal_and_measure(proc: subprocess.Popen, number: int) -> tuple[float, bytes, bytes]:
    """Send ``number`` to a busy ``proc`` and reap it: (the CPU seconds it used after the
    signal, its stdout, its stderr); proc.returncode is set."""
    before = cpu_seconds(proc.pid)
    proc.send_signal(number)
    deadline = time.monotonic() + DEADLINE
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"still running {DEADLINE} s after signal {number}")
        time.sleep(0.01)
    proc.returncode = os.waitstatus_to_exitcode(status)
    out, err = proc.communicate()
    return usage.ru_utime + usage.ru_stime - before, out, err
