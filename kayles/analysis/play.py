"""Playing a game against perfect play: positions, the user's moves, the program's answers.

A ``Match`` holds a position (a row of pins, or a list of heap sizes), reads
moves written the forgiving way people type them (``parse``), and answers with
the engine's winning move.  A ``GameMatch`` does the same for any game written in Python
(``kayles.ImpartialGame``): its moves are the game's options, typed as the position
after the move (as the game's ``parse`` reads it) or by their number in ``move_list``,
and its answers are ``kayles.analysis.solver.Solver``'s (a loopy game's drawn positions
answered with a move that keeps the draw).  The solver is chosen in one place, ``_solver``:
normal play asks ``row.winning_move`` / ``heaps.winning_move``; misere play
(whoever makes the last move loses) asks ``kayles.analysis.misere``.

When every move of the program loses, it still has to move: it takes the legal
move that removes the fewest pins or tokens, and among those the leftmost (the
leftmost pin; for heaps the leftmost heap, then the smallest left part), at the
same place the earlier move kind of the game.

Move syntax (``kayles play``'s help, ``MOVE_HELP`` in its command module, says the same):

    rows   4          take pin 4 (pins count from 1, left to right)
           3 5        take pins 3 and 5 (Kayles-xox: the outer two of 3 4 5)
           3-4        take pins 3 to 4 (a range of adjacent pins)
           xx.x.xx    the whole row after the move
    heaps  heap 2 -> 1 + 4   or  2: 1 4   or  heap 2: 5 -> 1 + 4
                              heap 2 becomes heaps 1 and 4 ('nothing' or nothing: it goes)
           7 1 4 3    the whole list of heaps after the move ('nothing' when none is left)
"""

from __future__ import annotations

import re

from .._numbers import natural
from ..engine.rules import Game
from ..engine.sequence import Sequence
from ..errors import InputError, shown
from .heaps import HeapMove
from .row import runs, taken, without

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = [
    "MAX_TOKENS",
    "GameMatch",
    "Match",
    "Move",
    "parse_position",
    "pins_text",
    "position_text",
]

MAX_TOKENS = 10_000  # pins of a row, or tokens of all heaps: a game people play

class Move:
    """One move: the position it leaves, and what it takes.

    ``removed`` lists the 0-based pins taken on a row; ``heap`` is the HeapMove
    on a list of heaps (exactly one of the two is set).
    """

    __slots__ = ("after", "heap", "label", "removed")

    def __init__(self, after, removed: tuple[int, ...] = (), heap: HeapMove | None = None,
                 label: str = "") -> None:
        self.after = after
        self.removed = removed
        self.heap = heap
        self.label = label  # a GameMatch's move: 'move 2 of 5'

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and (self.after, self.removed, self.heap) == (
            other.after,
            other.removed,
            other.heap,
        )

    def __repr__(self) -> str:
        return f"Move({self.after!r}, removed={self.removed}, heap={self.heap!r})"

    def what(self) -> str:
        """What the move takes: 'pin 4', 'pins 3-4', 'heap 1: 7 -> 2 + 3', or a
        GameMatch's 'move 2 of 5'."""
        if self.label:
            return self.label
        return self.heap.text() if self.heap is not None else pins_text(self.removed)


def parse_position(words: list[str], game: Game):
    """A starting position from command-line words: heap sizes, or one row of pins."""
    from .heaps import looks_like_heaps, parse_heaps
    from .row import parse_row

    if looks_like_heaps(words):
        return parse_heaps(" ".join(words))
    if not game.on_rows:
        raise InputError(f"{game.name} is played on heaps: give heap sizes")
    if len(words) != 1:
        raise InputError("a row is one POSITION of 'x' and '.' (or give heap sizes)")
    parse_row(words[0])
    return words[0]


def position_text(position) -> str:
    """How a position is shown: the row itself, or the heap sizes ('(empty)' for nothing)."""
    if isinstance(position, str):
        return position or "(empty)"
    return " ".join(map(str, position)) or "(empty)"


def pins_text(removed: tuple[int, ...]) -> str:
    """'pin 4', 'pins 3-4' (adjacent) or 'pins 3 5', pins counted from 1."""
    pins = [p + 1 for p in removed]
    if len(pins) == 1:
        return f"pin {pins[0]}"
    if pins == list(range(pins[0], pins[-1] + 1)):
        return f"pins {pins[0]}-{pins[-1]}"
    return "pins " + " ".join(map(str, pins))


