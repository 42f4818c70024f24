"""Green Hackenbush at 10^5 and 10^6 edges: parsing, the value and the winning cuts, timed
apart (kayles.analysis.games.hackenbush, pure Python).

    .venv/bin/python benchmarks/hackenbush.py             # 10^5 and 10^6 edges, ~1 min
    .venv/bin/python benchmarks/hackenbush.py --sizes 100000 --repeat 3

Pictures (seeded, so every run times the same ones):

* ``tree``: a random recursive tree, each vertex hung from one drawn among those before
  it, the ground first (no circuit: the colon principle alone);
* ``cycles``: a random tree on half the edges, the other half drawn between random
  vertices (the ground among them): one large 2-edge-connected part, many short classes;
* ``circuit``: one circuit of half the edges through the ground, a hair of one or two
  edges on each vertex (one class as long as the circuit: the trie's case).

Each line: the least wall seconds and, in brackets, the least CPU seconds of
``--repeat`` runs of each step (the text's parse, ``value``, ``cuts()``: the winning
cuts, or where the value is 0, and so there are none, the cuts to value 1, the same
work), and the process's peak memory.  The first line names the CPU and the load
average (other work on the machine makes the wall times longer than the CPU's).
Nothing here asserts.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import resource
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kayles.analysis.games.hackenbush import parse_picture  # noqa: E402


def tree(m: int, rng: random.Random) -> str:
    return " ".join(f"{_name(rng.randrange(i))}-{_name(i)}" for i in range(1, m + 1))


def cycles(m: int, rng: random.Random) -> str:
    half = m // 2
    tree_part = [f"{_name(rng.randrange(i))}-{_name(i)}" for i in range(1, half + 1)]
    extra = [f"{_name(rng.randrange(half + 1))}-{_name(rng.randrange(half + 1))}"
             for _ in range(m - half)]
    edges = tree_part + extra
    rng.shuffle(edges)
    return " ".join(edges)


def circuit(m: int, rng: random.Random) -> str:
    n = m // 2
    edges = [f"{_name(i)}-{_name(i + 1)}" for i in range(n - 1)] + [f"{_name(n - 1)}-g"]
    hair = n
    while len(edges) < m:
        v = rng.randrange(1, n)
        edges.append(f"{_name(v)}-{_name(hair)}")
        if len(edges) < m and rng.random() < 0.5:
            edges.append(f"{_name(hair)}-{_name(hair + 1)}")
            hair += 1
        hair += 1
    return " ".join(edges)


def _name(i: int) -> str:
    return "g" if i == 0 else f"v{i}"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def best(step, repeat: int) -> tuple[float, float, object]:
    """The least wall seconds and the least CPU seconds of ``repeat`` runs, and the result."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        gc.collect()
        start, cpu = time.perf_counter(), time.process_time()
        result = step()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus), result


def value(picture) -> int:
    picture._search = None  # the search again, from the parsed edges
    return picture.value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**5, 10**6],
                        help="numbers of edges (default: 100000 1000000)")
    parser.add_argument("--kinds", nargs="+", default=["tree", "cycles", "circuit"],
                        choices=["tree", "cycles", "circuit"])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each step (the best)")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args(argv)
    print(f"# {cpu_model()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, Python "
          f"{platform.python_version()}, pure Python, seed {args.seed}")
    print(f"{'picture':8} {'edges':>9}  {'parse s':>13}  {'value s':>13}  {'cuts s':>13}  "
          f"{'value':>7} {'cuts':>7} {'peak MB':>7}")
    print(f"{'':8} {'':>9}  {'wall (CPU)':>13}  {'wall (CPU)':>13}  {'wall (CPU)':>13}")
    makers = {"tree": tree, "cycles": cycles, "circuit": circuit}
    for kind in args.kinds:
        for m in args.sizes:
            text = makers[kind](m, random.Random(args.seed))
            parse = best(partial(parse_picture, text), args.repeat)
            picture = parse[2]
            valued = best(partial(value, picture), args.repeat)
            v = valued[2]
            # the cuts to 0, or where the value is 0 (no winning cut) those to 1: the same work
            cut = best(partial(picture.cuts, 0 if v else 1), args.repeat)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            times = "  ".join(f"{w:5.2f} ({c:5.2f})" for w, c, _ in (parse, valued, cut))
            print(f"{kind:8} {m:>9,}  {times}  {v:>7} {len(cut[2]):>7} {peak:7.0f}",
                  flush=True)
            del text, picture, parse, valued, cut


if __name__ == "__main__":
    main()
