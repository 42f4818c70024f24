"""A checksum of a nim-sequence, to compare values across tools and runs.

Fletcher-32 over the values G(0), G(1), ..., G(N-1) taken as 16-bit words:

    s1 = (G(0) + G(1) + ... + G(N-1)) mod 65535
    s2 = (N*G(0) + (N-1)*G(1) + ... + 1*G(N-1)) mod 65535   (the running sum of s1)
    checksum = s2 * 65536 + s1, printed as 8 lowercase hex digits

The closed form of s2 lets a proved sequence of any length be summed from its
pieces (a block repeated t times) without visiting every value.  A block held as
16-bit words (``array('H')``, a table) is summed by the kernel's ``chunk_sums``: a file's
2**24 values in milliseconds, where Python's sums take seconds.
"""

from __future__ import annotations

from array import array
from operator import mul

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = ["MODULUS", "fletcher32", "fletcher32_of_pieces"]

MODULUS = 65535  # Fletcher-32's modulus: 2**16 - 1


def fletcher32(values: Sequence[int]) -> int:
    """The Fletcher-32 checksum of ``values`` (see the module header)."""
    return fletcher32_of_pieces([(values, 1)])


def fletcher32_of_pieces(pieces: Iterable[tuple[Sequence[int], int]]) -> int:
    """The checksum of the concatenation of ``values`` repeated ``times``, piece by piece.

    Appending k values v_0..v_{k-1} to a sequence with sums (s1, s2) gives
    s1' = s1 + sum(v) and s2' = s2 + k*s1 + sum((k - i) * v_i); a block repeated
    t times is folded in O(log t) steps by doubling.
    """
    s1 = s2 = 0
    for values, times in pieces:
        k = len(values)
        if not k or not times:
            continue
        block = (k, *_sums(values))
        repeated = _power(block, times)
        length, b1, b2 = repeated
        s2 = (s2 + length * s1 + b2) % MODULUS
        s1 = (s1 + b1) % MODULUS
    return s2 << 16 | s1


def _sums(values: Sequence[int]) -> tuple[int, int]:
    """(s1, s2) of one block alone."""
    if isinstance(values, array) and values.typecode == "H":
        from ..kernels import chooser

        s1, s2, _, _ = chooser.kernel.chunk_sums(values, 0, len(values))
        return s1, s2
    return sum(values) % MODULUS, sum(map(mul, values, range(len(values), 0, -1))) % MODULUS


def _join(left: tuple[int, int, int], right: tuple[int, int, int]) -> tuple[int, int, int]:
    """(length, s1, s2) of ``left`` followed by ``right``."""
    k1, a1, a2 = left
    k2, b1, b2 = right
    return k1 + k2, (a1 + b1) % MODULUS, (a2 + k2 * a1 + b2) % MODULUS


def _power(block: tuple[int, int, int], times: int) -> tuple[int, int, int]:
    result = (0, 0, 0)
    while times:
        if times & 1:
            result = _join(result, block)
        block = _join(block, block)
        times >>= 1
    return result
