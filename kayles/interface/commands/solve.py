"""``kayles solve GAME POSITION``: the nimber, the outcome and a winning move of any impartial
game: a family, or a game written in Python (``FILE.py:NAME``).

    $ kayles solve subtraction:1,2,3 10
    nimber: 2
    outcome: N
    move: 8

The handler parses, hands the search to ``kayles.analysis.solver`` (or, with --threads or
--dask, to ``kayles.analysis.split_search``), saves its tables with --save (every
--checkpoint seconds, and on Ctrl-C or SIGTERM before it ends) and writes the answer.
"""

from __future__ import annotations

import argparse

from ...errors import InputError
from ._shared import RESUMES, add_json_option, dump_json, file_name, natural, size

__all__ = ["register"]

CHECKPOINT_SECONDS = 60.0  # between two saves of the tables, unless told
SOLVE_DESCRIPTION = """\
Solve any impartial game: print its nimber (in a game with cycles, its generalized
value inf(K)), its outcome (P: the player to move loses, N: wins, D: a draw) and a
winning move (from D, a move that keeps the draw; 'none' from P).

GAME is a family (NAME, or NAME:ARGUMENT, as subtraction:1,2,3) or FILE.py:NAME, a
game you wrote in Python: NAME in FILE is a class, made with no argument, or an object,
with a method options(position) (the positions one move reaches) and, if you like,
components(position) (its independent parts, whose nimbers XOR), key(position) (a
canonical form), parse(text) and format(position).  POSITION is read by the game's
parse, else as a Python literal (10, (3, 4), 'xx.x'; words are joined by spaces)."""
SOLVE_EPILOG = """\
The search keeps a table of the values it found, at most --memory bytes of it: past
that the oldest entries are evicted (the answer is the same; it may take longer).
Python runs one thread at a time, so --threads T > 1 runs T worker processes, each on
a part of the top of the search (as --dask does on a cluster): a help where the top's
parts do not share much.  Examples:
  kayles solve subtraction:1,2,3 10
  kayles solve mygame.py:Cram '(4, 5)' --json
  kayles solve mygame.py:Cram '(5, 6)' --save cram56.table   (Ctrl-C, then --resume)"""


def register(sub) -> None:
    from ...engine.search import STRATEGIES

    p = sub.add_parser("solve", help="the nimber, outcome and a winning move of any impartial "
                       "game: a family, or your own in Python", description=SOLVE_DESCRIPTION,
                       epilog=SOLVE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", metavar="GAME", help="a family (subtraction:1,2,3) or FILE.py:NAME")
    p.add_argument("position", metavar="POSITION", nargs="+",
                   help="the position, as the game reads it")
    add_json_option(p, "object", "nimber, outcome, move")
    p.add_argument("--misere", "--misère", action="store_true",
                   help="misère play: whoever makes the last move loses (no nimber then)")
    p.add_argument("--memory", type=size("--memory"), metavar="SIZE",
                   help="bytes the search's tables may hold: 512K, 64M, 4G (default: half the "
                   "memory available, or of KAYLES_MEMORY)")
    p.add_argument("--threads", type=natural("--threads"), metavar="T", default=1,
                   help="worker processes splitting the top of the search (default 1: one "
                   "thread, no process started); for a family whose compiled kernel runs "
                   "threads, its threads")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="split the top of the search over the Dask scheduler at ADDRESS "
                   "(the extra kayles[dask])")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--save", metavar="FILE", type=file_name,
                       help="save the tables to FILE (a new file) as the search goes, so that "
                       "an interrupted search resumes")
    group.add_argument("--resume", metavar="FILE", type=file_name,
                       help="start from the tables saved in FILE, and keep saving to it")
    p.add_argument("--force", action="store_true",
                   help="with --save: replace FILE if it exists (a regular file only)")
    p.add_argument("--checkpoint", type=float, default=CHECKPOINT_SECONDS, metavar="SECONDS",
                   help=f"with --save/--resume: seconds between saves (default "
                   f"{CHECKPOINT_SECONDS:g}; also on Ctrl-C and SIGTERM)")
    p.add_argument("--strategy", choices=STRATEGIES,
                   help="the search: lv (Lemoine-Viennot pruning; default with components), "
                   "lv- (the same without remembering the values a position lacks), mex "
                   "(every option's value; default without components)")
    p.add_argument("--stats", action="store_true",
                   help="also print the positions searched, the table's entries and evictions")
    p.set_defaults(handler=command_solve)


