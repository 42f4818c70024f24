"""Rows of pins: 'x' standing, '.' removed.  Runs, nim-sum and the seed's winning move.

The winning move (DESIGN.md): with X the nim-sum of all runs, X == 0 is a loss;
otherwise take the leftmost run whose value can be lowered (G(run) ^ X < G(run)),
in it the leftmost placement whose option value is G(run) ^ X, and at the same
placement the earlier move kind.  The answer is the input with exactly the
removed pins turned into '.'.
"""

from __future__ import annotations

from ._constants import GAP
from .errors import shown
from .sequence import Sequence

__all__ = ["nim_sum", "parse_row", "winning_move"]


def parse_row(text: str) -> bytes:
    """The row as bytes, or ValueError naming the first character that is not '.' or 'x'."""
    data = text.encode("utf-8", "surrogateescape")
    if data.strip(b".x"):
        for i, ch in enumerate(text):
            if ch not in ".x":
                raise ValueError(f"a position holds only '.' and 'x', not {shown(ch)} (at {i + 1})")
    return data


def _table_for(data: bytes, sequence: Sequence):
    if not sequence.game.on_rows:
        raise ValueError(f"{sequence.game.name} is not played on rows of pins; give heap sizes")
    longest = max(map(len, data.split(b".")), default=0)
    return sequence.table(longest + 1)


def nim_sum(row: str, sequence: Sequence) -> int:
    """The XOR of G(run) over the runs of the row."""
    data = parse_row(row)
    return sequence.kernel.row_nim_sum(data, _table_for(data, sequence))


def winning_move(row: str, sequence: Sequence) -> str | None:
    """The row after the seed's winning move, or None when every move loses."""
    data = parse_row(row)
    table = _table_for(data, sequence)
    found = sequence.kernel.row_move(data, table, sequence.encoded)
    if found is None:
        return None
    start, kind = found
    out = bytearray(data)
    for offset, token in enumerate(sequence.game.kinds[kind].pattern):
        if token == "x":
            out[start + offset] = GAP
    return out.decode("ascii")
