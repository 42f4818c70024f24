"""Values per second on the slowest codes of a drawn sample: the games with no rare values.

    .venv/bin/python benchmarks/dense.py --against /tmp/before       # 200 codes, seed 2026
    .venv/bin/python benchmarks/dense.py --codes 0.0644 0.1607 --log2 18
    .venv/bin/python benchmarks/dense.py --sample 100 --seed 7 --log2 18 --vector avx2

Draws --sample octal codes of --digits digits with --seed (printed), ranks them by
the time this engine takes to prove each one's period to 2**--probe (or to fill
that table), and times the --slowest of them whose values fit 16 bits to
2**--log2 (a code with a value past 65,535 is passed over, said so): this engine
on --threads threads and on one, each with --vector's instructions, beside the
kayles package in --against DIR (another build, e.g. a clone of an older commit
after `make build`) on one thread, in the same run.  Each figure comes from a
fresh interpreter (benchmarks/engine.py's children) and is the whole table, not
a proof: values per second of wall time, CPU time, and the Fletcher-32 checksum,
which must agree between engines.  Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import drawn_codes  # noqa: E402
from kernels import machine  # noqa: E402  (it puts ROOT on sys.path)

from kayles.engine.codes import get_game  # noqa: E402
from kayles.engine.sequence import Sequence  # noqa: E402
from kayles.kernels import _core  # noqa: E402

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from kayles.kernels import _core
from kayles.engine.checksum import fletcher32
from kayles.engine.codes import get_game
from kayles.engine.sequence import Sequence
code, count, vector, threads = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
sequence = Sequence(get_game(code), kernel=_core, threads=threads)
try:
    sequence._scratch = _core.Scratch(vector=vector, threads=threads)
except TypeError:   # a build whose Scratch knows no vector= (the default set then)
    pass
wall, cpu = time.perf_counter(), time.process_time()
try:
    values = sequence.table(count)
except OverflowError as exc:   # a value past 16 bits: this code cannot reach count
    print(json.dumps({"overflow": str(exc)}))
    sys.exit()
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "checksum": "%08x" % fletcher32(values), "largest": max(values)}))
"""


def ranked(codes: list[str], probe: int) -> list[tuple[float, str]]:
    """The codes by the time their proof to 2**probe (or full table) takes, slowest first
    (in process, one thread)."""
    times = []
    for code in codes:
        sequence = Sequence(get_game(code), kernel=_core)
        began = time.process_time()
        sequence.prove(1 << probe)
        times.append((time.process_time() - began, code))
    return sorted(times, reverse=True)


def child(root: Path, code: str, count: int, vector: str, threads: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), code, str(count), vector,
                           str(threads)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=200, help="codes drawn (default 200)")
    parser.add_argument("--seed", type=int, default=2026, help="the sample's seed (default 2026)")
    parser.add_argument("--digits", type=int, default=4, help="the codes' digits (default 4)")
    parser.add_argument("--probe", type=int, default=16,
                        help="rank the codes by their time to 2**PROBE (default 16)")
    parser.add_argument("--slowest", type=int, default=5, help="codes timed (default 5)")
    parser.add_argument("--log2", type=int, default=20, help="tables to 2**LOG2 (default 20)")
    parser.add_argument("--threads", type=int, default=2, help="the crew's threads (default 2)")
    parser.add_argument("--vector", choices=_core.VECTORS, default=_core.VECTORS[0],
                        help="this engine's instructions (default: the widest)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another build of the kayles package, on one thread")
    parser.add_argument("--codes", nargs="+", metavar="CODE",
                        help="time these codes instead of drawing a sample")
    args = parser.parse_args()
    count = 1 << args.log2
    print(f"machine: {machine()}; this engine's instructions: {args.vector}")
    if args.codes:
        candidates = args.codes
    else:
        print(f"{args.sample} codes of {args.digits} digits drawn with seed {args.seed}, "
              f"ranked by their time to 2**{args.probe} (the first {3 * args.slowest}):")
        order = ranked(drawn_codes(args.sample, args.digits, args.seed), args.probe)
        print("  " + ", ".join(f"{code} {cpu:.2f} s" for cpu, code in order[:3 * args.slowest]))
        candidates = [code for _, code in order]
    engines = [(f"this, {args.threads} threads", ROOT, args.threads), ("this, 1 thread", ROOT, 1)]
    if args.against:
        engines.append(("against, 1 thread", args.against, 1))
    print(f"tables G(0..2**{args.log2} - 1), the {args.slowest} slowest codes that reach it "
          f"(values fit 16 bits), values per second of wall time:")
    timed = 0
    for code in candidates:
        if timed == args.slowest:
            break
        results = []
        for label, root, threads in engines:
            result = child(root, code, count, args.vector, threads)
            if "overflow" in result:
                print(f"  {code}  passed over: {result['overflow']}", flush=True)
                break
            results.append(result)
            print(f"  {code}  {label:18} {count / result['wall']:12,.0f} values/s  "
                  f"wall {result['wall']:8.2f} s  cpu {result['cpu']:8.2f} s  "
                  f"largest {result['largest']:5}  checksum {result['checksum']}", flush=True)
        else:
            timed += 1
            same = len({r["checksum"] for r in results}) == 1
            last = results[-1]["wall"]
            print(f"  {code}  speed-up over the last row: " + ", ".join(
                f"{label} {last / r['wall']:.2f}x" for (label, *_), r in zip(engines, results[:-1]))
                + ("" if same else "  VALUES DIFFER"), flush=True)

if __name__ == "__main__":
    main()
