"""The take-and-break code language (CGSuite's): codes read into games, games written as codes.

A code is ``d0.d1d2...dk`` with maybe a repeating tail ``[d(k+1)...]`` at the end.  Digit
``dk`` says what a move that removes k tokens from one heap may leave (d0: the move
removes none):

    0-9, A-V      the values 0 to 31 (either case; not O: ``&24;`` is 24): bit j set
                  means the rest may be left as exactly j non-empty heaps (octal digits
                  0-7 leave at most two, hexadecimal 0-F at most three)
    &N;           the value N, for any count up to 63 (``0.&8;`` is 0.8)
    *             any number of heaps, none included ({0+})
    {0,2,3+}      the counts listed; ``3+`` is 3 or more
    mark          after a digit, on its counts of two heaps or more: ``!`` all of them
                  different, ``?`` not all the same size, ``=`` all the same size; in
                  braces per count (``{0,2!,3}``) or after the ``}`` for all
    [d...]        at the end: these digits repeat for ever (``0.[3]`` is Nim)

``d0`` may be left out (``.07``) and may stand alone (``4`` is ``4.0``); ``4.`` splits a
heap in two, ``8.`` in three, ``4!.`` in two unequal heaps (Grundy's game).

The normal form (a game's ``name``) is CGSuite's: upper case, trailing zero digits
dropped, a digit whose counts of two heaps or more share one mark written as one
character with that mark (``0.{1,2!}`` is ``0.6!``), ``+`` lists collapsed
(``0.{0,1!,2,3,4+}`` is ``0.*``), braces only where marks differ or for ``+``.  It is
written from the move kinds (``code_of``), never kept from the text.  Where kayles
differs from CGSuite:

- a repeating tail is written at its shortest and earliest (``0.3[3]`` and ``0.[33]``
  are ``0.[3]``: one game, one code);
- a mark applies to counts of two heaps or more only (CGSuite's ``?`` also forbids
  leaving one heap of one token: ``0.6?`` there is not ``0.6`` with unequal pairs);
- digits before d0 (tokens added to a heap) and a d0 that leaves one heap (a pass) are
  refused: such games can grow heaps or loop.  Zeros before d0 add nothing, as in
  CGSuite (``04.07`` is ``4.07``); d0's bit 0 (no heap left from a heap, removing
  nothing) applies to the empty heap only, whose value both fix at 0, so it is dropped
  (``1.0`` is ``0.0``: CGSuite prints ``1.0``, with the same values);
- a code is ASCII: any other character is refused (never Unicode's case rules, which
  read ``\u017f`` as S), and so is the letter O, a slip for 0 (``O.77``: "did you mean
  0.77?"), whose value 24 is written ``&24;``;
- an empty repeating tail is refused (CGSuite reads ``0.[]`` as ``0.0``);
- ``{63}`` is written ``&9223372036854775808;``, a negative ``&N;`` is refused, and every
  bad code is one line naming the character and its position.
"""

from __future__ import annotations

from ..errors import InputError, shown
from .rules import ALIASES, GAMES, MARKS, MAX_COUNT, MAX_SPAN, Game, MoveKind

__all__ = ["B32", "code_of", "get_game", "parse_code"]

B32 = "0123456789ABCDEFGHIJKLMNOPQRSTUV"  # the one-character digits, values 0 to 31
# Each one-character digit in either case and its value: ASCII only, never Unicode's case
# rules ('\u017f'.upper() is 'S', '\u0131'.upper() is 'I').
_DIGIT = {**{ch.lower(): value for value, ch in enumerate(B32)},
          **{ch: value for value, ch in enumerate(B32)}}
_LETTER_O = B32.index("O")  # 24: written &24;, never 'O', which is refused as a slip for 0
SPACE = " \t\n\r\f\v"  # what may surround a name or a code: ASCII white space only

TYPE_CHECKING = False
if TYPE_CHECKING:
    Digit = tuple[dict[int, str], bool]  # (count -> mark, '' for none; more)