class Match:
    """A position of one game and the moves from it, under normal or misere play."""

    def __init__(self, sequence: Sequence, position, misere: bool = False) -> None:
        self.sequence = sequence
        self.game = sequence.game
        self.misere = misere
        if isinstance(position, str):
            if not self.game.on_rows:
                raise InputError(f"{self.game.name} is played on heaps: give heap sizes")
            longest = max(map(len, position.split(".")), default=0)
        else:
            position = list(position)
            longest = max(position, default=0)
        if (len(position) if isinstance(position, str) else sum(position)) > MAX_TOKENS:
            raise InputError(f"play takes positions of at most {MAX_TOKENS} pins or tokens")
        self.position = position
        self._solve = _solver(sequence, misere)
        sequence.nimber(longest)  # the table the game needs, computed once up front

    @property
    def on_rows(self) -> bool:
        return isinstance(self.position, str)

    # -- the moves ---------------------------------------------------------------------------

    def moves(self) -> Iterator[Move]:
        """Every legal move, left to right (at one place, in the game's move-kind order)."""
        if self.on_rows:
            return _row_moves(self.position, self.game)
        return _heap_moves(self.position, self.game)

    def has_move(self) -> bool:
        return next(self.moves(), None) is not None

    def best(self) -> Move | None:
        """The engine's winning move, or None when every move loses."""
        return self._solve(self.position)

    def reply(self) -> Move:
        """The program's move: the winning one, else the one taking least, leftmost."""
        found = self.best()
        if found is not None:
            return found
        if self.on_rows:  # min keeps the first of equals: the earlier move kind
            removed = min(_row_takes(self.position, self.game),
                          key=lambda pins: (len(pins), pins))
            return Move(without(self.position, removed), removed)
        return min(self.moves(), key=_heap_cost)

    def play(self, move: Move) -> None:
        self.position = move.after

    @staticmethod
    def text(position) -> str:
        """How a position is shown (``position_text``)."""
        return position_text(position)

    # -- reading the user's move -------------------------------------------------------------

    def parse(self, text: str) -> Move:
        """The move the user typed (see the module header), or ValueError saying why not."""
        text = " ".join(text.strip().lower().split())
        if not text:
            raise InputError("type a move, or 'help'")
        if self.on_rows:
            return self._parse_row_move(text)
        return self._parse_heap_move(text)

    def _parse_row_move(self, text: str) -> Move:
        row = self.position
        if set(text) <= {"x", "."}:
            if len(text) != len(row):
                raise InputError(f"a whole row has {len(row)} characters, like {row}, "
                                 f"not {len(text)}")
            back = [i + 1 for i, (a, b) in enumerate(zip(row, text)) if a == "." and b == "x"]
            if back:
                raise InputError(f"pin {back[0]} is down already and cannot come back")
            removed = {i for i, (a, b) in enumerate(zip(row, text)) if a != b}
            if not removed:
                raise InputError("that is the row as it stands: take at least one pin")
        else:
            removed = _pins(text)
        return _row_move(row, removed, self.game)

    def _parse_heap_move(self, text: str) -> Move:
        heaps = self.position
        if ":" not in text and "->" not in text:
            after = [] if text == "nothing" else _numbers(text, "a heap size")
            return _heap_list_move(heaps, after, self.game)
        text = re.sub(r"^heap\s*", "", text)
        head, _, rest = re.split(r"(:|->)", text, maxsplit=1)
        index = _number(head.strip(), "a heap number") - 1
        if not 0 <= index < len(heaps):
            raise InputError(f"there is no heap {index + 1}: the heaps are 1 to {len(heaps)}"
                             if heaps else "there are no heaps left")
        size = heaps[index]
        if "->" in rest:
            said, _, rest = rest.partition("->")
            if _number(said.strip(), "a heap size") != size:
                raise InputError(f"heap {index + 1} has {size}, not {said.strip()}")
        words = rest.replace("+", " ").replace(",", " ").split()
        parts = [] if words == ["nothing"] else _numbers(" ".join(words), "a heap size", True)
        parts = tuple(p for p in parts if p)
        why = _heap_move_error(size, parts, self.game)
        if why:
            raise InputError(f"heap {index + 1} of {size} cannot become {_parts_text(parts)}: "
                             f"{why}")
        move = HeapMove(index, size, parts)
        return Move(move.apply(heaps), heap=move)


