"""What the web page asks of the engine, as plain data in and out (no web stack here).

Every request is checked as the command line checks its arguments (the same
parsers and messages) and bounded before any work: positions of at most
``play.MAX_TOKENS`` pins or tokens, tables of at most ``MAX_VALUES`` values,
misère searches of at most ``MISERE_BUDGET`` positions, numbers of at most
``_numbers.MAX_DIGITS`` digits.  Bad input is a ValueError (one sentence); the
app turns it into HTTP 400.

Work is bounded too, by the clock and in CPU time, whichever ends first: a request
ends (a ResourceError) once ``seconds`` have passed since it arrived (its Ticket's
time; a call of the Python API: since the call) or its work has used ``seconds`` of
CPU time (thread time), once the server is stopping (``Service.stop``), and once its
client has hung up (its Ticket's ``gone``: ``Cancelled``, counted in
``Service.cancelled``).  Those are looked at between two chunks of its nim-sequence
(each of about CHUNK_SECONDS) and from the kernels' long loops (their interrupt hook,
kayles.kernels.limits.set_interrupt: no signal reaches a request's thread), so no
request holds the engine long and Ctrl-C is obeyed within milliseconds.

Cheap or heavy: ``quick`` answers a request at once when its answer comes from values
already computed (the game's table holds them, or its period is proved) or from a
small table computed on the spot (an octal game's first values, SMALL_TABLE values
times move kinds at most), and the move search is short (tokens times move kinds at
most CHEAP_STEPS); a misère search, a proof search, a long table and the survey
database never are: ``quick`` says None, and the app sends the request to its
admission queue (``admission``), whose workers call ``serve``.  A quick answer takes
no lock that heavy work holds: a table is read while it grows elsewhere
(kayles.engine.sequence says why that is safe).

A game's sequence and misère solver are not safe to grow from two threads at
once: each game has a lock, held by one heavy request's engine work at a time, so
a long request on one game never holds up another game.  At most MAX_GAMES games
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
from ...errors import InputError, ResourceError, path_text, shown
from ...kernels.limits import set_interrupt
from ...storage.proof_cache import load as cached_proof
from .boards import Boards

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["CHEAP_STEPS", "MAX_GAMES", "MAX_VALUES", "MISERE_BUDGET", "REQUEST_SECONDS",
           "REQUESTS", "SMALL_TABLE", "Cancelled", "Service", "Ticket"]

MAX_VALUES = 1 << 17  # values a sequence request may compute (or copy past a proof)
SURVEY_ROWS = 5000  # the rows of the survey database one request shows (the first, by code)
DEFAULT_VALUES = 2000  # shown when a game has no proof within PROOF_SEARCH
PROOF_SEARCH = 1 << 16  # values the explorer spends looking for a proof of the period
TAKEBREAK_SEARCH = 1 << 12  # ... for codes of other moves (their kernel is cubic: 0.1 s;
                            # the pure twin's, an eighth of it: about 1 s)
MISERE_BUDGET = 200_000  # positions a misère request may store (the command's is 1,000,000)
MAX_GAME_TEXT = 80  # characters of a game's name or octal code
MAX_GAMES = 16  # games whose sequence and solver are kept (each up to some 20 MB)
REQUEST_SECONDS = 10.0  # a request's time, by the clock and in CPU time (serve --seconds)
CHUNK_SECONDS = 0.05  # the CPU time a chunk of values aims at: how soon a limit is seen
FIRST_CHUNK = 64  # values in a request's first chunk, before its pace is known
SMALL_TABLE = 1 << 11  # an octal game's values times its move kinds that a cheap request
                       # may compute on the spot (Kayles' 1,024 values: 2-7 ms, compiled,
                       # on a busy 2-core EPYC; the pure twin takes a sixteenth of it)
CHEAP_STEPS = 100_000  # a cheap move search: tokens times move kinds, at most
REQUESTS = ("analyse", "move", "reply", "sequence", "nimber", "survey",  # quick and serve
            "board")


class Cancelled(ResourceError):
    """The request's client hung up: its work ended at its next look (no answer is sent)."""


