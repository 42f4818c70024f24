"""What the web page asks of the engine, as plain data in and out (no web stack here).

Every request is checked as the command line checks its arguments (the same
parsers and messages) and bounded before any work: positions of at most
``play.MAX_TOKENS`` pins or tokens, tables of at most ``MAX_VALUES`` values,
misère searches of at most ``MISERE_BUDGET`` positions, numbers of at most
``_numbers.MAX_DIGITS`` digits.  Bad input is a ValueError (one sentence); the
app turns it into HTTP 400.

Work is bounded too: a request's nim-sequence grows in chunks of about
CHUNK_SECONDS, and between two chunks the request ends (a ValueError) once it has
used ``seconds`` of CPU time (thread time: the same on a loaded machine) or the
server is stopping (``Service.stop``), so no request holds the engine long and
Ctrl-C is obeyed within a chunk.

A game's sequence and misère solver are not safe to grow from two threads at
once: each game has a lock, held by one request's engine work at a time, so a
long request on one game never holds up another game.  At most MAX_GAMES games
are kept (the least recently used one goes first), so memory stays bounded
whatever games are asked for.  Proofs are read from the user's proof cache but
never written there: a page that anyone on the machine may call leaves no files.
"""

from __future__ import annotations

import functools
import itertools
import threading
import time
from collections import OrderedDict

from ..._numbers import brief, natural
from ...analysis.misere import Solver
from ...analysis.play import MAX_TOKENS, Match, Move, position_text
from ...analysis.quotient import misere_answer
from ...analysis.row import runs
from ...engine.codes import get_game
from ...engine.rules import ALIASES, GAMES, Game, encode, parse_octal
from ...engine.sequence import Sequence
from ...errors import InputError, ResourceError, shown
from ...kernels.limits import set_interrupt
from ...storage.proof_cache import load as cached_proof

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["MAX_GAMES", "MAX_VALUES", "MISERE_BUDGET", "REQUEST_SECONDS", "Service"]

MAX_VALUES = 1 << 17  # values a sequence request may compute (or copy past a proof)
SURVEY_ROWS = 5000  # the rows of the survey database one request shows (the first, by code)
DEFAULT_VALUES = 2000  # shown when a game has no proof within PROOF_SEARCH
PROOF_SEARCH = 1 << 16  # values the explorer spends looking for a proof of the period
TAKEBREAK_SEARCH = 1 << 12  # ... for codes of other moves (their kernel is cubic: 0.1 s;
                            # the pure twin's, an eighth of it: about 1 s)
MISERE_BUDGET = 200_000  # positions a misère request may store (the command's is 1,000,000)
MAX_GAME_TEXT = 80  # characters of a game's name or octal code
MAX_GAMES = 16  # games whose sequence and solver are kept (each up to some 20 MB)
REQUEST_SECONDS = 10.0  # CPU seconds of engine work one request may use (serve --seconds)
CHUNK_SECONDS = 0.05  # the CPU time a chunk of values aims at: how soon a limit is seen
FIRST_CHUNK = 64  # values in a request's first chunk, before its pace is known


class _Game:
    """One game's engine state, and the lock that one request at a time holds on it."""

    __slots__ = ("lock", "sequence", "solver")

    def __init__(self, game: Game) -> None:
        self.lock = threading.Lock()
        self.sequence = cached_proof(game) or Sequence(game)
        self.solver: Solver | None = None


class _Pace:
    """One request's pace: a sequence listener that asks for chunks of about CHUNK_SECONDS
    of CPU time, and ``check``, which raises once the request's time is spent or the server
    stops: between two chunks, and from the misère and quotient kernels' loops (their
    interrupt hook, ``_interrupt``), which no signal reaches in a request's thread."""

    def __init__(self, service: Service, sequence: Sequence) -> None:
        self.service = service
        self.game = sequence.game.name
        self.started = self.last = time.thread_time()
        self.length = len(sequence)

    def __call__(self, sequence: Sequence) -> None:
        now = time.thread_time()
        done, took = len(sequence) - self.length, now - self.last
        self.last, self.length = now, len(sequence)
        sequence.step = max(1, min(4 * done, int(done * CHUNK_SECONDS / took))) if took else (
            2 * done or FIRST_CHUNK)
        self.check()

    def check(self) -> None:
        if self.service.stopping.is_set():
            raise ResourceError("the server is stopping")
        if time.thread_time() - self.started > self.service.seconds:
            raise ResourceError(f"{self.game}: this needs more than the page's "
                                f"{self.service.seconds:g} s of work: ask the command line "
                                f"(kayles grundy, kayles period, kayles move)")


