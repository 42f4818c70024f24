"""The ``kayles survey`` subcommand: a family of games, computed in parallel, into SQLite.

Exit status: 0 when every code was surveyed; 1 when some code was bad or failed
(each said on its own stderr line, the others still surveyed and printed);
2 for a usage error (bad option, bad --db, unreachable Dask scheduler);
130 on Ctrl-C ("stopped; the same command resumes": it takes the finished rows from the
database) and 143 on SIGTERM, with every finished row kept in the database.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

from ..._numbers import brief, count
from ...engine.sequence import PROOF_LIMIT
from ...errors import InputError, Terminated, counted, shown
from ._shared import (
    RESUMES,
    add_json_option,
    add_old_name,
    dump_json,
    file_name,
    natural,
    noticer,
)

__all__ = ["register"]

PREVIEW = 16  # values shown for each equivalence class
MISERE_HEAP = 30  # --misere without a number
JOBS_PER_CORE = 2  # at most this many worker processes a core: the work is all computing


def register(sub) -> None:
    p = sub.add_parser(
        "survey", help="survey a family of octal games into a database",
        description="For each code: prove its period (or compute --to values), and report "
        "the census's columns: code, status (solved or open), values computed, preperiod, "
        "period, values used, the largest value and its first heap, the rare mask with its "
        "number of rare heaps and last rare heap, and the Fletcher-32 checksum of the values "
        "used. Results go to an SQLite database, one row per (code, --to): a rerun skips "
        "finished rows and resumes the rest. Exit status 1 if any code was bad or failed "
        "(each on its own stderr line; the rest still runs).")
    p.add_argument("codes", metavar="CODE", nargs="*",
                   help="octal codes such as 0.77 .137 4.07 (or named games)")
    p.add_argument("--digits", type=natural("--digits"), metavar="K",
                   help="every code 0.d1..dK with dK != 0 (8**(K-1) * 7 codes)")
    add_old_name(p, "--first", p.add_argument(
        "--d0", choices=("0", "4"), dest="first", help="with --digits: the digit before the "
        "point, codes 0.d1..dK (the default) or 4.d1..dK"))
    add_old_name(p, "--max", p.add_argument(
        "--to", type=natural("--to"), default=PROOF_LIMIT, metavar="N", dest="max",
        help=f"compute at most N values per game (default {PROOF_LIMIT} = 2**20)"))
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", "-j", type=natural("--jobs"), metavar="J",
                       help="worker processes (default: every core, here "
                       f"{os.cpu_count() or 1})")
    where.add_argument("--dask", metavar="ADDRESS", help="send the games to this running Dask "
                       "scheduler (needs kayles[dask])")
    p.add_argument("--db", metavar="FILE", type=file_name, help="the SQLite database "
                   "(default $XDG_CACHE_HOME/kayles/survey.sqlite, ~/.cache without it)")
    p.add_argument("--reclaim", action="store_true", help="take over rows that another "
                   "survey left running (on another host, or a process that reused the "
                   "number of one that died), instead of waiting for them")
    p.add_argument("--equivalent", type=natural("--equivalent"), nargs="?", const=1000,
                   metavar="N", help="print classes of codes whose first N values agree "
                   "(N: 1000 without a number) instead of the table")
    p.add_argument("--drop-zeros", action="store_true", help="with --equivalent: compare the "
                   "N values after each sequence's leading zeros")
    p.add_argument("--misere", type=natural("--misere"), nargs="?", const=MISERE_HEAP,
                   metavar="HEAP", help="add each game's misère quotient on heaps up to HEAP "
                   f"({MISERE_HEAP} without a number), or on as many as the search proves: "
                   "the heaps proved, its order, P-portion size and the heap where it was "
                   "solved (computed in the same workers, stored in the database)")
    add_old_name(p, "--budget", p.add_argument(
        "--states", type=natural("--states"), metavar="N", dest="budget",
        help="with --misere: the most states one proof of a quotient may walk (default: "
        "kayles quotient's)"))
    form = p.add_mutually_exclusive_group()
    add_json_option(form, "array")
    form.add_argument("--csv", action="store_true", help="print CSV with a header line")
    form.add_argument("--markdown", action="store_true", help="print a Markdown table")
    p.set_defaults(handler=command_survey)
    _register_census(sub)


def _register_census(sub) -> None:
    p = sub.add_parser(
        "census", help="classify every octal code of up to K digits, in passes",
        description="Every code 0.d1..dk (k <= K, dk != 0) to 2**16 values; then the codes "
        "still open whose rare heaps are few to 2**20, 2**24, ... up to --to. Each row: "
        "solved (preperiod and period proved) or open (how far computed, the largest value, "
        "the rare mask, count and last rare heap), the checksum of its values, and its class "
        "(the first code whose first 2**16 values are the same). Passes are surveys into "
        "the same database: a rerun resumes where one stopped, and a code surveyed further "
        "into it, up to --to, shows that row. Codes that need more have their own longer "
        "runs: --further .354=2**25. --stored prints what the database holds, computing "
        "nothing.")
    p.add_argument("--digits", type=natural("--digits"), default=None, metavar="K",
                   help="codes of 1 to K digits, K at most 4 (the default: 4,095 codes; with "
                   "--hex at most 3, the default: 4,095 codes)")
    p.add_argument("--to", type=natural("--to"), default=1 << 24, metavar="N", dest="max",
                   help="the last pass's values (default 2**24)")
    p.add_argument("--hex", action="store_true", help="the hexadecimal census: every code of "
                   "hexadecimal digits 0-F; those with a digit past 7 to 2**14 values (one or "
                   "two digits) or 2**12 (three), each proved periodic, proved "
                   "arithmetic-periodic or open (with the regularity it shows); the octal "
                   "ones as the octal census takes them")
    p.add_argument("--hex-to", type=hex_limit, action="append", default=[],
                   metavar="[K=]N", help="with --hex: take the open codes with a digit past "
                   "7 on, four times further a pass, the last one to N values; K=N: those of "
                   "K digits (the last one given for K counts): --hex-to 2**16 --hex-to "
                   "3=2**14")
    p.add_argument("--dense-to", type=natural("--dense-to"), metavar="N",
                   help="also take the open codes no mask makes sparse (the first pass's "
                   "frontier: their values keep growing) to N values, by the dense path")
    p.add_argument("--further", type=further_run, action="extend", default=[],
                   metavar="CODE=N", help="after the passes, compute CODE (a code of this "
                   "census; several: CODE,CODE=N) on to N values, until its period is "
                   "proved, and show that row (repeat for more): .354=2**25 "
                   "0.1777,.454=2**29")
    p.add_argument("--stored", action="store_true", help="compute nothing: print each "
                   "code's furthest row the database holds (up to --to, or N of --further), "
                   "and say on stderr, and in the CSV's '#' lines, which passes are not "
                   "finished")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", "-j", type=natural("--jobs"), metavar="J",
                       help="worker processes (default: every core)")
    where.add_argument("--dask", metavar="ADDRESS", help="send the games to this running Dask "
                       "scheduler (needs kayles[dask])")
    p.add_argument("--db", metavar="FILE", type=file_name,
                   help="the SQLite database (default: the survey's)")
    p.add_argument("--reclaim", action="store_true", help="take over rows another survey "
                   "left running")
    form = p.add_mutually_exclusive_group()
    add_json_option(form, "array")
    form.add_argument("--csv", action="store_true", help="print CSV: '#' lines (the "
                      "command, kayles' version, the date and machine), a header, the rows")
    form.add_argument("--markdown", action="store_true", help="print a Markdown table")
    form.add_argument("--summary", action="store_true", help="print the summary tables "
                      "(Markdown) instead of the rows")
    p.add_argument("--plot", metavar="FILE", type=file_name,
                   help="also draw the census to FILE (.png, .svg or "
                   ".pdf; needs kayles[plot]): codes solved and open by digits, periods "
                   "against preperiods")
    p.add_argument("--misere", type=natural("--misere"), nargs="?", const=MISERE_HEAP,
                   metavar="HEAP", help="the misère census instead: each code's misère "
                   f"quotient on heaps up to HEAP ({MISERE_HEAP} without a number), or on as "
                   "many as --states allows, stored in the database")
    p.add_argument("--states", type=natural("--states"), metavar="N", dest="budget",
                   help="with --misere: the most states one proof of a quotient may walk "
                   "(default: kayles quotient's)")
    p.set_defaults(handler=command_census, equivalent=None)


def hex_limit(text: str) -> tuple[int | None, int]:
    """An argparse ``type`` for --hex-to N or K=N: (K, or None for every digit count, N)."""
    digits, equals, values = text.rpartition("=")
    try:
        if equals and digits not in ("1", "2", "3"):
            raise ValueError(f"--hex-to {shown(text)}: K in K=N is a digit count, 1, 2 or 3")
        return (int(digits) if equals else None), count(values, "--hex-to")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def further_run(text: str) -> list[tuple[str, int]]:
    """An argparse ``type`` for --further CODE=N or CODE,CODE,...=N: [(canonical code, N)]."""
    from ...analysis.survey import canonical_code

    codes, equals, values = text.rpartition("=")
    if not equals or not codes:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not CODE=N (.354=2**25)")
    try:
        limit = count(values, "N")
        named = [canonical_code(code) for code in codes.split(",")]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    twice = next((code for k, code in enumerate(named) if code in named[:k]), None)
    if twice is not None:
        raise argparse.ArgumentTypeError(f"{twice} is named twice")
    return [(code, limit) for code in named]


def _codes(args) -> tuple[list[str], list[str]]:
    """(canonical codes, without repeats, in order; one message per bad code)."""
    from ...analysis.survey import canonical_code, codes_with_digits

    if args.digits is not None and args.codes:
        raise InputError("give CODEs or --digits, not both")
    if args.digits is None and not args.codes:
        raise InputError("give CODEs or --digits K")
    if args.first is not None and args.digits is None:
        raise InputError("--first goes with --digits")
    if args.digits is not None:
        if args.digits > 8:
            raise InputError(f"--digits {brief(args.digits)} is too many codes (at most 8)")
        return codes_with_digits(args.digits, args.first or "0"), []
    codes, bad = [], []
    for text in args.codes:
        try:
            code = canonical_code(text)
        except ValueError as exc:
            bad.append(str(exc))
            continue
        if code not in codes:
            codes.append(code)
    return codes, bad


def _check_options(args) -> None:
    if args.jobs == 0:
        raise InputError("--jobs must be at least 1")
    if args.max == 0:
        raise InputError("--max must be at least 1")
    from ...kernels.limits import too_long

    if too_long(args.max):   # each worker holds one game's table at a time
        raise InputError(f"--to: {too_long(args.max)}")
    if args.equivalent is not None and not 1 <= args.equivalent <= args.max:
        raise InputError(f"--equivalent N must be between 1 and --max ({args.max})")
    if args.drop_zeros and args.equivalent is None:
        raise InputError("--drop-zeros goes with --equivalent")
    if args.misere is not None:
        from ...kernels.limits import SURVEY_MISERE_HEAP

        SURVEY_MISERE_HEAP.check(args.misere)
        if args.equivalent is not None:
            raise InputError("--misere and --equivalent are two different reports")
    if args.budget is not None and (args.misere is None or args.budget == 0):
        raise InputError("--budget goes with --misere and must be at least 1"
                         if args.budget == 0 else "--budget goes with --misere")


def _terminated(signum, frame) -> None:
    raise Terminated


def _say_waiting(code: str, owner: str) -> None:
    sys.stderr.write(f"kayles survey: waiting for {code}, which the survey {owner!r} is "
                     "computing (--reclaim takes it over)\n")
    sys.stderr.flush()


def _jobs(args, games: int) -> int:
    """Worker processes: --jobs, but no more than the games nor JOBS_PER_CORE a core."""
    cores = os.cpu_count() or 1
    wanted = args.jobs or cores
    jobs = max(1, min(wanted, games, JOBS_PER_CORE * cores))
    if args.jobs and jobs < args.jobs:
        sys.stderr.write(f"kayles survey: --jobs {brief(args.jobs)} capped at {jobs} "
                         f"({counted(games, 'game')}, {counted(cores, 'core')})\n")
    return jobs


def command_survey(args, out) -> int:
    from ...analysis.executors import open_executor, survey
    from ...storage.store import Store, default_path
    from ..progress import bar, seconds

    _check_options(args)
    codes, bad = _codes(args)
    for message in bad:
        sys.stderr.write(f"kayles survey: {message}\n")
    path = args.db if args.db is not None else default_path()
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        with Store(path, make_parents=args.db is None, reclaim=args.reclaim,
                   notice=noticer("kayles survey")) as store:
            jobs = _jobs(args, len(codes))
            with open_executor(jobs, args.dask) as (pool, window):
                with bar(len(codes), "survey", "games") as shown:
                    counter = _Counter(shown)
                    failures = survey(codes, args.max, store, pool, window, counter.done,
                                      _say_waiting, seconds()[0], resumed=counter.resumed)
                found = store.summaries(codes, args.max)
                misere = _quotients(args, [code for code in codes if code in found], pool,
                                    window, store)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(RESUMES) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    for code, error in failures.items():
        sys.stderr.write(f"kayles survey: {code}: {error}\n")
    summaries = [found[code] for code in codes if code in found]
    if args.equivalent is not None:
        _write_classes(summaries, args, out)
    else:
        from ...analysis.survey import published

        columns, rows = published(summaries)
        if misere is not None:
            rows = [{**row, "misere": misere[row["code"]]} for row in rows]
            columns += MISERE_COLUMNS
        _write_table(rows, args, out, columns)
    return 1 if bad or failures else 0


def command_census(args, out) -> int:
    from contextlib import contextmanager

    from ...analysis import census
    from ...analysis.census import (
        COLUMNS,
        FIRST,
        HEX_COLUMNS,
        census_codes,
        census_rows,
        hex_summary_markdown,
        is_octal,
        summary_markdown,
    )
    from ...analysis.executors import open_executor
    from ...kernels.limits import too_long
    from ...storage.store import Store, default_path
    from ..progress import bar, seconds

    if args.digits is None:
        args.digits = 3 if args.hex else 4
    if args.hex_to and not args.hex:
        raise InputError("--hex-to goes with --hex")
    codes = census_codes(args.digits, args.hex)
    if args.misere is not None:
        if args.hex:
            raise InputError("--misere and --hex: the misère census is of octal codes")
        if args.stored or args.further or args.dense_to is not None:
            raise InputError("--stored, --further and --dense-to go with the normal-play "
                             "census: leave out --misere")
        return _misere_census(args, codes, out)
    if args.budget is not None:
        raise InputError("--states goes with --misere")
    if args.plot is not None:
        from ...analysis.plot import save_format

        save_format(args.plot)
    if too_long(args.max):
        raise InputError(f"--to: {too_long(args.max)}")
    if args.dense_to is not None and (args.dense_to <= FIRST or too_long(args.dense_to)):
        raise InputError(f"--dense-to must be past the first pass's {FIRST:,} values"
                         if args.dense_to <= FIRST else f"--dense-to: {too_long(args.dense_to)}")
    for code, values in args.further:
        if code not in codes or not is_octal(code):
            raise InputError(f"--further: {code} is not an octal code of this census")
        if values < FIRST:
            raise InputError(f"--further {code}: N must be at least {FIRST:,} (the first pass)")
        if too_long(values):
            raise InputError(f"--further {code}: {too_long(values)}")
    path = args.db if args.db is not None else default_path()
    laid = census.plans(codes, args.max, hexadecimal=args.hex, digits=args.digits,
                        hex_to=dict(args.hex_to), dense_to=args.dense_to, further=args.further)

    @contextmanager
    def watch(name: str, count: int):
        with bar(count, name, "games") as shown:
            counter = _Counter(shown)
            yield counter.done, counter.resumed

    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        with Store(path, make_parents=args.db is None and not args.stored,
                   reclaim=args.reclaim, read_only=args.stored,
                   notice=noticer("kayles census")) as store:
            with open_executor(1 if args.stored else _jobs(args, len(codes)),
                               args.dask) as (pool, window):
                found = census.run(laid, codes, store, pool, window, compute=not args.stored,
                                   keep=None if args.hex else census.CLASS_VALUES,
                                   watch=watch, waits=_say_waiting, notice=seconds()[0])
    except KeyboardInterrupt:
        if args.stored:  # it computes nothing: nothing to resume
            raise
        raise KeyboardInterrupt(RESUMES) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    final, failures, unfinished = found
    for code, error in failures.items():
        sys.stderr.write(f"kayles census: {code}: {error}\n")
    if args.stored:
        for limit, done, wanted, failed in unfinished:
            sys.stderr.write(f"kayles census: the pass to {limit:,} values is not finished: "
                             f"{done:,} of its {counted(wanted, 'code')} done"
                             f"{_failed_text(failed)}\n")
        missing = [code for code in codes if code not in final]
        if missing:
            has = "has" if len(missing) == 1 else "have"
            sys.stderr.write(f"kayles census: {counted(len(missing), 'code')} {has} no row yet, "
                             f"{', '.join(missing[:5])}{', ...' if len(missing) > 5 else ''}\n")
    rows = census_rows([final[code] for code in codes if code in final], args.hex)
    if args.plot is not None:
        from ...analysis.plot import census_figure, save_format
        from ...storage._files import write_atomically

        drawn = census_figure(rows, hexadecimal=args.hex)
        write_atomically(args.plot, lambda handle: drawn.savefig(
            handle, format=save_format(args.plot)), force=True)
    if args.summary:
        out.write(hex_summary_markdown(rows) if args.hex else summary_markdown(rows))
    else:
        if args.csv:
            out.write(_census_header(args, unfinished))
        _write_table(rows, args, out, list(HEX_COLUMNS if args.hex else COLUMNS))
    return 1 if failures or (args.stored and len(final) < len(codes)) else 0


def _misere_census(args, codes: list[str], out) -> int:
    """kayles census --misere: every code's quotient (stored rows read back), as rows."""
    from ...analysis.census import MISERE_COLUMNS, misere_markdown, misere_rows
    from ...analysis.executors import open_executor
    from ...kernels.limits import SURVEY_MISERE_HEAP
    from ...storage.store import Store, default_path

    SURVEY_MISERE_HEAP.check(args.misere)
    if args.budget == 0:
        raise InputError("--states must be at least 1")
    if args.plot is not None:
        raise InputError("--plot draws the normal-play census: leave out --misere")
    path = args.db if args.db is not None else default_path()
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        with Store(path, make_parents=args.db is None, reclaim=args.reclaim,
                   notice=noticer("kayles census")) as store:
            with open_executor(_jobs(args, len(codes)), args.dask) as (pool, window):
                found = _quotients(args, codes, pool, window, store)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(RESUMES) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    failed = [code for code in codes if found[code]["order"] is None]
    for code in failed:
        sys.stderr.write(f"kayles census: {code}: {found[code]['error']}\n")
    rows = misere_rows(found, [code for code in codes if code not in failed])
    if args.summary:
        out.write(misere_markdown(rows))
        return 1 if failed else 0
    if args.csv:
        out.write(_census_header(args))
    _write_table(rows, args, out, list(MISERE_COLUMNS))
    return 1 if failed else 0


