"""Progress of long work: a bar on a terminal, lines in a log, nothing for short work.

On a terminal with tqdm (the optional extra ``kayles[progress]``, imported only
then) a bar shows at once.  Anywhere else (stderr a file or a pipe, or no tqdm)
a run that is still going after ``FIRST_LINE`` seconds writes one line to stderr
then and every ``EVERY`` seconds after, as long-running scientific tools do:

    kayles grundy: 12,582,912 of 134,217,728 values (9%), 1.05M values/s, about 1 min 46 s left

so short runs (every answer a test or a script waits for) write nothing.  The
environment variable KAYLES_PROGRESS_SECONDS sets both intervals (seconds).  Work whose
total is not known (a search: ``counter``) shows its count and rate, and a note after
them (the search's table and its evictions):

    kayles solve: 1,234,567 positions, 45.20k positions/s; table 2,113,008 entries
    (512.0 MB), 10,233 evicted          (one line)

The time left follows the work's measured growth, not a constant rate: the time to reach
n done grows as n**e, e fitted between the first sample at half the work done now or less
and now (1 for octal games, some 3 for a take-and-break game whose values grow: its
kernel's cost a heap grows with the heap and with its values); e is 1 until there is such
a sample, and kept within 1 to MAX_GROWTH.
"""

from __future__ import annotations

import sys
import time

__all__ = ["Bar", "bar", "counter", "seconds", "sequence_bar"]

FIRST_LINE = 10.0  # seconds of work before the first progress line
EVERY = 30.0  # seconds between progress lines
MAX_GROWTH = 6.0  # the largest exponent of the time's growth a line's time left assumes


class Bar:
    """Progress of one piece of work: ``update(done)`` with the absolute count, ``close()``."""

    def __init__(self, total: int, description: str, unit: str, initial: int = 0) -> None:
        self._tqdm = None
        self._lines: _Lines | None = None
        if sys.stderr is None:  # fd 2 closed
            return
        if sys.stderr.isatty():
            self._tqdm = _tqdm(total, description, unit, initial)
        if self._tqdm is None:
            self._lines = _Lines(total, description, unit, initial)

    @property
    def shown(self) -> bool:
        return self._tqdm is not None or self._lines is not None

    def update(self, done: int, total: int | None = None, note: str = "") -> None:
        """``done`` so far (of ``total``, when it changed); ``note`` follows the count."""
        if self._lines is not None:
            self._lines.update(done, total, note)
        elif self._tqdm is not None:
            if total is not None and total != self._tqdm.total:
                self._tqdm.total = total
            if note:
                self._tqdm.set_postfix_str(note, refresh=False)
            self._tqdm.update(done - self._tqdm.n)

    def resume(self, done: int) -> None:
        """Count ``done`` as done before this process began (the stored work of a resumed
        run): the rate and the time left count only the work after it, from now."""
        if self._lines is not None:
            self._lines.resume(done)
        elif self._tqdm is not None:
            total, description, unit = self._tqdm.total, self._tqdm.desc, self._tqdm.unit
            self._tqdm.close()
            self._tqdm = _tqdm(total, description, unit, done)

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
            self._tqdm = None
        self._lines = None

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _tqdm(total: int, description: str, unit: str, initial: int):
    """A tqdm bar on stderr, or None without tqdm."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total or None, desc=description, unit=unit, unit_scale=True, leave=False,
                dynamic_ncols=True, file=sys.stderr, initial=initial)


def seconds() -> tuple[float, float]:
    """(seconds before the first line, seconds between lines): FIRST_LINE and EVERY, or
    both KAYLES_PROGRESS_SECONDS when it is set to a number."""
    import os

    try:
        both = float(os.environ.get("KAYLES_PROGRESS_SECONDS", ""))
    except ValueError:
        return FIRST_LINE, EVERY
    return both, both


class _Lines:
    """One line to stderr now and then, once the work has taken FIRST_LINE seconds."""

    def __init__(self, total: int, description: str, unit: str, initial: int = 0) -> None:
        self.total, self.description, self.unit = total, description, unit
        self.initial = initial  # done before this process began (a resumed run)
        first, self.every = seconds()
        self.started = time.monotonic()
        self.next_line = self.started + first
        self.samples: list[tuple[int, float]] = []  # (done, seconds since started)

    def resume(self, done: int) -> None:
        """``done`` was done before: the rate counts from now, the first line comes later."""
        self.initial = done
        self.started = time.monotonic()
        self.next_line = self.started + seconds()[0]
        self.samples = []

    def growth(self, done: int, elapsed: float) -> float:
        """The exponent e of the time's growth (the module header)."""
        import math

        half = [(n, t) for n, t in self.samples if self.initial < n <= done // 2 and t > 0]
        if not half or elapsed <= 0:
            return 1.0
        n, t = half[-1]
        e = math.log(elapsed / t) / math.log((done - self.initial) / (n - self.initial))
        return min(max(e, 1.0), MAX_GROWTH)

    def left(self, done: int, elapsed: float) -> float:
        """Seconds left: the time to done, grown to the total as done**e grows."""
        e = self.growth(done, elapsed)
        base = self.initial
        return elapsed * ((self.total - base) ** e - (done - base) ** e) / (done - base) ** e

    def update(self, done: int, total: int | None = None, note: str = "") -> None:
        now = time.monotonic()
        if total is not None:
            self.total = total
        if done > self.initial and (not self.samples or done > self.samples[-1][0]):
            self.samples.append((done, now - self.started))
            if len(self.samples) > 4096:  # a sample at every half of the work is enough
                self.samples = self.samples[::2]
        if now < self.next_line:
            return
        self.next_line = now + self.every
        rate = (done - self.initial) / max(now - self.started, 1e-9)
        if self.total:
            line = (f"{self.description}: {done:,} of {self.total:,} {self.unit} "
                    f"({100 * done // self.total}%)")
        else:
            line = f"{self.description}: {done:,} {self.unit}"
        line += f", {_si(rate)} {self.unit}/s"
        if rate and self.total > done:
            line += f", about {_duration(self.left(done, now - self.started))} left"
        if note:
            line += f"; {note}"
        try:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
        except (AttributeError, OSError):
            pass


def _si(number: float) -> str:
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if number >= factor:
            return f"{number / factor:.2f}{suffix}"
    return f"{number:.2g}" if number < 10 else f"{number:.0f}"  # a census: 0.03 games/s


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min"
    return f"{hours // 24} days {hours % 24} h"


def bar(total: int, description: str, unit: str = "it", initial: int = 0) -> Bar:
    """A ``Bar`` (see the module header); ``initial``: done before (a resumed run's)."""
    return Bar(total, description, unit, initial)


def counter(description: str, unit: str) -> Bar:
    """A ``Bar`` for work whose total is not known: its count, rate and note."""
    return Bar(0, description, unit)


def sequence_bar(description: str) -> Bar | None:
    """A bar for ``Sequence.progress``, or None when nothing would show."""
    shown = Bar(0, description, "values")
    return shown if shown.shown else None
