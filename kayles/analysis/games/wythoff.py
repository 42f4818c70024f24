"""Wythoff's game (seed 001): two piles; take any number from one pile, or the
same number from both.  Whoever cannot move loses.

P-positions are (a_k, b_k) and (b_k, a_k) with a_k = floor(k*phi) and
b_k = a_k + k, phi the golden ratio.  Integer arithmetic keeps them exact for
piles of any size: k*phi = (k + k*sqrt(5)) / 2, and nested floors give
``a_k = (k + isqrt(5*k*k)) // 2``.  Every positive integer is exactly one a_k
or one b_k (Beatty); ``floor((n+1)/phi) = (isqrt(5*(n+1)**2) - (n+1)) // 2``
counts the a_k <= n, which finds any pile's partner in O(1) big-int steps.

The Sprague-Grundy value is NOT that of two-pile Nim: the seed's ``SGwyt(i, j)``
returns ``SG2N(i, j) = i XOR j``, but the diagonal moves change the value,
e.g. G(1, 1) = mex{G(0,1), G(1,0), G(0,0)} = mex{1, 1, 0} = 2, not 1 ^ 1 = 0.
(The seed's ``Wyt(a, b)`` has the same slip for outcomes: for a != b it falls
back to two-pile Nim, which calls (1, 2) a win, yet (1, 2) is a Wythoff
P-position: every move leads to (0, 2), (1, 1), (1, 0) or (0, 1), all wins.)
``sg_table`` computes the true values (no closed form is known) with one bit
mask per row, column and diagonal of values already seen.
"""

from __future__ import annotations

from collections import namedtuple
from math import isqrt

from ...errors import InputError
from .digraph import mex_bits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "SG_CELL_LIMIT",
    "WythoffMove",
    "is_p_position",
    "lower",
    "outcome",
    "p_positions",
    "partner",
    "sg_table",
    "sg_value",
    "winning_move",
    "winning_moves",
]

SG_CELL_LIMIT = 4_000_000  # the most table cells sg_table/sg_value will compute

WythoffMove = namedtuple("WythoffMove", "take_first take_second")
WythoffMove.__doc__ = "Take ``take_first`` from pile 1 and ``take_second`` from pile 2."


def _check(*piles: int) -> None:
    for pile in piles:
        if pile < 0:
            raise InputError(f"a pile holds a non-negative number of counters, not {pile}")


def lower(k: int) -> int:
    """a_k = floor(k * phi), exactly, for any k >= 0."""
    _check(k)
    return (k + isqrt(5 * k * k)) // 2


def _lower_count(n: int) -> int:
    """How many k >= 1 have a_k <= n: floor((n + 1) / phi)."""
    m = n + 1
    return (isqrt(5 * m * m) - m) // 2


def partner(n: int) -> int:
    """The pile m with (n, m) a P-position: b_k for n = a_k, a_k for n = b_k (0 for 0)."""
    _check(n)
    if n == 0:
        return 0
    k = _lower_count(n)
    if k and lower(k) == n:
        return n + k  # n = a_k
    j = n - k  # n = b_j: j upper numbers among 1..n
    return n - j


def is_p_position(a: int, b: int) -> bool:
    """Whether the player to move from (a, b) loses."""
    _check(a, b)
    return partner(a) == b


def outcome(a: int, b: int) -> str:
    """``"P"`` (the player to move loses) or ``"N"``."""
    return "P" if is_p_position(a, b) else "N"


def winning_moves(a: int, b: int) -> list[WythoffMove]:
    """Every move from (a, b) to a P-position (at most three): from pile 1, from
    pile 2, from both, in that order.  Empty for a P-position."""
    if is_p_position(a, b):
        return []
    moves = []
    to = partner(b)
    if to < a:
        moves.append(WythoffMove(a - to, 0))
    to = partner(a)
    if to < b:
        moves.append(WythoffMove(0, b - to))
    d = abs(a - b)
    low = lower(d)
    if min(a, b) > low:
        take = min(a, b) - low
        moves.append(WythoffMove(take, take))
    return moves


def winning_move(a: int, b: int) -> WythoffMove | None:
    """The first of ``winning_moves(a, b)``, or None for a P-position."""
    moves = winning_moves(a, b)
    return moves[0] if moves else None


def p_positions(limit: int) -> Iterator[tuple[int, int]]:
    """The P-positions (a_k, b_k) with b_k <= limit, k = 0, 1, ... (a_k <= b_k)."""
    _check(limit)
    k = 0
    while True:
        a = lower(k)
        if a + k > limit:
            return
        yield a, a + k
        k += 1


def sg_table(rows: int, cols: int | None = None) -> list[list[int]]:
    """G(i, j) for 0 <= i <= rows, 0 <= j <= cols (cols defaults to rows)."""
    cols = rows if cols is None else cols
    _check(rows, cols)
    if (rows + 1) * (cols + 1) > SG_CELL_LIMIT:
        size = f"{rows + 1} x {cols + 1}" if max(rows, cols) < SG_CELL_LIMIT else "larger"
        raise InputError(
            f"a table of Wythoff values {size} is past the limit of {SG_CELL_LIMIT:,} cells"
        )
    col_seen = [0] * (cols + 1)  # bit v: some G(i', j) == v with i' < i
    diag_seen = [0] * (rows + cols + 1)  # at j - i + rows: values on that diagonal so far
    table = []
    for i in range(rows + 1):
        row_seen = 0
        row = []
        for j in range(cols + 1):
            d = j - i + rows
            g = mex_bits(row_seen | col_seen[j] | diag_seen[d])
            bit = 1 << g
            row_seen |= bit
            col_seen[j] |= bit
            diag_seen[d] |= bit
            row.append(g)
        table.append(row)
    return table


def sg_value(a: int, b: int) -> int:
    """The true Sprague-Grundy value G(a, b) (not a ^ b; see the module header)."""
    return sg_table(a, b)[a][b]
