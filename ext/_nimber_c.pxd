# cython: language_level=3
"""ext/src/nimber.h declared once for Cython (ext/_nimber.pyx cimports it)."""

from libc.stdint cimport uint64_t


cdef extern from "nimber.h" nogil:
    int KAYLES_NIMBER_BITS
    void kayles_nim_init()
    uint64_t kayles_nim_mul(uint64_t a, uint64_t b)
    uint64_t kayles_nim_square(uint64_t a)
    uint64_t kayles_nim_inverse(uint64_t a)
    uint64_t kayles_nim_sqrt(uint64_t a)
    uint64_t kayles_nim_pow(uint64_t a, uint64_t k)
    void kayles_nim_mul_many(const uint64_t* a, const uint64_t* b, uint64_t* out, size_t n)
    void kayles_nim_scale(const uint64_t* a, uint64_t s, uint64_t* out, size_t n)
    uint64_t kayles_nim_dot(const uint64_t* a, const uint64_t* b, size_t n)
