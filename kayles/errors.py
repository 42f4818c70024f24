"""The package's own error type and how any message quotes what the user typed.

Every layer reports bad input as ``ValueError``; ``SetupError`` is for an
environment that cannot run the request (a core setting, a missing optional
extra).  The front ends turn both into one stderr line and exit status 2.
"""

from __future__ import annotations

__all__ = ["SetupError", "shown"]


class SetupError(ImportError):
    """The environment cannot run this: a core setting or an optional extra is missing."""


def shown(text: str) -> str:
    """``text`` quoted for a message, undecodable argument bytes shown as typed (``\\xff``)."""
    raw = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return repr(raw).replace("\\\\x", "\\x")