class _Heavy(Exception):
    """A request ``quick`` cannot answer at once: it needs the engine (the admission queue)."""


class Ticket:
    """One request as the server received it: when it arrived (time.monotonic(); its time
    counts from there, waiting included) and ``gone``, set when its client hangs up."""

    __slots__ = ("arrived", "gone")

    def __init__(self) -> None:
        self.arrived = time.monotonic()
        self.gone = threading.Event()


class _Game:
    """One game's engine state, and the lock that one request at a time holds on it."""

    __slots__ = ("lock", "sequence", "solver")

    def __init__(self, game: Game, sequence: Sequence | None = None) -> None:
        self.lock = threading.Lock()
        self.sequence = sequence or cached_proof(game) or Sequence(game)
        self.solver: Solver | None = None


class _Pace:
    """One request's pace: a sequence listener that asks for chunks of about CHUNK_SECONDS
    of CPU time, and ``check``, which raises once the request's time is spent (by the
    clock since its arrival, or in CPU time since its work began), the server stops or
    its client has gone: between two chunks, and from the kernels' loops (their interrupt
    hook, ``_interrupt``), which no signal reaches in a request's thread."""

    def __init__(self, service: Service, what: str, ticket: Ticket | None,
                 advice: str = "kayles grundy, kayles period, kayles move") -> None:
        self.service = service
        self.game = what
        self.advice = advice  # the commands a request too long for the page is sent to
        self.started = self.last = time.thread_time()
        self.began = time.monotonic()
        self.arrived = self.began if ticket is None else ticket.arrived
        self.gone = None if ticket is None else ticket.gone
        self.length = 0

    def attach(self, sequence: Sequence) -> None:
        self.length = len(sequence)
        sequence.step = FIRST_CHUNK
        sequence.listeners.append(self)

    def __call__(self, sequence: Sequence) -> None:
        now = time.thread_time()
        done, took = len(sequence) - self.length, now - self.last
        self.last, self.length = now, len(sequence)
        sequence.step = max(1, min(4 * done, int(done * CHUNK_SECONDS / took))) if took else (
            2 * done or FIRST_CHUNK)
        self.check()

    def check(self) -> None:
        service = self.service
        if service.stopping.is_set():
            raise ResourceError("the server is stopping")
        if self.gone is not None and self.gone.is_set():
            self.gone = None  # counted once
            service._count_cancelled()
            raise Cancelled(f"{self.game}: the client has gone")
        seconds, now = service.seconds, time.monotonic()
        cpu = time.thread_time() - self.started
        if cpu > seconds:
            raise ResourceError(f"{self.game}: this needs more than the page's {seconds:g} s "
                                f"of work: ask the command line ({self.advice})")
        if now - self.arrived > seconds:
            waited = self.began - self.arrived
            queued = f"{waited:.1f} s waiting for a worker, then " if waited >= 0.05 else ""
            raise ResourceError(f"{self.game}: this needs more than the page's {seconds:g} s "
                                f"of work (by the clock: {queued}{now - self.began:.1f} s "
                                f"computing, {cpu:.1f} s of it on the CPU): ask the command "
                                f"line ({self.advice})")


_request = threading.local()  # a thread's request: its pace, its ticket, whether quick


def _interrupt() -> None:
    """The kernels' interrupt hook (kayles.kernels.limits.set_interrupt): the pace of this
    thread's request, if it has one."""
    pace = getattr(_request, "pace", None)
    if pace is not None:
        pace.check()


