"""Any impartial game written in Python, solved: its value, outcome and winning moves, in
normal or misère play, loopy games included.

``Solver(game)`` holds one search (``kayles.engine.search``: its tables stay between
questions) and answers ``nimber``, ``outcome``, ``winning_moves``, ``best_move`` and
``solve`` (all three at once, as ``kayles solve`` prints them) for any position.

Where the search meets a position again on its own path (``CycleFound``) the game is not
short: the solver has the search build the graph of every position reachable from the
one asked about (``Search.explore``) and hands it to the loopy solver of ``kayles dag``
(``kayles.analysis.games.digraph.LoopyGame``): the value is then the generalized
Sprague-Grundy value, ``Infinite(K)`` for a position that can be drawn out, and the
outcome P, N or D.  Misère play on such a graph is normal play on the same graph with one
move added from each terminal position to a new one (the player who cannot move wins
misère play exactly as the one who can make that last move wins normal play).

    >>> from kayles import ImpartialGame, Solver
    >>> class Subtraction(ImpartialGame):           # take 1, 2 or 3 tokens
    ...     def options(self, n):
    ...         return [n - k for k in (1, 2, 3) if k <= n]
    >>> solver = Solver(Subtraction())
    >>> solver.nimber(10), solver.outcome(10), solver.winning_moves(10)
    (2, 'N', [8])
    >>> solver.outcome(10, misere=True), solver.winning_moves(9, misere=True)
    ('N', [])
"""

from __future__ import annotations

from ..engine.game_protocol import CycleFound
from ..engine.search import Search
from ..errors import InputError
from .games.digraph import Infinite, LoopyGame, outcome

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["SINK", "Solution", "Solver", "default_memory", "solve"]

MEMORY_SHARE = 2  # the tables may hold 1/MEMORY_SHARE of the memory (limits.memory)
SINK = ("kayles: the end of misère play",)  # the vertex added below terminal positions


def default_memory() -> int:
    """The bytes a search's tables may hold unless told: half the memory
    (``kayles.kernels.limits.memory``: KAYLES_MEMORY, else what is available now)."""
    from ..kernels.limits import memory

    return memory()[0] // MEMORY_SHARE


class Solution:
    """What ``kayles solve`` prints: ``value`` (the nimber, an Infinite for a loopy game,
    None in misère play, which has no nimbers), ``outcome`` ('P', 'N' or 'D'), ``move`` (a
    winning move from N, a move that keeps the draw from D, None from P) and ``misere``."""

    __slots__ = ("misere", "move", "outcome", "value")

    def __init__(self, value, verdict: str, move, misere: bool) -> None:
        self.value, self.outcome, self.move, self.misere = value, verdict, move, misere

    def __repr__(self) -> str:
        return (f"Solution(value={self.value!r}, outcome={self.outcome!r}, "
                f"move={self.move!r}, misere={self.misere})")

    def __eq__(self, other) -> bool:
        return isinstance(other, Solution) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__)


class Solver:
    """The answers for one game, from one search (its tables shared by every question).

    ``game``: any object with ``options(position)`` (``kayles.ImpartialGame`` documents the
    rest); ``memory``: the bytes the tables may hold (default ``default_memory()``): past
    it old entries are evicted, the answers the same; ``strategy``, ``order``: the
    search's (``kayles.engine.search``); ``progress(search)``: called every few
    milliseconds.
    """

    def __init__(self, game, memory: int | None = None, strategy: str | None = None,
                 order: str = "easiest", progress: Callable[[Search], None] | None = None):
        self.search = Search(game, default_memory() if memory is None else memory, strategy,
                             order, progress)
        self.game = game
        self._loopy: dict[bool, tuple[LoopyGame, dict]] = {}  # misère? -> the graph solved

    def nimber(self, position) -> int | Infinite:
        """The nimber of ``position`` (normal play), or its generalized value Infinite(K)
        when the game has a cycle from it and the position can be drawn out."""
        known = self._solved(position, False)
        if known is not None:
            return known[0].value(known[1])
        try:
            return self.search.nimber(position)
        except CycleFound:
            game, vertex = self._graph(position, False)
            return game.value(vertex)

    def outcome(self, position, misere: bool = False) -> str:
        """'P' (the player to move loses), 'N' (wins) or 'D' (a draw with best play)."""
        known = self._solved(position, misere)
        if known is not None:
            return outcome(known[0].value(known[1]))
        try:
            if misere:
                return "N" if self.search.misere_wins(position) else "P"
            return "P" if self.search.has_value(position, 0) else "N"
        except CycleFound:
            game, vertex = self._graph(position, misere)
            return outcome(game.value(vertex))

    def winning_moves(self, position, misere: bool = False) -> list:
        """Every option of ``position`` that leaves the opponent lost (a P-position), in the
        game's order; [] when there is none."""
        if self.outcome(position, misere) != "N":
            return []
        return [option for option in self.search.options(position)
                if self.outcome(option, misere) == "P"]

    def best_move(self, position, misere: bool = False):
        """A winning move from N (from a loopy game's N: one that keeps making progress, so
        that playing it every time wins), a move that keeps a draw from D, None from P (and
        from a misère position without moves, already won)."""
        verdict = self.outcome(position, misere)
        if verdict == "P":
            return None
        if self._solved(position, misere) is not None:
            return self._loopy_move(position, misere)
        for option in self.search.options(position):
            if self.outcome(option, misere) == "P":
                return option
        return None  # (normal play: cannot happen; misère: no move, already won)

    def solve(self, position, misere: bool = False) -> Solution:
        """The value (normal play), the outcome and ``best_move``, as one ``Solution``."""
        value = None if misere else self.nimber(position)
        return Solution(value, self.outcome(position, misere),
                        self.best_move(position, misere), misere)

    # -- a game that is not short -----------------------------------------------------------

    def _state(self, position) -> tuple:
        return self.search.state_key(position)

    def _solved(self, position, misere: bool) -> tuple[LoopyGame, tuple] | None:
        """(the loopy solver, the vertex) when a graph already solved holds ``position``."""
        solved = self._loopy.get(misere)
        if solved is None:
            return None
        vertex = self._state(position)
        return (solved[0], vertex) if vertex in solved[1] else None

    def _graph(self, position, misere: bool) -> tuple[LoopyGame, tuple]:
        """The loopy solver on the graph of the positions reachable from ``position``, and
        its vertex (the graph already solved when it holds the position)."""
        vertex = self._state(position)
        solved = self._loopy.get(misere)
        if solved is None or vertex not in solved[1]:
            graph, vertex = self.search.explore(position)
            if misere:
                graph = {v: successors or [SINK] for v, successors in graph.items()}
                graph[SINK] = []
            self._loopy[misere] = solved = LoopyGame(graph), graph
        return solved[0], vertex

    def _loopy_move(self, position, misere: bool):
        """The option of ``position`` that the loopy solver's best move goes to."""
        game, vertex = self._graph(position, misere)
        move = game.best_move([vertex])
        if move is None or move[1] == SINK:
            return None
        for option in self.search.options(position):
            if self._state(option) == move[1]:
                return option
        raise InputError("the game's options of a position are not the moves of its "
                         "components (a move changes one component)")


def solve(game, position, misere: bool = False, memory: int | None = None) -> Solution:
    """``Solver(game, memory).solve(position, misere)``."""
    return Solver(game, memory).solve(position, misere)
