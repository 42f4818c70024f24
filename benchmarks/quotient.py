"""Time the misère-quotient builder with both kernels side by side (issue 22).

    .venv/bin/python benchmarks/quotient.py            # about a minute
    .venv/bin/python benchmarks/quotient.py --quick    # one run each

Each figure is the median of runs in this one process; every run builds the quotient from
heap 1.  The same quotient must come out of both kernels (checked, printed once).
Nothing here asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from run import machine  # noqa: E402

from kayles import _quotient, _quotient_pure  # noqa: E402
from kayles.quotient import quotient  # noqa: E402
from kayles.rules import get_game  # noqa: E402

CASES = [  # (game, --max-heap)
    ("kayles", 400),  # solved at heap 166 (order 40)
    ("0.75", 100),  # solved (R8)
    ("0.07", 24),
    ("4.7", 16),
    ("0.137", 20),
]


def timed(game: str, max_heap: int, kernel, repeats: int):
    times, found = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        found = quotient(get_game(game), max_heap, kernel=kernel)
        times.append(time.perf_counter() - start)
    return statistics.median(times), found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run each")
    repeats = 1 if parser.parse_args().quick else 3
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


if __name__ == "__main__":
    main()