class GameMatch:
    """A position of a game written in Python and the moves from it, under normal or misère
    play: the turns of a ``Match``, on ``solver``'s answers (module header)."""

    on_rows = False

    def __init__(self, solver, position, misere: bool = False) -> None:
        self.solver = solver
        self.game = solver.game
        self.position = position
        self.misere = misere
        solver.outcome(position, misere)  # the search, once up front

    def text(self, position) -> str:
        """The position as the game formats it, on one line (a graph's lines joined by
        '; ', '(empty)' for none): a turn is one line."""
        from .games.families import format_position

        return "; ".join(format_position(self.game, position).splitlines()) or "(empty)"

    def moves(self) -> list[Move]:
        """Every move, in the game's order, labelled as the game's ``describe`` says it
        (a vertex's name), else by its number ('move 2 of 5')."""
        found = self.solver.search.options(self.position)
        from .games.families import describes, format_move

        if describes(self.game):
            return [Move(option, label=format_move(self.game, self.position, option))
                    for option in found]
        return [Move(option, label=f"move {number} of {len(found)}")
                for number, option in enumerate(found, start=1)]

    def move_list(self) -> str:
        """The moves from here, one a line ('2: <what it takes>' where the game describes
        its moves, else '2: <the position after it>')."""
        found = self.moves()
        if not found:
            return "there is no move from here"
        from .games.families import describes

        described = describes(self.game)
        return "\n".join(f"{number}: {move.label if described else self.text(move.after)}"
                         for number, move in enumerate(found, start=1))

    def help(self, positions: str, described: str) -> str:
        """How to type a move: ``described`` where the game says its moves in words."""
        from .games.families import describes

        return described if describes(self.game) else positions

    def has_move(self) -> bool:
        return bool(self.moves())

    def best(self) -> Move | None:
        """The winning move (from a drawn position, one that keeps the draw), or None."""
        after = self.solver.best_move(self.position, self.misere)
        if after is None:
            return None
        return next(move for move in self.moves() if move.after == after)

    def reply(self) -> Move:
        """The program's move: the best one, else the game's first."""
        return self.best() or self.moves()[0]

    def play(self, move: Move) -> None:
        self.position = move.after

    def parse(self, text: str) -> Move:
        """The move typed: '#N' (or 'move N') for the N-th of ``move_list``; then, where the
        game says its moves in words (``describe``), one of those, else the position after
        it, as the game reads positions; InputError saying why not."""
        words = text.strip()
        if not words:
            raise InputError("type a move, or 'help'")
        found = self.moves()
        number = re.fullmatch(r"(?:#|move\s+)\s*([0-9]+)", words.lower())
        if number:
            index = int(number.group(1))
            if not 1 <= index <= len(found):
                raise InputError(f"there is no move {index}: the moves are 1 to {len(found)}"
                                 if found else "there is no move from here")
            return found[index - 1]
        from .games.families import describes, parse_position

        if describes(self.game):  # a move as the game says it ('f2', 'a1-b1')
            for move in found:
                if move.label.lower() == words.lower():
                    return move
            raise InputError(f"{shown(words)} is not a move here: the moves are "
                             f"{', '.join(move.label for move in found)}")

        after = parse_position(self.game, words)
        for move in found:
            if move.after == after:
                return move
        state = self.solver.search.state_key(after)
        for move in found:
            if self.solver.search.state_key(move.after) == state:
                return move
        raise InputError(f"{self.text(after)} is not one move from {self.text(self.position)} "
                         "(type 'help' for the moves)")


# -- the solver: chosen here and nowhere else ---------------------------------------------------


def _solver(sequence: Sequence, misere: bool) -> Callable[[object], Move | None]:
    """position -> the winning move or None: normal play, or misere play (``misere``)."""
    from . import heaps as heap_positions
    from . import row as row_positions

    game = sequence.game
    if misere:
        from .misere import Solver
        from .quotient import misere_answer

        solver = Solver(game)  # one memo of positions for the whole game

        def row_move(row: str):  # the exhaustive search, or the quotient past it
            return misere_answer(solver, row)[0]

        def heap_move(heaps: list[int]):
            return misere_answer(solver, heaps)[0]
    else:

        def row_move(row: str):
            return row_positions.winning_move(row, sequence)

        def heap_move(heaps: list[int]):
            return heap_positions.winning_move(heaps, sequence)

    def solve(position) -> Move | None:
        if isinstance(position, str):
            after = row_move(position)
            if after is None:
                return None
            return Move(after, tuple(i for i, (a, b) in enumerate(zip(position, after)) if a != b))
        found = heap_move(position)
        return None if found is None else Move(found.apply(position), heap=found)

    return solve


# -- rows ---------------------------------------------------------------------------------------


def _row_takes(row: str, game: Game) -> Iterator[tuple[int, ...]]:
    """The pins every legal move takes, left to right, in move-kind order at one pin."""
    for start, length in runs(row):
        for option in game.options(length):
            yield taken(game.kinds[option.kind], start + option.a)


def _row_moves(row: str, game: Game) -> Iterator[Move]:
    for removed in _row_takes(row, game):
        yield Move(without(row, removed), removed)


