"""Time the misère-quotient builder with both kernels side by side (issue 22).

    .venv/bin/python benchmarks/quotient.py            # a few minutes (the pure twin)
    .venv/bin/python benchmarks/quotient.py --quick    # one run each
    .venv/bin/python benchmarks/quotient.py --cgsuite /tmp/anchors/cgsuite/run-misere
    .venv/bin/python benchmarks/quotient.py --frontier 0.07:40 0.177:40 --memory 16G \
        --keep tests/data/misere_frontier.json

Each figure is the median of runs in this one process; every run builds the quotient from
heap 1.  The same quotient must come out of both kernels (checked, printed once).  With
--cgsuite (built by benchmarks/anchors/build_cgsuite_misere.sh), CGSuite's MisereSolver runs
each case to the same heap (where ours stopped: its solved heap or --max-heap), its order and
P size must equal ours, and its time (the median of its own in-JVM timings, the JVM's start
left out) is set beside the compiled kernel's.  Nothing here asserts a time: it reports.

--frontier CODE:HEAP ...: each game heap by heap towards HEAP in a process of its own, as far
as --memory (one table or walk) and --states allow: per heap the order, |P|, seconds and the
process's peak RSS so far, then the bytes an element of the last quotient costs.  --keep FILE
writes the last quotient of each (presentation, P-portion, checksum) with the command, date
and machine: the test data tests/analysis/test_misere_census.py derives again.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernels import machine  # noqa: E402

from kayles.analysis.quotient import quotient  # noqa: E402
from kayles.engine.rules import parse_octal  # noqa: E402
from kayles.kernels import _quotient  # noqa: E402
from kayles.kernels.pure import _quotient as _quotient_pure  # noqa: E402

CASES = [  # (octal code, --max-heap)
    ("0.77", 400),  # Kayles: solved at heap 166 (order 40)
    ("0.75", 100),  # solved (R8)
    ("0.07", 30),  # order 360 (Dawson's Kayles)
    ("4.7", 20),  # order 122
    ("0.137", 20),
]


def timed(game: str, max_heap: int, kernel, repeats: int):
    times, found = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        found = quotient(parse_octal(game), max_heap, kernel=kernel)
        times.append(time.perf_counter() - start)
    return statistics.median(times), found


def reference(run_misere: str, game: str, heap: int, repeats: int) -> tuple[float, int, int]:
    """CGSuite's MisereSolver to ``heap``: (median seconds, order, P size)."""
    times, figures = [], None
    for _ in range(repeats):
        line = subprocess.run([run_misere, game, str(heap)], capture_output=True, text=True,
                              check=True, timeout=3600).stdout.split()
        times.append(float(line[4]))
        figures = int(line[2]), int(line[3])
    return statistics.median(times), *figures


FRONTIER_RUN = """
import json, resource, sys, time
from kayles.analysis.quotient import quotient
from kayles.engine.rules import parse_octal
code, heap, states, memory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
last = [time.perf_counter()]
def progress(h, order, p_size):
    now = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(json.dumps({"heap": h, "order": order, "p_size": p_size,
                      "seconds": round(now - last[0], 2), "peak_mb": peak}), flush=True)
    last[0] = now
start = time.perf_counter()
q = quotient(parse_octal(code), heap, states, as_far_as_it_goes=True, memory=memory,
             progress=progress)
print(json.dumps({"code": code, "heap": q.max_heap, "order": q.order, "p_size": q.p_size,
                  "seconds": round(time.perf_counter() - start, 2),
                  "bytes_per_element": q.bytes_per_element(),
                  "beyond": q.beyond and q.beyond[1], "presentation": q.presentation(),
                  "p_portion": q.p_words(), "checksum": q.checksum()}))
"""


def frontier(cases: list[str], states: int, memory: int, keep: str | None,
             plot: str | None) -> None:
    kept, growth = [], {}
    for case in cases:
        code, _, heap = case.partition(":")
        print(f"{code} towards heap {heap} (--states {states}, --memory {memory >> 20} MiB):")
        process = subprocess.Popen([sys.executable, "-c", FRONTIER_RUN, code, heap,
                                    str(states), str(memory)], stdout=subprocess.PIPE,
                                   text=True, cwd=ROOT)
        last = None
        growth[code] = []
        for line in process.stdout:
            last = json.loads(line)
            if "code" not in last:
                growth[code].append((last["heap"], last["order"]))
                print(f"  heap {last['heap']:3}: order {last['order']:7,}, |P| "
                      f"{last['p_size']:6,}, {last['seconds']:8.2f} s, peak RSS "
                      f"{last['peak_mb']:,} MB", flush=True)
        if process.wait() != 0 or last is None or "code" not in last:
            raise SystemExit(f"{code}: the run failed")
        print(f"  proved to heap {last['heap']} in {last['seconds']:.1f} s; an element costs "
              f"{last['bytes_per_element']} bytes; stopped: {last['beyond'] or 'no'}")
        last.pop("beyond")
        last.pop("bytes_per_element")
        kept.append(last)
    if plot:
        draw_growth(growth, plot)
    if keep:
        from kayles.kernels.limits import cpu_model
        from kayles.storage._files import write_atomically

        made = {"command": "benchmarks/quotient.py " + " ".join(sys.argv[1:]),
                "date": datetime.datetime.now(datetime.timezone.utc).strftime(
                    "%Y-%m-%d %H:%M UTC"),
                "machine": f"{cpu_model()}, {os.cpu_count()} cores", "quotients": kept}
        text = json.dumps(made, indent=1, ensure_ascii=False) + "\n"
        write_atomically(keep, lambda handle: handle.write(text.encode()), force=True)