_request = threading.local()  # the pace of the request a thread is working on


def _interrupt() -> None:
    """The kernels' interrupt hook (kayles.kernels.limits.set_interrupt): the pace of this
    thread's request, if it has one."""
    pace = getattr(_request, "pace", None)
    if pace is not None:
        pace.check()


class Service:
    """The engine behind the page: one per server, shared by its requests.

    seconds: the CPU time one request's engine work may use; stop() ends the work
    under way at its next chunk (the server calls it when it is told to stop).
    """

    def __init__(self, store_path: str | None = None,
                 seconds: float = REQUEST_SECONDS) -> None:
        self.store_path = store_path
        self.seconds = seconds
        self.stopping = threading.Event()
        self._guard = threading.Lock()  # over _games
        set_interrupt(_interrupt)  # the kernels' loops look at this thread's request
        self._games: OrderedDict[str, _Game] = OrderedDict()

    def stop(self) -> None:
        self.stopping.set()

    # -- the engine, one request a game at a time -----------------------------------------------

    def _entry(self, game: Game) -> _Game:
        with self._guard:
            entry = self._games.pop(game.name, None) or _Game(game)
            self._games[game.name] = entry  # the most recently used, last
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
            return entry

    def run(self, game: Game, work: Callable[[_Game], dict]) -> dict:
        """``work(entry)`` under the game's lock, its sequence paced (see _Pace)."""
        if self.stopping.is_set():
            raise ResourceError("the server is stopping")
        entry = self._entry(game)
        with entry.lock:
            sequence = entry.sequence
            pace = _Pace(self, sequence)
            sequence.step = FIRST_CHUNK
            sequence.listeners.append(pace)
            _request.pace = pace
            try:
                return work(entry)
            finally:
                _request.pace = None
                sequence.listeners.remove(pace)
                sequence.step = None

    def _game(self, spec) -> Game:
        if not isinstance(spec, str) or not spec.strip():
            raise InputError("give a game: a name (see the list) or a code such as 0.77 or 0.3F")
        if len(spec) > MAX_GAME_TEXT:
            raise InputError(f"a game is a name or a code, not {shown(spec)}")
        return get_game(spec)

    @staticmethod
    def _solver(entry: _Game) -> Solver:
        if entry.solver is None:
            entry.solver = Solver(entry.sequence.game, MISERE_BUDGET)
        return entry.solver

    def _match(self, entry: _Game, position, misere: bool) -> Match:
        if isinstance(position, str):
            if len(position) > MAX_TOKENS:
                raise InputError(f"a row has at most {MAX_TOKENS} pins")
            from ...analysis.row import parse_row

            parse_row(position)
        elif isinstance(position, list) and all(type(h) is int and h >= 0 for h in position):
            if len(position) > MAX_TOKENS or sum(position) > MAX_TOKENS:
                raise InputError(f"at most {MAX_TOKENS} tokens in all")
        else:
            raise InputError("a position is a row of 'x' and '.', or a list of heap sizes")
        return Match(entry.sequence, position, misere)

    # -- requests -------------------------------------------------------------------------------

    def games(self) -> dict:
        codes = _octal_codes()
        return {"games": [{"name": g.name, "summary": g.summary, "on_rows": g.on_rows,
                           "aliases": [a for a, n in ALIASES.items() if n == g.name],
                           "code": codes.get(g.name),
                           "moves": [k.describe() for k in g.kinds]} for g in GAMES.values()]}

    def analyse(self, request: dict) -> dict:
        """The position's parts and their values, the outcome and the winning move, why."""
        game = self._game(request.get("game"))
        misere = _flag(request.get("misere", False), "misere")
        return self.run(game, lambda entry: self._analysis(
            entry, self._match(entry, request.get("position"), misere)))

    def move(self, request: dict) -> dict:
        """The user's move (text, as the terminal takes it), then the program's answer."""
        game = self._game(request.get("game"))
        misere = _flag(request.get("misere", False), "misere")
        text = request.get("move")
        if not isinstance(text, str) or len(text) > 200:
            raise InputError("a move is text such as '4', '3 5', '3-4' or 'heap 2 -> 1 + 4'")

        def work(entry: _Game) -> dict:
            match = self._match(entry, request.get("position"), misere)
            if not match.has_move():
                raise InputError("the game is over: there is no move left")
            yours = match.parse(text)
            answer: dict = {"you": _said(match, yours)}
            match.play(yours)
            if match.has_move():
                mine = match.reply()
                answer["me"] = _said(match, mine)
                match.play(mine)
            answer["analysis"] = self._analysis(entry, match)
            return answer

        return self.run(game, work)

    def reply(self, request: dict) -> dict:
        """The program's move from a position (when it moves first, or after an undo)."""
        game = self._game(request.get("game"))
        misere = _flag(request.get("misere", False), "misere")

        def work(entry: _Game) -> dict:
            match = self._match(entry, request.get("position"), misere)
            if not match.has_move():
                raise InputError("the game is over: there is no move left")
            mine = match.reply()
            answer = {"me": _said(match, mine)}
            match.play(mine)
            answer["analysis"] = self._analysis(entry, match)
            return answer

        return self.run(game, work)

    def sequence(self, request: dict) -> dict:
        """G(0..count-1) with the proof of the period (when there is one) and rare values."""
        game = self._game(request.get("game"))
        count = request.get("count")

        def work(entry: _Game) -> dict:
            sequence = entry.sequence
            found = sequence.prove(_search(game))
            wanted = _count(count, found.values if found else DEFAULT_VALUES)
            values = sequence.table(wanted).tolist()
            return _sequence_report(game, sequence, values)

        return self.run(game, work)

    def nimber(self, request: dict) -> dict:
        """G(n) for any n: at once past a proved period, else computed up to the limit."""
        game = self._game(request.get("game"))
        n = natural(str(request.get("n", "")), "n")
        if n >= MAX_VALUES and not game.provable:
            raise InputError(f"{game.name} has no periodicity theorem: G(n) is answered here "
                             f"for n below {MAX_VALUES}")

        def work(entry: _Game) -> dict:
            sequence = entry.sequence
            if n >= MAX_VALUES and sequence.prove(_search(game)) is None:
                raise ResourceError(f"no period of {game.name} is proved within "
                                    f"{_search(game)} values: G(n) is answered here for n "
                                    f"below {MAX_VALUES}")
            return {"game": game.name, "n": str(n), "value": sequence.nimber(n)}

        return self.run(game, work)

    def survey(self, request: dict) -> dict:
        """The done rows of the survey database the server was started with (--db), read
        only (SQLite's mode=ro: nothing written, nothing migrated), SURVEY_ROWS at most,
        within the request's time (every row read is checked against its game's rules; one
        whose signature fails is derived again, or left out: kayles.storage.store)."""
        if self.store_path is None:
            raise InputError("this server has no survey database: start it with --db FILE")
        from ...analysis.survey import published
        from ...storage.store import Store

        if self.stopping.is_set():
            raise ResourceError("the server is stopping")
        _request.pace = pace = _Pace(self, Sequence(GAMES["kayles"]))
        pace.game = "the survey"
        try:
            with Store(self.store_path, read_only=True) as store:
                limits = store.limits()
                asked = request.get("computed")
                if asked in (None, ""):   # the largest limit with the most rows
                    limit = max(limits, key=lambda m: (limits[m], m), default=1048576)
                else:
                    limit = natural(str(asked), "computed")
                codes = store.done_codes(limit)
                shown_codes = codes[:SURVEY_ROWS]
                found = store.summaries(shown_codes, limit)
        finally:
            _request.pace = None
        _, rows = published([found[code] for code in shown_codes if code in found])
        return {"computed": limit,
                "limits": [{"computed": m, "rows": n} for m, n in limits.items()],
                "total": len(codes) - len(shown_codes) + len(found), "rows": rows}

    # -- what an analysis says -------------------------------------------------------------------

    def _analysis(self, entry: _Game, match: Match) -> dict:
        game, position = match.game, match.position
        on_rows = isinstance(position, str)
        parts = runs(position) if on_rows else list(enumerate(position))
        G = match.sequence.nimber
        report: dict = {
            "game": game.name, "misere": match.misere,
            "position": position, "text": position_text(position),
            "parts": [{"start": start, "size": size, "value": G(size)}
                      for start, size in parts],
            "has_move": match.has_move(),
        }
        total = 0
        for part in report["parts"]:
            total ^= part["value"]
        report["nim_sum"] = total
        if match.misere:
            solver = self._solver(entry)
            sizes = [size for _, size in parts]
            report["outcome"] = misere_answer(solver, sizes)[1]
            best = match.best()
            report["best"] = None if best is None else _said(match, best)
            known = solver.quotient
            report["found_by"] = "search" if known is None else "quotient"
            report["quotient"] = None if known is None else {
                "order": known.order, "p_size": known.p_size, "max_heap": known.max_heap,
                "solved": known.solved is not None}
            report["why"] = _misere_why(report)
            return report
        report["outcome"] = "N" if total else "P"
        best = match.best()
        report["best"] = None if best is None else _said(match, best)
        report["why"] = _why(report, best, match)
        return report


