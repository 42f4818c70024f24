"""One sequence on several threads: the compiled kernel with 1 and T threads, side by side.

    .venv/bin/python benchmarks/threads.py                      # .014 .161 to 2**24, T = cores
    .venv/bin/python benchmarks/threads.py --log2 22 --repeat 5 --games .034 .172 .04
    .venv/bin/python benchmarks/threads.py --vector avx2 --log2 20 --games .04   # AVX2 paths
    .venv/bin/python benchmarks/threads.py --games .167 --crew-rare 0   # crews where the
                                                      # core would not run one (60 rare heaps)
    .venv/bin/python benchmarks/threads.py --default --games 0.1307 .04 --log2 20
                                   # the default (kayles period's sequence), quiet and busy

For each game, extend_sparse fills G(0..2**K) in one call, with one thread and
with T, in turn, --repeat times each (alternating, so a slow spell of a shared
machine falls on both); it prints the medians, their ratio, the runs, how many
threads the crew ran (threads_used), the share of heaps it solved twice
(solved_again: a value found without the options whose parts were not in the
table yet was given by one of them) and whether the tables are the same
(Fletcher-32).  The machine line names the instruction set the kernels ran.
Nothing here asserts: it reports.

With --default, the sequence as `kayles period --game G --to 2**K` runs it (Sequence with
threads = the cores, whose crews must win a timed trial first, kayles.engine.sequence's
CrewTrials) beside threads=1, on the machine as it is and then with a busy loop (another
process) on every core but one: the default must not be slower than one thread in
either, and faster where the crew wins.
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

from kayles.engine.checksum import fletcher32  # noqa: E402
from kayles.engine.codes import get_game  # noqa: E402
from kayles.engine.rules import encode  # noqa: E402
from kayles.kernels import _core  # noqa: E402  (the compiled core: this measures threads)


def machine(vector: str) -> str:
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                  if line.startswith("model name")), "?")
    return (f"{model}, {len(os.sched_getaffinity(0))} cores, kernels' instructions: "
            f"{vector} (available: {', '.join(_core.VECTORS)})")


def fill(kinds, count: int, threads: int, vector: str,
         crew_rare: int | None) -> tuple[float, int, int, str]:
    """(seconds, threads used, heaps solved twice, Fletcher-32) of one extend_sparse call
    over G(0..count-1)."""
    table = memoryview(bytearray(2 * count)).cast("H")
    scratch = _core.Scratch(vector=vector, threads=threads, crew_rare=crew_rare)
    began = time.perf_counter()
    _core.extend_sparse(table, 0, count, kinds, scratch)
    seconds = time.perf_counter() - began
    return seconds, scratch.threads_used, scratch.solved_again, f"{fletcher32(table):08x}"


def proved(game: str, count: int, threads: int) -> tuple[float, str, str]:
    """(seconds, 'crew' or 'solo', Fletcher-32) of kayles period's sequence to count."""
    from kayles.engine.sequence import Sequence

    sequence = Sequence(get_game(game), threads=threads)
    began = time.perf_counter()
    sequence.prove(count)
    seconds = time.perf_counter() - began
    crews = sequence._crews
    chosen = "one thread" if crews is None else (
        f"{crews.chosen}, {crews.skipped} trial(s) skipped: busy" if crews.skipped
        else crews.chosen)
    return seconds, chosen, f"{fletcher32(sequence.table(len(sequence))):08x}"


def spin() -> None:
    while True:
        pass


def defaults(args) -> None:
    import multiprocessing

    cores = len(os.sched_getaffinity(0))
    for load in ("as it is", f"{cores - 1} busy loop(s) beside"):
        busy = []
        if load != "as it is":
            busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(cores - 1)]
            for process in busy:
                process.start()
        try:
            for game in args.games:
                runs: dict[int, list[float]] = {1: [], cores: []}
                chosen, sums = set(), set()
                for _ in range(args.repeat):
                    for threads in runs:
                        seconds, crew, checksum = proved(game, 1 << args.log2, threads)
                        runs[threads].append(seconds)
                        sums.add(checksum)
                        if threads > 1:
                            chosen.add(crew)
                one, default = (statistics.median(runs[t]) for t in runs)
                print(f"{game}, machine {load}: 1 thread {one:.2f} s, default ({cores}) "
                      f"{default:.2f} s: {one / default:.2f}x (went on with: "
                      f"{', '.join(sorted(chosen))}); same table: "
                      f"{'yes' if len(sums) == 1 else 'NO'}")
        finally:
            for process in busy:
                process.terminate()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=[".014", ".161"])
    parser.add_argument("--log2", type=int, default=24, help="to 2**K (default 24)")
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                        metavar="T", help="threads beside one (default: the cores)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--vector", choices=_core.VECTORS, default=_core.VECTORS[0],
                        help="the kernels' instructions (default: the fastest here)")
    parser.add_argument("--crew-rare", type=int, metavar="K",
                        help="crews once a game has K rare heaps (default: the core's, 256)")
    parser.add_argument("--default", action="store_true",
                        help="the default threads of kayles period, quiet and busy (above)")
    args = parser.parse_args()
    print(machine(args.vector))
    if args.default:
        print(f"kayles period's sequence to 2**{args.log2}: medians of {args.repeat} runs")
        defaults(args)
        return
    print(f"to 2**{args.log2}, one call; medians of {args.repeat} runs, 1 and {args.threads} "
          "thread(s) in turn")
    for game in args.games:
        kinds = encode(get_game(game).kinds)
        runs: dict[int, list[float]] = {1: [], args.threads: []}
        used, again, sums = 1, 0, set()
        for _ in range(args.repeat):
            for threads in runs:
                seconds, crew, twice, checksum = fill(kinds, (1 << args.log2) + 1, threads,
                                                      args.vector, args.crew_rare)
                runs[threads].append(seconds)
                used = max(used, crew)
                again = max(again, twice)
                sums.add(checksum)
        one, many = (statistics.median(runs[t]) for t in runs)
        print(f"{game}: 1 thread {one:.2f} s, {args.threads} threads {many:.2f} s "
              f"({used} ran, {100 * again / (1 << args.log2):.2f}% of heaps solved twice): "
              f"{one / many:.2f}x; same table: {'yes' if len(sums) == 1 else 'NO'}"
              f" ({', '.join(sorted(sums))}); runs {[round(s, 2) for s in runs[1]]} and "
              f"{[round(s, 2) for s in runs[args.threads]]}")


if __name__ == "__main__":
    main()
