"""Time the sparse-space engine on long runs: ratios, proofs, peak memory, in one run.

    .venv/bin/python benchmarks/engine.py                  # several minutes (.04 to 2**20)
    .venv/bin/python benchmarks/engine.py --quick          # Grundy's game and .04 to 2**18 only
    .venv/bin/python benchmarks/engine.py --against DIR    # also the kayles package in DIR
    .venv/bin/python benchmarks/engine.py --external 'CMD' # also another program's tables
    .venv/bin/python benchmarks/engine.py --sample 200 --seed 1 --external 'CMD'
                                      # codes drawn at random, each beside CMD's time
    .venv/bin/python benchmarks/engine.py --sample 20 --dense --seed 46 --external 'CMD'
                                      # drawn among the census's dense codes
    .venv/bin/python benchmarks/engine.py --readme         # README's figures, each
                                      # instruction set, quiet and with both cores busy

Each figure comes from its own child process (a fresh interpreter running only
that computation), which reports its wall time, its CPU time and its peak
resident memory (getrusage's ru_maxrss), and the Fletcher-32 checksum of the
values, so two engines can be seen to agree.  With --against DIR (a directory
holding another build of the `kayles` package, e.g. a checkout of an older
commit after `make`), every child runs for both engines side by side and the
ratios compare them in the same run.  With --external CMD, another program (the
public C++ analyser, built by benchmarks/anchors/build_cxx_analyser.sh, say:
--external '/tmp/cxx/bin/analyze_2p{log2} {game}') computes the same tables in the same run:
CMD is a command with {game} (.04 or grundy), {count} and {log2} filled in, run
under GNU time for its time and peak memory; its values are not compared (it
prints its own output), and it is not asked for proofs.  On a
shared machine wall time is noisy; CPU time is the steadier figure.  Nothing
here asserts: it reports.

With --sample N, N octal codes of --digits digits (0.d1..dk, dk != 0) are drawn
with --seed (printed) and each table G(0..2**--log2 - 1) is timed in a fresh
interpreter by the sparse method on one thread with --vector's instructions,
until its period is proved or the table is full, as the C++ analyser does (the
computation only: the interpreter's start, about 60 ms, is left out), beside
CMD's whole process; the ratios' median and worst, and the slowest codes, end
the report.  With --dense the codes are drawn among the census's dense frontier
instead: the codes of docs/census/census-4.csv left open at its first pass (2**16),
whose values keep growing and which no mask makes sparse (the dense path).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import machine, median_time, table_run  # noqa: E402  (it puts ROOT on sys.path)

from kayles.engine.codes import get_game  # noqa: E402
from kayles.engine.rules import encode  # noqa: E402
from kayles.kernels import _core  # noqa: E402
from kayles.kernels.pure import _core as _core_pure  # noqa: E402
from kayles.kernels.spectrum import mask_text  # noqa: E402

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from kayles.engine.checksum import fletcher32
from kayles.engine.codes import get_game  # noqa: E402
from kayles.engine.sequence import Sequence
what, game, count, vector = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
sequence = Sequence(get_game(game))
if vector != "-":   # the instructions asked for (else the fastest here)
    from kayles.kernels import _core
    sequence = Sequence(get_game(game), kernel=_core)
    sequence._scratch = _core.Scratch(vector=vector)
wall, cpu = time.perf_counter(), time.process_time()
if what == "table":
    values = sequence.table(count)
    result = {"values": count}
else:
    period = sequence.prove(count)
    values = sequence.table(len(sequence))
    result = {"preperiod": period and period.preperiod, "period": period and period.period,
              "values": len(sequence)}
result["wall"] = time.perf_counter() - wall
result["cpu"] = time.process_time() - cpu
result["checksum"] = "%08x" % fletcher32(values)
result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(result))
"""


