"""Time nim products: the compiled nimber kernel beside its pure twin (and an anchor on the JVM).

    .venv/bin/python benchmarks/nimber.py                  # 2**20 products, 5 repeats
    .venv/bin/python benchmarks/nimber.py --count 4096 --repeats 1     # a tiny run
    .venv/bin/python benchmarks/nimber.py --anchor "java -cp DIR NimProductBench"

Random 64-bit words (seeded: --seed, printed).  Rows: the compiled kernel's bulk loop
(``dot``: the XOR of count products, the GIL released), the same kernel called once a
product from Python, the pure twin called once a product (on count // 64 of them), and the
engine's ``nim_product`` on 1,024-bit ints; then a Turning Corners board of --side x --side
coins, all heads (random rows and columns: --side 1000 is 10**6 coins), valued by the tartan
theorem (kayles.analysis.games.turning: one nim product a row) and, for comparison, by one
product a coin through the kernel's bulk loop, wall time.  Each product row is the median of
--repeats runs, in CPU time of this process, as nanoseconds a product; ratios against the
bulk loop.  --anchor runs a command that prints one line 'ns-per-product N' for the same
count (nothing of it lies in this repository); its figure is printed beside the others.
Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
from array import array
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import machine  # noqa: E402  (it puts the repository on sys.path)

from kayles.engine import nimbers  # noqa: E402
from kayles.kernels import _nimber  # noqa: E402
from kayles.kernels.pure import _nimber as _nimber_pure  # noqa: E402


def cpu_ns(run, repeats: int, products: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times) / products * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1 << 20, help="products a run (2**20)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--anchor", help="a command printing 'ns-per-product N' for --count")
    parser.add_argument("--side", type=int, default=1000, help="the board's side (1000)")
    args = parser.parse_args()
    seed = random.randrange(1 << 30) if args.seed is None else args.seed
    rng = random.Random(seed)
    count = args.count
    a = array("Q", [rng.getrandbits(64) for _ in range(count)])
    b = array("Q", [rng.getrandbits(64) for _ in range(count)])
    pairs = list(zip(a, b))
    few = max(1, count // 64)
    big = [(rng.getrandbits(1024), rng.getrandbits(1024)) for _ in range(max(1, count // 4096))]

    print(machine())
    print(f"KAYLES_VECTOR={os.environ.get('KAYLES_VECTOR', '')!r} (the nimber kernel has no "
          f"vector path); seed {seed}; {count} products of random 64-bit words; median of "
          f"{args.repeats}, CPU time")
    mul = _nimber.mul
    pure = _nimber_pure.mul
    rows = [
        ("compiled, bulk (dot)", cpu_ns(lambda: _nimber.dot(a, b), args.repeats, count)),
        ("compiled, one call a product", cpu_ns(lambda: [mul(x, y) for x, y in pairs],
                                                 args.repeats, count)),
        ("pure twin, one call a product", cpu_ns(lambda: [pure(x, y) for x, y in pairs[:few]],
                                                  args.repeats, few)),
        ("engine, 1024-bit ints", cpu_ns(lambda: [nimbers.nim_product(x, y) for x, y in big],
                                         args.repeats, len(big))),
    ]
    if args.anchor:
        said = subprocess.run([*shlex.split(args.anchor), str(count), str(seed)],
                              capture_output=True, text=True, check=True).stdout.split()
        rows.append((f"anchor: {args.anchor}", float(said[said.index("ns-per-product") + 1])))
    bulk = rows[0][1]
    for name, ns in rows:
        print(f"  {name:34} {ns:12.1f} ns/product  {ns / bulk:10.1f} x the bulk loop")
    board(args.side, rng, args.repeats)


def board(side: int, rng: random.Random, repeats: int) -> None:
    from kayles.analysis.games.turning import tartan

    game = tartan("turning-corners")
    coins = [list(range(1, side + 1)) for _ in range(side)]
    rng.shuffle(coins)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        value = game.value(coins)
        times.append(time.perf_counter() - start)
    xs = array("Q", [x for x in range(1, side + 1) for _ in range(side)])
    ys = array("Q", [y for _ in range(side) for y in range(1, side + 1)])
    start = time.perf_counter()
    assert _nimber.dot(xs, ys) == value, "the tartan sum and the coin-by-coin sum differ"
    each = time.perf_counter() - start
    print(f"Turning Corners, {side} x {side} coins all heads: value {value}; by rows "
          f"{statistics.median(times):.3f} s (median of {repeats}), one product a coin "
          f"(bulk loop) {each:.3f} s")


if __name__ == "__main__":
    main()
