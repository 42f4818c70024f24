"""``kayles glossary [TERM]``: the words the commands use, each defined once."""

from __future__ import annotations

__all__ = ["register"]

WIDTH = 88  # columns a definition is wrapped to


def register(sub) -> None:
    p = sub.add_parser("glossary", help="the words the commands use (nim-sequence, mex, rare "
                       "mask, preperiod, P-portion, ...) and the options' vocabulary",
                       description="Define the terms the commands and their help use, and "
                       "the options' vocabulary (one name per idea).")
    p.add_argument("term", metavar="TERM", nargs="?",
                   help="only the terms whose name holds TERM (e.g. mask)")
    p.set_defaults(handler=command_glossary)


def command_glossary(args, out) -> None:
    import textwrap

    from ..glossary import TERMS, lookup

    entries = lookup(args.term) if args.term is not None else list(TERMS.items())
    for name, text in entries:
        out.write(name + "\n")
        out.write(textwrap.fill(text, WIDTH, initial_indent="    ",
                                subsequent_indent="    ") + "\n")
