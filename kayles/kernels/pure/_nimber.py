"""The nimber kernel, pure Python twin of ext/_nimber.pyx: nim products, squares, inverses,
square roots and powers of 64-bit words, one at a time or over buffers of them.

How it works (ext/src/nimber.h says the same of the C): the nimbers below F * F, F =
2**(2**k), are the quadratic extension of those below F by F, whose minimal polynomial is
x**2 + x + F/2; so with a = a1 F + a0 and b = b1 F + b0,

    a (x) b = ((a0 + a1)(b0 + b1) + a0 b0) F + (a0 b0 + a1 b1 (x) F/2)

(three products of halves, Karatsuba's way, and one by the constant F/2).  Here the
recursion stops at the field of 256 nimbers, multiplied by logarithm tables built at
import from a primitive element (the compiled twin stops at 2**16); inverses come from
the norm to the subfield, square roots from the Frobenius map undone half by half.  The
buffer functions look at the interrupt hook every SIGNAL_STEPS products.
"""

from __future__ import annotations

from .. import checks as args
from ..constants import NIMBER_BITS
from ..limits import interrupt

__all__ = ["CONSTANTS", "dot", "inverse", "mul", "mul_many", "power", "scale", "sqrt", "square"]

CONSTANTS = {"NIMBER_BITS": NIMBER_BITS}  # the word this twin works in, as the compiled one

SIGNAL_STEPS = 4096  # products between calls of the interrupt hook
ORDER = 255  # the multiplicative group of the field of 256 nimbers


def _slow(a: int, b: int, bits: int) -> int:
    """The recursion of the header, bit by bit: the tables' source."""
    if bits == 1:
        return a & b
    half = bits // 2
    mask = (1 << half) - 1
    a0, a1, b0, b1 = a & mask, a >> half, b & mask, b >> half
    low, high = _slow(a0, b0, half), _slow(a1, b1, half)
    mixed = _slow(a0 ^ a1, b0 ^ b1, half)
    return (mixed ^ low) << half | low ^ _slow(high, 1 << (half - 1), half)


def _tables() -> tuple[list[int], list[int]]:
    """(LOG, EXP) of the field of 256: EXP holds two periods, LOG[0] is unused."""
    for g in range(2, 256):
        powers, x = [], 1
        while True:
            powers.append(x)
            x = _slow(x, g, 8)
            if x == 1:
                break
        if len(powers) == ORDER:
            log = [0] * 256
            for n, x in enumerate(powers):
                log[x] = n
            return log, powers + powers
    raise RuntimeError("cannot happen: the field of 256 nimbers has no primitive element")


LOG, EXP = _tables()


def _mul(a: int, b: int, bits: int) -> int:
    """a (x) b for a, b below 2**bits (bits 8, 16, 32 or 64)."""
    if bits == 8:
        return EXP[LOG[a] + LOG[b]] if a and b else 0
    half = bits >> 1
    mask = (1 << half) - 1
    a0, a1, b0, b1 = a & mask, a >> half, b & mask, b >> half
    low = _mul(a0, b0, half)
    mixed = _mul(a0 ^ a1, b0 ^ b1, half)
    high = _mul(a1, b1, half) if a1 and b1 else 0
    return (mixed ^ low) << half | low ^ (_mul(high, 1 << (half - 1), half) if high else 0)


def _bits(a: int) -> int:
    """The smallest field width (8, 16, 32, 64) whose field holds a."""
    bits = 8
    while a >> bits:
        bits <<= 1
    return bits


def _square(a: int, bits: int) -> int:
    if bits == 8:
        return EXP[2 * LOG[a]] if a else 0
    half = bits >> 1
    high = _square(a >> half, half)
    low = _square(a & ((1 << half) - 1), half)
    return high << half | low ^ _mul(high, 1 << (half - 1), half)


def _inverse(a: int, bits: int) -> int:
    """a**-1 = conj(a) / N(a): conj(a1 F + a0) = a1 F + (a0 + a1), N = a0 (a0 + a1) + a1**2 F/2."""
    if bits == 8:
        return EXP[ORDER - LOG[a]]
    half = bits >> 1
    a0, a1 = a & ((1 << half) - 1), a >> half
    norm = _mul(a0, a0 ^ a1, half) ^ _mul(_square(a1, half), 1 << (half - 1), half)
    inv = _inverse(norm, half)
    return _mul(a1, inv, half) << half | _mul(a0 ^ a1, inv, half)


def _sqrt(a: int, bits: int) -> int:
    """(x1 F + x0)**2 = x1**2 F + (x1**2 F/2 + x0**2): x1 = sqrt(a1), x0 = sqrt(a0 + a1 F/2)."""
    if bits == 8:
        if not a:
            return 0
        log = LOG[a]
        return EXP[(log + ORDER * (log & 1)) >> 1]
    half = bits >> 1
    a0, a1 = a & ((1 << half) - 1), a >> half
    return _sqrt(a1, half) << half | _sqrt(a0 ^ _mul(a1, 1 << (half - 1), half), half)


def mul(a, b) -> int:
    """a (x) b, the nim product of two words."""
    a, b = args.check_word(a, "a"), args.check_word(b, "b")
    return _mul(a, b, _bits(a | b))


def square(a) -> int:
    """a (x) a."""
    a = args.check_word(a, "a")
    return _square(a, _bits(a))


def inverse(a) -> int:
    """The nim inverse of a word a != 0 (ZeroDivisionError for 0)."""
    a = args.check_word(a, "a")
    if not a:
        raise ZeroDivisionError("0 has no nim inverse")
    return _inverse(a, _bits(a))


def sqrt(a) -> int:
    """The nim square root of a word (every nimber has exactly one)."""
    a = args.check_word(a, "a")
    return _sqrt(a, _bits(a))


def power(a, k) -> int:
    """a to the nim power k, k a word too (0 ** 0 == 1)."""
    a, k = args.check_word(a, "a"), args.check_word(k, "k")
    bits = _bits(a)
    result = 1
    while k:
        if k & 1:
            result = _mul(result, a, bits)
        k >>= 1
        if k:
            a = _square(a, bits)
    return result


def _product(a: int, b: int) -> int:
    return _mul(a, b, _bits(a | b))


def mul_many(a, b, out) -> None:
    """out[i] = a[i] (x) b[i], buffers of words of one length (out may be a or b)."""
    x, y = args.check_words(a, "a"), args.check_words(b, "b")
    z = args.check_words(out, "out", writable=True)
    if len(y) != len(x) or len(z) != len(x):
        raise ValueError("a, b and out must have the same length")
    for i in range(len(x)):
        if i % SIGNAL_STEPS == 0:
            interrupt()
        z[i] = _product(x[i], y[i])


def scale(a, s, out) -> None:
    """out[i] = a[i] (x) s, out a buffer of words as long as a (it may be a)."""
    x = args.check_words(a, "a")
    factor = args.check_word(s, "s")
    z = args.check_words(out, "out", writable=True)
    if len(z) != len(x):
        raise ValueError("a and out must have the same length")
    for i in range(len(x)):
        if i % SIGNAL_STEPS == 0:
            interrupt()
        z[i] = _product(x[i], factor)


def dot(a, b) -> int:
    """The nim sum (XOR) of a[i] (x) b[i], buffers of words of one length."""
    x, y = args.check_words(a, "a"), args.check_words(b, "b")
    if len(y) != len(x):
        raise ValueError("a and b must have the same length")
    total = 0
    for i in range(len(x)):
        if i % SIGNAL_STEPS == 0:
            interrupt()
        total ^= _product(x[i], y[i])
    return total
