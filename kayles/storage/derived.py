"""Values read from a file, checked against their game's rules where computing them all
again would cost what computing them did: a checksum a hostile or careless edit made
again does not make them trusted.

* ``too_large``: every option of a heap is the XOR of earlier heaps' values, each below
  2**b when all of them are (b: the bit length of the largest), so G(n) <= 2**b.  The
  first heap whose value breaks that bound (an edit to a large value, 0xffff say) is
  found in one pass of the kernel's ``chunk_sums`` over blocks, a block whose largest
  value passes the bound of the values before it needing no more.
* ``sample_differs``: G(0..FIRST-1) derived again from the rules, the last LAST values
  derived from those before them by the game's own method (an edit anywhere those heaps
  read), and SAMPLED heaps drawn at random between, each the mex of all its options over
  the values before it (octal games, the compiled core's plain scan).
"""

from __future__ import annotations

import random

from ..kernels import chooser

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.rules import Game

__all__ = ["BLOCK", "FIRST", "LAST", "SAMPLED", "sample_differs", "too_large"]

BLOCK = 4096  # values a chunk_sums call reads at a time
FIRST = 256  # values derived again from the rules from heap 0 on
LAST = 4096  # the last values derived from the ones before them
SAMPLED = 64  # heaps drawn at random, each derived by the plain scan (compiled core)
PURE_SAMPLED_BELOW = 1 << 12  # ... the pure twin's scan only below this heap (O(n) each)


def too_large(values) -> int | None:
    """The first n with G(n) > 2**b, b the bit length of max G(0..n-1) (None: none)."""
    largest = -1
    for start in range(0, len(values), BLOCK):
        stop = min(start + BLOCK, len(values))
        top = chooser.kernel.chunk_sums(values, start, stop)[2]
        if top > 1 << max(largest, 0).bit_length():
            for n in range(start, stop):  # rare: a block past a power of two, or an edit
                if values[n] > 1 << max(largest, 0).bit_length():
                    return n
                largest = max(largest, values[n])
        largest = max(largest, top)
    return None


def sample_differs(game: Game, values, seed: int | None = None) -> str:
    """Why ``values`` (an array('H') of G(0..len-1)) are not ``game``'s ('' when the sample
    agrees); ``seed`` fixes the heaps drawn (None: the system's randomness)."""
    from ..engine.sequence import Sequence

    count = len(values)
    broken = too_large(values)
    if broken is not None:
        return f"G({broken}) = {values[broken]} is more than any option can make"
    first = min(FIRST, count)
    if Sequence(game).table(first).tolist() != values[:first].tolist():
        return "its first values are not the game's"
    start = max(first, count - LAST)
    if start < count:
        again = Sequence.from_values(game, values[:start])
        if bytes(again.table(count)[start:]) != values[start:count].tobytes():
            return "its last values are not those its earlier values give"
    return _scan_differs(game, values, first, start, seed)


def _scan_differs(game: Game, values, low: int, high: int, seed: int | None) -> str:
    """SAMPLED heaps of [low, high) derived by the plain scan (the value is written back)."""
    kernel = chooser.kernel
    if chooser.IMPLEMENTATION != "cython":
        high = min(high, PURE_SAMPLED_BELOW)
    if not game.octal or high <= low:
        return ""
    from ..engine.rules import encode

    kinds = encode(game.kinds)
    draw = random.Random(seed)
    for n in sorted(draw.randrange(low, high) for _ in range(SAMPLED)):
        claimed = values[n]
        kernel.extend_plain(values, n, n + 1, kinds)
        derived, values[n] = values[n], claimed
        if derived != claimed:
            return f"G({n}) is {derived} by the rules, not {claimed}"
    return ""
