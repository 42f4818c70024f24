"""``kayles hackenbush``: Green Hackenbush pictures read from edge lists: the value, every
winning cut, and a drawing (``--plot``).

The handler reads, calls ``kayles.analysis.games.hackenbush`` (and its drawing), and
writes; FILE takes ``-`` for standard input.  Several FILEs are a sum of pictures.
"""

from __future__ import annotations

import argparse

from ...errors import InputError, ResourceError, path_text
from .._frontend import read_text
from ._shared import add_json_option, dump_json, file_name

__all__ = ["register"]

CUTS_A_WRITE = 1 << 16  # cuts formatted at once (a picture may have millions)
DEFAULT_SIZE = "1200x800"

HACKENBUSH_FORMAT = """\
FILE: the edges of a picture, tokens u-v separated by spaces or newlines, g the
ground (every g is the same ground vertex); a vertex name is any run of characters
other than spaces and '-'.  Loops (a-a), parallel edges and edges that do not reach
the ground are fine (those add nothing).  Edges are numbered from 0 in file order.

Prints 'value: V' (the nim-value; 0: the player to move loses) and
'cuts: I:u-v ...', every edge whose cut wins (leaves value 0), or 'cuts: none'.
Several FILEs are a sum (the value is the XOR of theirs): after 'value: V', one
line per file, 'FILE: value v, cuts: I:u-v ...', the cuts in that file that leave
the whole sum at 0.

  # a triangle standing on the ground, a stalk of two on its top
  g-a a-b b-g b-c c-d"""


def register(sub) -> None:
    p = sub.add_parser("hackenbush", help="Green Hackenbush: the value and every winning cut",
                       description="The nim-value of Green Hackenbush pictures (impartial "
                       "Hackenbush on any graph rooted at the ground) and every winning cut, "
                       "by the colon and fusion principles in about linear time.",
                       epilog=HACKENBUSH_FORMAT,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", metavar="FILE", nargs="+", type=file_name,
                   help="an edge list, or - for standard input; several FILEs: their sum")
    add_json_option(p, "object", '{"value": V, "cuts": [I, ...]}; with several FILEs '
                    '{"value": V, "pictures": [{"file": FILE, "value": v, "cuts": [I, ...]}, '
                    '...]}')
    p.add_argument("--plot", metavar="OUT.png", type=file_name,
                   help="also draw the pictures, winning cuts in red, to OUT.png (or .svg, "
                   ".pdf; needs kayles[plot]); an existing OUT is kept unless --force")
    p.add_argument("--size", metavar="WxH",
                   help=f"with --plot: the drawing's size in pixels (default {DEFAULT_SIZE})")
    p.add_argument("--force", action="store_true",
                   help="with --plot: replace OUT if it exists (a regular file only)")
    p.set_defaults(handler=command_hackenbush)


def _where(name: str) -> str:
    return "standard input" if name == "-" else path_text(name)


def command_hackenbush(args, out) -> None:
    from ...analysis.games import hackenbush

    if args.files.count("-") > 1:
        raise InputError("standard input (-) can be read once: give - at most once")
    if args.plot is None and (args.size is not None or args.force):
        raise InputError(f"{'--size' if args.size is not None else '--force'} goes with --plot")
    if args.plot is not None:  # refused before any work: a bad name, size or target
        from ...analysis.plot import parse_size, save_format
        from ...storage._files import check_target

        kind = save_format(args.plot)
        size = parse_size(args.size or DEFAULT_SIZE)
        check_target(args.plot, args.force, "--force replaces it")
    pictures = []
    for name in args.files:
        text = read_text(name)
        try:
            pictures.append(hackenbush.parse_picture(text))
        except (InputError, ResourceError) as exc:  # the file named: one of several
            raise type(exc)(f"{_where(name)}: {exc}") from None
        del text
    names = [_where(name) for name in args.files]
    if args.plot is not None:
        from ...analysis.games import hackenbush_picture

        hackenbush_picture.check_drawable(pictures, names)
    total = hackenbush.sum_value(pictures)
    cuts = hackenbush.sum_cuts(pictures)
    if args.plot is not None:
        from ...storage._files import write_atomically

        drawn = hackenbush_picture.figure(pictures, cuts, names if len(pictures) > 1 else [""],
                                          size, total if len(pictures) > 1 else None)
        write_atomically(args.plot, lambda handle: drawn.savefig(handle, format=kind),
                         force=args.force, hint="--force replaces it")
    if args.json:
        if len(pictures) == 1:
            dump_json({"value": total, "cuts": cuts[0]}, out)
        else:
            dump_json({"value": total, "pictures": [
                {"file": path_text(name), "value": p.value, "cuts": won}
                for name, p, won in zip(args.files, pictures, cuts)]}, out)
        return
    out.write(f"value: {total}\n")
    if len(pictures) == 1:
        _write_cuts("cuts:", pictures[0], cuts[0], out)
    else:
        for name, picture, won in zip(names, pictures, cuts):
            _write_cuts(f"{name}: value {picture.value}, cuts:", picture, won, out)
    if args.plot is not None:
        out.write(f"picture: {path_text(args.plot)}, {size[0]}x{size[1]} pixels\n")


def _write_cuts(head: str, picture, won: list[int], out) -> None:
    """``head`` and the cuts as I:u-v on one line (``none`` without), a piece at a time."""
    if not won:
        out.write(f"{head} none\n")
        return
    out.write(head)
    for at in range(0, len(won), CUTS_A_WRITE):
        out.write("".join(f" {i}:{picture.edge_text(i)}" for i in won[at:at + CUTS_A_WRITE]))
    out.write("\n")