@functools.cache
def _octal_codes() -> dict[str, str]:
    """The shortest octal code (0.d or 4.d, up to 4 digits) with each named game's moves, for
    the games that have one (Kayles 0.77; not Kayles-xox or Grundy's game): the page fills
    the code field with it, and a code typed selects its game."""
    by_moves: dict = {}
    for digits in range(1, 5):
        for body in itertools.product("01234567", repeat=digits):
            if body[-1] == "0":
                continue
            for prefix in ("0.", "4."):
                code = prefix + "".join(body)
                by_moves.setdefault(tuple(sorted(encode(parse_octal(code).kinds))), code)
    return {name: by_moves[moves] for name, game in GAMES.items()
            if (moves := tuple(sorted(encode(game.kinds)))) in by_moves}


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{name} is true or false")
    return value


def _count(value, default: int) -> int:
    if value is None or value == "":
        return max(1, min(default, MAX_VALUES))
    count = natural(str(value), "count")
    if not 1 <= count <= MAX_VALUES:
        raise InputError(f"count is 1 to {MAX_VALUES}, not {brief(count)}")
    return count


def _said(match: Match, move: Move) -> dict:
    """A move as the page shows it: what it takes, the position after, the pins taken."""
    return {"what": move.what(), "after": move.after, "text": position_text(move.after),
            "removed": list(move.removed),
            "heap": None if move.heap is None else {"index": move.heap.index,
                                                    "size": move.heap.size,
                                                    "parts": list(move.heap.parts)}}


