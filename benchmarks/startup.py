"""Start-up of Kayles-xox against the bare interpreter, and the price of --save.

    .venv/bin/python benchmarks/startup.py             # about half a minute
    .venv/bin/python benchmarks/startup.py --quick     # fewer repeats

Whole-process times, medians of interleaved runs (each round runs every command
once, so they all meet the same machine state), as ratios to the baseline
``python -I -S -c pass`` (the interpreter of this virtualenv, no site: site
alone costs more than Kayles-xox's whole budget):

* ``grundy 1000`` and ``grundy 1000000`` with a warm proof cache (the usual
  case), a cold one (a fresh empty cache directory each run: the run proves the
  period and writes the cache) and none at all (an unusable cache directory);
* ``kayles grundy N --game G`` (default: Grundy's game to 2**19) with and
  without ``--save`` (chunks appended and fsync'ed, from 65,536 values up to
  about 5 s of computing each), and ``--resume`` of the whole saved table
  (read, every checksum checked, the proof's checkpoints replayed).

Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
XOX = str(ROOT / "Kayles-xox")
KAYLES = [sys.executable, "-m", "kayles"]


def timed(command: list[str], env: dict, before=None) -> float:
    if before is not None:
        before()
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=env, cwd=ROOT)
    return time.perf_counter() - start


def medians(cases: dict, rounds: int) -> dict[str, float]:
    """cases: name -> (command, env, before); the median seconds of each, run interleaved."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, (command, env, before) in cases.items():
            times[name].append(timed(command, env, before))
    return {name: statistics.median(values) for name, values in times.items()}


def startup(rounds: int, work: Path) -> None:
    base_env = {k: v for k, v in os.environ.items() if k not in ("KAYLES_PURE", "XDG_CACHE_HOME")}
    warm = dict(base_env, XDG_CACHE_HOME=str(work / "warm"))
    cold_dir = work / "cold"
    cold = dict(base_env, XDG_CACHE_HOME=str(cold_dir))
    blocker = work / "not-a-directory"
    blocker.write_text("")
    none = dict(base_env, XDG_CACHE_HOME=str(blocker))
    subprocess.run([XOX, "grundy", "1"], stdout=subprocess.DEVNULL, check=True, env=warm)

    def empty_cold() -> None:
        shutil.rmtree(cold_dir, ignore_errors=True)

    cases = {"python -I -S -c pass": ([sys.executable, "-I", "-S", "-c", "pass"], base_env, None)}
    for n in ("1000", "1000000"):
        cases[f"grundy {n}, warm cache"] = ([XOX, "grundy", n], warm, None)
        cases[f"grundy {n}, cold cache"] = ([XOX, "grundy", n], cold, empty_cold)
        cases[f"grundy {n}, no cache"] = ([XOX, "grundy", n], none, None)
    found = medians(cases, rounds)
    base = found["python -I -S -c pass"]
    print(f"Kayles-xox start-up, whole process, median of {rounds} interleaved runs:")
    for name, seconds in found.items():
        print(f"  {name:28} {seconds * 1e3:8.2f} ms   {seconds / base:5.2f}x baseline")
    print("  targets (issue 8): grundy 1000 <= 1.5x, grundy 1000000 <= 3x (warm cache)")


def save_overhead(rounds: int, n: int, game: str, work: Path) -> None:
    env = dict(os.environ)
    table = work / "saved.table"
    command = [*KAYLES, "grundy", str(n), "--game", game, "--checksum"]
    cases = {
        "without --save": (command, env, None),
        "with --save": ([*command, "--save", str(table)], env,
                        lambda: table.unlink(missing_ok=True)),  # (--save never overwrites)
        "--resume of the whole table": ([*command, "--resume", str(table)], env, None),
    }
    found = medians(cases, rounds)
    plain = found["without --save"]
    print(f"\nkayles grundy {n} --game {game} --checksum, median of {rounds} interleaved runs "
          f"({table.stat().st_size / 1e6:.1f} MB table):")
    for name, seconds in found.items():
        print(f"  {name:28} {seconds:8.3f} s   {seconds / plain:6.3f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--save-n", type=int, default=1 << 19,
                        help="heap sizes of the --save comparison (default 2**19)")
    parser.add_argument("--save-game", default="grundy",
                        help="the game of the --save comparison (default grundy)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kayles-bench-") as folder:
        work = Path(folder)
        startup(11 if args.quick else 41, work)
        save_overhead(1 if args.quick else 3, args.save_n, args.save_game, work)


if __name__ == "__main__":
    main()
