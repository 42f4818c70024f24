"""Non-negative decimal integers read from text (arguments and files), of bounded length.

Every parser of a count or a heap size goes through ``natural``: ASCII digits
only (so '١٢' and '12.0' are refused, not read as numbers), and at most
MAX_DIGITS of them.  Python turns a decimal string into an int in time
quadratic in its length (a million digits take seconds, a 50 MB file hours),
so longer numbers are refused at once instead of hanging the front end.
"""

from __future__ import annotations

import sys

from .errors import InputError, shown

__all__ = ["MAX_DIGITS", "brief", "count", "is_natural", "natural"]

MAX_DIGITS = 100_000  # int() of this many digits takes about 0.05 s, str() about 0.1 s
_DEFAULT_LIMIT = 4000  # Python's own int(str) limit is 4300 digits; past it, lift the limit


def is_natural(text: str) -> bool:
    """Whether ``text`` is written as a non-negative decimal integer (ASCII digits)."""
    return bool(text) and text.isascii() and text.isdigit()


def natural(text: str, what: str = "N",
            wording: str = "must be a non-negative decimal integer") -> int:
    """``text`` as an int, or ValueError: '<what> <wording>, not <text>' or 'too many digits'."""
    if not is_natural(text):
        raise InputError(f"{what} {wording}, not {shown(text)}")
    if len(text) > MAX_DIGITS:
        raise InputError(f"{what} has {len(text)} digits; at most {MAX_DIGITS} are accepted")
    if len(text) > _DEFAULT_LIMIT and hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # up to MAX_DIGITS, any size means any size
    return int(text)


def count(text: str, what: str = "N") -> int:
    """A count as the ``kayles`` commands take it, every option alike: decimal digits,
    grouped in threes by commas or underscores as the messages print them (``2,048``), or
    a power of two ``2**K`` (K up to 99); ValueError otherwise."""
    import re

    power = re.fullmatch(r"2\s*\*\*\s*([0-9]{1,2})", text)
    if power:
        return 1 << int(power.group(1))
    if re.fullmatch(r"[0-9]{1,3}(?:,[0-9]{3})+|[0-9]{1,3}(?:_[0-9]{3})+", text):
        text = text.replace(",", "").replace("_", "")
    return natural(text, what, "must be a decimal integer or 2**K (2048, 2,048 or 2**11)")


def brief(number: int) -> str:
    """``number`` for a message: its digits, or how many there are past 30 of them."""
    text = str(number)
    return text if len(text) <= 30 else f"{text[:10]}... ({len(text)} digits)"
