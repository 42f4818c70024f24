"""Writing long nim-sequences: ``[G(0), G(1), ..., G(N)]`` streamed in big chunks, or one
heap a line (``n G(n)``: an OEIS b-file; ``n,G(n)``: CSV).

Shared by both front ends.  The writers take a sequence's pieces (``Sequence.segments``:
(values, times), everything already computed); each distinct piece is formatted once and
written as many times as it repeats, so a proved sequence of any length streams in
O(length) time and O(period) memory.
"""

from __future__ import annotations

CHUNK = 1 << 20  # characters per write


def write_nimbers(pieces, out) -> None:
    """Write [G(0), ..., G(n)] and a newline, from the pieces of G(0..n)."""
    pieces = [(values, times) for values, times in pieces if times and values]
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


def write_numbered(pieces, out, separator: str, header: str = "") -> None:
    """Write ``header`` then one line a heap, ``k<separator>G(k)``, from the pieces of
    G(0..n), in chunks of about CHUNK characters."""
    out.write(header)
    k = 0
    lines: list[str] = []
    size = 0
    for values, times in pieces:
        for _ in range(times):
            for value in values:
                line = f"{k}{separator}{value}\n"
                lines.append(line)
                size += len(line)
                k += 1
                if size >= CHUNK:
                    out.write("".join(lines))
                    lines, size = [], 0
    out.write("".join(lines))
