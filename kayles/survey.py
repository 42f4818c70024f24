"""Surveys of whole families of heap games: which codes, one game's summary, classes.

``codes_with_digits(k, first)`` lists a family (every ``0.d1..dk`` with ``dk != 0``);
``summarise(code, limit)`` runs one game's ``Sequence`` until its period is proved
or ``limit`` values are computed and returns a ``Summary`` of plain data (it runs
in worker processes, so it takes and returns only picklable things);
``equivalence_classes`` groups summaries whose first N values agree;
``misere_summary(code, max_heap, budget)`` is one game's misère quotient (kayles.quotient)
on heaps up to ``max_heap`` as plain data, for ``kayles survey --misere``.

The rare mask (sparse space, ``kayles.spectrum``): over the masks that keep every
option constant rare, the survey reports the one with the fewest rare heaps
n < values, the smallest such mask on a tie.
"""

from __future__ import annotations

import hashlib
import itertools
import time
import zlib
from array import array

from .checksum import fletcher32
from .rules import get_game
from .sequence import Sequence
from .spectrum import fewest_rare, parity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "FIELDS",
    "Summary",
    "canonical_code",
    "compared_values",
    "codes_with_digits",
    "equivalence_classes",
    "misere_summary",
    "summarise",
]

# The report's columns, in order (``Summary`` has one attribute per name).
FIELDS = (
    "code", "max", "proved", "preperiod", "period", "values", "largest", "largest_heap",
    "mask", "rare", "last_rare", "checksum",
)


class Summary:
    """What the survey keeps of one game computed with at most ``max`` values.

    ``values``: how many values G(0..values-1) the summary describes (those the
    proof used, or ``max`` when no period was proved); ``largest`` and
    ``largest_heap``: the largest of them and where it first occurs; ``mask``,
    ``rare`` and ``last_rare``: the rare mask (module header), how many heaps
    n < values are rare under it and the last of them; ``checksum``: Fletcher-32
    of G(0..values-1).  ``head`` is everything needed to continue the sequence:
    G(0..preperiod+period-1) when proved, else G(0..values-1).
    """

    __slots__ = (*FIELDS, "seconds", "packed", "_head")

    def __init__(self, *, head: list[int] | None = None, packed: bytes | None = None,
                 **fields) -> None:
        for name in (*FIELDS, "seconds"):
            setattr(self, name, fields[name])
        if packed is None:
            packed = zlib.compress(array("H", head or ()).tobytes())
        self.packed = packed  # the head as stored and sent between processes
        self._head = head

    def __reduce__(self):
        fields = {name: getattr(self, name) for name in (*FIELDS, "seconds")}
        return _rebuild, (fields, self.packed)

    @property
    def head(self) -> list[int]:
        if self._head is None:
            values = array("H")
            values.frombytes(zlib.decompress(self.packed))
            self._head = values.tolist()
        return self._head

    def row(self) -> dict:
        """The report's fields as a dict (``checksum`` as 8 hex digits)."""
        out = {name: getattr(self, name) for name in FIELDS}
        out["checksum"] = f"{self.checksum:08x}"
        return out

    def first(self, count: int) -> list[int]:
        """G(0..count-1); ValueError when an unproved game has fewer values."""
        head = self.head
        if count <= len(head):
            return head[:count]
        if not self.proved:
            raise ValueError(f"{self.code}: only {len(head)} values are known "
                             f"(no period proved within --max {self.max}), {count} needed")
        n0, p = self.preperiod, self.period
        return head + [head[n0 + (n - n0) % p] for n in range(len(head), count)]


def _rebuild(fields: dict, packed: bytes) -> Summary:
    """Unpickle a Summary without unpacking its head (workers send it packed)."""
    return Summary(packed=packed, **fields)


def canonical_code(code: str) -> str:
    """The game's own name for ``code`` ('.77' -> '0.77'); ValueError if it is not a game."""
    return get_game(code).name


def codes_with_digits(digits: int, first: str = "0") -> list[str]:
    """Every code ``first.d1..dk`` (k = ``digits``) whose last digit is not 0, in order.

    A last digit 0 would repeat a shorter code, so there are 8**(k-1) * 7 of them.
    """
    if digits < 1:
        raise ValueError(f"--digits must be at least 1, not {digits}")
    if first not in ("0", "4"):
        raise ValueError(f"--first must be 0 or 4, not {first!r}")
    return [f"{first}.{''.join(body)}{last}"
            for body in itertools.product("01234567", repeat=digits - 1)
            for last in "1234567"]


def summarise(code: str, limit: int) -> Summary:
    """Compute ``code`` until its period is proved or ``limit`` values, and sum it up."""
    started = time.perf_counter()
    game = get_game(code)
    sequence = Sequence(game)
    period = sequence.prove(limit)
    used = period.values if period is not None else limit
    values = sequence.table(used).tolist()
    counts = [0] * (max(values, default=0) + 1)
    for value in values:
        counts[value] += 1
    mask, rare = fewest_rare(counts, game.constants(sequence.nimber))
    last_rare = next((n for n in reversed(range(used)) if not parity(values[n] & mask)), None)
    largest = max(values, default=0)
    head = values[: period.preperiod + period.period] if period is not None else values
    return Summary(
        code=game.name, max=limit, proved=period is not None,
        preperiod=period.preperiod if period else None,
        period=period.period if period else None,
        values=used, largest=largest, largest_heap=values.index(largest) if values else None,
        mask=mask, rare=rare, last_rare=last_rare, checksum=fletcher32(values),
        head=head, seconds=time.perf_counter() - started,
    )


def compared_values(summary: Summary, count: int, drop_zeros: bool = False) -> list[int]:
    """G(0..count-1), or with ``drop_zeros`` the ``count`` values after the leading zeros."""
    if not drop_zeros:
        return summary.first(count)
    zeros = next((i for i, v in enumerate(summary.head) if v), len(summary.head))
    return summary.first(zeros + count)[zeros:]


def equivalence_classes(summaries: Iterable[Summary], count: int,
                        drop_zeros: bool = False) -> list[list[Summary]]:
    """Group the summaries whose G(0..count-1) agree, in the order of their first member.

    With ``drop_zeros``, each sequence first loses its leading zeros (G(0) = 0 and
    every zero after it up to the first non-zero value), and the next ``count``
    values are compared: 0.07 (0, 0, 1, 1, 2, ...) and 0.137 (0, 1, 1, 2, ...) agree.
    """
    classes: dict[bytes, list[Summary]] = {}
    for summary in summaries:
        packed = array("H", compared_values(summary, count, drop_zeros)).tobytes()
        classes.setdefault(hashlib.sha256(packed).digest(), []).append(summary)
    return list(classes.values())


def misere_summary(code: str, max_heap: int, budget: int) -> dict:
    """The misère quotient of ``code`` on heaps up to ``max_heap`` (kayles.quotient) as a
    dict: max_heap, order, p_size, solved (None, or at_heap, period, preperiod) and error
    (None, or why the quotient is beyond the search: then order and p_size are None)."""
    from .quotient import quotient

    try:
        q = quotient(get_game(code), max_heap, budget)
    except ValueError as exc:
        return {"max_heap": max_heap, "order": None, "p_size": None, "solved": None,
                "error": str(exc)}
    solved = None
    if q.solved is not None:
        at, period, preperiod = q.solved
        solved = {"at_heap": at, "period": period, "preperiod": preperiod}
    return {"max_heap": max_heap, "order": q.order, "p_size": q.p_size, "solved": solved,
            "error": None}
