"""The field of nimbers: nim sums, products, inverses, powers and square roots of any
non-negative int, and the nim-multiplication table.

The nimbers below 2**(2**k) form a field of that order (``field_bits`` finds the
smallest holding given values); the nim sum is XOR, and the product is defined by
a (x) b = mex{a' (x) b + a (x) b' + a' (x) b' : a' < a, b' < b}.  It is computed by the
Fermat-power decomposition: for F = 2**(2**(k-1)) the field below F * F is the quadratic
extension of the field below F by F, with F (x) F = F + F/2, so with halves a = a1 F + a0,

    a (x) b = ((a0 + a1)(b0 + b1) + a0 b0) F + (a0 b0 + a1 b1 (x) F/2)

three products of halves and one by F/2 (itself three products of quarters by constants:
``_top``), recursively, so a product of n words costs O(n**1.59) products of words; those
go to the nimber
kernel (``kayles.kernels.chooser.nimber_kernel``: log tables of the 2**16 subfield, the same
decomposition above it).  The inverse divides the conjugate a1 F + (a0 + a1) by the norm
a0 (a0 + a1) + a1**2 (x) F/2, which lies in the subfield; the square root undoes the
Frobenius map a half at a time; a power reduces its exponent modulo the order of the
multiplicative group of the field that holds the base.
"""

from __future__ import annotations

from .._numbers import brief
from ..errors import InputError
from .sequence import whole

__all__ = ["NimDivisionByZero", "field_bits", "nim_divide", "nim_inverse", "nim_power",
           "nim_product", "nim_sqrt", "nim_square", "nim_sum", "product_row", "product_table"]

WORD = 64  # the kernel's operands: 64-bit words


class NimDivisionByZero(InputError, ZeroDivisionError):
    """0 has no nim inverse: bad input (a ValueError) and a ZeroDivisionError alike."""


def _kernel():
    from ..kernels import chooser

    return chooser.nimber_kernel


def _nimber(value, what: str = "a nimber") -> int:
    value = whole(value, what)
    if value < 0:
        raise InputError(f"{what} must be a non-negative integer, not {brief(value)}")
    return value


def field_bits(*values) -> int:
    """The smallest 2**k such that every value lies below 2**(2**k): the field of order
    2**(2**k) holds them (1 for 0 and 1, 2 for 2 and 3, 4 below 16, ...)."""
    top = 0
    for value in values:
        top |= _nimber(value)
    bits = 1
    while top >> bits:
        bits <<= 1
    return bits


def nim_sum(*values) -> int:
    """The nim sum (XOR) of the values (0 for none)."""
    total = 0
    for value in values:
        total ^= _nimber(value)
    return total


def _top(x: int, bits: int, word) -> int:
    """x (x) 2**(bits - 1) for x below 2**bits: the product by the top bit of a field, the
    F/2 of the field above it.

    With G = 2**(bits/2) and e = 2**(bits/2 - 1), 2**(bits - 1) = G e, so (x1 G + x0) G e =
    ((x1 + x0) e) G + x1 e e: three products of halves by the constant e, one level down.
    """
    if bits <= WORD:
        return word(x, 1 << (bits - 1))
    half = bits >> 1
    x0, x1 = x & ((1 << half) - 1), x >> half
    return _top(x0 ^ x1, half, word) << half | _top(_top(x1, half, word), half, word)


def _mul(a: int, b: int, bits: int, word) -> int:
    """a (x) b for a, b below 2**bits (a power of two)."""
    if bits <= WORD:
        return word(a, b)
    half = bits >> 1
    mask = (1 << half) - 1
    a0, a1, b0, b1 = a & mask, a >> half, b & mask, b >> half
    low = _mul(a0, b0, half, word)
    mixed = _mul(a0 ^ a1, b0 ^ b1, half, word)
    high = _mul(a1, b1, half, word) if a1 and b1 else 0
    return (mixed ^ low) << half | low ^ (_top(high, half, word) if high else 0)


