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
(ext/_core.pyx and kayles/kernels/pure/_core.py; ext/_misere.pyx and
kayles/kernels/pure/_misere.py) implement the same on flat data, and the tests check
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
from ..kernels.constants import MARK_CODES, MAX_KEPT, MAX_KINDS, MAX_SPAN
from ..kernels.parts import allowed, multisets

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

__all__ = [
    "ALIASES",
    "GAMES",
    "MARKS",
    "MAX_COUNT",
    "MAX_KEPT",
    "MAX_KINDS",
    "MAX_SPAN",
    "Game",
    "MoveKind",
    "Option",
    "Split",
    "allowed",
    "describe_moves",
    "encode",
    "encode_takebreak",
    "multisets",
    "parse_octal",
]

EncodedKind = tuple  # (span, kept, leave_mask, unequal), see the header

# The marks of the code language on the parts a move leaves (two parts or more).
MARKS = {"!": "all different", "?": "not all the same size", "=": "all the same size"}
MAX_COUNT = 63  # the most parts a move kind lists (more: "or more", MoveKind.more)


class MoveKind:
    """One kind of move: a pattern of removed (x) and kept (o) tokens, and how many non-empty
    parts it may leave.

    ``leave`` lists the counts (0 to MAX_COUNT); ``more`` allows every count above the
    largest listed one too.  ``marks`` maps a count of two parts or more to a mark of
    MARKS (a count above the largest, with ``more``, has the largest's mark, which is kept
    whatever the largest); other marks on 0 and 1 part mean nothing and are dropped.
    ``unequal=True`` is the mark "!" on two parts (Grundy's game).  Counts of three or
    more (and ``more``) belong to heap games: such a pattern removes tokens only (no 'o').
    The empty pattern removes nothing, so it must leave two parts or more (one would be a
    pass, none no move at all).
    """

    __slots__ = ("pattern", "leave", "marks", "more", "unequal", "kept", "leave_mask")

    def __init__(self, pattern: str, leave: Iterable[int], unequal: bool = False, *,
                 marks: dict[int, str] | None = None, more: bool = False) -> None:
        if not isinstance(pattern, str):
            raise TypeError(f"pattern must be a str of 'x' and 'o', not {type(pattern).__name__}")
        if isinstance(leave, (str, bytes)) or not hasattr(leave, "__iter__"):
            raise TypeError(f"leave must be a set of counts such as {{0, 1, 2}}, not "
                            f"{type(leave).__name__}")
        leave = frozenset(leave)
        marks = dict(marks or {})
        if set(pattern) - {"x", "o"}:
            raise InputError(f"pattern {shown(pattern)} may hold only 'x' and 'o'")
        if pattern and (pattern[0] != "x" or pattern[-1] != "x"):
            raise InputError(f"pattern {shown(pattern)} must start and end with 'x'")
        if not leave or not all(type(c) is int and 0 <= c <= MAX_COUNT for c in leave):
            raise InputError(f"leave {sorted(leave, key=str)} must be a non-empty set of "
                             f"counts 0 to {MAX_COUNT}")
        if unequal and 2 in leave:
            marks.setdefault(2, "!")
        if any(c not in leave or m not in MARKS for c, m in marks.items()):
            raise InputError(f"marks {marks} must mark counts of leave with one of "
                             f"{', '.join(MARKS)}")
        more = bool(more)
        if "o" in pattern and (more or max(leave) > 2):
            raise InputError(f"pattern {shown(pattern)} keeps tokens: it may leave at most "
                             "two outer parts")
        if not pattern and (leave & {0, 1}):
            raise InputError("the empty pattern (split without taking) must leave two parts "
                             "or more")
        if len(pattern) > MAX_SPAN:
            raise InputError(f"pattern {shown(pattern)} is longer than {MAX_SPAN} tokens")
        top = max(leave)  # with more, its mark is that of every count above it too
        self._set(pattern, leave, {c: m for c, m in marks.items()
                                   if c >= 2 or more and c == top}, more)

    def _set(self, pattern: str, leave: frozenset, marks: dict[int, str], more: bool) -> None:
        kept = tuple(len(run) for run in pattern.split("x") if run)
        if len(kept) > MAX_KEPT:
            raise InputError(f"pattern {shown(pattern)} keeps more than {MAX_KEPT} runs")
        self.pattern = pattern
        self.leave = leave
        self.marks = marks
        self.more = more
        self.unequal = self.mark(2) in ("!", "?") and self.allows_count(2)  # two parts: a != b
        self.kept = kept  # the lengths of the 'o' runs, left to right
        self.leave_mask = sum(1 << count for count in leave)  # bit i: i parts may remain

    def at_span(self, span: int) -> MoveKind:
        """The same counts and marks on the pattern of ``span`` removed tokens (a repeating
        tail's kinds: any span)."""
        kind = MoveKind.__new__(MoveKind)
        kind._set("x" * span, self.leave, self.marks, self.more)
        return kind

    @property
    def span(self) -> int:
        return len(self.pattern)

    @property
    def removes(self) -> int:
        """How many tokens the move takes away."""
        return self.pattern.count("x")

    @property
    def most(self) -> int | None:
        """The most parts the move may leave (None: any number, ``more``)."""
        return None if self.more else max(self.leave)

    @property
    def octal(self) -> bool:
        """Whether the octal kernels take it: at most two parts, no mark but '!' or '?' on
        two (unequal parts)."""
        return (not self.more and max(self.leave) <= 2
                and all(c == 2 and m in ("!", "?") for c, m in self.marks.items()))

    def allows_count(self, count: int) -> bool:
        """Whether the move may leave ``count`` non-empty parts."""
        return count in self.leave or (self.more and count > max(self.leave))

    def mark(self, count: int) -> str:
        """The mark on ``count`` parts ('' for none; none on fewer than two)."""
        if count < 2:
            return ""
        if count not in self.leave and self.more:
            count = max(self.leave)
        return self.marks.get(count, "")

    def allows(self, a: int, b: int) -> bool:
        """Whether outer parts ``a`` and ``b`` may remain (see the module header)."""
        count = (a > 0) + (b > 0)
        if not self.allows_count(count):
            return False
        if count < 2:
            return True
        mark = self.mark(2)
        return a != b if mark in ("!", "?") else a == b if mark == "=" else True

    def describe(self) -> str:
        what = f"remove {self.pattern!r}" if self.pattern else "split a heap"
        unequal = self.marks == {2: "!"}  # Grundy's split: said after the counts
        words = [f"{c} ({MARKS[self.marks[c]]})" if c in self.marks and not unequal else str(c)
                 for c in sorted(self.leave)]
        if self.more:
            words[-1] += " or more"
        rule = f"{what}, leaving {' or '.join(words)} non-empty part(s)"
        return rule + (" of unequal size" if unequal else "")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MoveKind) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = ", unequal=True" if self.marks == {2: "!"} else (
            f", marks={self.marks}" if self.marks else "")
        if self.more:
            extra += ", more=True"
        return f"MoveKind({self.pattern!r}, {set(sorted(self.leave))}{extra})"

    def _key(self) -> tuple:
        return (self.pattern, self.leave, tuple(sorted(self.marks.items())), self.more)


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