class _Counter:
    """A survey's games done, on a bar: the stored ones at once (``resumed``), then one by
    one (``done``), so a resumed run's rate and time left count only its own work."""

    def __init__(self, shown) -> None:
        self.shown, self.count = shown, 0

    def resumed(self, count: int) -> None:
        self.count += count
        self.shown.resume(self.count)

    def done(self, code: str) -> None:
        self.count += 1
        self.shown.update(self.count)


def _census_header(args, unfinished: list[tuple[int, int, int, tuple]] | None = None) -> str:
    """The CSV's '#' lines: what made it, when and where, and (``unfinished``: (values, done,
    codes, failed) of each pass not finished) how far its passes are."""
    import datetime
    import itertools

    from ..._version import __version__
    from ...kernels import chooser
    from ...kernels.limits import cpu_model

    machine = cpu_model()
    made = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    made_by = f"# kayles {__version__} ({chooser.IMPLEMENTATION} core), {made}, {machine}, " \
        f"{counted(os.cpu_count() or 1, 'core')}\n"
    if args.misere is not None:
        from ...analysis.quotient import MAX_STATES

        return (f"# kayles census --digits {args.digits} --misere {args.misere} --states "
                f"{args.budget or MAX_STATES}\n{made_by}"
                "# status solved: the quotient of every heap; done: of heaps 1..heaps; short: "
                "the next heap is beyond the search (stopped_by states, memory or powers)\n"
                "# checksum: the first 16 hex digits of the SHA-256 of the presentation, "
                "P-portion and heaps' classes (kayles quotient --to heaps)\n")
    passes = "".join(f"# the pass to {limit:,} values is not finished: {done:,} of its "
                     f"{counted(codes, 'code')} done{_failed_text(failed)}; each code's row "
                     "is the furthest the database holds\n"
                     for limit, done, codes, failed in unfinished or ())
    stored = " --stored" if args.stored else ""
    if args.hex:
        further = "".join(f" --hex-to {'' if k is None else f'{k}='}{n}" for k, n in args.hex_to)
        return (f"# kayles census --hex --digits {args.digits} --to {args.max}{further}{stored}"
                f"\n{made_by}{passes}# status solved: preperiod, period and saltus proved "
                "(G(n + period) = G(n) + saltus from the preperiod on; saltus 0: periodic; "
                "kayles.engine.regularity's theorems P and A, the octal theorem for octal "
                "codes); open: computed to 'computed' values, observed_*: the regularity they "
                "show, not proved\n# checksum: Fletcher-32 of G(0..values-1); class: the "
                "first code whose first 4096 values are the same; mask, rare: the octal "
                "codes' rare mask\n")
    further = "".join(f" --further {','.join(code for code, _ in group)}={values}"
                      for values, group in itertools.groupby(args.further, lambda run: run[1]))
    if args.dense_to is not None:
        further = f" --dense-to {args.dense_to}{further}"
    return (f"# kayles census --digits {args.digits} --to {args.max}{further}{stored}\n"
            f"{made_by}{passes}"
            "# status solved: preperiod and period proved; open: computed to 'computed' values"
            "\n# checksum: Fletcher-32 of G(0..values-1); class: the first code whose first "
            "65536 values are the same; settled: how far the row was computed\n")


def _failed_text(failed: tuple[int, int]) -> str:
    """', N failed (...)' for a pass's codes that failed ((how many, how many of them
    because their values would pass 16 bits)), or ''."""
    count, past_16_bits = failed
    if not count:
        return ""
    bound = (f"{'all' if past_16_bits == count else past_16_bits} because their values "
             "would pass 65,535, a 16-bit table's bound; " if past_16_bits else "")
    return (f", {count:,} failed ({bound}the census without --stored tries failed codes "
            "again and says why)")


def _quotients(args, codes: list[str], pool, window: int, store) -> dict[str, dict] | None:
    """Each code's misère quotient (``survey.misere_summary``) with --misere, else None:
    the stored row where there is one (a row short of the heap asked for only when it ran
    under a budget at least this one), else computed and stored as it arrives."""
    if args.misere is None:
        return None
    from ...analysis.executors import quotients
    from ...analysis.quotient import MAX_STATES
    from ..progress import bar

    budget = args.budget or MAX_STATES
    found = {code: summary for code, (summary, states) in store.quotients(codes,
                                                                          args.misere).items()
             if summary["error"] is None or states >= budget}
    todo = [code for code in codes if code not in found]
    with bar(len(todo), "misère quotients", "games") as shown:
        count = [0]

        def done(code: str, summary: dict) -> None:
            store.put_quotient(code, summary, budget)
            count[0] += 1
            shown.update(count[0])

        found.update(quotients(todo, args.misere, budget, pool, window, done))
    return {code: {k: v for k, v in found[code].items() if k != "seconds"} for code in codes}


# -- output ------------------------------------------------------------------------------------

# A table's headings are the CSV and JSON names, '_' written as a space (one vocabulary);
# its masks are written as people read them (6+parity), CSV and JSON keep the integer.
# With --misere, JSON rows gain a "misere" object; the other forms four columns from it.
MISERE_COLUMNS = ("misere_heaps", "misere_order", "misere_p", "misere_solved")


def _write_table(rows: list[dict], args, out, columns: list[str]) -> None:
    if args.json:
        dump_json(rows, out)
        return
    rows = [_flat(row) if "misere" in row else row for row in rows]
    if args.csv:
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_csv_cell(row[c]) for c in columns])
        return
    from ...kernels.spectrum import mask_text

    header = [c.replace("_", " ") for c in columns]
    cells = [[mask_text(row[c]) if c == "mask" and row[c] else _cell(row[c]) for c in columns]
             for row in rows]
    if args.markdown:
        out.write("| " + " | ".join(header) + " |\n")
        out.write("|" + "|".join("---" for _ in columns) + "|\n")
        for line in cells:
            out.write("| " + " | ".join(line) + " |\n")
        return
    widths = [max(len(text) for text in column) for column in zip(header, *cells)]
    numeric = [all(text.removesuffix("+parity").isdigit() or text == "-" for text in column)
               for column in zip(*cells)] if cells else [False] * len(columns)
    for line in [header, *cells]:
        out.write("  ".join(text.rjust(w) if right else text.ljust(w)
                            for text, w, right in zip(line, widths, numeric)).rstrip() + "\n")


