"""Writing long nim-sequences: ``[G(0), G(1), ..., G(N)]`` streamed in big chunks.

Shared by both front ends.  The sequence hands over (values, times) pieces;
each distinct piece is formatted once and written as many times as it
repeats, so a proved sequence of any length streams in O(length) time and
O(period) memory.
"""

from __future__ import annotations

from ..engine.sequence import Sequence

CHUNK = 1 << 20  # characters per write


def write_nimbers(sequence: Sequence, n: int, out) -> None:
    """Write [G(0), ..., G(n)] and a newline; everything is computed before the first write."""
    pieces = [(values, times) for values, times in sequence.segments(n + 1) if times and values]
    top = max(max(values) for values, _ in pieces)
    names = [str(v) for v in range(top + 1)]
    out.write("[")
    sep = ""
    for values, times in pieces:
        text = ", ".join([names[v] for v in values])
        out.write(sep + text)
        sep = ", "
        if times > 1:
            block = ", " + text
            batch = max(1, CHUNK // len(block))
            full, rest = divmod(times - 1, batch)
            chunk = block * batch
            for _ in range(full):
                out.write(chunk)
            out.write(block * rest)
    out.write("]\n")
