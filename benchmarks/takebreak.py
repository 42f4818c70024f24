"""Time the take-and-break kernel (hexadecimal codes) beside CGSuite's NimValueSequence.

    .venv/bin/python benchmarks/takebreak.py --anchor /tmp/cgsuite/run-nimvalues
    .venv/bin/python benchmarks/takebreak.py --seed 7        # the drawn codes of seed 7
    .venv/bin/python benchmarks/takebreak.py --quick         # one run each, no growth table
    .venv/bin/python benchmarks/takebreak.py --octal-against DIR   # octal codes, before/after
    .venv/bin/python benchmarks/takebreak.py --against DIR --seed 7  # this kernel / DIR's
    .venv/bin/python benchmarks/takebreak.py --against DIR --per-vector  # both with vectors

The anchor is built outside this repository by benchmarks/anchors/build_cgsuite_nimvalues.sh;
it prints its own time (the JVM's start left out) and the sum of G(0..N), which must be the
sum here.  Cases: 0.3F, 0.9, 0.F6 and three two-digit codes with a digit past 7 drawn with
--seed (printed; drawn at random when not given), G(0..2**12) each.  For each: the compiled
kernel computing every value, the pure twin on the first 2**9 values (its three-part splits
are cubic) beside the compiled kernel on the same, and `Sequence.table` as a user calls it
(a proved regularity fills the rest of the table).  Then how the compiled kernel's time
grows with n, 2**10 to 2**14.  Medians of --repeats runs in this one process; nothing here
asserts: it reports.

With --octal-against DIR (a build of the kayles package from before the take-and-break
kernel, e.g. a worktree of commit e684e61 after `make build`), octal codes instead: .04,
.161, Grundy's game and three 4-digit codes drawn with --seed, G(0..2**20-1) each, in fresh
interpreters of both builds alternately, once a vector instruction set (AVX-512 and AVX2
where the CPU has them): the sums of the values must agree, and the ratio says whether the
octal path kept its speed.

With --against DIR (a build of the kayles package with an earlier take-and-break kernel,
e.g. a worktree of ce1a0af after `make build`): two-digit hexadecimal codes that the
committed census (docs/census/hex-3.csv) leaves open, drawn with --seed (printed),
G(0..2**15-1) each (--heaps), by this build's kernel once an instruction set (AVX-512 and
AVX2 where the CPU has them; the earlier kernel has no vector path) and by DIR's, in fresh
interpreters, CPU time: the sums must agree; the medians of the ratios are the answer.
Then the time of 2**16 values of the slowest code drawn, this build, each instruction set.
With --per-vector, DIR's kernel too runs once an instruction set (a build whose kernel has
vector paths, e.g. the last commit's), and the 2**16 values of the slowest code run on
both builds.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import time
from array import array
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import machine  # noqa: E402  (it puts the repository on sys.path)

from kayles.engine.codes import get_game  # noqa: E402
from kayles.engine.rules import encode_takebreak  # noqa: E402
from kayles.engine.sequence import Sequence  # noqa: E402
from kayles.kernels import _takebreak  # noqa: E402
from kayles.kernels.pure import _takebreak as _takebreak_pure  # noqa: E402

FAMOUS = ("0.3F", "0.9", "0.F6")
HEAPS = 1 << 12  # G(0..HEAPS), as the anchor's nimValues(HEAPS) fills it
PURE_HEAPS = 1 << 9
HEX = "0123456789ABCDEF"


def drawn_codes(count: int, seed: int) -> list[str]:
    """Two-digit hexadecimal codes 0.d1d2 (d2 != 0) with a digit past 7, drawn with seed."""
    codes = [f"0.{a}{b}" for a in HEX for b in HEX[1:] if int(a, 16) > 7 or int(b, 16) > 7]
    return random.Random(seed).sample(codes, count)


def kernel_time(kernel, code: str, count: int, repeats: int) -> tuple[float, int]:
    """(median seconds, sum of the values) of G(0..count-1), every value by ``kernel``."""
    rules = encode_takebreak(get_game(code))
    times, total = [], 0
    for _ in range(repeats):
        table = array("H", bytes(2 * count))
        start = time.perf_counter()
        kernel.extend(table, 0, count, rules, kernel.Scratch())
        times.append(time.perf_counter() - start)
        total = sum(table)
    return statistics.median(times), total


def user_time(code: str, count: int, repeats: int) -> tuple[float, str]:
    times, regularity = [], "none proved"
    for _ in range(repeats):
        sequence = Sequence(get_game(code))
        start = time.perf_counter()
        sequence.table(count)
        times.append(time.perf_counter() - start)
        if sequence.period is not None:
            p = sequence.period
            regularity = f"proved ({p.preperiod}, {p.period}, {p.saltus})"
    return statistics.median(times), regularity


def anchor_time(anchor: str, code: str, heaps: int) -> tuple[float, int]:
    out = subprocess.run([anchor, code, str(heaps)], capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[2]), int(out[3])


OCTAL_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from kayles.kernels import _core  # noqa: E402
try:
    from kayles.engine.codes import get_game
except ImportError:  # a build before the code language
    from kayles.engine.rules import get_game
from kayles.engine.sequence import Sequence
sequence = Sequence(get_game(sys.argv[2]), kernel=_core)
sequence._scratch = _core.Scratch(vector=sys.argv[4])
start = time.process_time()
values = sequence.table(int(sys.argv[3]))
print(json.dumps({"cpu": time.process_time() - start, "sum": sum(values)}))
"""


