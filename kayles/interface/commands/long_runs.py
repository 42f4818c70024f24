"""The ``kayles run`` subcommand: a long run toward a record, in a folder, resumable.

    kayles run GAME --to N --dir DIR      start, or resume, the run in DIR
    kayles run GAME --show                the records stored for GAME

Output: a line (``--json``: one object) for each power of two 2**k <= N, those
of an earlier, interrupted run in DIR first.  Exit status: 0 when the run got
to N; 2 for bad input and for a run that cannot go on as asked (the message
says what would let it: a wider --window, --keep-table); 1 when a file cannot
be written (a full disk); 130 on Ctrl-C ("stopped; the same command resumes") and 143
on SIGTERM, after a checkpoint.
"""

from __future__ import annotations

import argparse

from ...errors import InputError
from ._shared import (
    GAME_HELP,
    RESUMES,
    add_json_option,
    add_threads_option,
    dump_json,
    file_name,
    natural,
    noticer,
    threads_of,
)

__all__ = ["register"]


def register(sub) -> None:
    from ...kernels.limits import RUN_CHECKPOINT_SECONDS as CHECKPOINT_SECONDS
    from ...kernels.limits import RUN_WINDOW as WINDOW

    p = sub.add_parser(
        "run", help="a long run toward a record: every power of two, resumable",
        description="Compute G(0..N) of a game in the folder DIR, in flat memory past the last "
        "rare heap, and record at each power of two 2**k <= N the frequencies of the values "
        "of heaps 1..2**k, the largest value and its first heap, the rare mask, rare heaps "
        "and last rare heap, and the Fletcher-32 checksum of G(0..2**k). The run saves "
        "checkpoints in DIR: run the same command again after Ctrl-C, SIGTERM or a crash "
        "to go on. The records also go to the survey database (--db).")
    p.add_argument("game", metavar="GAME", help=GAME_HELP.replace(" (default: kayles-xox)", ""))
    p.add_argument("--to", type=natural("--to"), metavar="N",
                   help="the last heap (e.g. 1073741824 or 2**30); a resumed run keeps its own "
                   "unless given")
    p.add_argument("--dir", metavar="DIR", type=file_name,
                   help="the run's folder (made if need be)")
    p.add_argument("--window", type=natural("--window"), metavar="W",
                   help=f"values kept: G(0..W-1) and about 2W recent ones, 6W bytes in all "
                   f"(default 2**{WINDOW.bit_length() - 1}); every rare heap must lie below W")
    p.add_argument("--keep-table", action="store_true",
                   help="keep every value in DIR (2 bytes a heap): the run then settles any "
                   "heap, however deep its search or wherever new rare heaps appear")
    p.add_argument("--checkpoint", type=float, default=CHECKPOINT_SECONDS, metavar="SECONDS",
                   help=f"seconds between checkpoints (default {CHECKPOINT_SECONDS:g}; also at "
                   "each record and on stopping)")
    p.add_argument("--db", metavar="FILE", type=file_name,
                   help="the SQLite database of records (default: the "
                   "survey's, $XDG_CACHE_HOME/kayles/survey.sqlite)")
    p.add_argument("--show", action="store_true",
                   help="print the records stored for GAME (up to --to) and compute nothing")
    p.add_argument("--recompute", action="store_true", help=argparse.SUPPRESS)  # old: a run
    # in a folder computes now, whatever the database holds
    add_threads_option(p)
    add_json_option(p, "object a line", "n, log2, frequencies, largest, first, mask, rare, "
                    "last_rare, fletcher32, seconds")
    p.set_defaults(handler=command_run)


def command_run(args, out) -> int:
    from ...analysis.long_run import check_to, check_window
    from ...engine.codes import get_game
    from ...storage.store import Store, default_path

    game = get_game(args.game)
    if not game.octal:
        raise InputError(f"{game.name}: kayles run computes octal games (moves that leave at "
                         "most two parts, unequal or not); kayles grundy and kayles period "
                         "compute any code")
    if args.checkpoint <= 0 or args.checkpoint != args.checkpoint:
        raise InputError("--checkpoint must be a positive number of seconds")
    if args.to is not None:
        check_to(args.to)
    if args.window is not None:
        check_window(args.window)
    threads = threads_of(args)
    if not args.show and args.dir is None:
        raise InputError("give --dir DIR (the run's folder), or --show")
    with Store(args.db if args.db is not None else default_path(),
               make_parents=args.db is None, notice=noticer("kayles run")) as store:
        if args.show:
            from ...analysis.long_run import stored_records_differ

            records = store.records(game.name)
            why = stored_records_differ(game, records)
            if why:
                raise InputError(f"{store.name}: the records of {game.name} are not its game's "
                                 f"({why}; edited, or another game's): delete them to compute "
                                 "them again")
            _print(out, args, [r for r in records if args.to is None or r.n <= args.to])
            return 0
        _check_folder(args.dir)
        return _run(args, out, game, store, threads)


def _run(args, out, game, store, threads: int) -> int:
    import signal

    from ...analysis.long_run import Run
    from ...errors import Terminated
    from ..progress import bar

    asked: list[int] = []

    def on_signal(number, frame) -> None:  # the call in progress ends, a checkpoint follows
        asked.append(number)
        signal.signal(number, signal.default_int_handler if number == signal.SIGINT
                      else signal.SIG_DFL)  # a second one stops at once

    previous = {number: signal.signal(number, on_signal)
                for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        with Run(args.dir, game, args.to, args.window, args.keep_table,
                 args.checkpoint, threads) as run:
            shown = [r for r in run.records if r.n <= run.to]
            _print(out, args, shown)
            for record in shown:
                store.put_record(record)

            def on_record(record) -> None:
                store.put_record(record)
                _print(out, args, [record])

            with bar(run.to + 1, f"kayles run {game.name}", "values", run.n) as progress:
                done = run.advance(on_record, lambda: bool(asked), progress.update)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if not done:  # a checkpoint is written: the same command goes on from it
        if asked[0] == signal.SIGTERM:
            raise Terminated
        raise KeyboardInterrupt(RESUMES)
    return 0


def _check_folder(folder: str) -> None:
    """ValueError when ``folder`` is there and is no folder."""
    import os

    from ...storage._files import display, kind

    if os.path.lexists(folder) and not os.path.isdir(folder):
        info = os.stat(folder) if os.path.exists(folder) else os.lstat(folder)
        raise InputError(f"{display(folder)}: {kind(info)}, not a folder")


def _print(out, args, records) -> None:
    for record in records:
        if args.json:
            dump_json(record.as_json(), out)
        else:
            out.write(record.text() + "\n")
    out.flush()
