"""Time the sparse-space engine on long runs: ratios, proofs, peak memory, in one run.

    .venv/bin/python benchmarks/engine.py                  # several minutes (.04 to 2**20)
    .venv/bin/python benchmarks/engine.py --quick          # Grundy's game and .04 to 2**18 only
    .venv/bin/python benchmarks/engine.py --against DIR    # also the kayles package in DIR
    .venv/bin/python benchmarks/engine.py --external 'CMD' # also another program's tables

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
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import machine, median_time, table_run  # noqa: E402  (it puts ROOT on sys.path)

from kayles.engine import _core, _core_pure  # noqa: E402
from kayles.engine.rules import encode, get_game  # noqa: E402

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from kayles.engine.checksum import fletcher32
from kayles.engine.rules import get_game
from kayles.engine.sequence import Sequence
what, game, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
sequence = Sequence(get_game(game))
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


def child(root: Path, what: str, game: str, count: int) -> dict:
    """Run one computation in a fresh interpreter on the package in root."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), what, game, str(count)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def describe(result: dict) -> str:
    proof = ""
    if "period" in result:
        proof = f"  preperiod {result['preperiod']} period {result['period']}"
    return (f"wall {result['wall']:7.2f} s  cpu {result['cpu']:7.2f} s"
            f"  peak {result['peak_mb']:6.1f} MB  checksum {result['checksum']}"
            f"  values {result['values']}{proof}")


def measure(engines: dict[str, Path | str], label: str, what: str, game: str,
            count: int) -> dict:
    """One computation on every engine (a kayles package's directory, or an
    external command for tables), then this engine's ratios to each other."""
    print(f"{label}:")
    results = {}
    for name, engine in engines.items():
        if isinstance(engine, Path):
            results[name] = child(engine, what, game, count)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short tables, no proofs")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="a directory holding another build of the kayles package")
    parser.add_argument("--external", metavar="CMD",
                        help="another program's table: a command with {game}, {count}, {log2}")
    args = parser.parse_args()
    engines: dict[str, Path | str] = {"this": ROOT}
    if args.against:
        engines["other"] = args.against.resolve()
    if args.external:
        engines["external"] = args.external
    size = 1 << (18 if args.quick else 20)
    print(machine())
    grundy = measure(engines, f"Grundy's game, G(0..2**{size.bit_length() - 1}-1)",
                     "table", "grundy", size)
    octal = measure(engines, f".04, G(0..2**{size.bit_length() - 1}-1)", "table", ".04", size)
    for name in engines:
        print(f"  {name}: .04 / Grundy's game = cpu {octal[name]['cpu'] / grundy[name]['cpu']:.1f}x"
              f"  wall {octal[name]['wall'] / grundy[name]['wall']:.1f}x   (target: at most 8x)")
    if not args.quick:
        measure(engines, ".354 proof (target: 4 s, 120 MB)", "proof", ".354", 21_000_000)
        measure(engines, ".376 proof (target: 2 s)", "proof", ".376", 21_000_000)
        measure(engines, "Grundy's game, G(0..2**22-1)", "table", "grundy", 1 << 22)
    compare_vectors(size)
    print("In process, compiled vs pure, Kayles-xox table to 5000 (extend_sparse, median):")
    fast = median_time(table_run(_core, "extend_sparse", 5000), 9)
    slow = median_time(table_run(_core_pure, "extend_sparse", 5000), 3)
    print(f"  cython {fast * 1e3:8.2f} ms   python {slow * 1e3:9.2f} ms"
          f"   ratio {slow / fast:6.1f}x")


if __name__ == "__main__":
    main()
