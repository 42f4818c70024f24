"""``kayles nimber``: arithmetic in the field of nimbers (add, mul, div, inv, pow, sqrt, table).

Each operation prints its result as one decimal number; ``table N`` prints N rows.  The
work is ``kayles.engine.nimbers``'s; here the sizes a command takes are checked
(kayles.kernels.limits: the API itself takes any size).
"""

from __future__ import annotations

import argparse
import sys

from ...errors import InputError
from ...kernels.limits import NIMBER_SIZE, NIMBER_TABLE, POWER_BASE_SIZE
from ._shared import natural

__all__ = ["register"]

ROWS_A_WRITE = 64  # table rows formatted at once

TABLE_FORMAT = """\
table N prints N rows: row i holds i (x) 0, i (x) 1, ..., i (x) (N - 1), right-aligned in
columns one space apart (the width of the largest number the field of N can hold).
Numbers take any form a count does (2048, 2,048, 2**11); up to 2**16 bits each (pow:
bases of up to 2**12 bits)."""


def _exponent(text: str) -> int:
    """An argparse ``type``: a count, or a count after '-' (a power of the inverse)."""
    try:
        if text.startswith("-"):
            return -natural("K")(text[1:])
        return natural("K")(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"K must be an integer (-2, 3, 2**64), not "
                                         f"{text[:40]!r}") from None


def register(sub) -> None:
    p = sub.add_parser("nimber", help="nimber arithmetic: nim sum, product, inverse, powers, "
                       "square roots, the multiplication table",
                       description="Arithmetic in the field of nimbers: the nim sum (XOR) and "
                       "the nim product, a (x) b = mex{a'(x)b + a(x)b' + a'(x)b' : a' < a, "
                       "b' < b}, of non-negative integers.  Each prints one decimal number.",
                       epilog=TABLE_FORMAT, formatter_class=argparse.RawDescriptionHelpFormatter)
    operations = p.add_subparsers(dest="operation", metavar="OPERATION")
    operations.required = True
    number = natural("a nimber")
    for name, what in (("add", "the nim sum (XOR)"), ("mul", "the nim product")):
        q = operations.add_parser(name, help=f"{what} of the numbers",
                                  description=f"Print {what} of the numbers.")
        q.add_argument("values", metavar="A", nargs="+", type=number)
    q = operations.add_parser("div", help="A (x) B**-1", description="Print A divided by B.")
    q.add_argument("values", metavar="A", nargs=2, type=number)
    q = operations.add_parser("inv", help="the nim inverse of A",
                              description="Print the B with A (x) B = 1 (A > 0).")
    q.add_argument("values", metavar="A", nargs=1, type=number)
    q = operations.add_parser("pow", help="A to the nim power K",
                              description="Print A (x) A (x) ... (K times); K < 0 is a power of "
                              "the inverse (write it after --: pow 3 -- -1).")
    q.add_argument("values", metavar="A", nargs=1, type=number)
    q.add_argument("exponent", metavar="K", type=_exponent)
    q = operations.add_parser("sqrt", help="the nim square root of A",
                              description="Print the one B with B (x) B = A.")
    q.add_argument("values", metavar="A", nargs=1, type=number)
    q = operations.add_parser("table", help="the N x N nim-multiplication table",
                              description="Print the products i (x) j for i, j < N.",
                              epilog=TABLE_FORMAT,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("size", metavar="N", type=natural("N"))
    p.set_defaults(handler=command_nimber)


def _check(values: list[int], limit=NIMBER_SIZE) -> None:
    for value in values:
        if value.bit_length() > limit.high:
            raise InputError(f"kayles nimber takes numbers of up to {limit.high} bits "
                             f"({limit.name}), not {value.bit_length()} bits")


def _decimal(value: int) -> str:
    """``value`` in decimal, however many digits (at most 2**16 bits: some 20,000)."""
    if value.bit_length() > 13_000 and hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # past Python's 4,300 digits: the size is bounded above
    return str(value)


def command_nimber(args, out) -> None:
    from ...engine import nimbers

    if args.operation == "table":
        _table(NIMBER_TABLE.check(args.size, "N"), out)
        return
    values = args.values
    _check(values)
    if args.operation == "add":
        result = nimbers.nim_sum(*values)
    elif args.operation == "mul":
        result = 1
        for value in values:
            result = nimbers.nim_product(result, value)
    elif args.operation == "div":
        result = nimbers.nim_divide(*values)
    elif args.operation == "inv":
        result = nimbers.nim_inverse(values[0])
    elif args.operation == "sqrt":
        result = nimbers.nim_sqrt(values[0])
    else:
        _check(values, POWER_BASE_SIZE)
        result = nimbers.nim_power(values[0], args.exponent)
    out.write(_decimal(result) + "\n")


def _table(n: int, out) -> None:
    from ...engine import nimbers

    if n == 0:
        return
    width = len(str((1 << nimbers.field_bits(n - 1)) - 1))
    for start in range(0, n, ROWS_A_WRITE):
        out.write("".join(" ".join(f"{v:{width}}" for v in nimbers.product_row(i, n)) + "\n"
                          for i in range(start, min(n, start + ROWS_A_WRITE))))