class Split(tuple):
    """One option of a heap in a game whose moves may leave three parts or more: move kind
    ``kind`` leaves the heaps ``parts`` (ascending).  The tuple ``(kind, parts)``."""

    __slots__ = ()

    def __new__(cls, kind: int, parts: tuple[int, ...]) -> Split:
        return tuple.__new__(cls, (kind, parts))

    kind = property(lambda self: self[0], doc="An index into Game.kinds_upto(n).")
    parts = property(lambda self: self[1], doc="The non-empty heaps left, ascending.")

    def __repr__(self) -> str:
        return f"Split(kind={self[0]}, parts={self[1]})"

    def value(self, nimber: Callable[[int], int]) -> int:
        """The XOR of G over the parts, given G."""
        value = 0
        for h in self[1]:
            value ^= nimber(h)
        return value



class Game:
    """A named heap game: its move kinds, in tie-break order, and maybe a repeating tail.

    ``tail`` (a code's ``[..]``): the kinds of spans s to s + len(tail) - 1 repeat for
    ever, s = ``tail_start``: the kind of span k >= s has the counts and marks of
    ``tail[(k - s) % len(tail)]`` (None: no move of that span); the finite kinds all span
    less.
    """

    __slots__ = ("name", "kinds", "summary", "tail", "tail_start")

    def __init__(self, name: str, kinds: Iterable[MoveKind], summary: str = "",
                 tail: Iterable[MoveKind | None] = (), tail_start: int | None = None) -> None:
        if not isinstance(name, str):
            raise TypeError(f"a game's name is a str, not {type(name).__name__}")
        self.name = name
        self.kinds = tuple(kinds)
        self.tail = tuple(tail)
        odd = [k for k in self.kinds if not isinstance(k, MoveKind)] + [
            k for k in self.tail if k is not None and not isinstance(k, MoveKind)]
        if odd:  # a tail's None is a span with no move
            raise TypeError(f"a game's kinds are MoveKinds, not {type(odd[0]).__name__}")
        if len(self.kinds) + len(self.tail) > MAX_KINDS:
            raise InputError(f"{name}: at most {MAX_KINDS} move kinds, not "
                             f"{len(self.kinds) + len(self.tail)}")
        if self.tail:
            if tail_start is None:
                tail_start = next(k.span - i for i, k in enumerate(self.tail) if k is not None)
            if (tail_start < 1 or any(k.span >= tail_start for k in self.kinds)
                    or any(k is not None and k.pattern != "x" * (tail_start + i)
                           for i, k in enumerate(self.tail))
                    or all(k is None for k in self.tail)):
                raise InputError(f"{name}: a repeating tail is of removals of consecutive "
                                 "sizes, after every other kind")
        self.tail_start = tail_start if self.tail else None
        self.summary = summary

    @property
    def span(self) -> int:
        """The widest pattern (t in the periodicity bound; a tail: the widest before it
        repeats)."""
        return max((k.span for k in self._every_kind()), default=0)

    def _every_kind(self) -> tuple[MoveKind, ...]:
        """The finite kinds and one period of the tail's."""
        return self.kinds + tuple(k for k in self.tail if k is not None)

    @property
    def on_rows(self) -> bool:
        """Whether positions are rows of pins (every move removes a pin and leaves at most
        two runs)."""
        return all(k.removes and k.most is not None and k.most <= 2
                   for k in self._every_kind())

    @property
    def two_parts(self) -> bool:
        """Whether every move leaves at most two parts (options in placement order)."""
        return all(k.most is not None and k.most <= 2 for k in self._every_kind())

    @property
    def octal(self) -> bool:
        """Whether the octal kernels take the game: no tail, every kind ``octal``."""
        return not self.tail and all(k.octal for k in self.kinds)

    @property
    def plain(self) -> bool:
        """Whether the game is a finite code with no marks, no 'or more' and no kept tokens:
        the games ``kayles.engine.regularity``'s theorems are about."""
        return not self.tail and all(not k.kept and not k.marks and not k.more
                                     for k in self.kinds)

    @property
    def provable(self) -> bool:
        """Whether a theorem can prove the game's regularity: the octal periodicity theorem
        (an octal game, no unequal moves), or one of ``kayles.engine.regularity``'s (a
        ``plain`` game)."""
        if self.octal:
            return not any(k.unequal for k in self.kinds)
        return self.plain

    def kinds_upto(self, n: int) -> tuple[MoveKind, ...]:
        """The kinds of spans up to n: the finite ones, then the tail's (Option.kind and
        Split.kind index this)."""
        first, tail = self.tail_start, self.tail
        if not tail or n < first:
            return self.kinds
        return self.kinds + tuple(tail[(k - first) % len(tail)].at_span(k)
                                  for k in range(first, n + 1)
                                  if tail[(k - first) % len(tail)] is not None)

    def constants(self, nimber: Callable[[int], int]) -> set[int]:
        """The option constants, given G: each kind's XOR of G over its kept runs."""
        values = set()
        for kind in self.kinds:
            value = 0
            for h in kind.kept:
                value ^= nimber(h)
            values.add(value)
        return values

    def options(self, n: int) -> Iterator[Option | Split]:
        """Every option of a heap of ``n``, in tie-break order.

        Where every move leaves at most two parts: ``Option``s, smallest ``a`` (the left
        part) first, then the earlier kind.  Otherwise ``Split``s: the earlier kind (the
        fewer tokens taken) first, then the fewer parts, then the parts in lexicographic
        order (CGSuite's order).  Lazy, so a search that stops at the first hit costs only
        what it reads.
        """
        kinds = self.kinds_upto(n)
        if self.two_parts:
            placed = [(k, kind.span, kind.kept, kind.allows) for k, kind in enumerate(kinds)]
            for a in range(n + 1):
                for k, span, kept, allows in placed:
                    b = n - span - a
                    if b >= 0 and allows(a, b):
                        yield Option(a, k, kept, b)
            return
        for k, kind in enumerate(kinds):
            rest = n - kind.span
            if rest < 0:
                continue
            if kind.kept:  # at most two outer parts: placement order
                for a in range(rest + 1):
                    if kind.allows(a, rest - a):
                        yield Split(k, tuple(sorted(p for p in (a, *kind.kept, rest - a) if p)))
                continue
            for count in range(min(rest, max(kind.leave) if not kind.more else rest) + 1):
                if kind.allows_count(count):
                    for parts in multisets(rest, count, kind.mark(count)):
                        yield Split(k, parts)

    def __repr__(self) -> str:
        tail = f", tail={list(self.tail)!r}" if self.tail else ""
        return f"Game({self.name!r}, {list(self.kinds)!r}{tail})"



