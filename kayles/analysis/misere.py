"""Misère play (whoever moves last loses) for every heap game: outcomes, winning moves, genus.

How this works.  The kernel (``misere_value`` in ext/_misere.pyx and its twin
kayles/kernels/pure/_misere.py) finds the misère Grundy value
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

from .._numbers import brief
from ..engine.functional import HeapRule, RuleSequence
from ..engine.rules import Game, encode
from ..engine.sequence import Sequence
from ..errors import InputError, ResourceError
from ..kernels.constants import DEFAULT_BUDGET
from ..kernels.limits import MISERE_BUDGET
from .heaps import HeapMove
from .row import parse_row, runs, taken, without

__all__ = [
    "DEFAULT_BUDGET",
    "Genus",
    "Solver",
    "genera",
    "genus",
    "heaps_winning_move",
    "outcome",
    "row_outcome",
    "row_winning_move",
    "value",
]

MAX_TWOS = 64  # genus: give up (ValueError) if the superscripts do not alternate by then


def _check_heaps(heaps: list[int], budget: int) -> None:
    for size in heaps:
        if not isinstance(size, int) or size < 0:
            raise InputError(f"heap sizes must be integers >= 0, not {size!r}")
        if size > budget:  # a larger heap has more options than that (splits), or is refused
            raise ResourceError(f"a heap of {brief(size)} is beyond the misère search budget of "
                             f"{budget} positions")


def _moves(size: int, game: Game | HeapRule):
    """(left part a, kind index, heaps left) of every move on a heap, in tie-break order (a
    heap rule's options: a = 0, in the function's order)."""
    for option in game.options(size):
        yield getattr(option, "a", 0), option.kind, list(option.parts)


class _RuleSearch:
    """The misère search of a heap rule (kayles.engine.functional), in Python: the kernels
    take codes only.  The same values as theirs: positions are sorted multisets of heaps,
    heaps with no move vanish, a position with no move has value 1 (the player to move has
    won), any other the mex of its options' values; memoised, at most ``budget`` positions,
    computed with a stack of its own (no recursion, however deep the game)."""

    def __init__(self, rule: HeapRule, budget: int) -> None:
        self.rule, self.budget = rule, budget
        self.values: dict[tuple[int, ...], int] = {}
        self.heap_moves: dict[int, list[tuple[int, ...]]] = {}

    def _moves(self, n: int) -> list[tuple[int, ...]]:
        found = self.heap_moves.get(n)
        if found is None:
            found = self.heap_moves[n] = [split.parts for split in self.rule.options(n)]
        return found

    def _key(self, heaps) -> tuple[int, ...]:
        return tuple(sorted(h for h in heaps if h and self._moves(h)))

    def _options(self, key: tuple[int, ...]) -> list[tuple[int, ...]]:
        found = []
        for i, h in enumerate(key):
            rest = key[:i] + key[i + 1:]
            found += [self._key(rest + parts) for parts in self._moves(h)]
        return found

    def misere_value(self, memo, heaps: list[int], twos: int) -> int:
        if twos:
            raise InputError(f"{self.rule.name}: misère values with copies of *2 (a genus) "
                             "are searched for octal games only")
        start = self._key(heaps)
        values, stack = self.values, [start]
        while stack:
            key = stack[-1]
            if key in values:
                stack.pop()
                continue
            options = self._options(key)
            open_ = [o for o in options if o not in values]
            if open_:
                stack += open_
                continue
            stack.pop()
            if len(values) >= self.budget:
                raise ResourceError(f"{self.rule.name}: the misère search passed its budget "
                                    f"of {self.budget} positions")
            values[key] = _mex_of({values[o] for o in options}) if options else 1
        return values[start]


def _mex_of(values: set[int]) -> int:
    m = 0
    while m in values:
        m += 1
    return m


class Solver:
    """Misère answers for one game, sharing one memo of positions (at most ``budget``)."""

    def __init__(self, game: Game, budget: int = DEFAULT_BUDGET, kernel=None) -> None:
        """``kernel``: a misère kernel module (default: the one ``kayles.kernels.chooser``
        chooses)."""
        MISERE_BUDGET.check(budget)
        if isinstance(game, RuleSequence):
            game = game.game
        if isinstance(game, HeapRule):
            self.game, self.budget, self.memo, self.quotient = game, budget, None, None
            self.kernel = _RuleSearch(game, budget)
            return
        if not game.octal:
            raise InputError(f"{game.name}: misère play is searched for octal games (moves "
                             "that leave at most two parts, unequal or not); normal play "
                             "takes any code")
        self.game = game
        self.budget = budget
        if kernel is None:
            from ..kernels import chooser

            kernel = chooser.misere_kernel
        self.kernel = kernel
        self.memo = self.kernel.MisereMemo(encode(game.kinds), budget)
        self.quotient = None  # a proved misère quotient covering the heaps asked: used instead


    def value(self, heaps: list[int], twos: int = 0) -> int:
        """The misère Grundy value of the heaps plus ``twos`` nim heaps *2 (0: a loss to move)."""
        _check_heaps([*heaps, twos], self.budget)
        return self.kernel.misere_value(self.memo, heaps, twos)

    def outcome(self, heaps: list[int]) -> str:
        """'P' when the player to move loses under misère play, else 'N'."""
        if self.quotient is not None:
            return self.quotient.outcome(heaps)
        return "N" if self.value(heaps) else "P"

    def _first_win(self, heaps: list[int]):
        """(heap index, a, kind index, parts) of the tie-break's winning move, or None."""
        if self.quotient is not None:
            return self.quotient.first_win(heaps)
        if not self.value(heaps):
            return None
        for i, size in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1 :]
            for a, k, parts in _moves(size, self.game):
                if not self.kernel.misere_value(self.memo, rest + parts, 0):
                    return i, a, k, parts
        return None  # no move at all: the opponent moved last

    def heaps_winning_move(self, heaps: list[int]) -> HeapMove | None:
        """The misère winning move (tie-break in the module header), or None when none wins."""
        found = self._first_win(heaps)
        if found is None:
            return None
        i, _, _, parts = found
        return HeapMove(i, heaps[i], tuple(parts))

    def row_heaps(self, row: str) -> list[int]:
        """The heaps a row of pins is: the lengths of its runs."""
        return [length for _, length in self._runs(row)]

    def _runs(self, row: str) -> list[tuple[int, int]]:
        if not self.game.on_rows:
            raise InputError(f"{self.game.name} is not played on rows of pins; give heap sizes")
        parse_row(row)
        return runs(row)

    def row_outcome(self, row: str) -> str:
        """'P' or 'N' for a row of pins ('x' standing, '.' removed) under misère play."""
        return self.outcome(self.row_heaps(row))

    def row_winning_move(self, row: str) -> str | None:
        """The row after the misère winning move (removed pins turned to '.'), or None."""
        found_runs = self._runs(row)
        found = self._first_win([length for _, length in found_runs])
        if found is None:
            return None
        i, a, k, _ = found
        return without(row, taken(self.game.kinds[k], found_runs[i][0] + a))

    def genera(self, n: int) -> list[Genus]:
        """The genus of every single heap 0..n, each proved (see the module header)."""
        if n < 0:
            raise InputError("the largest heap must be >= 0")
        if isinstance(self.game, HeapRule):
            raise InputError(f"{self.game.name}: a genus is searched for octal games only")
        _check_heaps([n], self.budget)
        sequence = Sequence(self.game)
        gammas: list[list[int]] = [[] for _ in range(n + 1)]
        for twos in range(MAX_TWOS + 1):
            for heap in range(n + 1):
                gammas[heap].append(self.kernel.misere_value(self.memo, [heap], twos))
            # Layers 0..twos-1 hold every follower of every heap (each was reached from twos).
            if twos >= 3 and self.kernel.misere_layers_agree(self.memo, twos - 3, twos - 1):
                return [
                    Genus(sequence.nimber(heap), _written(gammas[heap], twos - 3))
                    for heap in range(n + 1)
                ]
        raise ResourceError(f"the genus superscripts did not alternate within {MAX_TWOS} "
                            "copies of *2")


