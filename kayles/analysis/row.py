"""Rows of pins: 'x' standing, '.' removed.  Runs, moves on a row, nim-sum, the winning move.

The one home of rows in Python: ``parse_row`` checks one, ``runs`` finds its runs
of pins, ``taken`` and ``without`` say which pins a move takes and what the row
becomes (``kayles.analysis.misere`` and ``kayles.analysis.play`` use them too).  The compiled and
pure kernels scan rows on their own, as twins (``row_nim_sum``, ``row_move``).

The winning move: with X the nim-sum of all runs, X == 0 is a loss; otherwise
take the leftmost run whose value can be lowered (G(run) ^ X < G(run)), in it
the leftmost placement whose option value is G(run) ^ X, and at the same
placement the earlier move kind (``Game.options`` order).  The answer is the
input with exactly the removed pins turned into '.'.
"""

from __future__ import annotations

from ..engine.sequence import Sequence, as_sequence
from ..errors import InputError, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..engine.rules import Game, MoveKind

__all__ = ["nim_sum", "parse_row", "runs", "taken", "winning_move", "without"]


def parse_row(text: str) -> bytes:
    """The row as bytes, or ValueError naming the first character that is not '.' or 'x'
    (TypeError when it is not a str)."""
    if not isinstance(text, str):
        raise TypeError(f"a position is a str of 'x' and '.', not {type(text).__name__}")
    data = text.encode("utf-8", "surrogateescape")
    if data.strip(b".x"):
        for i, ch in enumerate(text):
            if ch not in ".x":
                raise InputError(f"a position holds only '.' and 'x', not {shown(ch)} (at {i + 1})")
    return data


def runs(row: str | bytes) -> list[tuple[int, int]]:
    """(first pin, length) of every run of pins, left to right (pins count from 0)."""
    found, start = [], 0
    for piece in row.split("." if isinstance(row, str) else b"."):
        if piece:
            found.append((start, len(piece)))
        start += len(piece) + 1
    return found


def taken(kind: MoveKind, start: int) -> tuple[int, ...]:
    """The pins a move of ``kind`` laid at pin ``start`` removes (its pattern's 'x')."""
    return tuple(start + j for j, token in enumerate(kind.pattern) if token == "x")


def without(row: str, pins: Iterable[int]) -> str:
    """The row with ``pins`` removed (turned to '.')."""
    out = list(row)
    for pin in pins:
        out[pin] = "."
    return "".join(out)


def _table_for(data: bytes, sequence: Sequence):
    if not sequence.game.on_rows:
        raise InputError(f"{sequence.game.name} is not played on rows of pins; give heap sizes")
    longest = max(map(len, data.split(b".")), default=0)
    return sequence.table(longest + 1)


def nim_sum(row: str, sequence: Sequence | Game) -> int:
    """The XOR of G(run) over the runs of the row."""
    sequence = as_sequence(sequence)
    data = parse_row(row)
    return sequence.kernel.row_nim_sum(data, _table_for(data, sequence))


def winning_move(row: str, sequence: Sequence | Game) -> str | None:
    """The row after the seed's winning move, or None when every move loses."""
    sequence = as_sequence(sequence)
    data = parse_row(row)
    table = _table_for(data, sequence)
    found = sequence.kernel.row_move(data, table, sequence.encoded)
    if found is None:
        return None
    start, kind = found
    return without(data.decode("ascii"), taken(sequence.game.kinds[kind], start))
