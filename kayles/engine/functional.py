"""Rules written as functions: heap games ``n -> options`` and coordinate games
``(a, b) -> options`` (CGSuite's FunctionalHeapRuleset and CoordinateRuleset).

A heap rule is a function that gives, for a heap of n, its options, each an iterable of
the heaps the move leaves (``()`` takes the heap away; every heap left is below n, so the
values follow from smaller heaps).  ``heap_rule(fn)`` makes it a ``RuleSequence``: a
``Sequence`` whose values G(0), G(1), ... are computed here, in Python, in order, each the
mex of the XORs of G over an option's heaps (no kernel: a function has no compiled form),
in a table of 8 bytes a value that grows by doubling and stops at the memory kayles may
use (kayles.kernels.limits.table_limit).  Everything that takes a Sequence takes it: the
winning move on heaps (``kayles.heaps``), misère play (``kayles.misere``), plots.

No theorem proves a period for an arbitrary rule, so ``prove`` finds none and says why
(``period_note``).  A rule declared a take-and-break code (``code='0.07'``) is checked
against the code, heap by heap, over every heap the code's proof reads, and then the
code's proved regularity (the octal periodicity theorem, or kayles.engine.regularity's)
is the rule's: any heap answers at once.

A coordinate rule gives, for a position (a, b), its options, each an iterable of the
positions (a', b') the move leaves, a sum (Cutcake splits a cake into two); every
position an option leaves has a' <= a and b' <= b and is not (a, b) itself.
``CoordinateRule`` computes the value table row by row, the P-positions and winning moves.
"""

from __future__ import annotations

from array import array

from ..errors import InputError, ResourceError
from ..kernels.limits import interrupt, table_limit
from .rules import Game, Split
from .sequence import Period, Sequence, whole

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["CoordinateRule", "HeapRule", "RuleSequence", "coordinate_rule", "heap_rule"]

NO_THEOREM = ("no theorem proves a period for a rule given as a function (declare it a "
              "take-and-break code, code='0.07', to have that code's proof apply)")
SIGNAL_STEPS = 1024  # heaps (or positions) between calls of the interrupt hook


def _mex(values: set[int]) -> int:
    m = 0
    while m in values:
        m += 1
    return m


class HeapRule:
    """A heap game given by ``options(n)``: an iterable of options, each an iterable of the
    heaps left (each below n).  ``name`` names it in messages; ``code``, a take-and-break
    code the rule is declared to be (checked, see the module header).  It stands where a
    ``Game`` stands for the analyses: ``options`` yields ``Split``s in the function's order
    (the tie-break of a winning move), heaps of 0 dropped."""

    octal = plain = on_rows = two_parts = False
    kinds = ()
    span = 0

    def __init__(self, options: Callable[[int], Iterable[Iterable[int]]], name: str = "rule",
                 code: str | None = None) -> None:
        if not callable(options):
            raise TypeError(f"a heap rule is a function n -> options, not "
                            f"{type(options).__name__}")
        if not isinstance(name, str):
            raise TypeError(f"a rule's name is a str, not {type(name).__name__}")
        self.function = options
        self.name = name
        self.code = None
        if code is not None:
            from .codes import get_game

            self.code = get_game(code)

    @property
    def provable(self) -> bool:
        """Whether a theorem can prove the rule's regularity: that of its declared code."""
        return self.code is not None and self.code.provable

    def moves(self, n: int) -> list[tuple[int, ...]]:
        """The options of a heap of n as the function gives them, each checked (a tuple of
        heaps 0 <= h < n); InputError naming the heap otherwise."""
        try:
            found = [tuple(option) for option in self.function(n)]
        except TypeError as exc:
            raise InputError(f"{self.name}: the options of heap {n} must be an iterable of "
                             f"iterables of heap sizes ({exc})") from None
        for option in found:
            for h in option:
                if type(h) is not int or not 0 <= h < n:
                    raise InputError(f"{self.name}: heap {n} has the option {option!r}: each "
                                     f"heap left must be an int 0 to {n - 1}")
        return found

    def options(self, n: int):
        """Every option of a heap of n, as ``Split(0, parts)`` (parts: the non-empty heaps,
        in the function's order)."""
        for option in self.moves(n):
            yield Split(0, tuple(h for h in option if h))

    def __repr__(self) -> str:
        code = f", code={self.code.name!r}" if self.code is not None else ""
        return f"HeapRule({self.name!r}{code})"


