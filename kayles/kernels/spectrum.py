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

scores every mask at once in O(B log B).  ``fewest_rare`` gives the one mask every
command reports (``kayles.engine.sequence.rare_mask``: a survey, a plot, the web page);
the kernels pick theirs by estimated cost instead
(``choose_mask`` in both twins), from the same spectrum.

A mask may also read the heap's parity (``HEAP_PARITY``, a bit above every value),
where every two-part move kind has a span of one parity s (``split_parity``):
heap a is then rare when popcount(G(a) & M) + ((a ^ s) & 1) is even
(``is_rare``).  The parts of a split of heap n sum to n - span, so a split's
two classes decide its option's class as before; some games are sparse only so
(ext/core/masks.pxi).  ``mask_text`` writes such a mask as ``16+parity``.
"""

from __future__ import annotations

from ..errors import InputError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Sequence as Values

__all__ = ["HEAP_PARITY", "PARITY_SHIFT", "allowed_mask", "fewest_rare", "is_rare", "mask_text",
           "last_rare", "odd_histogram", "parity", "split_parity", "value_counts",
           "walsh_hadamard"]

PARITY_SHIFT = 16  # a mask's bit above every 16-bit value: the heap's parity counts too
HEAP_PARITY = 1 << PARITY_SHIFT


def parity(x: int) -> int:
    """popcount(x) mod 2: 1 when x has an odd number of set bits."""
    return bin(x).count("1") & 1


def allowed_mask(mask: int, constants: Iterable[int]) -> bool:
    """Whether every option constant is rare under ``mask`` (see the module header)."""
    return not any(parity(c & mask) for c in constants)


def split_parity(kinds) -> int:
    """The span parity of every encoded kind that may leave two parts, or -1 (none, or both):
    where it is -1 no mask holds HEAP_PARITY."""
    spans = {span & 1 for span, _, leave, _ in kinds if leave & 4}
    return spans.pop() if len(spans) == 1 else -1


def is_rare(mask: int, parity_of_splits: int, n: int, value: int) -> bool:
    """Whether heap n, of this value, is rare under the mask (see the module header)."""
    return parity(value & mask) == (mask >> PARITY_SHIFT) & (n ^ parity_of_splits) & 1


def mask_text(mask: int) -> str:
    """A mask as people read it: ``56``, or ``16+parity`` where it holds HEAP_PARITY."""
    if mask & HEAP_PARITY:
        return f"{mask & (HEAP_PARITY - 1)}+parity"
    return str(mask)


def walsh_hadamard(counts: Values[int]) -> list[int]:
    """W[M] = sum_v counts[v] * (-1)**popcount(v & M); len(counts) a power of two."""
    w = list(counts)
    size, half = len(w), 1
    if size & (size - 1):
        raise InputError(f"the length {size} is not a power of two")
    while half < size:
        for start in range(0, size, 2 * half):
            for i in range(start, start + half):
                a, b = w[i], w[i + half]
                w[i], w[i + half] = a + b, a - b
        half *= 2
    return w


def fewest_rare(counts: Values[int], constants: Iterable[int] = (),
                odd: Values[int] | None = None) -> tuple[int, int]:
    """(mask, rare): the allowed non-zero mask with the fewest rare heaps, and that number.

    ``counts[v]`` is how many heaps have the value v.  Masks range over 1 .. B-1,
    B the least power of two >= 2 above every value and constant, and, given
    ``odd`` (how many heaps of class 1 have each value: see the module header),
    over the same masks plus HEAP_PARITY.  Ties go to the smallest mask, a mask
    before itself plus HEAP_PARITY; (0, total) when no mask is allowed.
    """
    constants = set(constants)
    top = max([len(counts) - 1, *constants, 1])
    size = 1 << top.bit_length()
    padded = [*counts, *[0] * (size - len(counts))]
    high = [*(odd or ()), *[0] * (size - len(odd or ()))]
    total = sum(padded)
    spectrum = walsh_hadamard([k for v in range(size) for k in (padded[v] - high[v], high[v])])
    best, best_rare = 0, total + 1
    for pair_mask in range(2, 2 * size):
        if pair_mask & 1 and odd is None:
            continue
        rare = (total + spectrum[pair_mask]) // 2
        if rare < best_rare and allowed_mask(pair_mask >> 1, constants):
            best, best_rare = pair_mask >> 1 | (pair_mask & 1) * HEAP_PARITY, rare
    return (best, best_rare) if best else (0, total)


def odd_histogram(values: Values[int], parity_of_splits: int) -> list[int] | None:
    """How many heaps of class 1 ((n ^ parity_of_splits) odd) have each value; None where
    the split parity is -1 (no mask may hold HEAP_PARITY)."""
    if parity_of_splits < 0:
        return None
    return value_counts(values[1 - parity_of_splits::2])


def value_counts(values: Values[int]) -> list[int]:
    """counts[v]: how many of ``values`` are v, up to the largest (counted in C, by
    collections.Counter: a census row sums up hundreds of millions of values)."""
    from collections import Counter

    found = Counter(values)
    counts = [0] * (max(found, default=0) + 1)
    for value, count in found.items():
        counts[value] = count
    return counts


BLOCK = 1 << 16  # last_rare looks at this many heaps at once, from the end


def last_rare(values: Values[int], mask: int, parity_of_splits: int, top: int) -> int | None:
    """The last heap of G(0..len-1) (values at most ``top``) rare under ``mask``
    (``is_rare``), or None.  From the end a block at a time: the set of a block's values in
    each class of heaps (C loops), and heap by heap only in the block that holds it."""
    step = 2 if mask & HEAP_PARITY else 1  # rare_in[k]: the rare values of heaps n = k mod step
    rare_in = [{v for v in range(top + 1) if is_rare(mask, parity_of_splits, k, v)}
               for k in range(step)]
    for start in range((len(values) - 1) // BLOCK * BLOCK, -1, -BLOCK):  # BLOCK is even
        block = values[start:start + BLOCK]
        if any(set(block[k::step]) & rare_in[k] for k in range(step)):
            return next(n for n in reversed(range(start, start + len(block)))
                        if is_rare(mask, parity_of_splits, n, values[n]))
    return None