def command_solve(args, out) -> int:
    from ...analysis.games.families import GameSource, parse_position
    from ...analysis.solver import Solver, default_memory
    from ...kernels.limits import THREADS

    threads = THREADS.check(args.threads, "--threads")
    saving = args.save or args.resume
    if args.dask is not None and threads > 1:
        raise InputError("--threads and --dask: give one or the other")
    if args.force and not args.save:
        raise InputError("--force goes with --save")
    if not args.checkpoint > 0:
        raise InputError("--checkpoint must be a positive number of seconds")
    source = GameSource.parse(args.game)
    game = source.load()
    crew = hasattr(game, "threads")  # a family whose kernel runs threads of its own
    if crew:
        game.threads = threads
    if saving and (args.dask is not None or (threads > 1 and not crew)):
        raise InputError("--save and --resume keep one process's tables: not with --threads "
                         "or --dask")
    position = parse_position(game, " ".join(args.position))
    memory = default_memory() if args.memory is None else args.memory
    saver = _Saver(args, source, memory) if saving else None
    shown = _Progress()
    solver = Solver(game, memory, args.strategy,
                    progress=shown.search if saver is None else saver.also(shown.search))
    if saver is not None:
        saver.start(solver.search, position)
    try:
        if args.dask is not None or (threads > 1 and not crew):
            solution = _split(args, source, position, solver, memory, threads, shown)
        else:
            solution = solver.solve(position, args.misere)
    except BaseException as exc:
        shown.close()
        if saver is not None and isinstance(exc, (KeyboardInterrupt, _terminated())):
            saver.save()
            if isinstance(exc, KeyboardInterrupt):
                raise KeyboardInterrupt(RESUMES) from None
        raise
    finally:
        if saver is not None:
            saver.stop()
    shown.close()
    if saver is not None:
        saver.save()
    _write(out, args, game, position, solution, solver.search)
    return 0


def _terminated():
    from ...errors import Terminated

    return Terminated


def _split(args, source, position, solver, memory: int, threads: int, shown):
    from ...analysis.executors import open_executor
    from ...analysis.split_search import split_solve

    with open_executor(threads, args.dask) as (executor, window):
        return split_solve(source, position, executor, window, memory, args.misere,
                           done=shown.parts, solver=solver)


class _Progress:
    """The search's progress line (kayles.interface.progress), made on first use."""

    def __init__(self) -> None:
        self._bar = None

    def _line(self, unit: str):
        if self._bar is None:
            from ..progress import counter

            self._bar = counter("kayles solve", unit)
        return self._bar

    def search(self, search) -> None:
        self._line("positions").update(search.visited, note=(
            f"table {search.entries():,} entries ({_megabytes(search.size())}), "
            f"{search.evicted():,} evicted"))

    def parts(self, finished: int, tasks: int) -> None:
        self._line("parts").update(finished, tasks)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _megabytes(count: int) -> str:
    return f"{count / (1 << 20):.1f} MB"


class _Saver:
    """--save / --resume: the tables read back, saved every --checkpoint seconds (from the
    search's progress callback), on Ctrl-C and SIGTERM, and at the end."""

    def __init__(self, args, source, memory: int) -> None:
        self.path = args.save or args.resume
        self.force = args.force or args.resume is not None  # a resumed file is ours to replace
        self.resume = args.resume is not None
        self.every = args.checkpoint
        self.identity = source.identity
        self.memory = memory
        self.search = None
        self._previous = None
        self._last = 0.0

    def also(self, progress):
        def both(search) -> None:
            progress(search)
            self.tick()

        return both

    def start(self, search, position) -> None:
        import signal
        import time

        from ...storage import search_table
        from ...storage._files import check_target

        self.search = search
        search_table.check_savable(kc for _, kc in search.parts(position))
        if self.resume:
            normal, misere = search_table.read(self.path, self.identity,
                                               self.memory + (16 << 20))
            search.restore(normal, misere)
        else:
            check_target(self.path, self.force, "--force replaces it")
        self._last = time.monotonic()

        def on_sigterm(number, frame) -> None:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second one ends at once
            raise _terminated()

        self._previous = signal.signal(signal.SIGTERM, on_sigterm)

    def stop(self) -> None:
        import signal

        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)
            self._previous = None

    def tick(self) -> None:
        import time

        if time.monotonic() - self._last >= self.every:
            self.save()

    def save(self) -> None:
        import time

        from ...storage import search_table

        normal, misere = self.search.saved()
        search_table.write(self.path, self.identity, normal, misere, self.force)
        self.force = True  # from now on the file is this search's own
        self._last = time.monotonic()


def _write(out, args, game, position, solution, search) -> None:
    from ...analysis.games.families import format_move

    move = None if solution.move is None else format_move(game, position, solution.move)
    value = solution.value
    if args.json:
        from ...analysis.games.digraph import Infinite

        report = {"nimber": {"inf": sorted(value.k)} if isinstance(value, Infinite) else value,
                  "outcome": solution.outcome, "move": move}
        if args.stats:
            report["stats"] = {"positions": search.visited, "entries": search.entries(),
                               "evicted": search.evicted()}
        dump_json(report, out)
        return
    lines = [] if solution.misere else [f"nimber: {value}"]
    lines.append(f"outcome: {solution.outcome}" + (" (misère play)" if solution.misere else ""))
    lines.append(f"move: {'none' if move is None else move}")
    if args.stats:
        lines.append(f"positions: {search.visited:,}, table: {search.entries():,} entries, "
                     f"evicted: {search.evicted():,}")
    out.write("".join(line + "\n" for line in lines))
