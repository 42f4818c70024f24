"""What a move is: take-and-break heap games as data, and the options they give.

A game is a tuple of ``MoveKind``s.  A move kind lays ``pattern`` over
consecutive tokens of one heap of ``n``: every ``x`` token is removed, every
run of ``o`` tokens stays behind as a heap of its own (the ``kept`` runs).
What lies outside the pattern is a left part ``a`` and a right part ``b`` with
``a + b = n - len(pattern)``; ``leave`` is the set of allowed counts of
non-empty outer parts (0, 1 or 2) and ``unequal`` forbids two equal
non-empty parts, ``a == b > 0``.  A move that leaves no outer part at all
(``a == b == 0``) is not a split into equal parts: ``unequal`` allows it
whenever ``leave`` holds 0 (decided once, here; the kernels, ``heaps`` and the
tests follow).

``Game.options(n)`` is the one statement of the rules: every option of a heap
of ``n``, in tie-break order (smallest ``a`` first; at equal ``a``, the
earlier move kind).  Everything else is specified against it: a nimber is the
mex of the options' values, and a winning move (of a heap, or of a run in a
row) is the first option whose value reaches the target.  The kernels
(ext/_core.pyx and kayles/engine/_core_pure.py; ext/_misere.pyx and
kayles/engine/_misere_pure.py) implement the same on flat data, and the tests check
them against ``Game.options``; which outer parts a move may leave is
``allowed``, here, and its compiled twin ``allows`` in ext/_common.pxd.  To
change the tie-break, change ``Game.options`` and the kernels' ``row_move``
loops (both twins).

Octal codes map onto this directly: digit ``d`` at place ``k`` is the pattern
``"x" * k`` with ``leave`` = {0 if d & 1, 1 if d & 2, 2 if d & 4}; a leading
``4.`` is the empty pattern with ``leave`` = {2} (split without removing).

The kernels never see names: ``encode`` turns a game into flat tuples
``(span, kept, leave_mask, unequal)`` where ``kept`` lists the lengths of the
``o`` runs (their nimbers XOR into the option's constant) and ``leave_mask``
has bit ``i`` set when ``i`` non-empty parts may remain.
"""

from __future__ import annotations

from ..errors import InputError, shown
from ._constants import MAX_KEPT, MAX_KINDS, MAX_SPAN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

__all__ = [
    "ALIASES",
    "GAMES",
    "MAX_KEPT",
    "MAX_KINDS",
    "MAX_SPAN",
    "Game",
    "MoveKind",
    "Option",
    "allowed",
    "describe_moves",
    "encode",
    "get_game",
    "parse_octal",
]

EncodedKind = tuple  # (span, kept, leave_mask, unequal), see the header


class MoveKind:
    """One kind of move: a pattern of removed (x) and kept (o) tokens."""

    __slots__ = ("pattern", "leave", "unequal", "kept", "leave_mask")

    def __init__(self, pattern: str, leave: Iterable[int], unequal: bool = False) -> None:
        leave = frozenset(leave)
        if set(pattern) - {"x", "o"}:
            raise InputError(f"pattern {shown(pattern)} may hold only 'x' and 'o'")
        if pattern and (pattern[0] != "x" or pattern[-1] != "x"):
            raise InputError(f"pattern {shown(pattern)} must start and end with 'x'")
        if not leave or leave - {0, 1, 2}:
            raise InputError(f"leave {sorted(leave)} must be a non-empty subset of {{0, 1, 2}}")
        if not pattern and leave != {2}:
            raise InputError("the empty pattern (split) must leave exactly two parts")
        if len(pattern) > MAX_SPAN:
            raise InputError(f"pattern {shown(pattern)} is longer than {MAX_SPAN} tokens")
        kept = tuple(len(run) for run in pattern.split("x") if run)
        if len(kept) > MAX_KEPT:
            raise InputError(f"pattern {shown(pattern)} keeps more than {MAX_KEPT} runs")
        self.pattern = pattern
        self.leave = leave
        self.unequal = bool(unequal)
        self.kept = kept  # the lengths of the 'o' runs, left to right
        self.leave_mask = sum(1 << count for count in leave)  # bit i: i parts may remain

    @property
    def span(self) -> int:
        return len(self.pattern)

    @property
    def removes(self) -> int:
        """How many tokens the move takes away."""
        return self.pattern.count("x")

    def allows(self, a: int, b: int) -> bool:
        """Whether outer parts ``a`` and ``b`` may remain (see the module header)."""
        return allowed(self.leave_mask, self.unequal, a, b)

    def describe(self) -> str:
        what = f"remove {self.pattern!r}" if self.pattern else "split a heap"
        parts = " or ".join(str(k) for k in sorted(self.leave))
        rule = f"{what}, leaving {parts} non-empty part(s)"
        return rule + (" of unequal size" if self.unequal else "")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MoveKind) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = ", unequal=True" if self.unequal else ""
        return f"MoveKind({self.pattern!r}, {set(sorted(self.leave))}{extra})"

    def _key(self) -> tuple:
        return (self.pattern, self.leave, self.unequal)


