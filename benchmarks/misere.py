"""Time the misère search of both kernels side by side (issue 10).

    .venv/bin/python benchmarks/misere.py            # about half a minute
    .venv/bin/python benchmarks/misere.py --quick    # fewer repeats

Each figure is the median of several runs in this one process, each run from an empty memo.
Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernels import machine  # noqa: E402

from kayles.analysis.misere import Solver  # noqa: E402
from kayles.engine.codes import get_game  # noqa: E402
from kayles.kernels import _misere  # noqa: E402
from kayles.kernels.pure import _misere as _misere_pure  # noqa: E402

CASES = [
    ("misère Kayles, heap 34 + three *2", "kayles", lambda s: s.value([34], 3)),
    ("genus of Kayles heaps 0..30", "kayles", lambda s: s.genera(30)),
    ("Dawson's Kayles, heaps 20 20 20: move", "dawsons-kayles",
     lambda s: s.heaps_winning_move([20, 20, 20])),
    ("Kayles-xox row of 30 pins: move", "kayles-xox",
     lambda s: s.row_winning_move("xxxxxxxxxx.xxxxxxxxxx.xxxxxxxx")),
    ("Grundy's game, heaps 30 25: move", "grundy", lambda s: s.heaps_winning_move([30, 25])),
]


def median_time(game, kernel, work, repeats: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(repeats):
        solver = Solver(get_game(game), kernel=kernel)
        start = time.perf_counter()
        work(solver)
        times.append(time.perf_counter() - start)
        size = len(solver.memo)
    return statistics.median(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run each")
    repeats = 1 if parser.parse_args().quick else 3
    print(machine())
    print("Misère search, compiled vs pure kernel (median of runs, empty memo each run):")
    for label, game, work in CASES:
        compiled, size = median_time(game, _misere, work, repeats)
        pure, _ = median_time(game, _misere_pure, work, repeats)
        print(f"  {label:40} {size:8} positions   cython {compiled * 1e3:9.1f} ms   "
              f"python {pure * 1e3:9.1f} ms   ratio {pure / compiled:5.1f}x")


if __name__ == "__main__":
    main()
