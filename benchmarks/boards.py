"""Cram side by side with igsolve (Beling's record holder): time and peak memory, one thread.

    .venv/bin/python benchmarks/boards.py                        # the issue's boards
    .venv/bin/python benchmarks/boards.py --boards 4x5 --repeat 1 --random 0   # a check
    .venv/bin/python benchmarks/boards.py --igsolve /path/to/igsolve --seed 7

Boards: 5x6, 5x7, 4x9, 6x7, 4x11 (rows x columns) and --random boards drawn at random
(24 to 40 cells, not even x even; the seed is printed).  For each board, --repeat times each:

* igsolve (built by benchmarks/anchors/build_igsolve.sh; default /work/anchors/bin/igsolve;
  ``igsolve [--tt_size G] cram R C``, its default method br-asp-set, one thread: it has no
  other), its hash map up to 40 cells and its succinct table of --tt-size GiB (allocated
  at start) past them;
* ours: ``kayles.kernels._boards.Board(R, C, 'cram', memory).nimber(...)`` in a fresh
  interpreter, the symmetry hints of kayles.analysis.games.cram (an even x even board is
  0 without a search, so none is measured).

Each child runs under GNU time: user + system CPU seconds, wall seconds, peak resident
memory (the interpreter's own included: ours also shows it less a bare interpreter's peak
after the same imports, the search's own memory).  The figures are medians; the two
programs must give the same value.  It prints the CPU model and the instruction set in
force (KAYLES_VECTOR: the heap kernels'; the board search uses POPCNT alone).  Nothing here
asserts: it reports.  On a busy machine the CPU seconds are the figures to read.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kayles.kernels.limits import cpu_model  # noqa: E402

BOARDS = ["5x6", "5x7", "4x9", "6x7", "4x11"]
IGSOLVE = "/work/anchors/bin/igsolve"
TIME = "/usr/bin/time"

OURS = """
import sys, time
from kayles.kernels._boards import Board
rows, cols, memory = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
if sys.argv[4] == "solve":
    board = Board(rows, cols, "cram", memory)
    start = time.process_time()
    value = board.nimber((1 << (rows * cols)) - 1, winning=(rows * cols) % 2 == 0)
    print(value, time.process_time() - start)
"""


def timed(command: list[str], cwd: str) -> tuple[float, float, int, str]:
    """(CPU seconds, wall seconds, peak KB, stdout) of a child under GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        done = subprocess.run([TIME, "-f", "%U %S %e %M", "-o", report.name, *command],
                              cwd=cwd, capture_output=True, text=True, check=True)
        user, system, wall, peak = report.read().split()[-4:]
    return float(user) + float(system), float(wall), int(peak), done.stdout


def igsolve(path: str, rows: int, cols: int, tt_size: int, cwd: str) -> tuple:
    command = [path, *(["--tt_size", str(tt_size)] if rows * cols > 40 else []),
               "cram", str(rows), str(cols)]
    cpu, wall, peak, out = timed(command, cwd)
    value = int(re.search(r"Nimber of initial position: (\d+)", out).group(1))
    return cpu, wall, peak, value


def ours(rows: int, cols: int, memory: int, cwd: str, what: str = "solve") -> tuple:
    cpu, wall, peak, out = timed([sys.executable, "-c", OURS, str(rows), str(cols),
                                  str(memory), what], cwd)
    value, search = out.split() if out.strip() else (None, 0)
    return cpu, wall, peak, value and int(value), float(search)


def median(runs: list[tuple], index: int) -> float:
    return statistics.median(run[index] for run in runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="*", default=BOARDS, help="RxC boards")
    parser.add_argument("--random", type=int, default=2, help="boards drawn at random")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--igsolve", default=IGSOLVE)
    parser.add_argument("--tt-size", type=int, default=1, help="igsolve's table past 40 "
                        "cells, GiB (its own default is 8)")
    parser.add_argument("--memory", type=int, default=1 << 32, help="our table's cap, bytes")
    args = parser.parse_args(argv)
    seed = random.randrange(1 << 30) if args.seed is None else args.seed
    rng = random.Random(seed)
    boards = [tuple(map(int, b.lower().split("x"))) for b in args.boards]
    while len(boards) < len(args.boards) + args.random:
        rows, cols = rng.randint(3, 6), rng.randint(4, 13)
        if 24 <= rows * cols <= 40 and (rows % 2 or cols % 2):
            boards.append((rows, cols))
    vector = os.environ.get("KAYLES_VECTOR") or "unset (the fastest)"
    print(f"machine: {cpu_model()}; KAYLES_VECTOR {vector}; board search: POPCNT; "
          f"seed {seed}; {args.repeat} runs a board, medians")
    cwd = tempfile.mkdtemp(prefix="kayles-boards-")
    bare = statistics.median(ours(1, 2, 0, cwd, "import")[2] for _ in range(3))
    print(f"a bare interpreter with the kernel imported peaks at {bare / 1024:.1f} MB")
    print(f"{'board':>6} {'value':>5} | {'igsolve CPU s':>13} {'wall':>6} {'peak MB':>8} | "
          f"{'ours CPU s':>10} {'search':>6} {'wall':>6} {'peak MB':>8} {'search MB':>9} | "
          f"{'time x':>6} {'search x':>8} {'memory x':>8}")
    for rows, cols in boards:
        theirs = [igsolve(args.igsolve, rows, cols, args.tt_size, cwd) for _ in range(args.repeat)]
        mine = [ours(rows, cols, args.memory, cwd) for _ in range(args.repeat)]
        values = {run[3] for run in theirs} | {run[3] for run in mine}
        value = values.pop() if len(values) == 1 else f"DIFFER {sorted(values)}"
        t_cpu, t_wall, t_peak = (median(theirs, i) for i in range(3))
        o_cpu, o_wall, o_peak, _, o_search = (median(mine, i) if i != 3 else 0
                                              for i in range(5))
        floor = max(t_cpu, 0.005)  # GNU time's 10 ms resolution
        print(f"{rows}x{cols:<4} {value!s:>5} | {t_cpu:13.2f} {t_wall:6.2f} {t_peak / 1024:8.1f} | "
              f"{o_cpu:10.2f} {o_search:6.2f} {o_wall:6.2f} {o_peak / 1024:8.1f} "
              f"{(o_peak - bare) / 1024:9.1f} | {o_cpu / floor:6.2f} {o_search / floor:8.2f} "
              f"{o_peak / t_peak:8.2f}")
    print("ours CPU s: the whole process (the interpreter's start included); search: the "
          "search's own CPU seconds;\ntime x, search x, memory x: ours over igsolve's whole "
          "process (below 1: ours is faster, or smaller); search MB: our peak less the bare "
          "interpreter's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
