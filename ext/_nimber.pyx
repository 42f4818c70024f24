# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled nimber kernel: nim products, squares, inverses, roots and powers of 64-bit
words, one at a time or over buffers of them.

kayles/kernels/pure/_nimber.py is the twin (same names, results and errors); the C is
ext/src/nimber.c (log tables of the 2**16 subfield, the Fermat-power decomposition above
it), its tables built once, here, at import.  Arguments are checked by
kayles.kernels.checks for both twins.  The buffer loops run without the GIL, BLOCK
products at a time (a few ms), looking at Ctrl-C and the interrupt hook between blocks.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t

from _nimber_c cimport (
    KAYLES_NIMBER_BITS,
    kayles_nim_dot,
    kayles_nim_init,
    kayles_nim_inverse,
    kayles_nim_mul,
    kayles_nim_mul_many,
    kayles_nim_pow,
    kayles_nim_scale,
    kayles_nim_sqrt,
    kayles_nim_square,
)

from kayles.kernels import checks as _args
from kayles.kernels import limits as _limits

__all__ = ["CONSTANTS", "dot", "inverse", "mul", "mul_many", "power", "scale", "sqrt",
           "square"]

cdef enum:
    BLOCK = 1 << 16  # products between looks at Ctrl-C and the interrupt hook (~3 ms)

# What this module was built with, for tests/kernels/test_constants.py to compare with
# kayles/kernels/constants.py (their one home in Python).
CONSTANTS = {"NIMBER_BITS": KAYLES_NIMBER_BITS}

kayles_nim_init()


cdef inline uint64_t word(value, str what) except? 0:
    if type(value) is int and 0 <= value <= 0xFFFFFFFFFFFFFFFF:
        return value
    return _args.check_word(value, what)


def mul(a, b):
    """a (x) b, the nim product of two words."""
    cdef uint64_t x = word(a, "a")
    cdef uint64_t y = word(b, "b")
    return kayles_nim_mul(x, y)


def square(a):
    """a (x) a."""
    return kayles_nim_square(word(a, "a"))


def inverse(a):
    """The nim inverse of a word a != 0 (ZeroDivisionError for 0)."""
    cdef uint64_t x = word(a, "a")
    if x == 0:
        raise ZeroDivisionError("0 has no nim inverse")
    return kayles_nim_inverse(x)


def sqrt(a):
    """The nim square root of a word (every nimber has exactly one)."""
    return kayles_nim_sqrt(word(a, "a"))


def power(a, k):
    """a to the nim power k, k a word too (0 ** 0 == 1)."""
    cdef uint64_t x = word(a, "a")
    cdef uint64_t n = word(k, "k")
    return kayles_nim_pow(x, n)


cdef int look() except -1:
    PyErr_CheckSignals()
    _limits.interrupt()
    return 0


def mul_many(a, b, out):
    """out[i] = a[i] (x) b[i], buffers of words of one length (out may be a or b)."""
    cdef const uint64_t[::1] x = _args.check_words(a, "a")
    cdef const uint64_t[::1] y = _args.check_words(b, "b")
    cdef uint64_t[::1] z = _args.check_words(out, "out", writable=True)
    cdef Py_ssize_t n = x.shape[0], at, size
    if y.shape[0] != n or z.shape[0] != n:
        raise ValueError("a, b and out must have the same length")
    for at in range(0, n, BLOCK):
        size = min(BLOCK, n - at)
        with nogil:
            kayles_nim_mul_many(&x[at], &y[at], &z[at], size)
        look()


def scale(a, s, out):
    """out[i] = a[i] (x) s, out a buffer of words as long as a (it may be a)."""
    cdef const uint64_t[::1] x = _args.check_words(a, "a")
    cdef uint64_t factor = word(s, "s")
    cdef uint64_t[::1] z = _args.check_words(out, "out", writable=True)
    cdef Py_ssize_t n = x.shape[0], at, size
    if z.shape[0] != n:
        raise ValueError("a and out must have the same length")
    for at in range(0, n, BLOCK):
        size = min(BLOCK, n - at)
        with nogil:
            kayles_nim_scale(&x[at], factor, &z[at], size)
        look()


def dot(a, b):
    """The nim sum (XOR) of a[i] (x) b[i], buffers of words of one length."""
    cdef const uint64_t[::1] x = _args.check_words(a, "a")
    cdef const uint64_t[::1] y = _args.check_words(b, "b")
    cdef Py_ssize_t n = x.shape[0], at, size
    cdef uint64_t total = 0
    if y.shape[0] != n:
        raise ValueError("a and b must have the same length")
    for at in range(0, n, BLOCK):
        size = min(BLOCK, n - at)
        with nogil:
            total ^= kayles_nim_dot(&x[at], &y[at], size)
        look()
    return total
