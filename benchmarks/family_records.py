"""Values of the board, graph and Chomp families past what is published, one row each.

    nice -n 19 .venv/bin/python benchmarks/family_records.py node-kayles grid:3x17 grid:3x18
    .venv/bin/python benchmarks/family_records.py --out docs/records/families.csv cram 3x11

For each position (of the family named first: cram, node-kayles, arc-kayles or chomp) a
fresh family object (one thread, its default table) finds the value; the row appended to
the CSV file (--out, default docs/records/families.csv; its header written first when it
is new) says the family, the position, the value, the user CPU seconds, the positions the
search expanded and the table's entries, when (UTC) and where (the CPU model), and the
command that derives it again.  Rows are appended as each value is found, so a long run
that is stopped keeps what it finished.  tests/analysis/test_family_records.py derives a
sample of the rows again.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import os
import resource
import sys

from kayles.analysis.games.chomp import Chomp
from kayles.analysis.games.cram import Cram
from kayles.analysis.games.graph_kayles import ArcKayles, NodeKayles
from kayles.kernels.limits import cpu_model

FAMILIES = {"cram": Cram, "node-kayles": NodeKayles, "arc-kayles": ArcKayles, "chomp": Chomp}
COLUMNS = ["family", "position", "value", "cpu_seconds", "expanded", "entries", "date",
           "machine", "command"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", choices=sorted(FAMILIES))
    parser.add_argument("positions", nargs="+")
    parser.add_argument("--out", default="docs/records/families.csv")
    args = parser.parse_args(argv)
    new = not os.path.exists(args.out)
    for text in args.positions:
        game = FAMILIES[args.family]()
        position = game.parse(text)
        start = resource.getrusage(resource.RUSAGE_SELF).ru_utime
        value = game.nimber(position)
        seconds = resource.getrusage(resource.RUSAGE_SELF).ru_utime - start
        stats = game.stats()
        row = {"family": args.family, "position": text, "value": value,
               "cpu_seconds": f"{seconds:.2f}", "expanded": stats.get("expanded", 0),
               "entries": stats.get("entries", 0),
               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
               "machine": cpu_model(),
               "command": f"benchmarks/family_records.py {args.family} {text}"}
        with open(args.out, "a", newline="") as out:
            writer = csv.DictWriter(out, COLUMNS)
            if new:
                writer.writeheader()
                new = False
            writer.writerow(row)
        print(f"{args.family} {text}: {value} ({seconds:.2f} s, {row['expanded']:,} expanded)",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