def nim_product(a, b) -> int:
    """a (x) b, the nim product."""
    a, b = _nimber(a), _nimber(b)
    return _mul(a, b, max(field_bits(a | b), WORD), _kernel().mul)


def _square(a: int, bits: int, kernel) -> int:
    if bits <= WORD:
        return kernel.square(a)
    half = bits >> 1
    high = _square(a >> half, half, kernel)
    low = _square(a & ((1 << half) - 1), half, kernel)
    return high << half | low ^ _top(high, half, kernel.mul)


def nim_square(a) -> int:
    """a (x) a (a linear map: (a + b)**2 = a**2 + b**2)."""
    a = _nimber(a)
    return _square(a, max(field_bits(a), WORD), _kernel())


def _inverse(a: int, bits: int, kernel) -> int:
    if bits <= WORD:
        return kernel.inverse(a)
    half = bits >> 1
    a0, a1 = a & ((1 << half) - 1), a >> half
    mul = kernel.mul
    norm = _mul(a0, a0 ^ a1, half, mul) ^ _top(_square(a1, half, kernel), half, mul)
    inv = _inverse(norm, half, kernel)
    return _mul(a1, inv, half, mul) << half | _mul(a0 ^ a1, inv, half, mul)


def nim_inverse(a) -> int:
    """The b with a (x) b == 1; NimDivisionByZero for 0."""
    a = _nimber(a)
    if not a:
        raise NimDivisionByZero("0 has no nim inverse")
    return _inverse(a, max(field_bits(a), WORD), _kernel())


def nim_divide(a, b) -> int:
    """a (x) b**-1; NimDivisionByZero for b == 0."""
    a = _nimber(a)
    return nim_product(a, nim_inverse(b))


def nim_power(a, k) -> int:
    """a to the nim power k, any int k (a negative one: a power of the inverse; 0 ** 0 == 1).

    For a != 0 the exponent is reduced modulo 2**bits - 1, the order of the multiplicative
    group of the field of 2**bits that holds a (``field_bits``), so any k costs O(bits)
    products."""
    a, k = _nimber(a), whole(k, "the exponent")
    if k < 0:
        a, k = nim_inverse(a), -k
    if not a:
        return 1 if k == 0 else 0
    bits = max(field_bits(a), WORD)
    k %= (1 << bits) - 1
    kernel = _kernel()
    if bits <= WORD:
        return kernel.power(a, k)
    result = 1
    while k:
        if k & 1:
            result = _mul(result, a, bits, kernel.mul)
        k >>= 1
        if k:
            a = _square(a, bits, kernel)
    return result


def _sqrt(a: int, bits: int, kernel) -> int:
    if bits <= WORD:
        return kernel.sqrt(a)
    half = bits >> 1
    a0, a1 = a & ((1 << half) - 1), a >> half
    shifted = _top(a1, half, kernel.mul)
    return _sqrt(a1, half, kernel) << half | _sqrt(a0 ^ shifted, half, kernel)


def nim_sqrt(a) -> int:
    """The nim square root: the one b with b (x) b == a (squaring is one to one)."""
    a = _nimber(a)
    return _sqrt(a, max(field_bits(a), WORD), _kernel())


def product_row(a, count) -> list[int]:
    """[a (x) 0, a (x) 1, ..., a (x) (count - 1)]."""
    a, count = _nimber(a), _nimber(count, "count")
    if a >> WORD or count > 1 << WORD:
        return [nim_product(a, j) for j in range(count)]
    from array import array

    row = array("Q", range(count))
    _kernel().scale(row, a, row)
    return row.tolist()


def product_table(n) -> list[list[int]]:
    """The nim-multiplication table: row i is [i (x) 0, ..., i (x) (n - 1)], i < n."""
    n = _nimber(n, "n")
    return [product_row(i, n) for i in range(n)]