SAMPLE_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from kayles.kernels import _core
from kayles.engine.checksum import fletcher32
from kayles.engine.codes import get_game  # noqa: E402
from kayles.engine.sequence import Sequence
code, count, vector = sys.argv[2], int(sys.argv[3]), sys.argv[4]
sequence = Sequence(get_game(code), kernel=_core)
sequence._scratch = _core.Scratch(vector=vector)   # the instructions asked for
wall, cpu = time.perf_counter(), time.process_time()
period = sequence.prove(count)
result = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
          "values": len(sequence), "period": period and period.period,
          "checksum": "%08x" % fletcher32(sequence.table(len(sequence))),
          "mask": sequence._scratch.rare()[0], "rare": sequence._scratch.rare()[1],
          "largest": max(sequence.table(len(sequence))),
          "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
print(json.dumps(result))
"""


FLOOR = 0.01  # seconds: GNU time reports the external's CPU time in hundredths


def drawn_codes(count: int, digits: int, seed: int) -> list[str]:
    """count distinct codes 0.d1..dk (dk != 0) drawn with the seed, in the order drawn."""
    rng = random.Random(seed)
    total = 8 ** (digits - 1) * 7
    picks = rng.sample(range(total), min(count, total))
    return ["0." + "".join(str(d) for d in _digits(pick // 7, digits - 1)) + str(pick % 7 + 1)
            for pick in picks]


def dense_codes() -> list[str]:
    """The census's codes left open at its first pass (no mask makes them sparse): those
    its dense pass computed (to --dense-to, read from the table's first line)."""
    text = (ROOT / "docs" / "census" / "census-4.csv").read_text()
    dense_to = re.search(r"--dense-to (\d+)", text.partition("\n")[0])
    computed = dense_to.group(1) if dense_to else str(1 << 16)
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return [row["code"] for row in rows if row["status"] == "open" and row["computed"] == computed]


def _digits(number: int, width: int) -> list[int]:
    return [(number >> 3 * (width - 1 - i)) & 7 for i in range(width)]


def sample(args, template: str | None) -> None:
    """Drawn codes, this engine (one thread, args.vector) beside the external command."""
    count = 1 << args.log2
    vector = args.vector or _core.VECTORS[0]
    if args.dense:
        frontier = dense_codes()
        codes = random.Random(args.seed).sample(frontier, min(args.sample, len(frontier)))
        drawn = f"the census's {len(frontier)} dense codes"
    else:
        codes = drawn_codes(args.sample, args.digits, args.seed)
        drawn = f"codes of {args.digits} digits"
    print(f"{args.sample} {drawn} drawn with seed {args.seed}, tables to "
          f"2**{args.log2}, this engine on one thread with {vector}")
    ratios = []
    for code in codes:
        done = subprocess.run([sys.executable, "-c", SAMPLE_CHILD, str(ROOT), code, str(count),
                               vector], capture_output=True, text=True, check=True)
        ours = json.loads(done.stdout)
        proved = f"period {ours['period']}" if ours["period"] else "open"
        line = (f"  {code}  this {ours['cpu']:8.3f} s cpu  {ours['values']:7} values "
                f"{proved:>14}  mask {mask_text(ours['mask']):>12}  rare {ours['rare']:6}"
                f"  largest {ours['largest']:5}")
        if template:
            theirs = external(template, code, count)
            ratio = max(ours["cpu"], FLOOR) / max(theirs["cpu"], FLOOR)
            ratios.append((ratio, code, ours["cpu"], theirs["cpu"]))
            line += f"  external {theirs['cpu']:8.3f} s cpu  ratio {ratio:6.2f}x"
        print(line, flush=True)
    if ratios:
        ratios.sort()
        print(f"ratio this/external (cpu, each at least {FLOOR * 1e3:.0f} ms: GNU time's "
              f"resolution): median "
              f"{statistics.median(r for r, *_ in ratios):.2f}x, worst {ratios[-1][0]:.2f}x "
              f"({ratios[-1][1]}); codes slower than external: "
              f"{sum(r > 1 for r, *_ in ratios)} of {len(ratios)}")
        print("slowest here: " + ", ".join(
            f"{code} {ours:.2f} s (external {theirs:.2f} s)"
            for _, code, ours, theirs in sorted(ratios, key=lambda r: -r[2])[:5]))


def external(template: str, game: str, count: int) -> dict:
    """Run another program's table of game to count under GNU time.

    GNU time, not a Python parent: a child forked from an interpreter starts
    with the interpreter's resident pages, and its peak would count them."""
    timer = shutil.which("time")
    if timer is None:
        sys.exit("engine.py: --external needs GNU time (Debian: apt install time)")
    command = shlex.split(template.format(game=game, count=count, log2=count.bit_length() - 1))
    done = subprocess.run([timer, "-f", "%e %U %S %M", *command], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=True)
    wall, user, system, peak_kb = done.stderr.split()[-4:]
    return {"wall": float(wall), "cpu": float(user) + float(system),
            "peak_mb": int(peak_kb) / 1024, "checksum": "-", "values": count}


def child(root: Path, what: str, game: str, count: int, vector: str = "-") -> dict:
    """Run one computation in a fresh interpreter on the package in root (this build's with
    ``vector``'s instructions; "-": the fastest there)."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), what, game, str(count),
                           vector], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def describe(result: dict) -> str:
    proof = ""
    if "period" in result:
        proof = f"  preperiod {result['preperiod']} period {result['period']}"
    return (f"wall {result['wall']:7.2f} s  cpu {result['cpu']:7.2f} s"
            f"  peak {result['peak_mb']:6.1f} MB  checksum {result['checksum']}"
            f"  values {result['values']}{proof}")


def measure(engines: dict[str, Path | str], label: str, what: str, game: str,
            count: int, vector: str = "-") -> dict:
    """One computation on every engine (a kayles package's directory, or an
    external command for tables), then this engine's ratios to each other."""
    print(f"{label}:")
    results = {}
    for name, engine in engines.items():
        if isinstance(engine, Path):
            results[name] = child(engine, what, game, count, vector if name == "this" else "-")
        elif what == "table":
            results[name] = external(engine, game, count)
        else:
            continue
        print(f"  {name:8} {describe(results[name])}")
    new = results["this"]
    for name, old in results.items():
        if name == "this":
            continue
        same = ("values not compared" if "-" in (new["checksum"], old["checksum"]) else
                "identical values" if new["checksum"] == old["checksum"] else "VALUES DIFFER")
        print(f"  this/{name}: cpu {new['cpu'] / old['cpu']:.2f}x"
              f"  wall {new['wall'] / old['wall']:.2f}x"
              f"  peak {new['peak_mb'] / old['peak_mb']:.2f}x  ({same})")
    return results


def compare_vectors(size: int) -> None:
    """Each instruction set the sparse method can use on this CPU, side by side (same values)."""
    print("In process, the sparse method's instruction sets on this CPU,"
          f" to 2**{size.bit_length() - 1} (median of 3):")
    for game in ("grundy", ".04"):
        kinds = encode(get_game(game).kinds)
        times = {}
        for vector in _core.VECTORS:
            def run(vector=vector, kinds=kinds):
                table = memoryview(bytearray(2 * size)).cast("H")
                _core.extend_sparse(table, 0, size, kinds, _core.Scratch(vector=vector))
            times[vector] = median_time(run, 3)
        slowest = max(times.values())
        print(f"  {game:7}" + "".join(f"  {v} {t:6.2f} s ({t / slowest:.2f}x)"
                                      for v, t in times.items()))


README_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from kayles.kernels import _core
from kayles.engine.checksum import fletcher32
from kayles.engine.codes import get_game
from kayles.engine.sequence import Sequence
code, count, vector, what = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
sequence = Sequence(get_game(code), kernel=_core)
sequence._scratch = _core.Scratch(vector=vector)   # the instructions asked for
wall, cpu = time.perf_counter(), time.process_time()
sequence.table(count) if what == "table" else sequence.prove(count)
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "values": len(sequence),
                  "checksum": "%08x" % fletcher32(sequence.table(len(sequence)))}))