def octal_before_after(before: Path, seed: int, repeats: int) -> None:
    from kayles.kernels import _core

    here = Path(__file__).resolve().parent.parent
    codes = (".04", ".161", "grundy",
             *(f"0.{random.Random(seed + i).randrange(1, 8 ** 4 - 8 ** 3) + 8 ** 3:o}"
               for i in range(3)))
    print(f"octal codes, G(0..2**20-1), CPU seconds (medians of {repeats}), this build / the "
          f"one in {before}")
    for vector in _core.VECTORS:
        if vector == "sse2":
            continue
        for code in codes:
            times = {"this": [], "before": []}
            sums = set()
            for _ in range(repeats):
                for name, root in (("this", here), ("before", before)):
                    out = subprocess.run([sys.executable, "-c", OCTAL_CHILD, str(root), code,
                                          str(1 << 20), vector], capture_output=True,
                                         text=True, check=True, cwd=root).stdout
                    result = json.loads(out)
                    times[name].append(result["cpu"])
                    sums.add(result["sum"])
            now, then = (statistics.median(times[k]) for k in ("this", "before"))
            agree = "values agree" if len(sums) == 1 else "VALUES DIFFER"
            print(f"  {vector:8} {code:7} this {now:7.3f}s  before {then:7.3f}s  "
                  f"ratio {now / then:5.2f}  {agree}")