def draw_growth(growth: dict[str, list[tuple[int, int]]], path: str) -> None:
    """The order of each quotient against the heaps it covers (log scale), as a picture."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from kayles.storage._files import write_atomically

    figure, axes = plt.subplots(figsize=(7, 4), dpi=120)
    for code, points in growth.items():
        axes.step([h for h, _ in points], [order for _, order in points], where="post",
                  label=code)
    axes.set_yscale("log")
    axes.set_xlabel("heaps 1..n")
    axes.set_ylabel("order of the misère quotient")
    axes.set_title("Misère quotients heap by heap (proved)")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    write_atomically(path, lambda handle: figure.savefig(handle, format="png"), force=True)


def census_sample(run_misere: str, path: str, count: int, seed: int) -> None:
    """MisereSolver on ``count`` rows of a misère census CSV drawn with ``seed`` (rows proved
    to their heap, order at most 2000): its order and |P| at that heap must be the row's."""
    import csv
    import random

    lines = [line for line in Path(path).read_text().splitlines() if not line.startswith("#")]
    rows = [row for row in csv.DictReader(lines)
            if row["status"] != "short" and int(row["order"]) <= 2000]
    sample = random.Random(seed).sample(rows, count)
    print(f"MisereSolver on {count} rows of {path} (seed {seed}):")
    for row in sample:
        heap = int(row["solved_at"] or row["heaps"])
        seconds, order, p_size = reference(run_misere, row["code"], heap, 1)
        same = (order, p_size) == (int(row["order"]), int(row["p_size"]))
        print(f"  {row['code']:7} to heap {heap:3}: census order {row['order']:>5}, |P| "
              f"{row['p_size']:>4}; MisereSolver {order:5}, {p_size:4} in {seconds:6.2f} s "
              f"{'same' if same else 'DIFFERENT'}", flush=True)
        if not same:
            raise SystemExit(f"{row['code']}: MisereSolver disagrees")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run each")
    parser.add_argument("--cgsuite", metavar="RUN_MISERE",
                        help="CGSuite's MisereSolver anchor, side by side")
    parser.add_argument("--frontier", nargs="+", metavar="CODE:HEAP",
                        help="push these quotients as far as the bounds allow")
    parser.add_argument("--states", type=int, default=1 << 27,
                        help="with --frontier: the states one walk may visit")
    parser.add_argument("--memory", default="8G", help="with --frontier: one table or walk")
    parser.add_argument("--keep", metavar="FILE", help="with --frontier: write the quotients")
    parser.add_argument("--plot", metavar="PNG", help="with --frontier: draw the orders")
    parser.add_argument("--census-sample", metavar="CSV", help="with --cgsuite: check rows of "
                        "a misère census (kayles census --misere --csv) against MisereSolver")
    parser.add_argument("--sample", type=int, default=20, help="with --census-sample: rows")
    parser.add_argument("--seed", type=int, default=2026, help="with --census-sample")
    args = parser.parse_args()
    if args.census_sample:
        if not args.cgsuite:
            raise SystemExit("--census-sample needs --cgsuite")
        census_sample(args.cgsuite, args.census_sample, args.sample, args.seed)
        return
    if args.frontier:
        from kayles.kernels.limits import parse_size

        print(machine())
        frontier(args.frontier, args.states, parse_size(args.memory, "--memory"), args.keep,
                 args.plot)
        return
    repeats = 1 if args.quick else 3
    print(machine())
    print("Misère quotients, compiled vs pure kernel (median of runs, from heap 1 each run):")
    for game, max_heap in CASES:
        compiled, q = timed(game, max_heap, _quotient, repeats)
        pure, twin = timed(game, max_heap, _quotient_pure, repeats)
        if (q.order, q.presentation(), q.heaps) != (twin.order, twin.presentation(), twin.heaps):
            raise SystemExit(f"{game}: the kernels disagree")
        solved = f"solved at {q.solved[0]} (period {q.solved[1]}, preperiod {q.solved[2]})" \
            if q.solved else "not solved"
        print(f"  {game:7} to heap {max_heap:4}: order {q.order:4}, |P| {q.p_size:3}, "
              f"{solved:38} cython {compiled:7.2f} s   python {pure:7.2f} s   "
              f"ratio {pure / compiled:5.1f}x")
        if args.cgsuite:
            heap = q.solved[0] if q.solved else max_heap
            seconds, order, p_size = reference(args.cgsuite, game, heap, repeats)
            if (order, p_size) != (q.order, q.p_size):
                raise SystemExit(f"{game}: CGSuite finds order {order}, |P| {p_size}")
            print(f"  {'':7}    CGSuite MisereSolver to heap {heap}: the same order and |P|, "
                  f"{seconds:.2f} s; cython takes {compiled / seconds:.2f}x its time")


if __name__ == "__main__":
    main()
