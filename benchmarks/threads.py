"""One sequence on several threads: the compiled kernel with 1 and T threads, side by side.

    .venv/bin/python benchmarks/threads.py                      # .014 .161 to 2**24, T = cores
    .venv/bin/python benchmarks/threads.py --log2 22 --repeat 5 --games .034 .172 .04
    .venv/bin/python benchmarks/threads.py --vector avx2 --log2 20 --games .04   # AVX2 paths
    .venv/bin/python benchmarks/threads.py --games .167 --crew-rare 0   # crews where the
                                                      # core would not run one (60 rare heaps)
    .venv/bin/python benchmarks/threads.py --default --games .161 .04 --log2 20
                       # the default of period, grundy and run beside --threads 1, beside
                       # 0, 2 and 6 busy loops (--loads), KAYLES_VECTOR as --vector says

For each game, extend_sparse fills G(0..2**K) in one call, with one thread and
with T, in turn, --repeat times each (alternating, so a slow spell of a shared
machine falls on both); it prints the medians, their ratio, the runs, how many
threads the crew ran (threads_used), the share of heaps it solved twice
(solved_again: a value found without the options whose parts were not in the
table yet was given by one of them) and whether the tables are the same
(Fletcher-32).  The machine line names the instruction set the kernels ran.
Nothing here asserts: it reports.

With --default, whole commands as a user runs them (`kayles period --game G --to 2**K`,
`kayles grundy`, `kayles run`: threads = the cores, whose crews must win a timed trial and
keep the cores free, kayles.engine.sequence's CrewTrials) beside --threads 1, on the
machine as it is and beside L busy loops (other processes) for each L of --loads: the
default must not be slower than one thread in any, and faster where the crew wins.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
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


COMMANDS = {  # what a user runs, with the default threads or one: {game}, {n}, {dir}
    "period": ["period", "--game", "{game}", "--to", "{n}"],
    "grundy": ["grundy", "{last}", "--game", "{game}", "--checksum"],
    "run": ["run", "{game}", "--to", "{n}", "--dir", "{dir}"],
}


def command_time(name: str, game: str, count: int, threads: int | None, vector: str) -> float:
    """Wall seconds of one ``kayles NAME`` (threads None: the default, as a user runs it)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        words = [word.format(game=game, n=count, last=count - 1, dir=f"{folder}/run")
                 for word in COMMANDS[name]]
        if threads is not None:
            words += ["--threads", str(threads)]
        env = {**os.environ, "KAYLES_VECTOR": vector}
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "kayles", *words], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - began


def spin() -> None:
    while True:
        pass


def defaults(args) -> None:
    """Each command with the default threads beside --threads 1, in turn, --repeat times,
    beside each number of busy loops (other processes) of --loads."""
    import multiprocessing

    for loops in args.loads:
        busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(loops)]
        for process in busy:
            process.start()
        try:
            for name in args.commands:
                for game in args.games:
                    runs: dict[str, list[float]] = {"one": [], "default": []}
                    try:
                        for _ in range(args.repeat):
                            runs["one"].append(command_time(name, game, 1 << args.log2, 1,
                                                            args.vector))
                            runs["default"].append(command_time(name, game, 1 << args.log2,
                                                                None, args.vector))
                    except subprocess.CalledProcessError:  # kayles run refuses .04: its
                        print(f"{name} {game}: refused by the command")  # rare heaps
                        continue
                    one, default = (statistics.median(runs[k]) for k in ("one", "default"))
                    print(f"{name} {game}, {loops} busy loop(s) beside: --threads 1 "
                          f"{one:.2f} s, default {default:.2f} s: {one / default:.2f}x "
                          f"(runs {[round(t, 2) for t in runs['one']]} and "
                          f"{[round(t, 2) for t in runs['default']]})")
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
                        help="the default threads of kayles period, grundy and run beside one "
                        "thread, quiet and busy (above)")
    parser.add_argument("--commands", nargs="+", choices=list(COMMANDS), default=list(COMMANDS),
                        help="with --default: which commands (default: all)")
    parser.add_argument("--loads", nargs="+", type=int, default=[0, 2, 6], metavar="L",
                        help="with --default: busy loops beside, each in turn (default 0 2 6)")
    args = parser.parse_args()
    print(machine(args.vector))
    if args.default:
        print(f"whole commands to 2**{args.log2} (KAYLES_VECTOR={args.vector}): medians of "
              f"{args.repeat} runs each")
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
