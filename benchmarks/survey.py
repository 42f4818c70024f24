"""Time ``kayles survey`` with one job and with several, side by side: the speed-up.

    .venv/bin/python benchmarks/survey.py                          # --digits 2 --max 100000
    .venv/bin/python benchmarks/survey.py --digits 3 --max 100000  # the issue's target (minutes)
    .venv/bin/python benchmarks/survey.py --jobs 1 2 4 --repeats 3

Each run is a whole ``kayles survey`` process on a fresh database in a temporary
directory (nothing is reused between runs); each figure is the median wall time
of ``--repeats`` runs, the job counts taking turns so they meet the same machine
state.  CPU time (the survey and its workers) over wall time says how many cores a
run really got: on a shared machine a low speed-up with about one core busy means
the other core was taken.  The tables of all runs must agree.  A model follows: the
per-game compute times of the first one-job run (the database's ``seconds``), handed
out in the survey's order to J idle cores, give the speed-up an unloaded machine
would allow (the last long game bounds it).  Nothing here asserts.
"""

from __future__ import annotations

import argparse
import heapq
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def one_run(digits: int, limit: int, jobs: int, folder: Path,
            number: int) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the survey and its workers, the CSV table)."""
    db = folder / f"run{number}-jobs{jobs}.sqlite"
    command = [sys.executable, "-m", "kayles", "survey", "--digits", str(digits),
               "--max", str(limit), "--jobs", str(jobs), "--db", str(db), "--csv"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, cwd=ROOT, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, result.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digits", type=int, default=2)
    parser.add_argument("--max", type=int, default=100000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    times: dict[int, list[float]] = {jobs: [] for jobs in args.jobs}
    cpus: dict[int, list[float]] = {jobs: [] for jobs in args.jobs}
    tables = set()
    with tempfile.TemporaryDirectory() as folder:
        for number in range(args.repeats):
            for jobs in args.jobs:
                seconds, cpu, table = one_run(args.digits, args.max, jobs, Path(folder), number)
                times[jobs].append(seconds)
                cpus[jobs].append(cpu)
                tables.add(table)
                print(f"  run {number + 1}, --jobs {jobs}: {seconds:.1f} s wall, "
                      f"{cpu:.1f} s CPU", flush=True)
        per_game = game_seconds(Path(folder) / f"run0-jobs{args.jobs[0]}.sqlite", args.digits)
    base = statistics.median(times[args.jobs[0]])
    print(f"kayles survey --digits {args.digits} --max {args.max}"
          f" ({args.repeats} run(s) each, median wall time)")
    for jobs in args.jobs:
        median = statistics.median(times[jobs])
        cpu = statistics.median(cpus[jobs])
        print(f"  --jobs {jobs}: {median:7.1f} s   speed-up {base / median:.2f}x   "
              f"CPU {cpu:.1f} s, {cpu / median:.2f} cores busy on average")
    print("  tables agree" if len(tables) == 1 else "  TABLES DIFFER")
    total = sum(per_game)
    print(f"model: the {len(per_game)} games took {total:.1f} s of compute with one job "
          f"(longest {max(per_game):.1f} s); handed out in order to J idle cores:")
    for jobs in args.jobs:
        wall = list_schedule(per_game, jobs)
        print(f"  --jobs {jobs}: {wall:7.1f} s   speed-up {total / wall:.2f}x (unloaded bound)")


def game_seconds(db: Path, digits: int) -> list[float]:
    """Each game's compute time in the survey's own order (the ``seconds`` column)."""
    from kayles.analysis.survey import codes_with_digits

    with sqlite3.connect(db) as connection:
        found = dict(connection.execute("SELECT code, seconds FROM games"))
    return [found[code] for code in codes_with_digits(digits)]


def list_schedule(seconds: list[float], workers: int) -> float:
    """When the last game ends if each of ``workers`` cores takes the next game when free."""
    free = [0.0] * workers
    for cost in seconds:
        heapq.heapreplace(free, free[0] + cost)
    return max(free)


if __name__ == "__main__":
    main()
