"""Record runs side by side: kayles run (bounded), the full-table kernel, the Rust solver.

    .venv/bin/python benchmarks/records.py                       # each game to 2**24
    .venv/bin/python benchmarks/records.py --log2 26 --games .167 .014
    .venv/bin/python benchmarks/records.py --rust /tmp/anchors/octal --project
    .venv/bin/python benchmarks/records.py --vector avx2   # AVX2 forced (KAYLES_VECTOR)
        # with the public Rust solver (built by anchors/build_rust_octal.sh) and the time
        # to 2**40

For each game, three child processes, each under GNU time (its wall time and
peak resident memory, the interpreter's included):

* ``kayles run GAME --to 2**K`` in a fresh folder, default window (bounded past
  2**23): its values a second over the last doubling (the records' seconds),
  its peak memory;
* the full-table kernel (extend_sparse on a table of 2**K + 1 values) timed
  over the same last doubling, and its peak memory;
* with --rust, the Rust record solver's bounded mode (``octal GAME FULL TAIL``:
  the first FULL values in memory, then a ring of TAIL), stopped once it prints
  its frequencies at 2**K; its values a second over the last doubling.

Same answers: the run's frequency table at each 2**k must equal the published
one (tests/data/published_frequencies.json, to 2**26), the Rust solver's at
2**K, and the full table's at 2**(K-1) and 2**K; its Fletcher-32 the full
table's.  It prints the instruction set,
the ratios and, with --project, the time the bounded run would take to 2**40
at the rate of its last doubling (and, where the last doubling was slower than
the one before, at that rate slowing by the same factor each doubling).
Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import machine  # noqa: E402  (kernels.py puts ROOT on sys.path)

from kayles.kernels import _core  # noqa: E402

PUBLISHED = json.loads((ROOT / "tests" / "data" / "published_frequencies.json").read_text())
GAMES = (".167", ".161", ".014", ".034", ".172", "grundy")

FULL_CHILD = r"""
import json, sys, time
from kayles.kernels.chooser import kernel
from kayles.engine.checksum import fletcher32
from kayles.engine.rules import encode
from kayles.engine.codes import get_game
game, log2, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
count = (1 << log2) + 1
kinds = encode(get_game(game).kinds)
table = memoryview(bytearray(2 * count)).cast("H")
scratch = kernel.Scratch(threads=threads)
def frequencies():  # of heaps 1..stop-1: G(0) = 0 taken out
    counts = scratch.histogram()
    counts[0] -= 1
    return {str(v): c for v, c in enumerate(counts) if c}
kernel.extend_sparse(table, 0, (1 << (log2 - 1)) + 1, kinds, scratch)
half = frequencies()
began = time.perf_counter()
kernel.extend_sparse(table, (1 << (log2 - 1)) + 1, count, kinds, scratch)
last = time.perf_counter() - began
print(json.dumps({"last_doubling": last, "fletcher32": "%08x" % fletcher32(table),
                  "frequencies": {str(1 << (log2 - 1)): half, str(1 << log2): frequencies()}}))
"""


def timed(command: list[str], **options) -> tuple[subprocess.CompletedProcess, float, float]:
    """(result, wall seconds, peak MB) of a command run under GNU time."""
    done = subprocess.run(["/usr/bin/time", "-f", "%e %M", *command], capture_output=True,
                          text=True, **options)
    if done.returncode:
        sys.exit(f"records.py: {' '.join(command)} failed:\n{done.stderr}")
    wall, peak_kb = done.stderr.split()[-2:]
    return done, float(wall), int(peak_kb) / 1024


def our_run(game: str, log2: int, threads: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "kayles", "run", game, "--to", f"2**{log2}", "--dir",
                   folder, "--db", os.path.join(folder, "db"), "--json", "--threads",
                   str(threads)]
        done, wall, peak = timed(command, cwd=ROOT)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    last, before = records[-1], records[-2]
    return {"records": records, "wall": wall, "peak_mb": peak,
            "rate": (last["n"] - before["n"]) / max(last["seconds"] - before["seconds"], 1e-9),
            "previous_rate": (before["n"] - records[-3]["n"]) / max(
                before["seconds"] - records[-3]["seconds"], 1e-9)}


def full_table(game: str, log2: int, threads: int) -> dict:
    done, wall, peak = timed([sys.executable, "-c", FULL_CHILD, game, str(log2), str(threads)],
                             cwd=ROOT)
    result = json.loads(done.stdout)
    return {**result, "wall": wall, "peak_mb": peak,
            "rate": (1 << (log2 - 1)) / result["last_doubling"]}


def rust_run(binary: str, game: str, log2: int, full: int, tail: int) -> dict | None:
    """The Rust solver's bounded mode until it prints its frequencies at 2**log2."""
    if not re.fullmatch(r"0\.[0-7]+", f"0{game}"):
        return None
    stamps: dict[int, float] = {}
    frequencies: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder, subprocess.Popen(
            [binary, f"0{game}", str(full), str(tail)], cwd=folder, stdout=subprocess.PIPE,
            text=True) as proc:
        reading = None
        for line in proc.stdout:
            found = re.match(r"(\d+) freqs after ([\d.]+)(m?s)", line)
            if found:
                n = int(found.group(1))
                seconds = float(found.group(2)) / (1000 if found.group(3) == "ms" else 1)
                stamps[n] = seconds   # printed twice at the switch: the later one counts
                reading = [] if n == 1 << log2 else None
                continue
            if reading is not None:
                reading.append(line)
                if line.startswith("]"):
                    for item in json.loads("".join(reading)):
                        if item["frequency"]:
                            frequencies[str(item["nimber"])] = item["frequency"]
                    proc.kill()
                    break
        proc.kill()
    n, half = 1 << log2, 1 << (log2 - 1)
    if n not in stamps or half not in stamps:
        return None
    return {"rate": half / (stamps[n] - stamps[half]), "frequencies": frequencies}


