"""Values of the board, graph and Chomp families past what is published, one row each.

    nice -n 19 .venv/bin/python benchmarks/family_records.py node-kayles grid:3x17 grid:3x18
    .venv/bin/python benchmarks/family_records.py --out docs/records/families.csv cram 3x11

For each position (of the family named first, as ``kayles solve`` names it: cram,
node-kayles, arc-kayles or chomp) a fresh game of that family (one thread, its default
table) finds the value; the row added to the CSV file (--out, default
docs/records/families.csv) says the family, the position, the value, the user CPU seconds,
the positions the search expanded and the table's entries, when (UTC) and where (the CPU
model), and the command that derives it again.  The file is written whole through a
temporary file and a rename after each value, so a long run that is stopped keeps what it
finished and a reader never sees half a row.  tests/analysis/test_family_records.py
derives a sample of the rows again.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import os
import resource
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kayles.analysis.games.families import GameSource  # noqa: E402
from kayles.kernels.limits import cpu_model  # noqa: E402

FAMILIES = ("cram", "node-kayles", "arc-kayles", "chomp")  # those with a stats() to record
COLUMNS = ["family", "position", "value", "cpu_seconds", "expanded", "entries", "date",
           "machine", "command"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", choices=FAMILIES)
    parser.add_argument("positions", nargs="+")
    parser.add_argument("--out", default=str(ROOT / "docs" / "records" / "families.csv"))
    args = parser.parse_args(argv)
    rows = read_rows(args.out)
    for text in args.positions:
        game = GameSource.parse(args.family).make()
        position = game.parse(text)
        start = resource.getrusage(resource.RUSAGE_SELF).ru_utime
        value = game.nimber(position)
        seconds = resource.getrusage(resource.RUSAGE_SELF).ru_utime - start
        stats = game.stats()
        rows.append({"family": args.family, "position": text, "value": value,
                     "cpu_seconds": f"{seconds:.2f}", "expanded": stats.get("expanded", 0),
                     "entries": stats.get("entries", 0),
                     "date": datetime.datetime.now(datetime.timezone.utc).strftime(
                         "%Y-%m-%d %H:%M"),
                     "machine": cpu_model(),
                     "command": f"benchmarks/family_records.py {args.family} {text}"})
        write_rows(args.out, rows)
        print(f"{args.family} {text}: {value} ({seconds:.2f} s, {rows[-1]['expanded']:,} "
              "expanded)", flush=True)
    return 0


def read_rows(path: str) -> list[dict]:
    """The rows already there (none when the file is new); a file of other columns is
    refused rather than overwritten."""
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            sys.exit(f"family_records.py: {path} has columns {reader.fieldnames}, not "
                     f"{COLUMNS}: give another --out")
        return list(reader)


def write_rows(path: str, rows: list[dict]) -> None:
    text = io.StringIO()
    writer = csv.DictWriter(text, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".families-", suffix=".csv")
    try:
        with os.fdopen(fd, "w", newline="") as out:
            out.write(text.getvalue())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


if __name__ == "__main__":
    sys.exit(main())