def _pins(text: str) -> set[int]:
    """The 0-based pins of '4', '3 5', '3-4', 'pins 3, 5', 'take 3 and 5'."""
    words = re.sub(r"^(take|remove)\s+", "", text)
    words = re.sub(r"^pins?\s*", "", words).replace(",", " ").replace(" and ", " ")
    words = re.sub(r"\s*-\s*", "-", words)
    pins: set[int] = set()
    for word in words.split():
        low, dash, high = word.partition("-")
        first = _number(low, "a pin number")
        last = _number(high, "a pin number") if dash else first
        if last < first:
            raise InputError(f"the range {word} runs backwards: write {last}-{first}")
        if pins & set(range(first, last + 1)):
            raise InputError(f"pin {min(pins & set(range(first, last + 1)))} is named twice")
        pins.update(range(first, last + 1))
    if not pins:
        raise InputError(f"cannot read {shown(text)} as a move")
    if 0 in pins:
        raise InputError("pins are numbered from 1")
    return {p - 1 for p in pins}


def _row_move(row: str, removed: set[int], game: Game) -> Move:
    """The move taking exactly the pins ``removed``, or ValueError saying why there is none."""
    for pin in sorted(removed):
        if pin >= len(row):
            raise InputError(f"there is no pin {pin + 1}: the row has pins 1 to {len(row)}")
        if row[pin] != "x":
            raise InputError(f"pin {pin + 1} is down already")
    named = pins_text(tuple(sorted(removed)))
    why = f"{named} is not one move of {game.name} ({_rules(game)})"
    first = min(removed)
    for kind in game.kinds:
        if set(taken(kind, first)) != removed:
            continue
        end = first + kind.span
        if "." in row[first:end] or end > len(row):
            why = f"{named} needs pins {first + 1} to {end} all standing"
            continue
        start = row.rfind(".", 0, first) + 1
        stop = row.find(".", first)
        stop = len(row) if stop < 0 else stop
        if not kind.allows(first - start, stop - end):
            why = f"{named} is not allowed here ({kind.describe()})"
            continue
        pins = tuple(sorted(removed))
        return Move(without(row, pins), pins)
    raise InputError(why)


def _rules(game: Game) -> str:
    """The game's moves in words: its summary when it has one beyond its code."""
    if game.summary and not game.summary.startswith("octal game"):
        return game.summary
    return "; ".join(kind.describe() for kind in game.kinds)


# -- heaps --------------------------------------------------------------------------------------


def _heap_moves(heaps: list[int], game: Game) -> Iterator[Move]:
    for index, size in enumerate(heaps):
        for option in game.options(size):
            move = HeapMove(index, size, option.parts)
            yield Move(move.apply(heaps), heap=move)


def _heap_cost(move: Move) -> tuple[int, int]:
    """Tokens taken, then the heap: min picks the fewest, leftmost, smallest left part."""
    assert move.heap is not None
    return (move.heap.size - sum(move.heap.parts), move.heap.index)


def _heap_move_error(size: int, parts: tuple[int, ...], game: Game) -> str:
    """Why one heap of ``size`` cannot become the heaps ``parts`` (any order); '' if it can."""
    wanted = sorted(parts)
    if sum(wanted) <= size and any(sorted(option.parts) == wanted
                                   for option in game.options(size)):
        return ""
    return "; ".join(kind.describe() for kind in game.kinds)


def _heap_list_move(heaps: list[int], after: list[int], game: Game) -> Move:
    """The move that turns ``heaps`` into ``after`` (one heap replaced by its parts)."""
    if after == heaps:
        raise InputError("that is the position as it stands: change one heap")
    tail = len(heaps)
    reasons = []
    for index in range(len(heaps)):
        keep = tail - index - 1  # heaps after this one
        if after[:index] != heaps[:index] or len(after) < index + keep:
            continue
        if after[len(after) - keep :] != heaps[index + 1 :]:
            continue
        parts = tuple(p for p in after[index : len(after) - keep] if p)
        why = _heap_move_error(heaps[index], parts, game)
        if not why:
            move = HeapMove(index, heaps[index], parts)
            return Move(move.apply(heaps), heap=move)
        reasons.append(f"heap {index + 1} of {heaps[index]} cannot become "
                       f"{_parts_text(parts)}: {why}")
    if reasons:
        raise InputError(reasons[0])
    raise InputError(f"{position_text(after)} is not one move from {position_text(heaps)}: "
                     "a move changes one heap into its parts, the others stay in order")


def _parts_text(parts: tuple[int, ...]) -> str:
    return " + ".join(map(str, parts)) or "nothing"


# -- numbers ------------------------------------------------------------------------------------


def _number(word: str, what: str) -> int:
    return natural(word, what, "is a whole number")


def _numbers(text: str, what: str, empty: bool = False) -> list[int]:
    words = text.replace(",", " ").split()
    if not words and not empty:
        raise InputError(f"cannot read {shown(text)} as a move")
    return [_number(word, what) for word in words]