class Option(tuple):
    """One option of a heap: move kind ``kind`` laid at token ``a``.

    ``a`` is both the left part and the placement (the first covered token,
    0-based); the heap becomes ``a``, the ``kept`` runs and ``b``, empty ones
    dropped.  An option is the tuple ``(a, kind, kept, b)``, so options compare
    in tie-break order.  (A tuple subclass, not ``typing.NamedTuple``: importing
    typing costs 6 ms, half of Kayles-xox's start-up budget.)
    """

    __slots__ = ()

    def __new__(cls, a: int, kind: int, kept: tuple[int, ...], b: int) -> Option:
        return tuple.__new__(cls, (a, kind, kept, b))

    a = property(lambda self: self[0], doc="The left part, and the first covered token.")
    kind = property(lambda self: self[1], doc="An index into Game.kinds.")
    kept = property(lambda self: self[2], doc="The kept runs, left to right.")
    b = property(lambda self: self[3], doc="The right part.")

    def __repr__(self) -> str:
        return f"Option(a={self[0]}, kind={self[1]}, kept={self[2]}, b={self[3]})"

    @property
    def parts(self) -> tuple[int, ...]:
        """The non-empty heaps the option leaves, left to right."""
        return tuple(p for p in (self.a, *self.kept, self.b) if p)

    def value(self, nimber: Callable[[int], int]) -> int:
        """G(a) ^ G(kept runs) ^ G(b), given G."""
        value = nimber(self.a) ^ nimber(self.b)
        for h in self.kept:
            value ^= nimber(h)
        return value


class Game:
    """A named heap game: its move kinds, in tie-break order."""

    __slots__ = ("name", "kinds", "summary")

    def __init__(self, name: str, kinds: Iterable[MoveKind], summary: str = "") -> None:
        self.name = name
        self.kinds = tuple(kinds)
        if len(self.kinds) > MAX_KINDS:
            raise InputError(f"{name}: at most {MAX_KINDS} move kinds, not {len(self.kinds)}")
        self.summary = summary

    @property
    def span(self) -> int:
        """The widest pattern (t in the periodicity bound)."""
        return max((k.span for k in self.kinds), default=0)

    @property
    def on_rows(self) -> bool:
        """Whether positions are rows of pins (every move removes a pin)."""
        return all(k.removes for k in self.kinds)

    @property
    def provable(self) -> bool:
        """Whether the octal periodicity theorem applies (no 'unequal' moves)."""
        return not any(k.unequal for k in self.kinds)

    def constants(self, nimber: Callable[[int], int]) -> set[int]:
        """The option constants, given G: each kind's XOR of G over its kept runs."""
        values = set()
        for kind in self.kinds:
            value = 0
            for h in kind.kept:
                value ^= nimber(h)
            values.add(value)
        return values

    def options(self, n: int) -> Iterator[Option]:
        """Every option of a heap of ``n``, in tie-break order: smallest ``a``, then kind.

        Lazy, so a search that stops at the first hit costs only what it reads.
        """
        kinds = [(k, kind.span, kind.kept, kind.allows) for k, kind in enumerate(self.kinds)]
        for a in range(n + 1):
            for k, span, kept, allows in kinds:
                b = n - span - a
                if b >= 0 and allows(a, b):
                    yield Option(a, k, kept, b)

    def __repr__(self) -> str:
        return f"Game({self.name!r}, {list(self.kinds)!r})"