"""


def readme_figures(repeats: int) -> None:
    """README's figures (Grundy's game to 2**20, .354's proof) on each vector instruction
    set, on one thread, quiet and then with a busy loop on every core (two `yes`): the
    median of ``repeats`` fresh interpreters each, CPU and wall seconds."""
    cases = [("Grundy's game, G(0..2**20-1)", "grundy", 1 << 20, "table"),
             (".354's proof", ".354", 21_000_000, "proof")]
    vectors = [v for v in _core.VECTORS if v in ("avx512bw", "avx2")]
    for busy in (False, True):
        loops = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL)
                 for _ in range(os.cpu_count() or 1)] if busy else []
        try:
            print("both cores busy (a `yes` on each)" if busy else "quiet", flush=True)
            for label, game, count, what in cases:
                for vector in vectors:
                    runs = [json.loads(subprocess.run(
                        [sys.executable, "-c", README_CHILD, str(ROOT), game, str(count),
                         vector, what], capture_output=True, text=True, check=True).stdout)
                        for _ in range(repeats)]
                    cpu = statistics.median(run["cpu"] for run in runs)
                    wall = statistics.median(run["wall"] for run in runs)
                    print(f"  {label:30} {vector:8} cpu {cpu:6.2f} s  wall {wall:6.2f} s  "
                          f"({runs[0]['values']:,} values, checksum {runs[0]['checksum']})",
                          flush=True)
        finally:
            for loop in loops:
                loop.kill()
                loop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short tables, no proofs")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="a directory holding another build of the kayles package")
    parser.add_argument("--external", metavar="CMD",
                        help="another program's table: a command with {game}, {count}, {log2}")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="time N octal codes drawn at random instead (see the header)")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    parser.add_argument("--digits", type=int, default=4, help="the sample's digits (default 4)")
    parser.add_argument("--dense", action="store_true", help="draw the sample among the "
                        "census's dense codes (open at its first pass)")
    parser.add_argument("--log2", type=int, default=18, help="the sample's tables (default 18)")
    parser.add_argument("--vector", choices=_core.VECTORS,
                        help="this build's instructions, in the sample and the long runs "
                        "(default: the fastest here)")
    parser.add_argument("--readme", action="store_true", help="README's figures on each "
                        "instruction set, quiet and busy (see the header)")
    args = parser.parse_args()
    if args.readme:
        print(machine())
        readme_figures(3)
        return
    if args.sample:
        print(machine())
        sample(args, args.external)
        return
    engines: dict[str, Path | str] = {"this": ROOT}
    if args.against:
        engines["other"] = args.against.resolve()
    if args.external:
        engines["external"] = args.external
    size = 1 << (18 if args.quick else 20)
    vector = args.vector or "-"
    print(machine())
    print(f"this build's instructions: {args.vector or 'the fastest here'}")
    grundy = measure(engines, f"Grundy's game, G(0..2**{size.bit_length() - 1}-1)",
                     "table", "grundy", size, vector)
    octal = measure(engines, f".04, G(0..2**{size.bit_length() - 1}-1)", "table", ".04", size,
                    vector)
    for name in engines:
        print(f"  {name}: .04 / Grundy's game = cpu {octal[name]['cpu'] / grundy[name]['cpu']:.1f}x"
              f"  wall {octal[name]['wall'] / grundy[name]['wall']:.1f}x   (target: at most 8x)")
    if not args.quick:
        measure(engines, ".354 proof (target: 4 s, 120 MB)", "proof", ".354", 21_000_000,
                vector)
        measure(engines, ".376 proof (target: 2 s)", "proof", ".376", 21_000_000, vector)
        measure(engines, "Grundy's game, G(0..2**22-1)", "table", "grundy", 1 << 22, vector)
    compare_vectors(size)
    print("In process, compiled vs pure, Kayles-xox table to 5000 (extend_sparse, median):")
    fast = median_time(table_run(_core, "extend_sparse", 5000), 9)
    slow = median_time(table_run(_core_pure, "extend_sparse", 5000), 3)
    print(f"  cython {fast * 1e3:8.2f} ms   python {slow * 1e3:9.2f} ms"
          f"   ratio {slow / fast:6.1f}x")


if __name__ == "__main__":
    main()
