"""The search of a game written in Python (issue 65): its own cost beside the game's, and which
pruning pays on which game.

    .venv/bin/python benchmarks/search.py            # a few minutes
    .venv/bin/python benchmarks/search.py --quick    # small sizes, one run each (a check)

Overhead: a subtraction game (take 1, 2 or 3) and Grundy's game written as Python classes
(tests/user_games.py), searched from an empty table.  The time in the game's own methods is
measured apart: every call the search made (options, components, key, with their
arguments) is recorded once, then replayed alone; overhead = (search time - replay time) /
positions expanded (the game's options calls), and per position met (each option, each
component the search looked up).  Medians of the runs, CPU time of this process.

Pruning: positions expanded (options calls) by each strategy on small games, with a table
that holds everything and with one of an eighth of the bytes the full one took (not with
--quick); a search that passes CUT_OFF times the positions "mex" expands with the full table
is stopped and shown as "> N".  Counts do not depend on the machine; the times do.
Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the games, written once (tests/user_games.py)

from kernels import machine  # noqa: E402

from kayles.engine.search import STRATEGIES, Search  # noqa: E402

from user_games import (  # noqa: E402
    Chomp,
    Cram,
    GrundysGame,
    NodeKayles,
    PathKayles,
    Subtraction,
    board,
    path,
)

FULL = 1 << 34  # bytes: a table that never fills here
CUT_OFF = 50  # a search stopped past this many times the positions of "mex" with a full table


class Stopped(Exception):
    """A search past its cut-off."""


class Recorder:
    """The game, its methods' calls recorded as (method, argument), the options counted."""

    def __init__(self, game) -> None:
        self.calls: list = []
        self.met = 0
        for name in ("options", "components", "key"):
            method = getattr(game, name, None)
            if method is not None:
                setattr(self, name, self._wrap(name, method))

    def _wrap(self, name: str, method):
        calls = self.calls

        def call(argument):
            calls.append((method, argument))
            found = method(argument)
            if name != "key":
                found = list(found)
                self.met += len(found)
            return found

        return call


def overhead(game, position, repeats: int) -> dict:
    recorder = Recorder(game)
    search = Search(recorder, FULL)
    search.nimber(position)
    searched, replayed = [], []
    for _ in range(repeats):
        start = time.process_time()
        Search(game, FULL).nimber(position)
        searched.append(time.process_time() - start)
        start = time.process_time()
        for method, argument in recorder.calls:
            method(argument)
        replayed.append(time.process_time() - start)
    total, own = statistics.median(searched), statistics.median(replayed)
    return {"expanded": search.visited, "met": recorder.met, "total": total, "game": own,
            "per_expanded": (total - own) / search.visited * 1e6,
            "per_met": (total - own) / recorder.met * 1e6}


def pruning(game, position, strategy: str, memory: int, most: int) -> tuple:
    """(value or None, positions expanded, evicted, CPU seconds), stopped past ``most``."""

    def stop(search) -> None:
        if search.visited > most:
            raise Stopped

    search = Search(game, memory, strategy, progress=stop)
    start = time.process_time()
    try:
        value = search.nimber(position)
    except Stopped:
        value = None
    return value, search.visited, search.evicted(), time.process_time() - start


def cases(quick: bool) -> list:
    """(name, game, position) of the pruning table."""
    found = [
        ("Node Kayles, path 40", NodeKayles(path(40)), frozenset(range(40))),
        ("Node Kayles, paths as lengths, 300", PathKayles(), (300,)),
        ("Grundy's game, heap 60", GrundysGame(), (60,)),
        ("Chomp 5,5,5,5", Chomp(), (5, 5, 5, 5)),
        ("Cram 4x4", Cram(), board(4, 4)),
        ("Cram 3x6", Cram(), board(3, 6)),
    ]
    if not quick:
        found += [
            ("Node Kayles, grid 4x6", NodeKayles(_grid(4, 6)), frozenset(_grid(4, 6))),
            ("Node Kayles, grid 5x5", NodeKayles(_grid(5, 5)), frozenset(_grid(5, 5))),
            ("Chomp 6,6,6,6,6", Chomp(), (6, 6, 6, 6, 6)),
            ("Cram 4x5", Cram(), board(4, 5)),
            ("Cram 5x5", Cram(), board(5, 5)),
            ("Cram 4x6", Cram(), board(4, 6)),
        ]
    return found


def _grid(rows: int, columns: int) -> dict:
    cells = [(r, c) for r in range(rows) for c in range(columns)]
    return {(r, c): frozenset(w for w in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                              if w in set(cells)) for r, c in cells}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one run each")
    quick = parser.parse_args().quick
    repeats = 1 if quick else 5
    print(machine())
    print(f"Python {sys.version.split()[0]}; KAYLES_VECTOR={os.environ.get('KAYLES_VECTOR', '')!r} "
          "(the search is Python: no kernel's instruction set applies)")
    print(f"Overhead of the search beyond the game's own methods (median of {repeats}, CPU "
          "time):")
    for label, game, position in (
            ("subtraction 1,2,3, heap", Subtraction(), 20_000 if quick else 200_000),
            ("Grundy's game, heap", GrundysGame(), (120,) if quick else (300,))):
        got = overhead(game, position, repeats)
        shown = position if isinstance(position, int) else position[0]
        print(f"  {label} {shown:>7,}: {got['expanded']:>9,} positions expanded, "
              f"{got['met']:>9,} met; {got['total']:7.3f} s, the game's own {got['game']:6.3f} s; "
              f"overhead {got['per_expanded']:5.2f} us a position expanded, "
              f"{got['per_met']:5.2f} us a position met")
    print("Positions expanded by each strategy (value; expanded, evicted, CPU seconds):")
    for label, game, position in cases(quick):
        full = Search(game, FULL, "mex")
        value = full.nimber(position)
        most = CUT_OFF * full.visited
        small = max(full.size() // 8, 4096)
        tables = [(FULL, "full table")] + ([] if quick else [(small, f"{small:,} bytes")])
        for memory, table in tables:
            row = []
            for strategy in STRATEGIES:
                got, expanded, evicted, seconds = pruning(game, position, strategy, memory, most)
                count = f"{expanded:>10,}" if got is not None else f"> {most:>8,}"
                row.append(f"{strategy:>3} {count} {evicted:>9,} {seconds:6.2f}s")
            print(f"  {label:36} {table:16} G={value:<3} " + "  ".join(row), flush=True)


if __name__ == "__main__":
    main()
