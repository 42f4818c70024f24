"""Rare and common values: parity under a mask, the Walsh-Hadamard spectrum, the best mask.

With a mask M, a value v is *rare* when popcount(v & M) is even and *common*
when it is odd.  A common XOR common, like a rare XOR rare, is rare, so when
every option constant (the XOR of G over a move's kept runs) is rare under M,
a common option value needs a rare part: the sparse-space method (Berlekamp,
Flammenkamp) lists options from the few rare heaps.  Such a mask is *allowed*.

For the value histogram h (h[v]: how many heaps have the value v), padded to
a power of two B,

    W[M]    = sum_v h[v] (-1)**popcount(v & M)     (the Walsh-Hadamard transform)
    rare(M) = (total + W[M]) / 2

scores every mask at once in O(B log B).  ``fewest_rare`` is the mask a survey
reports and a plot draws; the kernels pick theirs by estimated cost instead
(``choose_mask`` in both twins), from the same spectrum.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Sequence as Values

__all__ = ["allowed_mask", "fewest_rare", "parity", "walsh_hadamard"]


def parity(x: int) -> int:
    """popcount(x) mod 2: 1 when x has an odd number of set bits."""
    return bin(x).count("1") & 1


def allowed_mask(mask: int, constants: Iterable[int]) -> bool:
    """Whether every option constant is rare under ``mask`` (see the module header)."""
    return not any(parity(c & mask) for c in constants)


def walsh_hadamard(counts: Values[int]) -> list[int]:
    """W[M] = sum_v counts[v] * (-1)**popcount(v & M); len(counts) a power of two."""
    w = list(counts)
    size, half = len(w), 1
    if size & (size - 1):
        raise ValueError(f"the length {size} is not a power of two")
    while half < size:
        for start in range(0, size, 2 * half):
            for i in range(start, start + half):
                a, b = w[i], w[i + half]
                w[i], w[i + half] = a + b, a - b
        half *= 2
    return w


def fewest_rare(counts: Values[int], constants: Iterable[int] = ()) -> tuple[int, int]:
    """(mask, rare): the allowed non-zero mask with the fewest rare heaps, and that number.

    ``counts[v]`` is how many heaps have the value v.  Masks range over 1 .. B-1,
    B the least power of two >= 2 above every value and constant; ties go to the
    smallest mask; (0, total) when no mask is allowed.
    """
    constants = set(constants)
    top = max([len(counts) - 1, *constants, 1])
    size = 1 << top.bit_length()
    padded = [*counts, *[0] * (size - len(counts))]
    total = sum(padded)
    spectrum = walsh_hadamard(padded)
    best, best_rare = 0, total + 1
    for mask in range(1, size):
        rare = (total + spectrum[mask]) // 2
        if rare < best_rare and allowed_mask(mask, constants):
            best, best_rare = mask, rare
    return (best, best_rare) if best else (0, total)
