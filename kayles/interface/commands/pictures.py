"""``kayles plot``: the picture of a nim-sequence, written to a PNG, SVG or PDF file."""

from __future__ import annotations

from ._shared import (
    add_game_option,
    add_old_name,
    end_progress,
    file_name,
    natural,
    open_sequence,
)

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "plot", help="draw G(n) against n to a PNG, SVG or PDF file",
        description="Draw the nim-sequence G(0..N) of a heap game: rare values marked, the "
        "proved preperiod and period drawn.  Needs matplotlib: pip install 'kayles[plot]'.")
    add_game_option(p)
    to = p.add_argument("--to", type=natural("--to"), metavar="N", default=None, dest="last",
                        help="the last heap size drawn (default: as far as the proof of the "
                        "period needs, else 16383)")
    add_old_name(p, "--last", to)
    add_old_name(p, "--max", to)
    p.add_argument("-o", "--output", metavar="FILE", type=file_name, required=True,
                   help="the picture to write: FILE.png, FILE.svg or FILE.pdf")
    p.add_argument("--size", metavar="WxH", default="1600x800",
                   help="the picture's size in pixels (default 1600x800)")
    p.set_defaults(handler=command_plot)


def command_plot(args, out) -> None:
    from ...analysis.plot import figure, last_heap, parse_size, save_format

    kind = save_format(args.output)
    size = parse_size(args.size)
    sequence = open_sequence(args.game)
    try:
        last = last_heap(sequence, args.last)
        drawn = figure(sequence, last, size=size)
    finally:
        end_progress(sequence)
    from ...storage._files import write_atomically

    write_atomically(args.output, lambda handle: drawn.savefig(handle, format=kind), force=True)
    out.write(f"{args.output}: {sequence.game.name}, G(n) for n = 0..{last}, "
              f"{size[0]}x{size[1]} pixels\n")