def encode(kinds: Iterable[MoveKind]) -> tuple[EncodedKind, ...]:
    """The octal kernels' view of a game: ``(span, kept, leave_mask, unequal)`` per kind;
    InputError for a kind they cannot take (``MoveKind.octal``)."""
    kinds = tuple(kinds)
    for kind in kinds:
        if not kind.octal:
            raise InputError(f"{kind.describe()}: this needs a move that leaves at most two "
                             "parts, unequal or not")
    return tuple((kind.span, kind.kept, kind.leave_mask, kind.unequal) for kind in kinds)


def encode_takebreak(game: Game) -> tuple[tuple, int]:
    """The take-and-break kernel's view of a game (any code): ``(kinds, tail)``.

    ``kinds``: one ``(span, kept, counts, more)`` per finite kind, then one per kind of
    the tail's period (spans consecutive; ``counts`` empty where a span has no move).
    ``counts``: ``(count, mark)`` pairs, counts ascending, mark 0 none, 1 '!', 2 '?',
    3 '=' (MARK_CODES); ``more``: counts above the largest allowed too, with its mark.
    ``tail``: how many of the last kinds repeat for ever (0: none).
    """
    def flat(span: int, kind: MoveKind | None) -> tuple:
        if kind is None:
            return (span, (), (), 0)
        counts = tuple((c, MARK_CODES[kind.marks.get(c, "")]) for c in sorted(kind.leave))
        return (span, kind.kept, counts, int(kind.more))

    kinds = [flat(kind.span, kind) for kind in game.kinds]
    kinds += [flat(game.tail_start + i, kind) for i, kind in enumerate(game.tail)]
    return tuple(kinds), len(game.tail)


