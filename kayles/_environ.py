"""The environment, read without importing os: Kayles-xox's start-up never pays for it."""

from __future__ import annotations

import sys

if "posix" in sys.builtin_module_names:
    import posix as _system
else:  # pragma: no cover - Windows
    import os as _system

__all__ = ["getenv", "system"]

system = _system  # posix (or os elsewhere): the module the environment and paths come from


def getenv(name: str) -> str:
    """An environment variable ('' when unset), read without importing os."""
    os = sys.modules.get("os")
    if os is not None:  # os.environ sees changes made through it since start-up
        return os.environ.get(name, "")
    value = _system.environ.get(name.encode(), b"")  # posix.environ: bytes, as at start-up
    return value.decode(sys.getfilesystemencoding(), "surrogateescape")
