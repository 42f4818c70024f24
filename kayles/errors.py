"""The package's error kinds and how any message quotes what the user typed.

    InputError     bad input: an argument, a code, a file's contents (edited, damaged,
                   of another game or version)
    GameError      an InputError: a game the user wrote in Python failed in its own code
                   (its exception is the ``__cause__``)
    ResourceError  a request past a bound: a budget, the memory, the time allowed
    SetupError     an environment that cannot run the request (a core setting, a
                   missing optional extra)
    WriteError     a file the user asked for could not be written
    Terminated     SIGTERM asked a run to stop

``InputError`` and ``ResourceError`` are ``ValueError``s, so ``except ValueError`` in a
caller's code keeps catching them.  Any other exception that reaches a front end, a
plain ``ValueError`` of a kernel's argument checks included, is a bug: the layers above
the kernels never hand them bad input.  The front ends map each kind onto one exit
status in one place (``kayles.interface._frontend``; the web page onto one HTTP status).
"""

from __future__ import annotations

__all__ = ["SHOWN_LONGEST", "GameError", "InputError", "ResourceError", "SetupError",
           "Terminated", "WriteError", "counted", "path_text", "shown"]

SHOWN_LONGEST = 60  # characters of user text a message quotes; a longer text is cut


class InputError(ValueError):
    """Bad input: what the user gave (an argument, a code, a file's contents) is wrong."""


class GameError(InputError):
    """A game the user wrote (a file they named, an object they passed) failed in its own
    code: the message says which method, with what, and where; ``__cause__`` is the
    exception it raised (the front ends show its traceback under ``KAYLES_DEBUG=1``)."""


class ResourceError(ValueError):
    """The request needs more than a bound allows (a budget, the memory, the time); the
    message says which bound, and how to raise it where it can be raised."""


class SetupError(ImportError):
    """The environment cannot run this: a core setting or an optional extra is missing."""


class Terminated(BaseException):
    """SIGTERM asked a run to stop (after saving what it must): exit status 143, quietly.

    A BaseException, like KeyboardInterrupt (Ctrl-C, 130): no ``except Exception`` stops it.
    """


class WriteError(OSError):
    """A file the user asked for could not be written (a full disk, ...): exit status 1.

    ``filename`` is the file the user named (never a temporary), ``strerror`` why.
    """


def shown(text: str) -> str:
    """``text`` quoted for a message, undecodable argument bytes shown as typed (``\\xff``).

    A text longer than SHOWN_LONGEST characters is cut, and its length said, so
    one line of a huge file cannot flood the terminal.
    """
    cut = len(text) > SHOWN_LONGEST
    part = text[:SHOWN_LONGEST] if cut else text
    raw = part.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    quoted = repr(raw).replace("\\\\x", "\\x")
    return f"{quoted} (the first {SHOWN_LONGEST} of {len(text)} characters)" if cut else quoted


def path_text(path: str) -> str:
    """A file name for a message, undecodable bytes shown as typed (``\\xff``)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def counted(count: int, word: str, words: str = "") -> str:
    """``count`` and its noun for a message: "1 token", "2 tokens", "1,419 codes"
    (``words``: the plural where it is not ``word`` + "s")."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"