class RuleSequence(Sequence):
    """The nim-sequence of a ``HeapRule``, computed in Python (see the module header); the
    rest of ``Sequence`` (table, nimber, nimbers, segments, prove) as for a code.  Values
    are unbounded ints kept 64-bit: ``table`` is a memoryview of format 'Q'."""

    def __init__(self, rule: HeapRule, *, progress=None) -> None:
        if not isinstance(rule, HeapRule):
            raise TypeError(f"RuleSequence takes a HeapRule, not {type(rule).__name__}")
        super().__init__(rule.code or Game(rule.name, ()), progress=progress)
        self.game = rule
        self.octal = False
        self.encoded = None
        self._table = memoryview(array("Q", bytes(8 * 64))).cast("B").cast("Q")
        self._checkpoint = 1 << 62  # no checkpoints: a period comes from a declared code alone

    @property
    def kernel(self):
        return None

    @property
    def period_note(self) -> str:
        """Why a period is or is not known."""
        if self.period is not None:
            return f"proved as {self.game.code.name}'s: {self.period.theorem}"
        return NO_THEOREM if self.game.code is None else (
            f"{self.game.code.name}: no period proved yet")

    def _reserve(self, count: int) -> None:
        if count > len(self._table):
            size = max(count, 2 * len(self._table))
            table = memoryview(array("Q", bytes(8 * size))).cast("B").cast("Q")
            table[: self._length] = self._table[: self._length]
            self._table = table

    def check_memory(self, count: int) -> None:
        return

    def _compute(self, count: int) -> None:
        if self.period is not None:  # Sequence copies whole periods or reads one
            return
        limit = table_limit()
        if count > limit and self.period is None:
            if self.game.code is not None:
                self.prove()
            if self.period is None:
                raise ResourceError(f"{self.game.name}: heap sizes past {limit - 1} cannot be "
                                    f"answered: {self.period_note}, and the table the memory "
                                    "holds stops there")
        self._grow(min(count, limit))

    def _grow(self, count: int) -> None:
        if self._length >= count:
            return
        self._reserve(count)
        g, moves = self._table, self.game.moves
        for n in range(self._length, count):
            if n % SIGNAL_STEPS == 0:
                interrupt()
                if self.progress is not None:
                    self.progress.update(n, count)
            values = set()
            for option in moves(n):
                value = 0
                for h in option:
                    value ^= g[h]
                values.add(value)
            value = _mex(values)
            if value >> 64:
                raise ResourceError(f"{self.game.name}: G({n}) is past 64 bits")
            g[n] = value
            self._length = n + 1
        for listener in tuple(self.listeners):
            listener(self)

    def _check(self) -> None:
        return

    def prove(self, limit: int | None = None) -> Period | None:
        """A rule declared a code: the code's proved regularity, once the rule's options are
        the code's on every heap the proof reads (InputError where they differ); else None
        (``period_note`` says why)."""
        code = self.game.code
        if self.period is not None or code is None:
            return self.period
        with self._lock:
            found = Sequence(code).prove(limit)
            if found is None:
                return None
            for n in range(found.values):
                if n % SIGNAL_STEPS == 0:
                    interrupt()
                own = sorted(tuple(sorted(h for h in option if h)) for option in
                             self.game.moves(n))
                theirs = sorted(split.parts if isinstance(split, Split) else
                                tuple(sorted(split.parts)) for split in code.options(n))
                if own != theirs:
                    raise InputError(f"{self.game.name} is not the code {code.name}: heap {n} "
                                     f"has other options")
            self._grow(found.values)
            self.period = found
        return self.period


def heap_rule(options: Callable[[int], Iterable[Iterable[int]]], name: str = "rule",
              code: str | None = None) -> RuleSequence:
    """The nim-sequence of the heap game whose options ``options(n)`` gives (module header):
    ``heap_rule(lambda n: [(n - k,) for k in (1, 2) if k <= n]).nimbers(6)`` is
    ``[0, 1, 2, 0, 1, 2, 0]``."""
    return RuleSequence(HeapRule(options, name, code))