class Service:
    """The engine behind the page: one per server, shared by its requests.

    seconds: the time one request may take, by the clock and in CPU time, whichever ends
    first (the module header); stop() ends the work under way at its next look (the
    server calls it when it is told to stop).  ``cancelled`` counts the requests whose
    work ended because their client had gone.
    """

    def __init__(self, store_path: str | None = None,
                 seconds: float = REQUEST_SECONDS) -> None:
        self.store_path = store_path
        self.seconds = seconds
        self.stopping = threading.Event()
        self.cancelled = 0
        self._guard = threading.Lock()  # over _games and cancelled
        set_interrupt(_interrupt)  # the kernels' loops look at this thread's request
        self._games: OrderedDict[str, _Game] = OrderedDict()
        self._boards = Boards()

    def stop(self) -> None:
        self.stopping.set()

    def _count_cancelled(self) -> None:
        with self._guard:
            self.cancelled += 1

    # -- cheap or heavy ---------------------------------------------------------------------------

    def quick(self, name: str, request: dict, ticket: Ticket | None = None) -> dict | None:
        """The answer to request ``name`` (one of REQUESTS: 'analyse', 'sequence', ...) at
        once, from values already computed or a small table (the module header), waiting
        for no lock that heavy work holds; None when it needs the engine (``serve`` it).
        Bad input is refused here too, at once."""
        _request.quick = True
        try:
            return self.serve(name, request, ticket)
        except _Heavy:
            return None
        finally:
            _request.quick = False

    def serve(self, name: str, request: dict, ticket: Ticket | None = None) -> dict:
        """Request ``name`` (one of REQUESTS), its time counted from ``ticket``'s arrival
        and its work cancelled once ``ticket.gone`` is set (no ticket: from now, never)."""
        if name not in REQUESTS:
            raise ValueError(f"no request {name!r}")
        _request.ticket = ticket
        try:
            return getattr(self, name)(request)
        finally:
            _request.ticket = None

    # -- the engine, one request a game at a time -----------------------------------------------

    def _entry(self, game: Game) -> _Game:
        with self._guard:
            entry = self._games.pop(game.name, None) or _Game(game)
            self._games[game.name] = entry  # the most recently used, last
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
            return entry

    def run(self, game: Game, work: Callable[[_Game], dict],
            ready: Callable[[_Game], _Game | None] | None = None) -> dict:
        """``work(entry)`` under the game's lock, its sequence paced (see _Pace).  Asked
        by ``quick``: ``work`` on what ``ready(entry)`` gives (the entry, or one over a
        small table) with no lock, or _Heavy where it gives None (or there is no
        ``ready``: always heavy)."""
        if self.stopping.is_set():
            raise ResourceError("the server is stopping")
        entry = self._entry(game)
        _request.pace = pace = _Pace(self, game.name, getattr(_request, "ticket", None))
        try:
            if getattr(_request, "quick", False):
                answering = ready(entry) if ready is not None else None
                if answering is None:
                    raise _Heavy
                return work(answering)
            while not entry.lock.acquire(timeout=CHUNK_SECONDS):
                pace.check()  # another request has the game: this one's time runs meanwhile
            try:
                sequence = entry.sequence
                pace.attach(sequence)
                try:
                    return work(entry)
                finally:
                    sequence.listeners.remove(pace)
                    sequence.step = None
            finally:
                entry.lock.release()
        finally:
            _request.pace = None

    @staticmethod
    def _small(game: Game, n: int) -> _Game | None:
        """A game entry over a table computed here of G(0..n), where the game is octal
        and n + 1 times its move kinds at most SMALL_TABLE (the pure twin: a sixteenth);
        else None."""
        from ...kernels.chooser import IMPLEMENTATION

        work = (n + 1) * len(game.kinds)
        if not game.octal or work > (SMALL_TABLE if IMPLEMENTATION == "cython"
                                     else SMALL_TABLE >> 4):
            return None
        sequence = Sequence(game)
        sequence.nimber(n)
        return _Game(game, sequence)

    def _ready_to_play(self, position, misere: bool) -> Callable[[_Game], _Game | None]:
        """``ready`` for a position's analysis or move: normal play on a game whose moves
        leave at most two parts, the move search short (CHEAP_STEPS), every part's value
        in the table (or the period proved) or a small table enough."""

        def ready(entry: _Game) -> _Game | None:
            sizes = _sizes(position)  # bad input: refused at once
            game, sequence = entry.sequence.game, entry.sequence
            longest = max(sizes, default=0)
            if misere or not game.two_parts or (
                    sum(sizes) * len(game.kinds_upto(longest)) > CHEAP_STEPS):
                return None
            if longest < len(sequence) or sequence.period is not None:
                return entry
            return self._small(game, longest)

        return ready

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
        _sizes(position)
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
        position = request.get("position")
        return self.run(game, lambda entry: self._analysis(
            entry, self._match(entry, position, misere)), self._ready_to_play(position, misere))

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

        return self.run(game, work, self._ready_to_play(request.get("position"), misere))

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

        return self.run(game, work, self._ready_to_play(request.get("position"), misere))

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

        def ready(entry: _Game) -> _Game | None:  # the proof settled, the values computed
            sequence = entry.sequence
            found = sequence.period
            if found is None and game.provable:
                return None  # a proof to search for
            wanted = _count(count, found.values if found else DEFAULT_VALUES)
            return entry if wanted <= len(sequence) else None

        return self.run(game, work, ready)

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

        def ready(entry: _Game) -> _Game | None:
            sequence = entry.sequence
            if n < len(sequence) or sequence.period is not None:
                return entry
            return self._small(game, n)

        return self.run(game, work, ready)

    def board(self, request: dict) -> dict:
        """A board of Cram, Node Kayles or Chomp: its value, outcome and winning moves, and
        the computer's reply (kayles.interface.web.boards).  Always heavy: its search
        holds the family, paced as a sequence is."""
        family, position, reply = self._boards.read(request)  # bad input: at once
        if getattr(_request, "quick", False):
            raise _Heavy
        if self.stopping.is_set():
            raise ResourceError("the server is stopping")
        _request.pace = pace = _Pace(self, f"this {family} board",
                                     getattr(_request, "ticket", None), f"kayles solve {family}")
        lock = self._boards.lock(family)
        try:
            while not lock.acquire(timeout=CHUNK_SECONDS):
                pace.check()  # another request has the family: this one's time runs meanwhile
            try:
                return self._boards.answer(family, position, reply)
            finally:
                lock.release()
        finally:
            _request.pace = None

    def survey(self, request: dict) -> dict:
        """The done rows of the survey database the server was started with (--db), read
        only (SQLite's mode=ro: nothing written, nothing migrated), SURVEY_ROWS at most,
        within the request's time (every row read is checked against its game's rules; one
        whose signature fails is derived again, or left out: kayles.storage.store)."""
        if self.store_path is None:
            raise InputError("this server has no survey database: start it with --db FILE")
        from ...analysis.survey import published
        from ...storage.store import Store

        if getattr(_request, "quick", False):
            raise _Heavy
        if self.stopping.is_set():
            raise ResourceError("the server is stopping")
        _request.pace = _Pace(self, "the survey", getattr(_request, "ticket", None))
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
        except OSError as exc:  # refused by the system (kayles.storage.database): one 400
            raise InputError(f"{path_text(str(exc.filename))}: {exc.strerror or exc}") from None
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