def allowed(leave_mask: int, unequal: bool, a: int, b: int) -> bool:
    """Whether a move may leave outer parts ``a`` and ``b``: the one statement of that rule.

    ``leave_mask`` has bit ``i`` set when ``i`` non-empty parts may remain; ``unequal``
    forbids ``a == b > 0`` (see the module header).  ``MoveKind.allows`` and the pure
    kernels call this; the compiled kernels' ``allows`` (ext/_common.pxd) is its twin.
    """
    return bool(leave_mask >> ((a > 0) + (b > 0)) & 1) and not (unequal and a == b > 0)


def encode(kinds: Iterable[MoveKind]) -> tuple[EncodedKind, ...]:
    """The kernels' view of a game: ``(span, kept, leave_mask, unequal)`` per kind."""
    return tuple((kind.span, kind.kept, kind.leave_mask, kind.unequal) for kind in kinds)


def describe_moves(game: Game) -> str:
    """A canonical text of what decides a game's values: its encoded move kinds.

    One ``span,kept,leave,unequal`` per distinct kind, sorted, ``;`` between kinds
    (kept: the lengths of the pattern's 'o' runs joined by '+', or '-'; leave: the
    bit mask of allowed non-empty outer parts; unequal: 1 or 0).  '0.77' and
    'kayles' give the same text; Kayles-xox gives ``1,-,7,0;3,1,7,0``.
    """
    kinds = {
        f"{span},{'+'.join(map(str, kept)) or '-'},{leave},{int(unequal)}"
        for span, kept, leave, unequal in encode(game.kinds)
    }
    return ";".join(sorted(kinds))


def parse_octal(code: str) -> Game:
    """The game of an octal code such as ``0.77``, ``.07``, ``4.07`` or ``0.137``.

    The digit before the point is d0 (0 or 4: 4 splits a heap in two without
    removing anything); as in the published tables it may stand alone: ``4``
    and ``4.`` are 4.0, ``0`` and ``0.`` are 0.0 (no move at all).
    """
    text = code.strip()
    head, dot, digits = text.partition(".")
    if not dot and head in ("0", "4"):
        digits = "0"  # a bare d0
    elif not dot or "." in digits:
        raise InputError(f"octal code {shown(code)} needs exactly one '.' (as in 0.77)")
    if head not in ("", "0", "4"):
        raise InputError(f"octal code {shown(code)} must start with '0.', '4.' or '.'")
    if not digits and head:
        digits = "0"  # '4.' is 4.0
    if not digits or not all(ch in "01234567" for ch in digits):
        raise InputError(f"octal code {shown(code)} needs octal digits 0-7 after the '.'")
    if len(digits) > MAX_SPAN:
        raise InputError(f"octal code {shown(code)} has more than {MAX_SPAN} digits after the '.'")
    kinds = [MoveKind("", {2})] if head == "4" else []
    for place, digit in enumerate(digits, start=1):
        d = int(digit)
        leave = {i for i in range(3) if d >> i & 1}
        if leave:
            kinds.append(MoveKind("x" * place, leave))
    name = (head or "0") + "." + digits
    return Game(name, kinds, f"octal game {name}")


_EVERY = (0, 1, 2)

GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game(
            "kayles-xox",
            [MoveKind("x", _EVERY), MoveKind("xox", _EVERY)],
            "take one pin, or the outer two of three consecutive pins",
        ),
        Game("kayles", parse_octal("0.77").kinds, "0.77: take one pin or two adjacent pins"),
        Game("dawsons-kayles", parse_octal("0.07").kinds, "0.07: take two adjacent pins"),
        Game(
            "dawsons-chess",
            parse_octal("0.137").kinds,
            "0.137: take a lone pin, two pins from an end, or three adjacent pins",
        ),
        Game(
            "treblecross",
            parse_octal("0.007").kinds,
            "0.007: take three adjacent pins (the gaps of Treblecross)",
        ),
        Game(
            "grundy",
            [MoveKind("", {2}, unequal=True)],
            "Grundy's game: split one heap into two unequal heaps",
        ),
    )
}


# Other names people use for the named games (and old ones), each for one name of GAMES.
ALIASES = {"grundys-game": "grundy", "grundys_game": "grundy"}


def get_game(spec: str) -> Game:
    """A game by name (see ``GAMES``; ``ALIASES`` too) or by octal code."""
    key = spec.strip().lower()
    key = ALIASES.get(key, key)
    if key in GAMES:
        return GAMES[key]
    if "." in key or key in ("0", "4"):
        return parse_octal(key)
    names = ", ".join(GAMES)
    raise InputError(f"unknown game {shown(spec)}: use one of {names} or an octal code like 0.77")
