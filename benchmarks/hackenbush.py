"""Green Hackenbush at 10^5 and 10^6 edges on both kernel twins side by side: the parse,
the value and the winning cuts timed apart, and the whole ``kayles hackenbush FILE --json``.

    .venv/bin/python benchmarks/hackenbush.py                 # compiled and pure, ~3 min
    .venv/bin/python benchmarks/hackenbush.py --twins compiled --sizes 1000000 --repeat 5
    .venv/bin/python benchmarks/hackenbush.py --sizes 1000 --repeat 1     # a quick look

Pictures (seeded, so every run times the same ones):

* ``tree``: a random recursive tree, each vertex hung from one drawn among those before
  it, the ground first (no circuit: the colon principle alone);
* ``cycles``: a random tree on half the edges, the other half drawn between random
  vertices (the ground among them): one large 2-edge-connected part, many short classes;
* ``circuit``: one circuit of half the edges through the ground, a hair of one or two
  edges on each vertex (one class as long as the circuit: the trie's case).

Each step is the kernel's own call, as kayles.analysis.games.hackenbush makes it: the
text's ``parse``, ``Search`` (the value), ``cuts`` (the winning cuts, or where the value
is 0, and so there are none, the cuts to value 1: the same work).  Each figure is the
median of ``--repeat`` runs, in CPU seconds (this process's user and system time) and, in
brackets, wall seconds; then the command in a child process (KAYLES_PURE=1 for the pure
twin): its wall seconds, its CPU seconds and its peak memory.  Last, pure / compiled for
each figure.  The first line names the CPU, the instruction set the compiled kernels use
(KAYLES_VECTOR) and the load average: other work on the machine makes the wall times
longer than the CPU's.  Nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kayles.analysis.games.hackenbush import CHUNK, DIRECT_PER_LEVEL, MAX_EDGES  # noqa: E402
from kayles.kernels.limits import cpu_model  # noqa: E402
from kayles.kernels.pure import _hackenbush as pure  # noqa: E402

KAYLES = ROOT / ".venv" / "bin" / "kayles"


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


def instruction_set() -> str:
    try:
        from kayles.kernels import _core
    except ImportError:
        return "no compiled core"
    return f"{_core.default_vector()} (KAYLES_VECTOR={os.environ.get('KAYLES_VECTOR', '')!r})"


def median(step, repeat: int) -> tuple[float, float, object]:
    """The median CPU and wall seconds of ``repeat`` runs of ``step``, and its result."""
    cpus, walls, result = [], [], None
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        result = step()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(cpus), statistics.median(walls), result


def steps(kernel, text: str, repeat: int) -> tuple[list[tuple[float, float]], int, int]:
    """(CPU, wall) of the parse, the value and the cuts; the value; the number of cuts."""
    parse = median(partial(kernel.parse, text, MAX_EDGES, CHUNK), repeat)
    names, us, vs, _ = parse[2]
    search = median(partial(kernel.Search, names.count("\n") + 1, us, vs), repeat)
    value = search[2].value
    cuts = median(partial(search[2].cuts, 0 if value else 1, DIRECT_PER_LEVEL), repeat)
    return [parse[:2], search[:2], cuts[:2]], value, len(cuts[2])


def command(path: str, twin: str, repeat: int) -> tuple[float, float, float]:
    """The whole command's median wall seconds, CPU seconds and peak MB (os.wait4's)."""
    env = {**os.environ, "KAYLES_PURE": "1" if twin == "pure" else "0"}
    walls, cpus, peaks = [], [], []
    for _ in range(repeat):
        start = time.perf_counter()
        child = subprocess.Popen([str(KAYLES), "hackenbush", path, "--json"], env=env,
                                 stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            raise SystemExit(f"kayles hackenbush {path} ({twin}) failed: {child.returncode}")
    return statistics.median(walls), statistics.median(cpus), max(peaks)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**5, 10**6],
                        help="numbers of edges (default: 100000 1000000)")
    parser.add_argument("--kinds", nargs="+", default=["tree", "cycles", "circuit"],
                        choices=["tree", "cycles", "circuit"])
    parser.add_argument("--twins", nargs="+", default=["compiled", "pure"],
                        choices=["compiled", "pure"])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each step (the median)")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args(argv)
    kernels = {"pure": pure}
    if "compiled" in args.twins:
        from kayles.kernels import _hackenbush

        kernels["compiled"] = _hackenbush
    print(f"# {cpu_model()}, {os.cpu_count()} cores, instruction set {instruction_set()}, "
          f"load {os.getloadavg()[0]:.2f}, Python {platform.python_version()}, "
          f"seed {args.seed}, median of {args.repeat}")
    print(f"{'picture':8} {'edges':>9} {'twin':8}  {'parse s':>13}  {'value s':>13}  "
          f"{'cuts s':>13}  {'command s':>13} {'peak MB':>7}  {'value':>7} {'cuts':>7}")
    print(f"{'':8} {'':>9} {'':8}  {'CPU (wall)':>13}  {'CPU (wall)':>13}  {'CPU (wall)':>13}"
          f"  {'wall (CPU)':>13}")
    makers = {"tree": tree, "cycles": cycles, "circuit": circuit}
    with tempfile.TemporaryDirectory() as folder:
        for kind in args.kinds:
            for m in args.sizes:
                text = makers[kind](m, random.Random(args.seed))
                path = os.path.join(folder, f"{kind}-{m}.txt")
                Path(path).write_text(text)
                rows = {}
                for twin in args.twins:
                    timed, value, won = steps(kernels[twin], text, args.repeat)
                    whole = command(path, twin, args.repeat)
                    rows[twin] = [c for c, _ in timed] + [whole[0]]
                    figures = "  ".join(f"{c:5.2f} ({w:5.2f})" for c, w in timed)
                    print(f"{kind:8} {m:>9,} {twin:8}  {figures}  {whole[0]:5.2f} ({whole[1]:5.2f})"
                          f" {whole[2]:7.0f}  {value:>7} {won:>7}", flush=True)
                if len(rows) == 2:
                    ratios = [p / c if c else float("inf")
                              for p, c in zip(rows["pure"], rows["compiled"])]
                    print(f"{kind:8} {m:>9,} {'ratio':8}  " + "  ".join(
                        f"{r:10.1f} x " for r in ratios[:3]) + f"  {ratios[3]:10.1f} x",
                          flush=True)
                del text


if __name__ == "__main__":
    main()