def _why(report: dict, best: Move | None, match: Match) -> str:
    """Why the winning move wins (or why there is none), in words for the class."""
    total, parts = report["nim_sum"], report["parts"]
    if not report["has_move"]:
        return "No move is left: the player to move has lost (the last move won)."
    if not total:
        return ("The nim-sum of the parts' Grundy values is 0: every move leaves a non-zero "
                "nim-sum, from which the opponent can always return to 0. The player to move "
                "loses against perfect play.")
    word = "run" if isinstance(report["position"], str) else "heap"
    for number, part in enumerate(parts, start=1):
        value = part["value"]
        if value ^ total < value:
            return (f"The nim-sum of the parts' Grundy values is {total} (binary "
                    f"{total:b}). {word.capitalize()} {number} ({part['size']}) has "
                    f"G = {value}, and {value} XOR {total} = {value ^ total} is smaller: "
                    f"the winning move turns it into parts worth {value ^ total} in all, so "
                    f"the nim-sum becomes 0 and the opponent faces a loss.")
    return ""


def _misere_why(report: dict) -> str:
    """Why, in misère play: the outcome and what found it, never a nim-sum (misère values
    do not add by XOR: a position's parts do not decide it by their Grundy values)."""
    if not report["has_move"]:
        return "No move is left: in misère play the player to move has won (the last move lost)."
    known = report["quotient"]
    how = ("an exhaustive search of this position's moves (every line of play to the end)"
           if known is None else
           f"the game's misère quotient (a monoid of {known['order']} elements, "
           f"{known['p_size']} of them P-positions, proved on heaps up to "
           f"{known['max_heap']}{' and beyond' if known['solved'] else ''}): each part is "
           f"an element, the position their product")
    if report["outcome"] == "P":
        return (f"Misère play: every move leads to a position the opponent wins, as found by "
                f"{how}. Nim-sums do not decide misère play: the last move loses, and parts "
                f"do not add like nim-heaps.")
    return (f"Misère play: the suggested move leads to a position the opponent loses, as "
            f"found by {how}. Nim-sums do not decide misère play: the last move loses, and "
            f"parts do not add like nim-heaps.")


