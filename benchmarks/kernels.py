"""Time the compiled and pure kernels side by side, and the Kayles-xox executable.

    .venv/bin/python benchmarks/kernels.py            # about a minute
    .venv/bin/python benchmarks/kernels.py --quick    # fewer repeats
    .venv/bin/python benchmarks/kernels.py --grundy   # also Grundy's game to 2**20 (~5 s)

Every figure is the median of several runs in this one process (whole-process
figures: of several child processes), so the two kernels meet the same machine
state.  Ratios compare like with like.  Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kayles.engine.rules import GAMES, encode  # noqa: E402
from kayles.engine.sequence import Sequence, _new_table  # noqa: E402
from kayles.kernels import _core  # noqa: E402
from kayles.kernels.limits import cpu_model  # noqa: E402
from kayles.kernels.pure import _core as _core_pure  # noqa: E402

XOX = encode(GAMES["kayles-xox"].kinds)


def machine() -> str:
    """What the figures ran on: the CPU, the instruction sets the compiled kernels use, and
    whether the AVX-512 table has the take-and-break step of VBMI and GFNI."""
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace").split()
    except OSError:
        flags = []
    extra = ("; with AVX512-VBMI and GFNI" if "avx512bw" in _core.VECTORS
             and {"avx512vbmi", "gfni"} <= set(flags) else "")
    return f"{cpu_model()}; kernels' instruction sets here: {', '.join(_core.VECTORS)}{extra}"


def median_time(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def table_run(kernel, method: str, count: int, kinds=XOX):
    def run():
        getattr(kernel, method)(_new_table(count), 0, count, kinds)

    return run


def row_run(kernel, row: bytes, table):
    return lambda: kernel.row_move(row, table, XOX)


def show(label: str, first: float, second: float, names=("cython", "python")) -> None:
    print(f"  {label:38} {names[0]} {first * 1e3:9.2f} ms   {names[1]} {second * 1e3:10.2f} ms"
          f"   ratio {second / first:7.1f}x")


def in_process(repeats: int) -> None:
    print("In process, compiled vs pure kernel (median of runs):")
    for method in ("extend_plain", "extend_sparse"):
        show(f"Kayles-xox table to 5000 ({method})",
             median_time(table_run(_core, method, 5000), repeats),
             median_time(table_run(_core_pure, method, 5000), max(3, repeats // 3)))
    rng = random.Random(2026)
    rows = {
        "100,000-pin row, one run": b"x" * 100_000,
        "100,000-pin row, random gaps": bytes(rng.choice(b"xxxxxxxxx.") for _ in range(100_000)),
    }
    sequence = Sequence(GAMES["kayles-xox"])
    for label, row in rows.items():
        table = sequence.table(max(map(len, row.split(b"."))) + 1)
        show(label, median_time(row_run(_core, row, table), repeats),
             median_time(row_run(_core_pure, row, table), max(3, repeats // 3)))


def sparse_vs_plain(repeats: int, grundy: bool) -> None:
    print("Compiled kernel, sparse-space vs plain mex scan:")
    proof = Sequence(GAMES["kayles-xox"]).prove()
    count = proof.values
    show(f"Kayles-xox proof ({count} values)",
         median_time(table_run(_core, "extend_sparse", count), repeats),
         median_time(table_run(_core, "extend_plain", count), max(3, repeats // 3)),
         names=("sparse", "plain"))
    if grundy:
        kinds = encode(GAMES["grundy"].kinds)
        seconds = median_time(table_run(_core, "extend_sparse", 1 << 20, kinds), 1)
        print(f"  Grundy's game, all nimbers below 2**20   sparse {seconds:9.2f} s")


def whole_process(repeats: int) -> None:
    exe = str(ROOT / "Kayles-xox")
    if not Path(exe).exists():
        print("Whole process: ./Kayles-xox is missing (make Kayles-xox)")
        return
    row = "x" * 1000

    def child(*args):
        return lambda: subprocess.run(args, stdout=subprocess.DEVNULL, check=True)

    base = median_time(child(sys.executable, "-c", "pass"), repeats)
    print(f"Whole process (median of {repeats}); baseline '{Path(sys.executable).name} -c pass' "
          f"{base * 1e3:.1f} ms:")
    for label, args in (("Kayles-xox grundy 1000", ("grundy", "1000")),
                        ("Kayles-xox <1000-pin row>", (row,)),
                        ("Kayles-xox grundy 1000000", ("grundy", "1000000"))):
        seconds = median_time(child(exe, *args), repeats)
        print(f"  {label:38} {seconds * 1e3:9.1f} ms   {seconds / base:5.2f}x baseline")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--grundy", action="store_true", help="also Grundy's game to 2**20")
    args = parser.parse_args()
    repeats = 5 if args.quick else 15
    print(machine())
    in_process(repeats)
    sparse_vs_plain(repeats, args.grundy)
    whole_process(repeats)


if __name__ == "__main__":
    main()
