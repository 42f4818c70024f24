"""What both front ends share: numbers from text, files, the version line, how a run ends.

``Kayles-xox`` and ``kayles`` each hand their work to ``exit_status(prog, work)``, which
maps every way a run can end onto one exit status and at most one stderr line, by
the kind of ending:

    0    done
    2    usage or input: bad arguments, a file's bad contents, a request past a bound,
         an unusable setup (``InputError``, ``ResourceError``, ``SetupError``: the kinds
         of ``kayles.errors`` the layers raise for these only): "PROG: <what is wrong>";
         a game the user wrote failing in its own code is bad input too (``GameError``:
         its traceback follows with KAYLES_DEBUG=1)
    1    input/output: a file that cannot be read or written, output that cannot be
         written (disk full, ...), memory run out (``OSError``, ``MemoryError``):
         "PROG: FILE: <why>", "PROG: cannot write FILE: ...", "PROG: cannot write
         output: ...", "PROG: out of memory"
    1    anything else is a bug, a plain ``ValueError`` included (a kernel's argument
         checks raise it, and no layer hands a kernel bad input): "PROG: internal error:
         <type>: <message> (please report it ...)"; with KAYLES_DEBUG=1 the traceback
         follows
    130  Ctrl-C; a ``KeyboardInterrupt`` with a message says it in one line: where the
         same command resumes the work kept so far (survey, census, run) "PROG:
         stopped; the same command resumes", where it stops a sequence (grundy,
         period) how far it got and how its work is kept; without one, quietly
    143  SIGTERM where a run saves its work first (``errors.Terminated``), quietly
    141  the reader closed the pipe, quietly

Kept light on purpose: ``Kayles-xox`` imports this at start-up, so nothing here
imports argparse, json or the kernels at module level.
"""

from __future__ import annotations

import sys

