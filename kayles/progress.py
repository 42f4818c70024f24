"""Progress bars for long work: tqdm on a terminal, nothing anywhere else.

tqdm is the optional extra ``kayles[progress]``, imported only when a bar is
actually shown (stderr is a terminal and tqdm is installed), so start-up and
pipes never pay for it.  Without it long work runs silently.
"""

from __future__ import annotations

import sys

__all__ = ["Bar", "bar", "sequence_bar"]


class Bar:
    """A progress bar: ``update(done)`` with the absolute count, ``close()`` at the end."""

    def __init__(self, total: int, description: str, unit: str) -> None:
        self._tqdm = None
        if sys.stderr is None or not sys.stderr.isatty():  # None: fd 2 closed
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self._tqdm = tqdm(total=total, desc=description, unit=unit, unit_scale=True,
                          leave=False, dynamic_ncols=True, file=sys.stderr)

    @property
    def shown(self) -> bool:
        return self._tqdm is not None

    def update(self, done: int, total: int | None = None) -> None:
        if self._tqdm is None:
            return
        if total is not None and total != self._tqdm.total:
            self._tqdm.total = total
        self._tqdm.update(done - self._tqdm.n)

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
            self._tqdm = None

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def bar(total: int, description: str, unit: str = "it") -> Bar:
    """A ``Bar`` that shows only on a terminal with tqdm installed."""
    return Bar(total, description, unit)


def sequence_bar(description: str) -> Bar | None:
    """A bar for ``Sequence.progress``, or None when nothing would show."""
    shown = bar(0, description, "values")
    return shown if shown.shown else None