def value(heaps: list[int], game: Game, budget: int = DEFAULT_BUDGET) -> int:
    """The misère Grundy value of a list of heaps (0: the player to move loses)."""
    return Solver(game, budget).value(heaps)


def outcome(heaps: list[int], game: Game, budget: int = DEFAULT_BUDGET) -> str:
    """'P' when the player to move loses under misère play, else 'N'."""
    return Solver(game, budget).outcome(heaps)


def heaps_winning_move(
    heaps: list[int], game: Game, budget: int = DEFAULT_BUDGET
) -> HeapMove | None:
    """The misère winning move (tie-break in the module header), or None when none wins."""
    return Solver(game, budget).heaps_winning_move(heaps)


def row_outcome(row: str, game: Game, budget: int = DEFAULT_BUDGET) -> str:
    """'P' or 'N' for a row of pins under misère play."""
    return Solver(game, budget).row_outcome(row)


def row_winning_move(row: str, game: Game, budget: int = DEFAULT_BUDGET) -> str | None:
    """The row after the misère winning move (removed pins turned to '.'), or None."""
    return Solver(game, budget).row_winning_move(row)


def genera(n: int, game: Game, budget: int = DEFAULT_BUDGET) -> list[Genus]:
    """The genus of every single heap 0..n."""
    return Solver(game, budget).genera(n)


def genus(n: int, game: Game, budget: int = DEFAULT_BUDGET) -> Genus:
    """The genus of the single heap n."""
    return genera(n, game, budget)[n]


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
