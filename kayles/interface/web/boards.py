"""The page's boards: Cram, Node Kayles on a grid and Chomp, as plain data in and out.

A request is ``{"family": "cram" | "node-kayles" | "chomp", "position": TEXT, "reply":
false}``.  Cram and Node Kayles are played on a board of at most MAX_CELLS cells, written as
``kayles solve cram`` writes it: rows of ``.`` (free) and ``#`` (filled, or taken) joined
by ``/``, or ``RxC`` for an empty one; Node Kayles takes a cell and the free cells beside
it (the grid graph of the free cells, searched as a board).  Chomp is its row lengths
(``5,3,3``) or ``RxC``, at most MAX_SQUARES squares.  The answer says the position in its
normal form, its value, its outcome, the positions each winning move leaves, how many
moves there are, and with ``"reply": true`` the computer's move (a winning one where
there is one, else the game's first) and the same of the position it leaves.

Each family's game (kayles.analysis.games) is made once, its tables of at most
TABLE_BYTES kept across requests; one request at a time uses a family (``Boards.lock``),
and the service paces its search (the kernels' interrupt hook), so a board too hard for
the page's seconds ends in one sentence that names the command that solves it.
"""

from __future__ import annotations

import threading

from ...errors import InputError, shown

__all__ = ["FAMILIES", "MAX_CELLS", "MAX_SQUARES", "TABLE_BYTES", "Boards"]

FAMILIES = ("cram", "node-kayles", "chomp")
MAX_CELLS = 64  # the board kernels' word
MAX_SQUARES = 400  # Chomp squares a page's diagram may have (a 20 x 20 square)
MAX_TEXT = 600  # characters of a position
TABLE_BYTES = 64 << 20  # each family's tables


class Boards:
    """The families the page plays, made on first use; ``lock(family)`` is held by the
    request using one."""

    def __init__(self) -> None:
        self._games: dict[str, object] = {}
        self._locks = {family: threading.Lock() for family in FAMILIES}
        self._guard = threading.Lock()

    def lock(self, family: str) -> threading.Lock:
        return self._locks[family]

    def read(self, request: dict) -> tuple[str, object, bool]:
        """(the family, the position, whether a reply is asked): bad input refused in one
        sentence before any search."""
        family = request.get("family")
        if family not in FAMILIES:
            raise InputError(f"a board's family is one of {', '.join(FAMILIES)}, not "
                             f"{shown(str(family))}")
        text = request.get("position")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
            raise InputError("give the board's position as text: rows of '.' and '#' joined "
                             "by '/', a Chomp diagram's row lengths, or RxC")
        reply = request.get("reply", False)
        if not isinstance(reply, bool):
            raise InputError(f"reply must be true or false, not {shown(str(reply))}")
        game = self._game(family)
        if family == "chomp":
            position = game.parse(text)
            if sum(position) > MAX_SQUARES:
                raise InputError(f"the page plays Chomp on at most {MAX_SQUARES} squares, not "
                                 f"{sum(position):,}: ask kayles solve chomp")
            return family, position, reply
        from ...analysis.games.cram import parse_board

        board = parse_board(text, "Cram" if family == "cram" else "Node Kayles")
        if board.rows * board.cols > MAX_CELLS:  # (parse_board's own bound, said again)
            raise InputError(f"a board has at most {MAX_CELLS} cells")
        return family, board, reply

    def answer(self, family: str, position, reply: bool) -> dict:
        """The position's analysis (the module header), and the reply's when asked."""
        report = self._analysis(family, position)
        if reply:
            after = report.pop("_reply")
            report["reply"] = None if after is None else self._analysis(family, after)
            if report["reply"] is not None:
                report["reply"].pop("_reply")
        else:
            report.pop("_reply")
        return report

    # -- the families -------------------------------------------------------------------------

    def _game(self, family: str):
        with self._guard:
            game = self._games.get(family)
            if game is None:
                if family == "cram":
                    from ...analysis.games.cram import Cram as made
                elif family == "node-kayles":
                    from ...analysis.games.graph_kayles import NodeKayles as made
                else:
                    from ...analysis.games.chomp import Chomp as made
                game = self._games[family] = made(TABLE_BYTES)
            return game

    def _analysis(self, family: str, position) -> dict:
        game = self._game(family)
        searched = self._searched(family, position)
        value, winning = game.solve(searched)
        options = game.options(searched)
        after = winning[0] if winning else (options[0] if options else None)
        return {"family": family, "position": self._text(family, searched), "value": value,
                "outcome": "N" if value else "P", "moves": len(options),
                "winning": [self._text(family, o) for o in winning],
                "_reply": None if after is None else self._board(family, after)}

    def _searched(self, family: str, position):
        """The position as the family's game takes it (Node Kayles: the grid of the free
        cells, which its game searches as a board)."""
        if family != "node-kayles":
            return position
        from ...analysis.games.graph_kayles import Graph, GraphPosition

        return GraphPosition(Graph.grid(position.rows, position.cols), position.free)

    def _board(self, family: str, searched):
        """The inverse of ``_searched``."""
        if family != "node-kayles":
            return searched
        from ...analysis.games.cram import CramPosition

        rows, cols = searched.graph.board
        return CramPosition(rows, cols, searched.alive)

    def _text(self, family: str, searched) -> str:
        if family == "chomp":
            return ",".join(map(str, searched))
        from ...analysis.games.cram import format_board

        return format_board(self._board(family, searched))
