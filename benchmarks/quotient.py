"""Time the misère-quotient builder with both kernels side by side (issue 22).

    .venv/bin/python benchmarks/quotient.py            # a few minutes (the pure twin)
    .venv/bin/python benchmarks/quotient.py --quick    # one run each
    .venv/bin/python benchmarks/quotient.py --cgsuite /tmp/anchors/cgsuite/run-misere

Each figure is the median of runs in this one process; every run builds the quotient from
heap 1.  The same quotient must come out of both kernels (checked, printed once).  With
--cgsuite (built by benchmarks/anchors/build_cgsuite_misere.sh), CGSuite's MisereSolver runs
each case to the same heap (where ours stopped: its solved heap or --max-heap), its order and
P size must equal ours, and its time (the median of its own in-JVM timings, the JVM's start
left out) is set beside the compiled kernel's.  Nothing here asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernels import machine  # noqa: E402

from kayles.analysis.quotient import quotient  # noqa: E402
from kayles.engine import _quotient, _quotient_pure  # noqa: E402
from kayles.engine.rules import parse_octal  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run each")
    parser.add_argument("--cgsuite", metavar="RUN_MISERE",
                        help="CGSuite's MisereSolver anchor, side by side")
    args = parser.parse_args()
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
