"""What a move is: take-and-break heap games as data.

A game is a tuple of ``MoveKind``s.  A move kind lays ``pattern`` over
consecutive tokens of one heap of ``n``: every ``x`` token is removed, every
run of ``o`` tokens stays behind as a heap of its own.  What lies outside the
pattern is a left part ``a`` and a right part ``b`` with
``a + b = n - len(pattern)``; ``leave`` is the set of allowed counts of
non-empty outer parts (0, 1 or 2) and ``unequal`` forbids two equal
non-empty parts (``a == b > 0``).

Octal codes map onto this directly: digit ``d`` at place ``k`` is the pattern
``"x" * k`` with ``leave`` = {0 if d & 1, 1 if d & 2, 2 if d & 4}; a leading
``4.`` is the empty pattern with ``leave`` = {2} (split without removing).

The kernels never see names: ``encode`` turns a game into flat tuples
``(span, const_heaps, leave_mask, unequal)`` where ``const_heaps`` lists the
lengths of the ``o`` runs (their nimbers XOR into the option's constant) and
``leave_mask`` has bit ``i`` set when ``i`` non-empty parts may remain.
"""

from __future__ import annotations

from .errors import shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "GAMES",
    "Game",
    "MoveKind",
    "encode",
    "get_game",
    "parse_octal",
]

EncodedKind = tuple  # (span, const_heaps, leave_mask, unequal), see the header
MAX_KINDS = 64  # the kernels' room for move kinds (an octal code of 63 digits after '4.')
MAX_KEPT = 8  # ... and for kept 'o' runs in one pattern
MAX_SPAN = 64  # ... and for the length of a pattern (an octal code of 64 digits)


class MoveKind:
    """One kind of move: a pattern of removed (x) and kept (o) tokens."""

    __slots__ = ("pattern", "leave", "unequal")

    def __init__(self, pattern: str, leave: Iterable[int], unequal: bool = False) -> None:
        leave = frozenset(leave)
        if set(pattern) - {"x", "o"}:
            raise ValueError(f"pattern {shown(pattern)} may hold only 'x' and 'o'")
        if pattern and (pattern[0] != "x" or pattern[-1] != "x"):
            raise ValueError(f"pattern {shown(pattern)} must start and end with 'x'")
        if not leave or leave - {0, 1, 2}:
            raise ValueError(f"leave {sorted(leave)} must be a non-empty subset of {{0, 1, 2}}")
        if not pattern and leave != {2}:
            raise ValueError("the empty pattern (split) must leave exactly two parts")
        if len(pattern) > MAX_SPAN:
            raise ValueError(f"pattern {shown(pattern)} is longer than {MAX_SPAN} tokens")
        if len([run for run in pattern.split("x") if run]) > MAX_KEPT:
            raise ValueError(f"pattern {shown(pattern)} keeps more than {MAX_KEPT} runs")
        self.pattern = pattern
        self.leave = leave
        self.unequal = bool(unequal)

    @property
    def span(self) -> int:
        return len(self.pattern)

    @property
    def removes(self) -> int:
        """How many tokens the move takes away."""
        return self.pattern.count("x")

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


class Game:
    """A named heap game: its move kinds, in tie-break order."""

    __slots__ = ("name", "kinds", "summary")

    def __init__(self, name: str, kinds: Iterable[MoveKind], summary: str = "") -> None:
        self.name = name
        self.kinds = tuple(kinds)
        if len(self.kinds) > MAX_KINDS:
            raise ValueError(f"{name}: at most {MAX_KINDS} move kinds, not {len(self.kinds)}")
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

    def __repr__(self) -> str:
        return f"Game({self.name!r}, {list(self.kinds)!r})"


def encode(kinds: Iterable[MoveKind]) -> tuple[EncodedKind, ...]:
    """The kernels' view of a game: ``(span, const_heaps, leave_mask, unequal)`` per kind."""
    out = []
    for kind in kinds:
        kept = tuple(len(run) for run in kind.pattern.split("x") if run)
        mask = sum(1 << k for k in kind.leave)
        out.append((kind.span, kept, mask, kind.unequal))
    return tuple(out)


def parse_octal(code: str) -> Game:
    """The game of an octal code such as ``0.77``, ``.07``, ``4.07`` or ``0.137``."""
    text = code.strip()
    head, dot, digits = text.partition(".")
    if not dot or "." in digits:
        raise ValueError(f"octal code {shown(code)} needs exactly one '.' (as in 0.77)")
    if head not in ("", "0", "4"):
        raise ValueError(f"octal code {shown(code)} must start with '0.', '4.' or '.'")
    if not digits or not all(ch in "01234567" for ch in digits):
        raise ValueError(f"octal code {shown(code)} needs octal digits 0-7 after the '.'")
    if len(digits) > MAX_SPAN:
        raise ValueError(f"octal code {shown(code)} has more than {MAX_SPAN} digits after the '.'")
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


def get_game(spec: str) -> Game:
    """A game by name (see ``GAMES``) or by octal code."""
    key = spec.strip().lower()
    if key in GAMES:
        return GAMES[key]
    if "." in key:
        return parse_octal(key)
    names = ", ".join(GAMES)
    raise ValueError(f"unknown game {shown(spec)}: use one of {names} or an octal code like 0.77")
