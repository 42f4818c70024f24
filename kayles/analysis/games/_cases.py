"""The 'count, then one case per line' text format shared by nim and treblecross.

The first non-blank line holds the number of cases n; exactly n non-blank lines
follow.  Blank (whitespace-only) lines are skipped anywhere; line numbers in
errors are the file's own, 1-based.
"""

from __future__ import annotations

from ..._numbers import MAX_DIGITS, is_natural
from ...errors import InputError, counted, shown

__all__ = ["cases"]


def cases(text: str) -> list[tuple[int, str]]:
    """The ``(line_number, stripped_line)`` of each case, checked against the count."""
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise InputError("line 1: empty input, expected the number of cases")
    number, head = lines[0]
    if not is_natural(head):
        raise InputError(
            f"line {number}: the first line must be the number of cases, not {shown(head)}"
        )
    body = lines[1:]
    # a count with more digits than the file has lines is too big: no need to read it
    count = int(head) if len(head) <= MAX_DIGITS and len(head) <= len(str(len(body))) else None
    if count is None:
        last = len(text.splitlines())
        raise InputError(
            f"line {last}: the count on line {number} is {shown(head)} but only "
            f"{counted(len(body), 'case')} {'follows' if len(body) == 1 else 'follow'}"
        )
    if len(body) > count:
        extra = body[count][0]
        raise InputError(f"line {extra}: more cases than the count {count} on line {number}")
    if len(body) < count:
        last = len(text.splitlines()) or 1
        raise InputError(
            f"line {last}: the count on line {number} is {count} but only "
            f"{counted(len(body), 'case')} {'follows' if len(body) == 1 else 'follow'}"
        )
    return body