class _Reader:
    """The text of one code and the place reached; ``error`` names the place."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.at = 0

    def error(self, what: str, at: int | None = None) -> InputError:
        where = self.at if at is None else at
        if where >= len(self.code):
            place = "at its end"
        else:
            place = f"at character {where + 1}, {shown(self.code[where])}"
        return InputError(f"code {shown(self.code)}: {what} ({place}; see kayles codes)")

    def peek(self) -> str:
        return self.code[self.at] if self.at < len(self.code) else ""

    def digit(self) -> Digit:
        """One digit and its mark."""
        ch, start = self.peek(), self.at
        if ch in "Oo" and ch:  # the letter, 24 in base 32: most likely a slip for 0
            slip = self.code.replace("O", "0").replace("o", "0")
            raise self.error(f"the letter {ch!r} is not read as a digit, &24; is the value "
                             f"24: did you mean {slip}?")
        if ch and ch in _DIGIT:
            self.at += 1
            value = _DIGIT[ch]
            counts = {j: "" for j in range(5) if value >> j & 1}
            more = False
        elif ch == "&":
            end = self.code.find(";", start)
            number = self.code[start + 1 : end] if end > 0 else ""
            if end < 0:
                raise self.error("'&' opens a number that no ';' closes")
            number = number[1:] if number[:1] == "+" else number
            if not number.isascii() or not number.isdigit() or len(number) > 20:
                raise self.error("'&N;' needs a whole number N of 0 or more", start + 1)
            value = int(number)
            if value >= 1 << (MAX_COUNT + 1):
                raise self.error(f"'&N;' needs N below 2**{MAX_COUNT + 1} (at most "
                                 f"{MAX_COUNT} heaps)", start + 1)
            self.at = end + 1
            counts = {j: "" for j in range(MAX_COUNT + 1) if value >> j & 1}
            more = False
        elif ch == "*":
            self.at += 1
            counts, more = {0: ""}, True
        elif ch == "{":
            counts, more = self._braces()
        elif ch in MARKS:
            raise self.error(f"the mark {ch!r} has no digit before it to mark")
        elif ch == "":
            raise self.error("a digit is missing")
        else:
            raise self.error("not a digit: digits are 0-9 and A-V, &N;, * or {...}")
        mark = self.peek()
        if mark in MARKS and mark:
            if any(counts.values()):
                raise self.error("a mark after '}' marks every count: the counts in the "
                                 "braces have marks of their own")
            self.at += 1
            counts = dict.fromkeys(counts, mark)
            if self.peek() in MARKS and self.peek():
                raise self.error("one mark a digit")
        return counts, more

    def _braces(self) -> Digit:
        """``{c[mark],...,c[mark][+]}``: the counts listed, the last maybe ``+``."""
        open_at = self.at
        close = self.code.find("}", open_at)
        if close < 0:
            raise self.error("'{' opens a list that no '}' closes")
        counts: dict[int, str] = {}
        more = False
        at = open_at + 1
        if close == at:
            raise self.error("'{}' lists no count of heaps")
        while at < close:
            end = self.code.find(",", at, close)
            end = close if end < 0 else end
            entry = self.code[at:end]
            if entry == "+" and end == close and counts:  # {1,2,+}: '+' on the largest
                more = True
                break
            sign = 1 if entry[:1] == "+" else 0
            digits = len(entry) - sign - len(entry[sign:].lstrip("0123456789"))
            if not digits:
                raise self.error("a count of heaps (0 to 63) is missing", at)
            count = int(entry[sign:sign + digits])
            digits += sign
            if count > MAX_COUNT:
                raise self.error(f"a count of heaps is 0 to {MAX_COUNT}", at)
            rest = entry[digits:]
            mark = rest[:1] if rest[:1] in MARKS and rest[:1] else ""
            rest = rest[len(mark):]
            if rest == "+" and end == close:
                more = True
            elif rest:
                why = ("'+' may only end the list" if rest == "+"
                       else "a count of heaps is a number, a mark and, last, maybe '+'")
                raise self.error(why, at + digits + len(mark))
            counts[count] = mark
            at = end + 1  # a ',' just before '}' ends the list (as CGSuite reads it)
        self.at = close + 1
        return counts, more  # with more, '+' extends the largest count, with its mark


def parse_code(code: str) -> Game:
    """The game of a code (see the module header); InputError naming the place of a fault."""
    if not isinstance(code, str):
        raise TypeError(f"a code is a str such as '0.77', not {_type_of(code)}")
    text = code.strip(SPACE)
    if text in ("0", "4"):
        text += ".0"  # a bare d0, as the published tables write 4 for 4.0
    reader = _Reader(text)
    if not text.isascii():
        at = next(i for i, ch in enumerate(text) if not ch.isascii())
        raise reader.error("a code is written in ASCII characters only", at)
    before: list[Digit] = []
    while reader.peek() not in (".", ""):
        if reader.peek() in "[]":
            raise reader.error("a repeating tail comes after the point")
        before.append(reader.digit())
    if reader.peek() != ".":
        raise reader.error("a code needs a point, as in 0.77")
    point = reader.at
    reader.at += 1
    after: list[Digit] = []
    tail: list[Digit] | None = None
    while reader.peek():
        ch = reader.peek()
        if ch == ".":
            raise reader.error("a code has one point")
        if ch == "]":
            raise reader.error("']' closes no '['")
        if ch == "[":
            if tail is not None:
                raise reader.error("a code has one repeating tail")
            tail = []
            reader.at += 1
            while reader.peek() not in ("]", ""):
                if reader.peek() in "[.":
                    raise reader.error("a repeating tail holds digits only")
                tail.append(reader.digit())
            if reader.peek() != "]":
                raise reader.error("'[' opens a repeating tail that no ']' closes")
            if not tail:  # CGSuite reads '0.[]' as 0.0; here it is more likely a slip
                raise reader.error("a repeating tail holds one digit or more: '[]' repeats "
                                   "nothing, leave it out")
            reader.at += 1
            if reader.peek():
                raise reader.error("nothing may follow the repeating tail")
            continue
        after.append(reader.digit())
    if not before and not after and tail is None:
        raise reader.error("a code needs a digit, as in 0.77", 0)
    while len(before) > 1 and not before[0][0]:
        before.pop(0)  # zeros before d0 add nothing
    if len(before) > 1:
        raise reader.error("one digit goes before the point: digits before d0 add tokens "
                           "to a heap, and kayles computes no game whose heaps grow", 0)
    if len(after) + len(tail or ()) > MAX_SPAN:
        raise reader.error(f"a code has at most {MAX_SPAN} digits after the point", point)
    d0 = _normal(*before[0]) if before else ({}, False)
    if 1 in d0[0] or (d0[1] and max(d0[0]) < 1):
        raise reader.error("d0 (the digit before the point) leaves the heap as it was: "
                           "that is a pass, and the game would loop", 0)
    d0[0].pop(0, None)  # no heap left and nothing removed: no heap at all
    return _game([_normal(*d) for d in after], [_normal(*d) for d in tail or ()], d0)


def _normal(counts: dict[int, str], more: bool) -> Digit:
    """A digit as CGSuite normalises it: with ``more``, the counts through 3 filled in and a
    trailing run of counts with one mark made one; marks on counts 0 and 1 are those of
    the counts above (the one mark they share, or none)."""
    counts = dict(counts)
    if more:
        top = max(counts)
        for count in range(top + 1, 4):
            counts[count] = counts[top]
    marks = {m for c, m in counts.items() if c >= 2}
    low = next(iter(marks)) if len(marks) == 1 else ""
    for count in (0, 1):
        if count in counts:
            counts[count] = low
    if more:
        while True:
            top = max(counts)
            if top - 1 in counts and counts[top - 1] == counts[top]:
                del counts[top]
            else:
                break
    return counts, more


def _kind(span: int, digit: Digit) -> MoveKind | None:
    counts, more = digit
    if not counts:
        return None
    return MoveKind("x" * span, counts, marks={c: m for c, m in counts.items() if m},
                    more=more)


def _game(after: list[Digit], tail: list[Digit], d0: Digit) -> Game:
    """The game of normalised digits: trailing zero digits dropped, the tail at its
    shortest and earliest."""
    if tail and not any(counts for counts, _ in tail):
        tail = []
    if tail:
        for q in range(1, len(tail) + 1):
            if len(tail) % q == 0 and all(tail[i] == tail[i % q] for i in range(len(tail))):
                tail = tail[:q]
                break
        while after and after[-1] == tail[-1]:
            tail = [after.pop(), *tail[:-1]]
    else:
        while after and not after[-1][0]:
            after.pop()
    kinds = [kind for kind in [_kind(0, d0), *(_kind(k, d) for k, d in enumerate(after, 1))]
             if kind is not None]
    tail_kinds = [_kind(len(after) + 1 + i, d) for i, d in enumerate(tail)]
    game = Game("", kinds, tail=tail_kinds, tail_start=len(after) + 1)
    game.name = code_of(game)
    octal = game.octal and all(not k.marks and not k.more for k in kinds)
    game.summary = f"{'octal' if octal else 'take-and-break'} game {game.name}"
    return game


def code_of(game: Game) -> str | None:
    """A game's code in normal form (the module header), or None when its moves are not
    those of a code (a pattern keeps tokens, as Kayles-xox's does)."""
    digits: dict[int, MoveKind] = {}
    for kind in game.kinds:
        if "o" in kind.pattern or kind.span in digits:
            return None
        digits[kind.span] = kind
    head = _written(digits.pop(0)) if 0 in digits else "0"
    last = max(digits, default=0)
    if game.tail:
        last = game.tail_start - 1
    body = "".join(_written(digits[k]) if k in digits else "0" for k in range(1, last + 1))
    if game.tail:
        body += "[" + "".join(_written(k) if k is not None else "0" for k in game.tail) + "]"
    return f"{head}.{body or '0'}"


def _written(kind: MoveKind) -> str:
    """One digit in CGSuite's printing (the module header)."""
    counts, more = _normal({c: kind.marks.get(c, "") for c in kind.leave}, kind.more)
    shown_counts = sorted(counts)
    marks = {counts[c] for c in shown_counts}
    if len(marks) == 1:  # one mark (or none) on every count
        mark = marks.pop()
        if more:
            if shown_counts == [0]:
                return "*" + mark
            return "{" + ",".join(map(str, shown_counts)) + "+}" + mark
        value = sum(1 << c for c in shown_counts)
        letter = value < len(B32) and value != _LETTER_O  # 'O' reads as a slip for '0'
        return (B32[value] if letter else f"&{value};") + mark
    entries = [f"{c}{counts[c]}" for c in shown_counts]
    return "{" + ",".join(entries) + ("+" if more else "") + "}"


def get_game(spec: str) -> Game:
    """A game by name (see ``rules.GAMES``; ``rules.ALIASES`` too) or by its code (``0.77``,
    ``.07``, ``4.07``, ``0.3F``, ``4!.0``, ``0.[3]``, ...: the module header)."""
    if not isinstance(spec, str):
        raise TypeError(f"a game is named by a str (a name, or a code such as '0.77'), not "
                        f"{_type_of(spec)}")
    text = spec.strip(SPACE)
    key = text.lower() if text.isascii() else text  # never Unicode's case rules
    key = ALIASES.get(key, key)
    if key in GAMES:
        return GAMES[key]
    if "." in key or key in ("0", "4"):
        return parse_code(text)
    names = ", ".join(GAMES)
    ascii_only = "" if text.isascii() else " (names and codes are ASCII only)"
    raise InputError(f"unknown game {shown(spec)}{ascii_only}: use one of {names} or a code "
                     "like 0.77 (octal) or 0.3F (hexadecimal)")


def _type_of(value: object) -> str:
    """The type of a value given where a str belongs, with a hint for a code typed as a
    number (0.77 unquoted: 0.070 and 0.07 are one float, and 0.3F is no number at all)."""
    name = type(value).__name__
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{name} {value!r} (quote a code: '{value!r}')"
    return name
