"""Surveys of whole families of heap games: which codes, one game's summary, classes.

``codes_with_digits(k, first)`` lists a family (every ``0.d1..dk`` with ``dk != 0``);
``summarise(code, limit)`` runs one game's ``Sequence`` until its period is proved
or ``limit`` values are computed and returns a ``Summary`` of plain data (it runs
in worker processes, so it takes and returns only picklable things);
``equivalence_classes`` groups summaries whose first N values agree;
``misere_summary(code, max_heap, budget)`` is one game's misère quotient (kayles.analysis.quotient)
on heaps up to ``max_heap`` as plain data, for ``kayles survey --misere``.

The rare mask (sparse space, ``kayles.kernels.spectrum``): over the masks that keep every
option constant rare (with the heap's parity too, where the game's two-part moves
share a span parity: the mask plus HEAP_PARITY, 65536), the survey reports the one
with the fewest rare heaps n < values, the smallest such mask on a tie.
"""

from __future__ import annotations

import hashlib
import itertools
import time
import zlib
from array import array

from ..engine.checksum import fletcher32
from ..engine.codes import get_game
from ..engine.sequence import Sequence, rare_mask
from ..errors import InputError
from ..storage.records import COLUMNS, Summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "COLUMNS",
    "Summary",
    "canonical_code",
    "compared_values",
    "codes_with_digits",
    "equivalence_classes",
    "misere_summary",
    "published",
    "summarise",
]

def canonical_code(code: str) -> str:
    """The game's own name for ``code`` ('.77' -> '0.77'); ValueError if it is not a game."""
    return get_game(code).name


def codes_with_digits(digits: int, first: str = "0") -> list[str]:
    """Every code ``first.d1..dk`` (k = ``digits``) whose last digit is not 0, in order.

    A last digit 0 would repeat a shorter code, so there are 8**(k-1) * 7 of them.
    """
    if digits < 1:
        raise InputError(f"--digits must be at least 1, not {digits}")
    if first not in ("0", "4"):
        raise InputError(f"--first must be 0 or 4, not {first!r}")
    return [f"{first}.{''.join(body)}{last}"
            for body in itertools.product("01234567", repeat=digits - 1)
            for last in "1234567"]


def summarise(code: str, limit: int) -> Summary:
    """Compute ``code`` until its period is proved or ``limit`` values, and sum it up (a game
    the octal kernels do not take has no rare mask: 0, 0 and None)."""
    started = time.perf_counter()
    game = get_game(code)
    sequence = Sequence(game)
    period = sequence.prove(limit)
    used = period.values if period is not None else limit
    values = array("H")  # the table's values, copied as they are (16-bit words; never a list:
    values.frombytes(sequence.table(used).cast("B"))  # a census row may sum up 443 million)
    mask, rare, last_rare = rare_mask(game, values, sequence.nimber)
    largest = max(values, default=0)
    head = values[: period.preperiod + period.period] if period is not None else values
    # stored whole (the store checks its checksum on every read) at zlib's level 1: 2**24
    # values in 0.25 s, not 2.1 s, for a blob some 20% larger (a third of a sparse code's time)
    return Summary(
        code=game.name, max=limit, proved=period is not None,
        preperiod=period.preperiod if period else None,
        period=period.period if period else None,
        saltus=period.saltus if period else 0,
        values=used, largest=largest, largest_heap=values.index(largest) if values else None,
        mask=mask, rare=rare, last_rare=last_rare, checksum=fletcher32(values),
        packed=zlib.compress(head.tobytes(), 1), seconds=time.perf_counter() - started,
    )


def published(summaries: list[Summary]) -> tuple[list[str], list[dict]]:
    """The columns and rows a survey publishes (``Summary.row``): COLUMNS, the census's, with
    ``saltus`` after ``period`` when some game is not octal (an octal game's is always 0)."""
    saltus = not all(get_game(summary.code).octal for summary in summaries)
    return ([*COLUMNS[:5], "saltus", *COLUMNS[5:]] if saltus else list(COLUMNS),
            [summary.row(saltus) for summary in summaries])


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
    for summary in summaries:  # (values past 16 bits with a saltus: 32-bit words)
        packed = array("L", compared_values(summary, count, drop_zeros)).tobytes()
        classes.setdefault(hashlib.sha256(packed).digest(), []).append(summary)
    return list(classes.values())


def misere_summary(code: str, max_heap: int, budget: int) -> dict:
    """The misère quotient of ``code`` on heaps up to ``max_heap`` (kayles.analysis.quotient),
    or on as many as the search proves, as a dict: max_heap, heaps (the heaps proved:
    max_heap, or fewer when the next is beyond the search), order, p_size, solved (None, or
    at_heap, period, preperiod), checksum (``Quotient.checksum``), error (None, or why the
    next heap is beyond the search) and seconds.  Order, p_size and checksum are None when
    not even heap 1 is proved."""
    from .quotient import quotient

    start = time.process_time()
    try:
        q = quotient(get_game(code), max_heap, budget, as_far_as_it_goes=True)
    except ValueError as exc:
        return {"max_heap": max_heap, "heaps": 0, "order": None, "p_size": None,
                "solved": None, "checksum": None, "error": str(exc),
                "seconds": time.process_time() - start}
    solved = None
    if q.solved is not None:
        at, period, preperiod = q.solved
        solved = {"at_heap": at, "period": period, "preperiod": preperiod}
    return {"max_heap": max_heap, "heaps": q.max_heap, "order": q.order, "p_size": q.p_size,
            "solved": solved, "checksum": q.checksum(),
            "error": None if q.beyond is None else q.beyond[1],
            "seconds": time.process_time() - start}