def _sizes(position) -> list[int]:
    """The sizes of a position's parts (a row's runs, or the heaps), or InputError saying
    why it is not a position of at most MAX_TOKENS pins or tokens."""
    if isinstance(position, str):
        if len(position) > MAX_TOKENS:
            raise InputError(f"a row has at most {MAX_TOKENS} pins")
        from ...analysis.row import parse_row

        parse_row(position)
        return [size for _, size in runs(position)]
    if isinstance(position, list) and all(type(h) is int and h >= 0 for h in position):
        if len(position) > MAX_TOKENS or sum(position) > MAX_TOKENS:
            raise InputError(f"at most {MAX_TOKENS} tokens in all")
        return position
    raise InputError("a position is a row of 'x' and '.', or a list of heap sizes")


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
    length = len(sequence)  # once: another request may grow the table meanwhile
    if not game.octal:
        from ...engine.regularity import observe

        seen = observe(sequence.table(length), length)
        if seen is not None:
            n0, p, saltus = seen
            plus = f" + {saltus}" if saltus else ""
            return (f"G(n + {p}) = G(n){plus} for n = {n0} to {length - p - 1}: "
                    "observed, not proved (no theorem here covers it).")
    if not game.provable:
        why = ("splits into unequal parts" if game.octal
               else "marks, 'or more' counts, repeating tails or kept tokens")
        return f"No periodicity theorem covers {why}: values are computed."
    return f"No period is proved within {length} values."