TAKEBREAK_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from kayles.kernels import _takebreak  # noqa: E402
from kayles.engine.codes import get_game
from kayles.engine.rules import encode_takebreak
count, vector = int(sys.argv[3]), sys.argv[4]
table = memoryview(bytearray(2 * count)).cast("H")
scratch = _takebreak.Scratch() if vector == "-" else _takebreak.Scratch(vector=vector)
start = time.process_time()
_takebreak.extend(table, 0, count, encode_takebreak(get_game(sys.argv[2])), scratch)
print(json.dumps({"cpu": time.process_time() - start, "sum": sum(table)}))
"""


def open_codes(digits: int) -> list[str]:
    """The codes of this many hexadecimal digits, a digit past 7, open in the census."""
    import csv
    import io

    text = (Path(__file__).resolve().parent.parent / "docs" / "census" / "hex-3.csv").read_text()
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return [row["code"] for row in csv.DictReader(io.StringIO(body))
            if row["status"] == "open" and len(row["code"]) == 2 + digits
            and any(d in "89ABCDEF" for d in row["code"][2:])]


def child(root: Path, code: str, count: int, vector: str) -> dict:
    out = subprocess.run([sys.executable, "-c", TAKEBREAK_CHILD, str(root), code, str(count),
                          vector], capture_output=True, text=True, check=True, cwd=root).stdout
    return json.loads(out)


def takebreak_before_after(before: Path, seed: int, heaps: int, count: int,
                           per_vector: bool) -> None:
    from kayles.kernels import _takebreak

    here = Path(__file__).resolve().parent.parent
    codes = random.Random(seed).sample(open_codes(2), count)
    vectors = [v for v in _takebreak.VECTORS if v in ("avx512bw", "avx2")]
    print(f"two-digit open hexadecimal codes drawn with seed {seed}: {', '.join(codes)}")
    print(f"G(0..{heaps - 1}), CPU seconds, this build's kernel and the one in {before}"
          + (", each with the same instruction set" if per_vector else ""))
    ratios: dict[str, list[float]] = {v: [] for v in vectors}
    slowest = (0.0, codes[0])
    for code in codes:
        line = f"  {code:5}"
        if not per_vector:
            then = child(before, code, heaps, "-")
            line += f" before {then['cpu']:7.2f}s"
        for vector in vectors:
            if per_vector:
                then = child(before, code, heaps, vector)
                line += f"  {vector} before {then['cpu']:6.2f}s"
            now = child(here, code, heaps, vector)
            agree = "" if now["sum"] == then["sum"] else "  VALUES DIFFER"
            ratios[vector].append(then["cpu"] / now["cpu"])
            line += f"  {vector if not per_vector else 'now'} {now['cpu']:6.2f}s "
            line += f"({then['cpu'] / now['cpu']:4.2f}x){agree}"
            slowest = max(slowest, (now["cpu"], code))
        print(line, flush=True)
    for vector in vectors:
        print(f"  {vector}: median {statistics.median(ratios[vector]):.2f}x faster, least "
              f"{min(ratios[vector]):.2f}x")
    code = slowest[1]
    for vector in vectors:
        line = f"  G(0..{2 * heaps - 1}) of {code} (the slowest drawn), {vector}: "
        if per_vector:
            line += f"before {child(before, code, 2 * heaps, vector)['cpu']:.1f}s, now "
        print(line + f"{child(here, code, 2 * heaps, vector)['cpu']:.1f}s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchor", help="CGSuite's run-nimvalues (see the header)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the drawn codes")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one run each, no growth table")
    parser.add_argument("--octal-against", type=Path, metavar="DIR",
                        help="octal codes beside an older build in DIR (see the header)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="open two-digit codes beside an older kernel in DIR (the header)")
    parser.add_argument("--heaps", type=int, default=1 << 15, help="with --against: values")
    parser.add_argument("--codes", type=int, default=6, help="with --against: codes drawn")
    parser.add_argument("--per-vector", action="store_true",
                        help="with --against: DIR's kernel too once an instruction set")
    args = parser.parse_args()
    seed = random.SystemRandom().randrange(10**6) if args.seed is None else args.seed
    repeats = 1 if args.quick else args.repeats
    print(machine())
    if args.octal_against:
        print(f"drawn codes: seed {seed}")
        octal_before_after(args.octal_against.resolve(), seed, repeats)
        return
    if args.against:
        takebreak_before_after(args.against.resolve(), seed, args.heaps, args.codes,
                               args.per_vector)
        return
    print(f"drawn codes: seed {seed}; G(0..{HEAPS}) each, medians of {repeats} runs")
    print(f"{'code':6} {'kernel':>9} {'CGSuite':>9} {'ratio':>7}   {'pure 2**9':>10} "
          f"{'cython 2**9':>11} {'ratio':>7}   {'as used':>9}  regularity")
    ratios = []
    for code in (*FAMOUS, *drawn_codes(3, seed)):
        compiled, total = kernel_time(_takebreak, code, HEAPS + 1, repeats)
        line = f"{code:6} {compiled:8.3f}s"
        if args.anchor:
            theirs, their_total = anchor_time(args.anchor, code, HEAPS)
            if their_total != total:
                line += f" values differ: sum {their_total} there, {total} here"
            ratios.append(theirs / compiled)
            line += f" {theirs:8.2f}s {theirs / compiled:6.0f}x"
        else:
            line += f" {'-':>9} {'-':>7}"
        pure, pure_total = kernel_time(_takebreak_pure, code, PURE_HEAPS, 1)
        small, small_total = kernel_time(_takebreak, code, PURE_HEAPS, repeats)
        assert pure_total == small_total, code
        used, regularity = user_time(code, HEAPS + 1, repeats)
        print(f"{line}   {pure:9.3f}s {small * 1e3:9.2f}ms {pure / small:6.0f}x   "
              f"{used:8.3f}s  {regularity}")
    if ratios:
        print(f"CGSuite's time over the kernel's: median {statistics.median(ratios):.0f}x, "
              f"least {min(ratios):.0f}x")
    if args.quick:
        return
    print("growth of the compiled kernel's time (every value): seconds, and the exponent "
          "log2(t(2n)/t(n))")
    for code in FAMOUS:
        cells, last = [], None
        for k in range(10, 15):
            seconds, _ = kernel_time(_takebreak, code, 1 << k, 1)
            grown = f" (^{math.log2(seconds / last):.1f})" if last else ""
            cells.append(f"2**{k} {seconds:7.3f}s{grown}")
            last = seconds
        print(f"  {code:6} " + "  ".join(cells))


if __name__ == "__main__":
    main()