from .._numbers import natural
from ..errors import (
    GameError,
    InputError,
    ResourceError,
    SetupError,
    Terminated,
    WriteError,
    path_text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

__all__ = [
    "Output",
    "OutputError",
    "core_name",
    "parse_natural",
    "read_text",
    "exit_status",
    "version_line",
]

WRITE_SLICE = 1 << 20  # characters per write() of the underlying stream
MAX_INPUT_BYTES = 1 << 25  # the longest input file read (32 MB): memory stays under 1.5 GB


class OutputError(Exception):
    """Writing standard output failed for a reason other than a closed pipe."""


def parse_natural(text: str, what: str = "N") -> int:
    """A non-negative decimal integer (ASCII digits only, at most MAX_DIGITS), or ValueError."""
    return natural(text, what)


def read_text(path: str) -> str:
    """The UTF-8 text of a file, or of standard input for ``-``; ValueError if it is not
    text, not a regular file (a FIFO or a device is not waited on), or longer than
    MAX_INPUT_BYTES (a pipe on standard input is read up to that many bytes)."""
    where = "standard input" if path == "-" else path_text(path)
    try:
        if path == "-":
            data = _read_stdin()
        else:
            from ..storage._files import open_regular

            with open(open_regular(path), "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise InputError(f"{where}: longer than {MAX_INPUT_BYTES >> 20} MB")
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{where}: not UTF-8 text") from None


def _read_stdin() -> bytes:
    """All of standard input; ValueError when it is closed or unreadable, or a directory
    (the launcher that make writes for ``kayles`` then runs it on /dev/null and sets
    KAYLES_STDIN_IS_A_DIRECTORY: CPython cannot start on a directory, see the Makefile)."""
    if sys.stdin is None:  # started with file descriptor 0 closed
        raise InputError("standard input is closed")
    import os  # here: Kayles-xox's start-up imports no os (tests/storage/test_proof_cache.py)

    if os.environ.get("KAYLES_STDIN_IS_A_DIRECTORY") == "1":
        raise InputError("standard input is a directory, not a file")
    try:
        return sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise InputError(f"standard input: {exc.strerror or exc}") from None


def core_name() -> str:
    from ..kernels.chooser import IMPLEMENTATION, kernel

    if IMPLEMENTATION == "cython":  # the instruction set in force (KAYLES_VECTOR, or the best)
        return f"compiled (Cython) core, {kernel.default_vector()}"
    return "pure-Python core"


def version_line(prog: str) -> str:
    from .._version import __version__

    package = "" if prog == "kayles" else " (kayles)"
    return f"{prog}{package} {__version__}, {core_name()}"


class Output:
    """A text stream whose write errors become ``OutputError`` (a closed pipe stays itself)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        if self.stream is None:  # started with file descriptor 1 closed
            raise OutputError("standard output is closed")
        # in slices: one write() of many megabytes to a pipe its reader closed
        # returns as if written (CPython 3.11), which would lose the 141
        for start in range(0, len(text), WRITE_SLICE):
            self._do(self.stream.write, text[start : start + WRITE_SLICE])

    def flush(self) -> None:
        if self.stream is not None:
            self._do(self.stream.flush)

    @staticmethod
    def _do(call, *args) -> None:
        """Run a stream call; an OSError other than a closed pipe becomes OutputError."""
        try:
            call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.strerror or str(exc)) from None

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()


def exit_status(prog: str, work: Callable[[Output], int | None], hint: str = "") -> int:
    """Run ``work(out)`` and map its ending onto an exit status (see the module header).

    ``hint`` follows the message of bad input, e.g. `` (see Kayles-xox --help)``.
    """
    if hasattr(sys, "set_int_max_str_digits"):  # Python 3.11+ caps int <-> str at 4300 digits
        sys.set_int_max_str_digits(0)  # the front ends read and write numbers of any size
    _encode_anything()
    out = Output(sys.stdout)
    notice = None
    try:
        notice = _pure_notice_later()
        status = work(out)
        out.flush()
        return status or 0
    except BrokenPipeError:  # before OSError, its base class
        _silence_stdout()
        return 141  # 128 + SIGPIPE, as if the pipe had killed us
    except KeyboardInterrupt as exc:
        _silence_stdout()
        return _fail(f"{prog}: {exc}", 130) if exc.args else 130  # 128 + SIGINT
    except Terminated:
        _silence_stdout()
        return 143  # 128 + SIGTERM
    except OutputError as exc:
        _silence_stdout()
        return _fail(f"{prog}: cannot write output: {exc}", 1)
    except MemoryError:
        _silence_stdout()
        return _fail(f"{prog}: out of memory", 1)
    except WriteError as exc:  # before OSError, its base class
        return _fail(f"{prog}: cannot write {exc.filename}: {exc.strerror or exc}", 1)
    except SetupError as exc:
        return _fail(f"{prog}: {exc}", 2)
    except (InputError, ResourceError) as exc:
        status = _fail(f"{prog}: {exc}{hint}", 2)
        if isinstance(exc, GameError) and exc.__cause__ is not None:
            _debug_traceback(exc.__cause__)  # the user's own code: its traceback, if asked
        return status
    except OSError as exc:  # a file named by the user, for reading
        where = f"{path_text(str(exc.filename))}: " if exc.filename is not None else ""
        return _fail(f"{prog}: {where}{exc.strerror or exc}", 1)
    except Exception as exc:  # noqa: BLE001 - a bug: said as one, never as the user's mistake
        _silence_stdout()
        return _internal_error(prog, exc)
    finally:
        if notice is not None:
            notice.cancel()


FORCED_PURE_NOTICE = ("kayles: KAYLES_PURE=1: the pure-Python core runs, as asked (the same "
                      "answers, tens to thousands of times slower than the compiled one)")
PURE_NOTICE = ("kayles: the compiled core is not built, so this runs in pure Python (about "
               "100 times slower); with a C compiler, reinstall kayles (pip install "
               "--force-reinstall --no-binary kayles kayles, or make in a checkout) to build it")


_noticed = False  # said once a process (kayles runs its parsing and its command in turn)


def _say_pure(notice: str = PURE_NOTICE) -> None:
    global _noticed
    if not _noticed:
        _noticed = True
        _fail(notice, 0)


def _pure_notice_later():
    """Where the pure core runs without being asked for (the compiled one was not built:
    pip says nothing of it), say so once on stderr: at once on a terminal; elsewhere (a
    file, a pipe) by a timer, when the work lasts as long as progress waits before its
    first line, so that short answers (all that a script or a grader waits for) stay
    silent."""
    from ..kernels.chooser import choice, getenv

    if _noticed or choice()[0] != "python":
        return None
    terminal = sys.stderr is not None and sys.stderr.isatty()
    if getenv("KAYLES_PURE") == "1":  # asked for: said on a terminal only, never to a script
        if terminal:
            _say_pure(FORCED_PURE_NOTICE)
        return None
    import threading

    from .progress import seconds

    wait = 0 if terminal else seconds()[0]  # someone is watching a terminal
    if wait <= 0:  # at once (a terminal, or KAYLES_PROGRESS_SECONDS=0)
        _say_pure()
        return None
    timer = threading.Timer(wait, _say_pure)
    timer.daemon = True
    timer.start()
    return timer


def _encode_anything() -> None:
    """Let stdout and stderr write any text in any locale (LC_ALL=C with PYTHONUTF8=0 is
    ASCII): a character the encoding lacks is written as an escape, not an error."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if stream is not None and encoding not in ("utf8", "utf_8"):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (AttributeError, ValueError, OSError):
                pass


def _internal_error(prog: str, exc: Exception) -> int:
    """One line that says a bug is a bug (exit status 1); the traceback with KAYLES_DEBUG=1."""
    status = _fail(f"{prog}: internal error: {type(exc).__name__}: {exc} (a bug in kayles: "
                   "please report it with the command and its --version; KAYLES_DEBUG=1 "
                   "shows the traceback)", 1)
    _debug_traceback(exc)
    return status


def _debug_traceback(exc: BaseException) -> None:
    """``exc``'s traceback on stderr when KAYLES_DEBUG=1."""
    from ..kernels.chooser import getenv

    if getenv("KAYLES_DEBUG") == "1":
        import traceback

        try:
            traceback.print_exception(exc, file=sys.stderr)
        except (AttributeError, OSError):
            pass


def _fail(message: str, status: int) -> int:
    try:
        sys.stderr.write(" ".join(message.split("\n")) + "\n")
        sys.stderr.flush()
    except (AttributeError, OSError):  # AttributeError: fd 2 closed, sys.stderr is None
        pass
    return status


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot complain."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass
