"""Subcommands on heap games: grundy, period, move, games, codes."""

from __future__ import annotations

from contextlib import contextmanager

from ...engine.rules import ALIASES, GAMES
from ...engine.sequence import PROOF_LIMIT, TAKEBREAK_PROOF_LIMIT, Sequence
from ...errors import InputError, Terminated, counted
from ...kernels.limits import SAVE_CHUNK as CHUNK
from ...kernels.limits import SAVE_CHUNK_SECONDS as SECONDS
from ...kernels.limits import too_long
from ._shared import (
    add_game_option,
    add_json_option,
    add_old_name,
    add_threads_option,
    dump_json,
    end_progress,
    file_name,
    heap_move_json,
    natural,
    open_sequence,
    threads_of,
)
from .misere_games import add_budget_option


def register(sub) -> None:
    p = sub.add_parser("grundy", help="print [G(0), ..., G(N)]", description="Print the "
                       "nim-sequence [G(0), G(1), ..., G(N)] of a heap game on one line.")
    p.add_argument("n", metavar="N", type=natural(), help="the last heap size")
    add_game_option(p)
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--checksum", action="store_true",
                       help="print the Fletcher-32 checksum of G(0..N) instead of the values")
    shown.add_argument("--format", choices=("list", "b-file", "csv"), default="list",
                       help="list: [G(0), ..., G(N)] on one line (the default); b-file: one "
                       "line 'n G(n)' a heap, as OEIS b-files are; csv: a header 'n,G' and "
                       "one row 'n,G(n)' a heap")
    _add_save_options(p)
    add_threads_option(p)
    p.set_defaults(handler=command_grundy)

    p = sub.add_parser("period", help="prove the period (and saltus) of a nim-sequence",
                       description="Compute the nim-sequence until a theorem proves its "
                       "regularity, G(n + p) = G(n) + s from some n on (s = 0: periodic; "
                       "the octal periodicity theorem, or for other codes the theorems of "
                       "docs/how-it-works.md), or report that none was proved, and any "
                       "regularity observed.")
    add_game_option(p)
    add_old_name(p, "--max", p.add_argument(
        "--to", type=natural("--to"), default=None, metavar="N", dest="max",
        help=f"compute at most N values (default {PROOF_LIMIT} = 2**20 for an octal game, "
             f"{TAKEBREAK_PROOF_LIMIT} = 2**14 for other codes)"))
    add_json_option(p, "object", "with the Fletcher-32 checksum of the values computed")
    _add_save_options(p)
    add_threads_option(p)
    p.set_defaults(handler=command_period)

    p = sub.add_parser("move", help="the winning move of a position",
                       description="Print the position after the winning move, or LOSS. "
                       "A position is a list of heap sizes (any game: the answer names the "
                       "heap and what it becomes) or, for games played on rows, one string "
                       "of 'x' (pin) and '.' (gap).")
    p.add_argument("position", metavar="POSITION", nargs="+", help="a row, or heap sizes")
    add_game_option(p)
    add_json_option(p, "object")
    p.add_argument("--misere", "--misère", action="store_true",
                   help="misère play: whoever moves last loses (exhaustive search)")
    add_budget_option(p)
    p.set_defaults(handler=command_move)

    p = sub.add_parser("games", help="list the named games and their rules",
                       description="List the named games and their move kinds.")
    add_json_option(p, "array")
    p.set_defaults(handler=command_games)

    p = sub.add_parser("codes", help="the take-and-break code language; what codes mean",
                       description="Without CODE: the code language in brief (docs: "
                       "commands/codes.md). With codes: each one's normal form and its "
                       "moves in words.")
    p.add_argument("codes", metavar="CODE", nargs="*", help="a code, e.g. 0.3F or 0.{1,2!}")
    add_json_option(p, "array")
    p.set_defaults(handler=command_codes)


def _further(game, computed: int) -> str:
    """What to try after no proof: 32 times more values for an octal code (its time grows
    about linearly), 4 times more for others (the take-and-break kernel's is cubic); at
    least 2**10 (after --to 0, say)."""
    from ...engine.sequence import direct_limit

    log2 = (max((32 if game.octal else 4) * computed, 1 << 10) - 1).bit_length()
    if 1 << log2 <= direct_limit():
        return f"a larger --to may prove one (--to 2**{log2})"
    return (f"2**{log2} values would outgrow the memory allowed (KAYLES_MEMORY, "
            f"{direct_limit()} values)")


def _add_save_options(parser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--save", metavar="FILE", type=file_name,
                       help="write the table to FILE as it grows "
                       "(a new file), so an interrupted run can be resumed")
    group.add_argument("--resume", metavar="FILE", type=file_name,
                       help="continue the table saved in FILE "
                       "(after Ctrl-C, SIGTERM or a crash) and keep saving to it")
    parser.add_argument("--force", action="store_true",
                        help="with --save: replace FILE if it exists (a regular file only)")
    parser.add_argument("--chunk", type=natural("--chunk"), default=CHUNK, metavar="N",
                        help=f"with --save/--resume: values in the first and smallest saved "
                        f"chunk (default {CHUNK}); chunks grow to about {SECONDS:g} s of "
                        "computing each")


def _long_run(args, game, need: int, limit: int | None = None):
    """The one sequence of ``game`` (args.game, read once) and its _Saving (None without
    --save/--resume).

    ``need`` values are refused at once when their memory would not fit
    (Sequence.check_memory), before any file is made.  A resumed sequence starts from at
    most ``limit`` saved values, so it ends where an uninterrupted run with that limit
    would (the file keeps all of them).
    """
    from ...storage.table_file import TableWriter, check_game, check_values, read_table

    if args.chunk < 1:
        raise InputError("--chunk must be at least 1")
    threads = threads_of(args)
    sequence = open_sequence(game, args.save is None and args.resume is None, limit)
    sequence.threads = threads
    sequence.check_memory(need)
    if args.resume is not None:
        saved = read_table(args.resume)
        check_game(saved, sequence.game, args.resume)
        check_values(saved, sequence.game, args.resume)
        sequence = Sequence.from_values(sequence.game, saved.values[:limit],
                                        progress=sequence.progress)
        sequence.threads = threads
        writer = TableWriter.reopen(args.resume, saved)
    elif args.save is not None:
        writer = TableWriter.create(args.save, sequence.game, args.force)
    else:
        return sequence, None
    writer.attach(sequence, args.chunk, SECONDS)
    return sequence, _Saving(sequence, writer)


class _Saving:
    """A saved run: Ctrl-C (SIGINT) or SIGTERM finishes and saves the kernel call in
    progress, then stops the run (status 130, or 143 for SIGTERM); a second one stops
    at once."""

    def __init__(self, sequence, writer) -> None:
        import signal
        import threading

        self.writer = writer
        self.asked: int | None = None  # the signal that asked the run to stop
        self._previous: dict = {}
        if threading.current_thread() is threading.main_thread():  # where signals go
            sequence.listeners.append(self._stop_if_asked)  # after the writer's save
            for number in (signal.SIGINT, signal.SIGTERM):
                self._previous[number] = signal.signal(number, self._on_signal)

    def _on_signal(self, number, frame) -> None:
        import signal

        self.asked = number
        signal.signal(number, signal.default_int_handler if number == signal.SIGINT
                      else signal.SIG_DFL)

    def _stop_if_asked(self, sequence) -> None:
        if self.asked is not None:
            self._stop()

    def _stop(self):
        import signal

        if self.asked == signal.SIGTERM:
            raise Terminated
        raise KeyboardInterrupt

    def close(self, sequence) -> None:
        """Save what is left and close the file; then stop if a signal asked for it."""
        import signal

        try:
            self.writer.finish(sequence)
        finally:
            for number, previous in self._previous.items():
                signal.signal(number, previous)
        if self.asked is not None:
            self._stop()


@contextmanager
def _stopped_says_so(sequence, saving: _Saving | None, args):
    """Compute inside; then close the progress bar and the saved file (_close).  Ctrl-C
    says how far the run got and how its work is kept: 'PROG: stopped after N values;
    --save FILE keeps the work', or, saving, '..., saved in FILE; --resume FILE goes on'."""
    try:
        try:
            yield
        finally:
            _close(sequence, saving)
    except KeyboardInterrupt:
        done = f"stopped after {len(sequence):,} values"
        if saving is None:
            raise KeyboardInterrupt(f"{done}; --save FILE keeps the work") from None
        from ...storage._files import display

        path = display(args.save if args.save is not None else args.resume)
        raise KeyboardInterrupt(f"{done}, saved in {path}; --resume {path} goes on") from None


def _close(sequence, saving: _Saving | None) -> None:
    try:
        end_progress(sequence)
    finally:
        if saving is not None:
            saving.close(sequence)  # Ctrl-C included: what is computed is saved


def checksum_hex(pieces) -> str:
    """The Fletcher-32 checksum of a sequence's pieces (Sequence.segments) as 8 hex digits
    (O(period) once proved)."""
    from ...engine.checksum import fletcher32_of_pieces

    return f"{fletcher32_of_pieces(pieces):08x}"


def command_grundy(args, out) -> None:
    from ...engine.codes import get_game

    sequence, saving = _long_run(args, get_game(args.game), args.n + 1)
    with _stopped_says_so(sequence, saving, args):
        pieces = sequence.segments(args.n + 1)  # everything computed (and saved) here
    if args.checksum:
        out.write(f"{checksum_hex(pieces)}  fletcher32 of G(0..{args.n}), "
                  f"{sequence.game.name}\n")
    elif args.format == "list":
        from .._output import write_nimbers

        write_nimbers(pieces, out)
    else:
        from .._output import write_numbered

        if args.format == "b-file":
            write_numbered(pieces, out, " ")
        else:
            write_numbered(pieces, out, ",", header="n,G\n")


def command_period(args, out) -> int:
    from ...engine.codes import get_game
    from ...engine.sequence import proof_limit

    game = get_game(args.game)
    if args.max is None:
        args.max = proof_limit(game)
    if too_long(args.max):
        raise InputError(f"--to: {too_long(args.max)}")
    sequence, saving = _long_run(args, game, args.max, args.max)
    game = sequence.game
    with _stopped_says_so(sequence, saving, args):
        found = sequence.prove(args.max)
        if found is None and not game.provable and not game.octal:
            sequence.table(args.max)  # no proof possible: computed to say what is observed
    report = {
        "game": game.name,
        "proved": found is not None,
        "preperiod": found.preperiod if found else None,
        "period": found.period if found else None,
        "saltus": found.saltus if found else None,
        "values": found.values if found else len(sequence),
    }
    if found is not None and not game.octal:
        report["theorem"] = found.theorem
    if not game.provable:
        report["reason"] = _unprovable(game)
    observed, unproved = None, ""
    if found is None and not game.octal:
        from ...engine.regularity import observe, unprovable

        table = sequence.table(len(sequence))
        seen = observe(table, len(sequence))
        if seen is not None:
            observed = dict(zip(("preperiod", "period", "saltus"), seen))
            report["observed"] = {**observed, "to": len(sequence) - 1}
            unproved = unprovable(game, table, len(sequence), *seen)
            if unproved:
                report["unprovable"] = unproved
    report["fletcher32"] = checksum_hex(sequence.segments(report["values"]))
    if args.json:
        dump_json(report, out)
        return 0
    if found and found.saltus:
        out.write(f"{game.name}: G(n + {found.period}) = G(n) + {found.saltus} for every "
                  f"n >= {found.preperiod}: arithmetic period {found.period}, saltus "
                  f"{found.saltus} (proved with {found.values} values by {found.theorem}, "
                  "docs/how-it-works.md)\n")
    elif found:
        by = "" if game.octal else f" by {found.theorem}, docs/how-it-works.md"
        out.write(f"{game.name}: period {found.period} from heap {found.preperiod} "
                  f"(proved with {found.values} values{by})\n")
    elif not game.provable:
        out.write(f"{game.name}: no proof possible: {report['reason']}\n")
    elif unproved:
        out.write(f"{game.name}: no period proved within {len(sequence)} values; no --to "
                  f"will prove the regularity observed here: {unproved}\n")
    else:
        out.write(f"{game.name}: no period proved within {len(sequence)} values; "
                  f"{_further(game, len(sequence))}\n")
    if observed is not None:
        n0, p, saltus = observed["preperiod"], observed["period"], observed["saltus"]
        rule = f"G(n + {p}) = G(n) + {saltus}" if saltus else f"G(n + {p}) = G(n)"
        out.write(f"{game.name}: observed {rule} from n = {n0} to {len(sequence) - 1}, "
                  "not proved\n")
    return 0


def _unprovable(game) -> str:
    if game.octal:
        return "the octal periodicity theorem does not cover unequal splits"
    return ("no theorem covers marks, 'or more' counts, a repeating tail or moves that keep "
            "tokens")


def command_move(args, out) -> None:
    from ...analysis import heaps, row

    if args.misere:
        from .misere_games import command_misere_move

        return command_misere_move(args, out)

    sequence = open_sequence(args.game)
    if not heaps.looks_like_heaps(args.position):
        if not sequence.game.on_rows:
            raise InputError(f"{sequence.game.name} is played on heaps: give heap sizes")
        if len(args.position) != 1:  # several words: heap sizes, one of them bad
            heaps.parse_heaps(" ".join(args.position))
            raise InputError("a row is one POSITION of 'x' and '.' (or give heap sizes)")
        after = row.winning_move(args.position[0], sequence)
        if args.json:
            dump_json({"game": sequence.game.name, "position": args.position[0],
                       "move": after}, out)
        else:
            out.write(("LOSS" if after is None else after) + "\n")
        return
    position = heaps.parse_heaps(" ".join(args.position))
    move = heaps.winning_move(position, sequence)
    if args.json:
        dump_json({"game": sequence.game.name, "heaps": position,
                   "move": heap_move_json(move, position)}, out)
    elif move is None:
        out.write("LOSS\n")
    else:
        out.write(move.text() + "\n")


def command_games(args, out) -> None:
    if args.json:
        dump_json([{"name": g.name, "summary": g.summary,
                    "moves": [k.describe() for k in g.kinds]} for g in GAMES.values()], out)
        return
    for game in GAMES.values():
        aliases = [alias for alias, name in ALIASES.items() if name == game.name]
        also = f" (also --game {', '.join(aliases)})" if aliases else ""
        out.write(f"{game.name:16} {game.summary}{also}\n")
        for kind in game.kinds:
            out.write(f"{'':16}   - {kind.describe()}\n")
    out.write("\nAny code works too, e.g. --game 0.77, --game .07, --game 4.07, --game 0.3F "
              "(kayles codes).\n")


CODE_LANGUAGE = """\
A code d0.d1d2...dk: digit dk says what a move that removes k tokens from one heap may
leave (d0, before the point, removes none).
  0-9, A-V   bit j set: the rest may be left as exactly j non-empty heaps (0.77 Kayles,
             0.07 Dawson's Kayles, 0.3F hexadecimal); either case, ASCII only, and not
             the letter O (a slip for 0: &24; is 24)
  &N;        any digit, N < 2**64: &8; is 8 (three heaps)
  *          any number of heaps, none included
  {0,2,3+}   the counts listed; 3+ is three or more
  ! ? =      after a digit, on its counts of two heaps or more: all different, not all
             the same size, all the same size; in braces per count: {0,2!,3}
  [d...]     at the end: these digits repeat for ever (0.[3] is Nim)
4.0 splits a heap in two, 4!.0 in two unequal heaps (Grundy's game); .07 is 0.07, 4 is
4.0.  Each code is printed in its normal form: 0.{1,2!} is 0.6!, 0.{0,1!,2,3,4+} is 0.*.
"""


def command_codes(args, out) -> None:
    from ...engine.codes import get_game

    if not args.codes:
        if args.json:
            raise InputError("--json describes codes: give at least one CODE")
        out.write(CODE_LANGUAGE)
        return
    games = [get_game(code) for code in args.codes]  # every one read before any is printed
    if args.json:
        dump_json([_code_json(game) for game in games], out)
        return
    for game in games:
        out.write(f"{game.name}  ({game.summary})\n")
        for kind in game.kinds:
            out.write(f"  - {kind.describe()}\n")
        if game.tail:
            digits = ("the one digit of the tail" if len(game.tail) == 1
                      else f"the {len(game.tail)} digits of the tail in turn")
            out.write(f"  - and for ever, removing {counted(game.tail_start, 'token')} or "
                      f"more, {digits}:\n")
            for kind in game.tail:
                out.write(f"      {kind.describe() if kind else 'no move'}\n")


def _code_json(game) -> dict:
    from ...engine.rules import describe_moves

    return {"code": game.name, "summary": game.summary, "octal": game.octal,
            "moves": [kind.describe() for kind in game.kinds],
            "tail": [kind.describe() if kind else None for kind in game.tail],
            "canonical": describe_moves(game)}