def same_frequencies(records: list[dict], game: str) -> str:
    """'yes (k tables)' when every published table up to the run's end is the run's."""
    published = PUBLISHED["games"].get(f"0{game}")
    if published is None:
        return "- (none published)"
    checked = [r for r in records if str(r["n"]) in published]
    wrong = [r["n"] for r in checked if r["frequencies"] != published[str(r["n"])]]
    return f"NO at {wrong}" if wrong else f"yes ({len(checked)} tables)"


def same_as_rust(rust: dict[str, int], ours: dict[str, int]) -> bool:
    """Whether the Rust solver's table at n is ours (heaps 1..n).  It counts G(0) too, and
    at the switch to its ring leaves G(n) out: the same counts once G(0) = 0 is taken out
    (and, there, one G(n) put in)."""
    from collections import Counter

    theirs = Counter({int(v): c for v, c in rust.items()})
    theirs[0] -= 1
    extra = Counter({int(v): c for v, c in ours.items()})
    extra.subtract(theirs)
    left = {v: c for v, c in extra.items() if c}
    return not left or (len(left) == 1 and next(iter(left.values())) == 1)


def duration(seconds: float) -> str:
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--log2", type=int, default=24, help="run to 2**K (default 24)")
    parser.add_argument("--rust", metavar="BINARY", help="the Rust record solver, built by "
                        "benchmarks/anchors/build_rust_octal.sh")
    parser.add_argument("--rust-full", type=int, default=1 << 22, metavar="N",
                        help="its values in memory before the ring (default 2**22)")
    parser.add_argument("--rust-tail", type=int, default=1 << 22, metavar="N",
                        help="its ring (default 2**22, our window)")
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                        metavar="T", help="threads for both of ours (default: the cores)")
    parser.add_argument("--project", action="store_true",
                        help="the time to 2**40 of each run at its last doubling's rate")
    parser.add_argument("--vector", choices=_core.VECTORS, default=None,
                        help="our kernels' instruction set (KAYLES_VECTOR in both of ours; "
                        "default: the fastest here)")
    args = parser.parse_args()
    if shutil.which("time") is None:
        sys.exit("records.py needs GNU time (Debian: apt install time)")
    if args.vector:
        os.environ["KAYLES_VECTOR"] = args.vector   # the children inherit it
    print(machine())
    print(f"to 2**{args.log2}, {args.threads} thread(s), our kernels on "
          f"{_core.default_vector()}; rates in values a second over the last doubling; peak "
          "memory of the whole process (GNU time)")
    for game in args.games:
        began = time.perf_counter()
        ours = our_run(game, args.log2, args.threads)
        full = full_table(game, args.log2, args.threads)
        last = ours["records"][-1]
        print(f"\n{game}: bounded {ours['rate'] / 1e6:.2f}M/s, peak {ours['peak_mb']:.0f} MB "
              f"(whole run {ours['wall']:.1f} s); full table {full['rate'] / 1e6:.2f}M/s, "
              f"peak {full['peak_mb']:.0f} MB; bounded / full = {ours['rate'] / full['rate']:.2f}")
        tables = {str(r["n"]): r["frequencies"] for r in ours["records"][-2:]}
        print(f"  same values: published frequencies {same_frequencies(ours['records'], game)}; "
              f"the full table's frequencies at 2**{args.log2 - 1} and 2**{args.log2} "
              f"{'yes' if tables == full['frequencies'] else 'NO'}, its Fletcher-32 "
              f"{'yes' if last['fletcher32'] == full['fletcher32'] else 'NO'} "
              f"({last['fletcher32']})")
        if args.rust:
            rust = rust_run(args.rust, game, args.log2, args.rust_full, args.rust_tail)
            if rust is None:
                print("  Rust solver: not an octal code it runs, or no 2**K reached")
            else:
                agrees = same_as_rust(rust["frequencies"], last["frequencies"])
                print(f"  Rust solver bounded: {rust['rate'] / 1e6:.3f}M/s; kayles run is "
                      f"{ours['rate'] / rust['rate']:.1f}x its speed; its frequencies at "
                      f"2**{args.log2}: {'the same' if agrees else 'DIFFERENT'}")
        if args.project:
            left = (1 << 40) - last["n"]
            slowing = ours["previous_rate"] / ours["rate"]
            line = f"  to 2**40: {duration(left / ours['rate'])} at this rate"
            if slowing > 1:
                trend = sum(((1 << k) / ours["rate"]) * slowing ** (k - args.log2 + 1)
                            for k in range(args.log2, 40))
                line += f"; {duration(trend)} slowing {slowing:.2f}x a doubling as the last did"
            print(line)
        print(f"  ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
