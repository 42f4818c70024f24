"""What a take-and-break table will cost, known before it is computed: its memory from the
values' measured growth, and the refusal of a run past the memory it may use.

The compiled take-and-break kernel (ext/_takebreak.pyx) keeps, for each set a game needs
(the pair values; three parts; every split; a tail's running unions), a bit set a heap: a
row of ``width`` 64-bit words, width the power of two above V / 64 for the largest value
V, in room for a power of two of rows at least the heaps computed.  So n values take

    bytes(n) = (sets + 1/2) x room(n) x width(V(n)) x 8 + 2 n

(the half set: the copy while one set widens or grows), on top of the table's 2 bytes a
value, and the unions' accumulators: AHEAD heaps' ACCUMULATORS rows
(kayles_xor_union_ahead; both in kayles.kernels.constants).  Memory grows as n times V,
and V is measured, never assumed: the largest value of the table computed so far, grown
in proportion to n (take-and-break values grow at most about linearly: a saltus a
period).  16-bit tables stop at V = 65535.

    >>> row_sets(((((1, (), ((2, 0), (3, 0)), False),), 0)))   # 0.C: pairs, three parts
    2
"""

from __future__ import annotations

from .._numbers import brief
from .constants import (
    ACCUMULATORS,
    AHEAD,
    ALL_DIFFERENT,
    MIN_ROOM,
    NO_MARK,
    NOT_ALL_SAME,
    VALUE_LIMIT,
)
from .limits import memory, size_text

__all__ = ["PAST_16_BITS", "bytes_needed", "largest_fitting",
           "predicted_largest", "refusal", "row_sets"]

PAST_16_BITS = "its values would pass 65,535 (a 16-bit table's)"  # refusal's words for that


def row_sets(rules) -> int:
    """How many rows a heap the compiled kernel keeps for these rules
    (``rules.encode_takebreak``): its Scratch.start, set by set."""
    kinds, tail = rules
    finite = len(kinds) - tail
    unequal = triples = plus = tail_triples = False
    for k, (_, _, counts, more) in enumerate(kinds):
        for count, mark in counts:
            unequal |= count == 2 and mark in (ALL_DIFFERENT, NOT_ALL_SAME)
            triples |= count >= 3 and mark in (NO_MARK, NOT_ALL_SAME)
            tail_triples |= k >= finite and count == 3 and mark == NO_MARK
        if more and counts:
            count, mark = counts[-1]
            plus |= mark in (NO_MARK, NOT_ALL_SAME)
            unequal |= count <= 1 and mark in (ALL_DIFFERENT, NOT_ALL_SAME)
    sets = 1 + unequal + triples + 3 * plus  # pairs; unequal; triples; P, Q2, Q3
    if tail:
        sets += 2 + (tail and unequal) + tail_triples  # ones, pair runs; their kin
    return sets


def predicted_largest(largest: int, computed: int, n: int) -> int:
    """The largest of G(0..n-1) when G(0..computed-1) reach ``largest``: grown in proportion
    to n past the values computed (at least one more value a heap's worth)."""
    if n <= computed or computed == 0:
        return largest
    return max(largest, -(-largest * n // computed))


def _room(n: int) -> int:
    room = MIN_ROOM
    while room < n:
        room *= 2
    return room


def _width(largest: int) -> int:
    width = 1
    while 64 * width <= largest:
        width *= 2
    return width


def bytes_needed(rules, largest: int, computed: int, n: int) -> int:
    """The memory of n values (the module header), the values' growth measured as G(0..
    computed-1) reaching ``largest``."""
    top = min(predicted_largest(largest, computed, n), VALUE_LIMIT - 1)
    rows = (2 * row_sets(rules) + 1) * _room(n) // 2 + AHEAD * ACCUMULATORS  # of 8-byte words
    return rows * 8 * _width(top) + 2 * n


def largest_fitting(rules, largest: int, computed: int, allowed: int) -> int:
    """The most values whose memory is within ``allowed`` bytes and whose largest value
    stays below 2**16, as measured (at least ``computed``)."""
    low, high = computed, 1 << 40
    while low < high:  # the greatest n that fits: bytes_needed grows with n
        middle = (low + high + 1) // 2
        fits = (bytes_needed(rules, largest, computed, middle) <= allowed
                and predicted_largest(largest, computed, middle) < VALUE_LIMIT)
        low, high = (middle, high) if fits else (low, middle - 1)
    return low


def refusal(name: str, rules, largest: int, computed: int, n: int) -> str:
    """Why n values of a take-and-break game do not fit, in one sentence, or '' when they
    do: its memory past what kayles may use (kayles.kernels.limits.memory), or its values
    past 16 bits, naming the most values that fit."""
    allowed, source = memory()
    need = bytes_needed(rules, largest, computed, n)
    top = predicted_largest(largest, computed, n)
    if need <= allowed and top < VALUE_LIMIT:
        return ""
    most = largest_fitting(rules, largest, computed, allowed)
    growth = f"(their growth measured on the first {computed:,}: up to {largest:,})"
    if top >= VALUE_LIMIT:
        why = f"{PAST_16_BITS} near heap {brief(computed * (VALUE_LIMIT - 1) // largest)}"
    else:
        why = (f"it needs about {size_text(need)} of memory ({row_sets(rules)} rows of "
               f"{_width(top) * 64:,} values a heap), and {source} is {size_text(allowed)}")
    return f"{brief(n)} values of {name}: {why} {growth}; at most {most:,} fit"
