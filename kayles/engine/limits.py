"""Each option's range, declared once: the API, both kernel twins and the commands check
a value against the same ``Range`` and so give the same message.  Also the defaults the
commands' help shows, so that building the parser loads none of the modules that use them.

    >>> THREADS.check(65)
    Traceback (most recent call last):
    ...
    ValueError: threads must be 1 to 64, not 65
    >>> THREADS.check(65, "--threads")   # a command names its option
    Traceback (most recent call last):
    ...
    ValueError: --threads must be 1 to 64, not 65
"""

from __future__ import annotations

from ._constants import MAX_BUDGET, MAX_THREADS
from ._numbers import brief

__all__ = ["CORES", "MISERE_BUDGET", "QUOTIENT_BUDGET", "QUOTIENT_HEAP", "RUN_CHECKPOINT_SECONDS",
           "RUN_WINDOW", "SAVE_CHUNK", "SAVE_CHUNK_SECONDS", "SURVEY_MISERE_HEAP", "THREADS",
           "Range"]


class Range:
    """The integers ``low`` to ``high`` (no upper bound when ``high`` is None) that an option
    called ``name`` takes; ``unit`` follows the bounds in the message ('positions').
    Plain, not a NamedTuple: Kayles-xox's start-up imports this and never pays for typing."""

    __slots__ = ("high", "low", "name", "unit")

    def __init__(self, name: str, low: int, high: int | None = None, unit: str = "") -> None:
        self.name, self.low, self.high, self.unit = name, low, high, unit

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value and (
            self.high is None or value <= self.high)

    def check(self, value: int, what: str | None = None) -> int:
        """``value`` when it is in the range, else ValueError '<what> must be ...'."""
        if value in self:
            return value
        unit = f" {self.unit}" if self.unit else ""
        bounds = (f"at least {self.low}{unit}" if self.high is None
                  else f"{self.low} to {self.high}{unit}")
        raise ValueError(f"{what or self.name} must be {bounds}, not {brief(value)}")


THREADS = Range("threads", 1, MAX_THREADS)  # threads on one nim-sequence (ext/src/kernels.h)
CORES = Range("cores", 1, MAX_THREADS)  # cores a crew counts on (Scratch(cores=...))
MISERE_BUDGET = Range("the search budget", 1, MAX_BUDGET, "positions")  # misère search memo
QUOTIENT_BUDGET = Range("the budget", 1, None, "states")  # states a quotient's walk visits
QUOTIENT_HEAP = Range("the largest heap", 0, 100_000)  # a quotient lists each heap's class
SURVEY_MISERE_HEAP = Range("--misere HEAP", 1, QUOTIENT_HEAP.high)  # kayles survey

# Defaults (kayles.storage.table_file and kayles.analysis.long_run use them under their own names)
SAVE_CHUNK = 1 << 16  # values per chunk of a saved table unless told (the first and smallest)
SAVE_CHUNK_SECONDS = 5.0  # the computing time a saved table's chunk aims at, when chunks adapt
RUN_WINDOW = 1 << 22  # a long run's default window: 8 MB of prefix, 16 MB of recent values
RUN_CHECKPOINT_SECONDS = 300.0  # between a long run's checkpoints