def describe_moves(game: Game) -> str:
    """A canonical text of what decides a game's values: its encoded move kinds.

    One ``span,kept,leave,unequal`` per distinct kind, sorted, ``;`` between kinds
    (kept: the lengths of the pattern's 'o' runs joined by '+', or '-'; leave: the
    bit mask of allowed non-empty outer parts; unequal: 1 or 0).  '0.77' and
    'kayles' give the same text; Kayles-xox gives ``1,-,7,0;3,1,7,0``.

    A game beyond the octal kernels (``Game.octal`` false) is written
    ``span,kept,counts`` per kind (counts: each with its mark, ``+`` after the last for
    ``more``, ``.`` between them), the tail's kinds after ``|`` in order (``-`` for no
    move): ``0.8`` gives ``1,-,3``.
    """
    if not game.octal:
        def text(kind: MoveKind) -> str:
            counts = ".".join(f"{c}{kind.marks.get(c, '')}" for c in sorted(kind.leave))
            return (f"{kind.span},{'+'.join(map(str, kind.kept)) or '-'},"
                    f"{counts}{'+' if kind.more else ''}")
        head = ";".join(sorted({text(kind) for kind in game.kinds}))
        tail = ";".join("-" if kind is None else text(kind) for kind in game.tail)
        return head + ("|" + tail if tail else "")
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
    if not isinstance(code, str):
        raise TypeError(f"an octal code is a str such as '0.77', not {type(code).__name__}")
    text = code.strip(" \t\n\r\f\v")  # ASCII white space only, as every code
    head, dot, digits = text.partition(".")
    if not dot and head in ("0", "4"):
        digits = "0"  # a bare d0
    elif not dot or "." in digits:
        raise InputError(f"octal code {shown(code)} needs exactly one '.' (as in 0.77)")
    if head not in ("", "0", "4"):
        slip = f" (did you mean {head.replace('O', '0').replace('o', '0')}.{digits}?)" \
            if head in ("O", "o") else ""
        raise InputError(f"octal code {shown(code)} must start with '0.', '4.' or '.'{slip}")
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