class CoordinateRule:
    """A game on positions (a, b) given by ``options(a, b)``: each option an iterable of the
    positions (a', b') it leaves, a' <= a, b' <= b, none of them (a, b).  A position of the
    sum is a list of pairs."""

    def __init__(self, options: Callable[[int, int], Iterable[Iterable[tuple[int, int]]]],
                 name: str = "rule") -> None:
        if not callable(options):
            raise TypeError(f"a coordinate rule is a function (a, b) -> options, not "
                            f"{type(options).__name__}")
        self.function = options
        self.name = name
        self._rows: list[list[int]] = []  # G(a, b) for a < len, b < self._width
        self._width = 0

    def moves(self, a: int, b: int) -> list[tuple[tuple[int, int], ...]]:
        """The options of (a, b) as the function gives them, each checked."""
        try:
            found = [tuple((x, y) for x, y in option) for option in self.function(a, b)]
        except (TypeError, ValueError) as exc:
            raise InputError(f"{self.name}: the options of ({a}, {b}) must be an iterable of "
                             f"iterables of pairs (a, b) ({exc})") from None
        for option in found:
            for x, y in option:
                if (type(x) is not int or type(y) is not int or not 0 <= x <= a
                        or not 0 <= y <= b or (x, y) == (a, b)):
                    raise InputError(f"{self.name}: ({a}, {b}) has the option {option!r}: each "
                                     f"position left must be a pair of ints (a', b') with "
                                     f"a' <= {a}, b' <= {b}, not ({a}, {b}) itself")
        return found

    def _pair(self, position) -> tuple[int, int]:
        a, b = position
        a, b = whole(a, "a coordinate"), whole(b, "a coordinate")
        if a < 0 or b < 0:
            raise InputError(f"coordinates must be >= 0, not ({a}, {b})")
        return a, b

    def table(self, rows: int, cols: int | None = None) -> list[list[int]]:
        """G(a, b) for 0 <= a < rows, 0 <= b < cols (cols defaults to rows)."""
        rows = whole(rows, "rows")
        cols = rows if cols is None else whole(cols, "cols")
        if rows < 0 or cols < 0:
            raise InputError("a table's sides must be >= 0")
        if rows * cols > table_limit():
            raise ResourceError(f"{self.name}: a table of {rows} x {cols} values is past the "
                                f"{table_limit()} the memory holds")
        if cols > self._width:
            self._rows, self._width = [], cols  # computed again as wide as asked
        g = self._rows
        for a in range(len(g), rows):
            row: list[int] = []
            g.append(row)
            for b in range(self._width):
                if (a * self._width + b) % SIGNAL_STEPS == 0:
                    interrupt()
                values = set()
                for option in self.moves(a, b):
                    value = 0
                    for x, y in option:
                        value ^= g[x][y]
                    values.add(value)
                row.append(_mex(values))
        return [row[:cols] for row in g[:rows]]

    def value(self, position) -> int:
        """G of one position (a, b), or the XOR over a list of them."""
        if len(position) == 2 and all(isinstance(v, int) for v in position):
            position = [position]
        pairs = [self._pair(p) for p in position]
        if not pairs:
            return 0
        table = self.table(max(a for a, _ in pairs) + 1,
                           max(max(b for _, b in pairs) + 1, self._width))
        total = 0
        for a, b in pairs:
            total ^= table[a][b]
        return total

    def p_positions(self, rows: int, cols: int | None = None) -> list[tuple[int, int]]:
        """The (a, b) with G(a, b) == 0 in the table of rows x cols, row by row."""
        return [(a, b) for a, row in enumerate(self.table(rows, cols))
                for b, g in enumerate(row) if g == 0]

    def winning_move(self, position) -> tuple[int, tuple[tuple[int, int], ...]] | None:
        """(index of the position moved in, the positions it becomes) of the first winning
        move (the leftmost position whose value can be lowered, its first option in the
        function's order), or None when every move loses.  ``position``: (a, b) or a list."""
        if len(position) == 2 and all(isinstance(v, int) for v in position):
            position = [position]
        pairs = [self._pair(p) for p in position]
        total = self.value(pairs)
        if not total:
            return None
        g = self._rows
        for i, (a, b) in enumerate(pairs):
            target = g[a][b] ^ total
            if target < g[a][b]:
                for option in self.moves(a, b):
                    value = 0
                    for x, y in option:
                        value ^= g[x][y]
                    if value == target:
                        return i, option
        raise RuntimeError("cannot happen: no option reaches the target value")


def coordinate_rule(options: Callable[[int, int], Iterable[Iterable[tuple[int, int]]]],
                    name: str = "rule") -> CoordinateRule:
    """The coordinate game whose options ``options(a, b)`` gives (module header)."""
    return CoordinateRule(options, name)
