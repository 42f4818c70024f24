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

from .._numbers import brief
from ..errors import InputError
from .constants import MAX_BUDGET, MAX_THREADS

__all__ = ["BYTES_PER_VALUE", "CORES", "MISERE_BUDGET", "NIMBER_SIZE", "NIMBER_TABLE",
           "POWER_BASE_SIZE", "QUOTIENT_BUDGET", "QUOTIENT_HEAP",
           "QUOTIENT_MEMORY", "interrupt", "set_interrupt",
           "RUN_CHECKPOINT_SECONDS", "RUN_WINDOW", "SAVE_CHUNK", "SAVE_CHUNK_SECONDS",
           "SURVEY_MISERE_HEAP", "TABLE_LIMIT", "THREADS", "Range", "cpu_model", "memory",
           "parse_size", "size_text", "table_limit", "too_long"]


_interrupt = None  # the hook set_interrupt gives the kernels' long loops (None: none)


def set_interrupt(hook) -> None:
    """Have the misère, quotient and take-and-break kernels' long loops call ``hook()`` now
    and then (with their look at signals, a few milliseconds of work apart, in both twins):
    it raises to end the work of the thread that calls it.  ``kayles serve`` uses it for
    its time cap and its stop, in request threads that signals never reach.  None: no
    hook."""
    global _interrupt
    _interrupt = hook


def interrupt() -> None:
    """Call the hook of set_interrupt, if any."""
    hook = _interrupt
    if hook is not None:
        hook()


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
        raise InputError(f"{what or self.name} must be {bounds}, not {brief(value)}")


THREADS = Range("threads", 1, MAX_THREADS)  # threads on one nim-sequence (ext/src/kernels.h)
CORES = Range("cores", 1, MAX_THREADS)  # cores a crew counts on (Scratch(cores=...))
MISERE_BUDGET = Range("the search budget", 1, MAX_BUDGET, "positions")  # misère search memo
QUOTIENT_BUDGET = Range("the budget", 1, None, "states")  # states a quotient's walk visits
QUOTIENT_HEAP = Range("the largest heap", 0, 100_000)  # a quotient lists each heap's class
QUOTIENT_MEMORY = Range("the memory bound", 1, None, "bytes")  # one quotient table or walk
SURVEY_MISERE_HEAP = Range("--misere HEAP", 1, QUOTIENT_HEAP.high)  # kayles survey
# kayles nimber (the API takes any size): a product of 2**16 bits takes some 25 ms; a power
# costs as many products as its base's field has bits, so bases stop at 2**12 (~2 s)
NIMBER_SIZE = Range("a nimber's size", 0, 1 << 16, "bits")
POWER_BASE_SIZE = Range("the base's size", 0, 1 << 12, "bits")
NIMBER_TABLE = Range("the table's size N", 0, 1 << 16)  # the field of 2**16, N**2 numbers

# Defaults (kayles.storage.table_file and kayles.analysis.long_run use them under their own names)
SAVE_CHUNK = 1 << 16  # values per chunk of a saved table unless told (the first and smallest)
SAVE_CHUNK_SECONDS = 5.0  # the computing time a saved table's chunk aims at, when chunks adapt
RUN_WINDOW = 1 << 22  # a long run's default window: 8 MB of prefix, 16 MB of recent values
RUN_CHECKPOINT_SECONDS = 300.0  # between a long run's checkpoints

# How long a nim-sequence's table may grow: as far as the machine's memory allows.
BYTES_PER_VALUE = 6  # a table's 2 bytes a value, and the 4 of its larger copy while it doubles
TABLE_LIMIT = (1 << 32) - 1  # whatever the memory: the sparse method's positions are 32-bit
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def memory() -> tuple[int, str]:
    """(bytes a table may use, where that figure comes from): KAYLES_MEMORY (bytes, or with
    a K, M, G or T suffix) where it is set, else the memory Linux calls available now."""
    from .._environ import getenv

    text = getenv("KAYLES_MEMORY")
    if text.strip():
        try:
            return parse_size(text, "KAYLES_MEMORY"), "KAYLES_MEMORY"
        except ValueError as exc:
            from ..errors import SetupError

            raise SetupError(str(exc)) from None
    try:
        with open("/proc/meminfo", "rb") as info:
            for line in info.read(1 << 16).splitlines():
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024, "available memory"
    except (OSError, ValueError, IndexError):
        pass
    return 1 << 32, "a guess (no /proc/meminfo)"


def parse_size(text: str, what: str) -> int:
    """A number of bytes, or of K, M, G or T bytes ('8G'), at least 1; else ValueError."""
    text = text.strip().upper().removesuffix("B")
    number, unit = (text[:-1], _UNITS[text[-1]]) if text and text[-1] in _UNITS else (text, 1)
    if not number.isdigit() or int(number) == 0 or len(number) > 18:
        raise InputError(f"{what} must be a number of bytes such as 8G, not {brief(text)}")
    return int(number) * unit


def table_limit() -> int:
    """The most values a table may hold here: the memory (see memory()) over BYTES_PER_VALUE,
    at most TABLE_LIMIT."""
    return min(TABLE_LIMIT, memory()[0] // BYTES_PER_VALUE)


def too_long(count: int) -> str:
    """Why a table of count values does not fit, in one sentence (the memory it needs and the
    memory there is), or '' when it fits."""
    if count <= table_limit():
        return ""
    have, source = memory()
    if count > TABLE_LIMIT:
        return f"{brief(count)} values is past the {TABLE_LIMIT:,} a table holds"
    return (f"{count:,} values need about {size_text(count * BYTES_PER_VALUE)} of memory, and "
            f"{source} is {size_text(have)} (set KAYLES_MEMORY to allow more)")


def size_text(count: int) -> str:
    for unit in ("TB", "GB", "MB", "KB"):
        scale = _UNITS[unit[0]]
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def cpu_model() -> str:
    """The CPU's model name, for the reports that say where they ran ('unknown CPU')."""
    try:
        with open("/proc/cpuinfo", "rb") as info:
            for line in info.read(1 << 20).decode(errors="replace").splitlines():
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"
