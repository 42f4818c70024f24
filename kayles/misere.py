"""Misère play (whoever moves last loses) for every heap game: outcomes, winning moves, genus.

How this works.  The kernel (``misere_value`` in both twins) finds the misère Grundy value
of a whole position by exhaustive, memoised search over positions kept as sorted multisets
of heaps: identical heaps do not cancel in misère play, so no nim-sum shortcut is taken.
The only reductions are proved ones (see the kernel's header): heaps with no move vanish,
heaps that are the game *1 become *1, and *1 + *1 cancels.  The search stops with a
ValueError past ``budget`` stored positions; it never guesses.

Winning move, mirroring the normal-play tie-break: the leftmost heap (or run of pins) that
holds a winning move; in it the leftmost placement (the smallest left part); at the same
placement, the earlier move kind.  A position with no move at all is already won by the
player to move (the opponent moved last): its outcome is 'N' but there is no move, so the
move functions return None there as in a P-position; ``outcome`` tells the two apart.

Genus (Conway): g^(γ0 γ1 γ2 ...) with g the normal-play value and γk the misère value of the
heap plus k nim heaps *2.  The values with k *2s are one fixed function of those with k - 1
(for k >= 1), over the heap's followers; once two layers k and k + 2 agree on every follower,
the sequence alternates for ever.  The kernel checks exactly that, so a genus is printed
only when it is proved; its text form writes γ0 ... up to where the alternation starts.
"""

from __future__ import annotations

from ._impl import kernel
from .heaps import HeapMove
from .row import parse_row
from .rules import Game, encode
from .sequence import Sequence

__all__ = [
    "DEFAULT_BUDGET",
    "Genus",
    "genera",
    "genus",
    "heaps_winning_move",
    "outcome",
    "row_outcome",
    "row_winning_move",
    "value",
]

DEFAULT_BUDGET = 1_000_000  # stored positions: about 150 MB in pure mode, less compiled
MAX_BUDGET = 2**31 - 1  # heaps never exceed the budget, so they fit 32 bits in the kernel
MAX_TWOS = 64  # genus: give up (ValueError) if the superscripts do not alternate by then


def _memo(game: Game, budget: int):
    if not 1 <= budget <= MAX_BUDGET:
        raise ValueError(f"the search budget must be 1 to {MAX_BUDGET} positions, not {budget}")
    return kernel.MisereMemo(encode(game.kinds), budget)


def _check_heaps(heaps: list[int], budget: int) -> None:
    for size in heaps:
        if not isinstance(size, int) or size < 0:
            raise ValueError(f"heap sizes must be integers >= 0, not {size!r}")
        if size > budget:  # a larger heap has more options than that (splits), or is refused
            raise ValueError(f"a heap of {size} is beyond the misère search budget of {budget} "
                             "positions")


def value(heaps: list[int], game: Game, budget: int = DEFAULT_BUDGET) -> int:
    """The misère Grundy value of a list of heaps (0: the player to move loses)."""
    _check_heaps(heaps, budget)
    return kernel.misere_value(_memo(game, budget), heaps, 0)


def outcome(heaps: list[int], game: Game, budget: int = DEFAULT_BUDGET) -> str:
    """'P' when the player to move loses under misère play, else 'N'."""
    return "N" if value(heaps, game, budget) else "P"


def _runs(data: bytes) -> list[tuple[int, int]]:
    """(start, length) of every run of pins, left to right."""
    runs, start = [], 0
    for piece in data.split(b"."):
        if piece:
            runs.append((start, len(piece)))
        start += len(piece) + 1
    return runs


def _moves(size: int, game: Game):
    """(left part a, kind index, heaps left) of every move on a heap, in tie-break order."""
    for a in range(size + 1):
        for k, kind in enumerate(game.kinds):
            b = size - kind.span - a
            if b < 0 or ((a > 0) + (b > 0)) not in kind.leave or (kind.unequal and a == b > 0):
                continue
            kept = [len(run) for run in kind.pattern.split("x") if run]
            yield a, k, [p for p in (a, *kept, b) if p]