def _sequence_report(game: Game, sequence: Sequence, values: list[int]) -> dict:
    """The values with their proof and their rare heaps under the one mask every command
    reports (kayles.kernels.spectrum.rare_mask: a survey's, a plot's)."""
    from ...engine.rules import encode
    from ...engine.sequence import rare_mask
    from ...kernels.spectrum import is_rare, mask_text, split_parity

    mask, rare, _ = rare_mask(game, values, sequence.nimber)
    splits = split_parity(encode(game.kinds)) if mask else -1
    heaps = [n for n, v in enumerate(values) if mask and is_rare(mask, splits, n, v)]
    period = sequence.period
    return {
        "game": game.name, "count": len(values), "values": values,
        "moves": [kind.describe() for kind in game.kinds],
        "provable": game.provable,
        "period": None if period is None else {"preperiod": period.preperiod,
                                               "period": period.period,
                                               "values": period.values,
                                               "saltus": period.saltus},
        "proof": _proof_text(game, sequence),
        "mask": mask_text(mask) if mask else None, "rare": rare if mask else 0,
        "rare_heaps": heaps,
        "rare_values": sorted({values[n] for n in heaps}),
    }


def _search(game: Game) -> int:
    """Values the page computes looking for a proof of the game's regularity."""
    if game.octal:
        return PROOF_SEARCH
    from ...kernels.chooser import IMPLEMENTATION

    return TAKEBREAK_SEARCH if IMPLEMENTATION == "cython" else TAKEBREAK_SEARCH >> 3


def _proof_text(game: Game, sequence: Sequence) -> str:
    period = sequence.period
    if period is not None:
        plus = f" + {period.saltus}" if period.saltus else ""
        by = ("the octal periodicity theorem" if game.octal
              else f"{period.theorem} (docs/how-it-works.md)")
        return (f"G(n + {period.period}) = G(n){plus} for every n >= {period.preperiod}: "
                f"proved by {by} from the first {period.values} values.")
    if not game.octal:
        from ...engine.regularity import observe

        seen = observe(sequence.table(len(sequence)), len(sequence))
        if seen is not None:
            n0, p, saltus = seen
            plus = f" + {saltus}" if saltus else ""
            return (f"G(n + {p}) = G(n){plus} for n = {n0} to {len(sequence) - p - 1}: "
                    "observed, not proved (no theorem here covers it).")
    if not game.provable:
        why = ("splits into unequal parts" if game.octal
               else "marks, 'or more' counts, repeating tails or kept tokens")
        return f"No periodicity theorem covers {why}: values are computed."
    return f"No period is proved within {len(sequence)} values."