def _flat(row: dict) -> dict:
    """A row's misère quotient as four cells: the heaps proved (fewer than --misere when the
    next is beyond the search), the order, P size, the heap where it was solved."""
    quotient = row["misere"]
    solved = quotient["solved"]
    return {**row, "misere_heaps": quotient["heaps"], "misere_order": quotient["order"],
            "misere_p": quotient["p_size"], "misere_solved": solved and solved["at_heap"]}


def _cell(value) -> str:
    if value is None:
        return "-"
    if value is True or value is False:
        return "yes" if value else "no"
    return str(value)


def _csv_cell(value) -> str:
    """As JSON writes it: empty for null, true or false for a boolean."""
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _write_classes(summaries, args, out) -> None:
    from ...analysis.survey import compared_values, equivalence_classes

    classes = equivalence_classes(summaries, args.equivalent, args.drop_zeros)
    preview = min(PREVIEW, args.equivalent)
    rows = [{"class": number, "size": len(members), "codes": [s.code for s in members],
             "values": compared_values(members[0], preview, args.drop_zeros)}
            for number, members in enumerate(classes, 1)]
    if args.json:
        dump_json(rows, out)
        return
    for row in rows:
        row["codes"] = " ".join(row["codes"])
        row["values"] = " ".join(map(str, row["values"]))
    _write_table(rows, args, out, ["class", "size", "codes", "values"])