def _first_win(heaps: list[int], game: Game, budget: int):
    """(heap index, a, kind index, parts) of the tie-break's winning move, or None."""
    _check_heaps(heaps, budget)
    memo = _memo(game, budget)
    if not kernel.misere_value(memo, heaps, 0):
        return None
    for i, size in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        for a, k, parts in _moves(size, game):
            if not kernel.misere_value(memo, rest + parts, 0):
                return i, a, k, parts
    return None  # no move at all: the opponent moved last


def heaps_winning_move(
    heaps: list[int], game: Game, budget: int = DEFAULT_BUDGET
) -> HeapMove | None:
    """The misère winning move (tie-break in the module header), or None when none wins."""
    found = _first_win(heaps, game, budget)
    if found is None:
        return None
    i, _, _, parts = found
    return HeapMove(i, heaps[i], tuple(parts))


def _row_heaps(row: str, game: Game) -> tuple[bytes, list[tuple[int, int]]]:
    if not game.on_rows:
        raise ValueError(f"{game.name} is not played on rows of pins; give heap sizes")
    data = parse_row(row)
    return data, _runs(data)


def row_outcome(row: str, game: Game, budget: int = DEFAULT_BUDGET) -> str:
    """'P' or 'N' for a row of pins ('x' standing, '.' removed) under misère play."""
    _, runs = _row_heaps(row, game)
    return outcome([length for _, length in runs], game, budget)


def row_winning_move(row: str, game: Game, budget: int = DEFAULT_BUDGET) -> str | None:
    """The row after the misère winning move (removed pins turned to '.'), or None."""
    data, runs = _row_heaps(row, game)
    found = _first_win([length for _, length in runs], game, budget)
    if found is None:
        return None
    i, a, k, _ = found
    out = bytearray(data)
    for offset, token in enumerate(game.kinds[k].pattern):
        if token == "x":
            out[runs[i][0] + a + offset] = 46  # '.'
    return out.decode("ascii")


class Genus:
    """Conway's genus g^(γ0 γ1 ...) of a game, superscripts written until they alternate."""

    __slots__ = ("normal", "misere")

    def __init__(self, normal: int, misere: tuple[int, ...]) -> None:
        self.normal = normal
        self.misere = misere

    def __str__(self) -> str:
        if all(v < 10 for v in self.misere):
            return f"{self.normal}^{''.join(map(str, self.misere))}"
        return f"{self.normal}^({','.join(map(str, self.misere))})"

    def __repr__(self) -> str:
        return f"Genus({self.normal}, {self.misere})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Genus) and (self.normal, self.misere) == (
            other.normal,
            other.misere,
        )

    def gamma(self, k: int) -> int:
        """γk for any k >= 0: the misère value of the game plus k nim heaps *2."""
        written = len(self.misere)
        if k < written:
            return self.misere[k]
        return self.misere[written - 2 + (k - written) % 2]


def _written(gammas: list[int], start: int) -> tuple[int, ...]:
    """γ0 ... γ(s+1) for the least s with γ(k+2) == γk for every k >= s (known from ``start``)."""
    s = start
    while s > 0 and gammas[s + 1] == gammas[s - 1]:
        s -= 1
    return tuple(gammas[: s + 2])


def genera(n: int, game: Game, budget: int = DEFAULT_BUDGET) -> list[Genus]:
    """The genus of every single heap 0..n, each proved (see the module header)."""
    if n < 0:
        raise ValueError("the largest heap must be >= 0")
    memo = _memo(game, budget)
    sequence = Sequence(game)
    gammas: list[list[int]] = [[] for _ in range(n + 1)]
    for twos in range(MAX_TWOS + 1):
        for heap in range(n + 1):
            gammas[heap].append(kernel.misere_value(memo, [heap], twos))
        # Layers 0..twos-1 hold every follower of every heap (each was reached from twos).
        if twos >= 3 and kernel.misere_layers_agree(memo, twos - 3, twos - 1):
            start = twos - 3
            return [
                Genus(sequence.nimber(heap), _written(gammas[heap], start))
                for heap in range(n + 1)
            ]
    raise ValueError(f"the genus superscripts did not alternate within {MAX_TWOS} copies of *2")


def genus(n: int, game: Game, budget: int = DEFAULT_BUDGET) -> Genus:
    """The genus of the single heap n."""
    return genera(n, game, budget)[n]
