/* The kernels for CPUs with AVX-512BW: 32 pairs a vector.  Each is compiled for
   those instructions alone (target attributes), so the rest of the build runs
   on any x86-64; cpu.c says at run time whether they may be called, and the tables
   of steps at the end (kayles_avx512_vectors, and kayles_avx512_gfni_vectors with
   or_moved_two) are chosen only then.  Built only where KAYLES_X86_VECTORS is 1 (x86-64
   with GCC or Clang): elsewhere this file is empty.  See kernels.h. */

#include <string.h>

#include "kernels.h"

#if KAYLES_X86_VECTORS
#include <immintrin.h>

#define KAYLES_AVX512 __attribute__((target("avx512f,avx512bw")))

/* lane k of a vector holds element 31 - k of the memory loaded */
#define KAYLES_REVERSE32 _mm512_set_epi16(                                 \
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,              \
        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)

KAYLES_AVX512 KAYLES_NOINLINE int kayles_sweep_avx512(
        const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last, const unsigned int *c,
        int nsplits, ptrdiff_t a, kayles_value *values, int n, kayles_stamp *seen,
        kayles_stamp stamp) {
    const __m512i reverse = KAYLES_REVERSE32;
    int s, i, v, active = 1;
    for (; n > 0 && active; a += 256) {
        active = 0;
        for (s = 0; s < nsplits && n > 0; s++) {
            if (a > last[s])
                continue;
            active = 1;
            ptrdiff_t end = a + 256 < last[s] + 1 ? a + 256 : last[s] + 1;
            __m512i x[8];
            const __m512i cv = _mm512_set1_epi16((short) c[s]);
            int vectors = (int) ((end - a) / 32);
            for (v = 0; v < vectors; v++) {
                __m512i y = _mm512_loadu_si512((const void *) (g + r[s] - a - 32 * v - 31));
                x[v] = _mm512_xor_si512(_mm512_xor_si512(
                    _mm512_loadu_si512((const void *) (g + a + 32 * v)),
                    _mm512_permutexvar_epi16(reverse, y)), cv);
            }
            ptrdiff_t tail = a + 32 * vectors;
            for (i = 0; i < n;) {
                const __m512i w = _mm512_set1_epi16((short) values[i]);
                __mmask32 none = 0xFFFFFFFFu;   /* lanes where no vector so far holds w */
                for (v = 0; v < vectors; v++)
                    none = _mm512_mask_cmpneq_epi16_mask(none, x[v], w);
                if (none != 0xFFFFFFFFu || kayles_tail_has(g, r[s], tail, end, c[s], values[i]))
                    n = kayles_found(values, i, n, seen, stamp);
                else
                    i++;
            }
        }
    }
    return n;
}

/* Bit v of set (128 words of 16 bits) says v is looked for.  Each vector of 32
   pairs is tested against the whole set by two table lookups (vpermt2w on the
   set, held in four registers), so the cost does not grow with the values left.
   A value found gets seen[v] = stamp and leaves the set in the registers (a
   store to set and a wide load of it would stall). */
#define KAYLES_SET_LOOKUP(x, hits, valid) do {                                        \
        __m512i word_ = _mm512_srli_epi16(x, 4);                                      \
        __m512i lo_ = _mm512_permutex2var_epi16(t0, word_, t1);                        \
        __m512i hi_ = _mm512_permutex2var_epi16(t2, word_, t3);                        \
        __m512i w_ = _mm512_mask_blend_epi16(_mm512_test_epi16_mask(x, bit10), lo_, hi_); \
        hits = _mm512_mask_test_epi16_mask(                                           \
            valid, _mm512_srlv_epi16(w_, _mm512_and_si512(x, low4)), one);            \
    } while (0)

KAYLES_AVX512 KAYLES_NOINLINE int kayles_sweep_set_avx512(
        const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last, const unsigned int *c,
        int nsplits, ptrdiff_t a, const kayles_value *set, int left, kayles_stamp *seen,
        kayles_stamp stamp) {
    const __m512i reverse = KAYLES_REVERSE32;
    const __m512i one = _mm512_set1_epi16(1), low4 = _mm512_set1_epi16(15);
    const __m512i bit10 = _mm512_set1_epi16(1 << 10);
    __m512i t0 = _mm512_loadu_si512(set), t1 = _mm512_loadu_si512(set + 32);
    __m512i t2 = _mm512_loadu_si512(set + 64), t3 = _mm512_loadu_si512(set + 96);
    int s, active = 1;
    for (; active; a += 1024) {
        active = 0;
        for (s = 0; s < nsplits; s++) {
            if (a > last[s])
                continue;
            active = 1;
            ptrdiff_t b = a, end = a + 1024 < last[s] + 1 ? a + 1024 : last[s] + 1;
            const kayles_value *high = g + r[s];   /* high[-b] is G(r - b) */
            const __m512i cv = _mm512_set1_epi16((short) c[s]);
            while (b < end) {
                __mmask32 hits = 0;
                /* whole vectors until one hits; then at most one partial */
                for (; end - b >= 32; b += 32) {
                    __m512i x = _mm512_ternarylogic_epi32(
                        _mm512_loadu_si512((const void *) (g + b)),
                        _mm512_permutexvar_epi16(
                            reverse, _mm512_loadu_si512((const void *) (high - b - 31))),
                        cv, 0x96);
                    KAYLES_SET_LOOKUP(x, hits, 0xFFFFFFFFu);
                    if (hits)
                        break;
                }
                if (end - b < 32) {
                    if (b >= end)
                        break;
                    __mmask32 valid = (1u << (end - b)) - 1;
                    __m512i x = _mm512_ternarylogic_epi32(
                        _mm512_maskz_loadu_epi16(valid, (const void *) (g + b)),
                        _mm512_permutexvar_epi16(reverse, _mm512_maskz_loadu_epi16(
                            valid << (32 - (end - b)), (const void *) (high - b - 31))),
                        cv, 0x96);
                    KAYLES_SET_LOOKUP(x, hits, valid);
                }
                for (; hits; hits &= hits - 1) {
                    ptrdiff_t p = b + __builtin_ctz(hits);
                    unsigned v = g[p] ^ high[-p] ^ c[s];
                    if (seen[v] == stamp)
                        continue;   /* a second lane with the same value */
                    seen[v] = stamp;
                    if (!--left)
                        return 0;
                    __mmask32 lane = 1u << (v >> 4 & 31);
                    __m512i bit = _mm512_set1_epi16((short) (1 << (v & 15)));
                    unsigned q = v >> 9;
                    t0 = _mm512_xor_si512(t0, _mm512_maskz_mov_epi16(q == 0 ? lane : 0, bit));
                    t1 = _mm512_xor_si512(t1, _mm512_maskz_mov_epi16(q == 1 ? lane : 0, bit));
                    t2 = _mm512_xor_si512(t2, _mm512_maskz_mov_epi16(q == 2 ? lane : 0, bit));
                    t3 = _mm512_xor_si512(t3, _mm512_maskz_mov_epi16(q == 3 ? lane : 0, bit));
                }
                b += 32;
            }
        }
    }
    return left;
}
#undef KAYLES_SET_LOOKUP

/* The window sweep finds many values in a heap (present ones the dense path left
   unmarked): leaving the vector loop for each would cost a mispredicted branch, so
   each vector's lanes that hit are kept without a branch (the vector and its hit
   mask, appended; the count grows by whether any lane hit) and marked a buffer at a
   time, the set shrinking then.  A value may so be found more than once. */
#define KAYLES_WINDOW_BUFFER 16

KAYLES_AVX512 static int kayles_window_flush(
        const __m512i *xs, const __mmask32 *masks, int count, unsigned base,
        kayles_value *set, kayles_stamp *seen, kayles_stamp stamp) {
    for (int k = 0; k < count; k++) {
        kayles_value lanes[32];
        _mm512_storeu_si512((void *) lanes, xs[k]);
        for (__mmask32 hits = masks[k]; hits; hits &= hits - 1) {   /* no branch but the loop's */
            unsigned offset = lanes[__builtin_ctz(hits)];
            seen[base + offset] = stamp;
            set[offset >> 4] &= (kayles_value) ~(1u << (offset & 15));
        }
    }
    int left = 0;
    for (int k = 0; k < 32; k++) {
        unsigned long long four;
        memcpy(&four, set + 4 * k, sizeof four);
        left += __builtin_popcountll(four);
    }
    return left;
}

KAYLES_AVX512 KAYLES_NOINLINE int kayles_sweep_window_avx512(
        const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last, const unsigned int *c,
        int nsplits, ptrdiff_t a, unsigned base, const kayles_value *wanted, int left,
        kayles_stamp *seen, kayles_stamp stamp) {
    const __m512i reverse = KAYLES_REVERSE32;
    const __m512i one = _mm512_set1_epi16(1), low4 = _mm512_set1_epi16(15);
    const __m512i bit10 = _mm512_set1_epi16(1 << 10), basev = _mm512_set1_epi16((short) base);
    const __m512i span = _mm512_set1_epi16(2048);
    kayles_value set[128];
    __m512i xs[KAYLES_WINDOW_BUFFER];
    __mmask32 masks[KAYLES_WINDOW_BUFFER];
    int count = 0;
    memcpy(set, wanted, sizeof set);
    __m512i t0 = _mm512_loadu_si512(set), t1 = _mm512_loadu_si512(set + 32);
    __m512i t2 = _mm512_loadu_si512(set + 64), t3 = _mm512_loadu_si512(set + 96);
    for (int s = 0; s < nsplits && left; s++) {
        const kayles_value *high = g + r[s];   /* high[-b] is G(r - b) */
        const __m512i cv = _mm512_set1_epi16((short) c[s]);
        for (ptrdiff_t b = a; b <= last[s]; b += 32) {
            __mmask32 valid = last[s] + 1 - b >= 32 ? 0xFFFFFFFFu
                              : (1u << (last[s] + 1 - b)) - 1;
            __m512i x = _mm512_sub_epi16(_mm512_ternarylogic_epi32(
                _mm512_maskz_loadu_epi16(valid, (const void *) (g + b)),
                _mm512_permutexvar_epi16(reverse, _mm512_maskz_loadu_epi16(
                    valid << (32 - _mm_popcnt_u32(valid)), (const void *) (high - b - 31))),
                cv, 0x96), basev);
            __mmask32 in = _mm512_mask_cmplt_epu16_mask(valid, x, span);
            __m512i word = _mm512_srli_epi16(x, 4);
            __m512i w = _mm512_mask_blend_epi16(
                _mm512_test_epi16_mask(x, bit10), _mm512_permutex2var_epi16(t0, word, t1),
                _mm512_permutex2var_epi16(t2, word, t3));
            __mmask32 hits = _mm512_mask_test_epi16_mask(
                in, _mm512_srlv_epi16(w, _mm512_and_si512(x, low4)), one);
            xs[count] = x;
            masks[count] = hits;
            count += hits != 0;
            if (count == KAYLES_WINDOW_BUFFER) {
                left = kayles_window_flush(xs, masks, count, base, set, seen, stamp);
                count = 0;
                if (!left)
                    return 0;
                t0 = _mm512_loadu_si512(set); t1 = _mm512_loadu_si512(set + 32);
                t2 = _mm512_loadu_si512(set + 64); t3 = _mm512_loadu_si512(set + 96);
            }
        }
    }
    return kayles_window_flush(xs, masks, count, base, set, seen, stamp);
}

/* One broadcast of G(r0 - a .. r0 + 3 - a) lines up with all 32 lanes, so a
   rare a costs a load and a compare where flagging it costs four stores; four
   chains of compares hide the mask latency. */
KAYLES_AVX512 KAYLES_NOINLINE unsigned kayles_unhit_avx512(
        const kayles_value *top, const kayles_pos *a, const kayles_pos *end,
        const kayles_value *value_of_a, const kayles_value *cands) {
    const __m512i want = _mm512_loadu_si512((const void *) cands);
    __mmask32 n0 = 0xFFFFFFFFu, n1 = 0xFFFFFFFFu, n2 = 0xFFFFFFFFu, n3 = 0xFFFFFFFFu;
#define KAYLES_UNHIT(none, i) do {                                                    \
        long long four_;                                                               \
        memcpy(&four_, top - (ptrdiff_t) a[i], sizeof four_);                          \
        none = _mm512_mask_cmpneq_epi16_mask(none, _mm512_xor_si512(                  \
            _mm512_set1_epi64(four_), _mm512_set1_epi16((short) value_of_a[i])), want); \
    } while (0)
    for (; end - a >= 4; a += 4, value_of_a += 4) {
        KAYLES_UNHIT(n0, 0); KAYLES_UNHIT(n1, 1); KAYLES_UNHIT(n2, 2); KAYLES_UNHIT(n3, 3);
    }
    for (; a < end; a++, value_of_a++)
        KAYLES_UNHIT(n0, 0);
#undef KAYLES_UNHIT
    return n0 & n1 & n2 & n3;
}

/* flags is readable up to max(width, 64); width a power of two. */
KAYLES_AVX512 int kayles_candidates_avx512(
        const unsigned char *flags, int width, int mask, kayles_word low_common,
        kayles_value *out, int max) {
    int n = 0;
    for (int b = 0; b < width && n < max; b += 64) {
        __m512i f = _mm512_loadu_si512((const void *) (flags + b));
        kayles_word left = _mm512_testn_epi8_mask(f, f);
        left &= __builtin_parity(b & mask) ? ~low_common : low_common;
        if (width - b < 64)
            left &= (1ULL << (width - b)) - 1;
        for (; left && n < max; left &= left - 1)
            out[n++] = (kayles_value) (b + __builtin_ctzll(left));
    }
    return n;
}

/* Flags are tested 64 at a time and moved into place by XOR-permuting the bits
   with c[k] & 63. */
KAYLES_AVX512 kayles_word kayles_unmarked_avx512(
        const kayles_stamp *seen, kayles_stamp stamp, int b, unsigned char *const *flags,
        const int *width, const int *c, const int *drop_zero, int nflags) {
    const __m512i now = _mm512_set1_epi32((int) stamp);
    kayles_word left = 0;
    for (int q = 0; q < 4; q++)
        left |= (kayles_word) _mm512_cmpneq_epi32_mask(
            _mm512_loadu_si512((const void *) (seen + b + 16 * q)), now) << (16 * q);
    for (int k = 0; k < nflags && left; k++) {
        int base = b ^ (c[k] & ~63);
        if (base >= width[k])
            continue;   /* no flags from here on */
        __m512i f = _mm512_loadu_si512((const void *) (flags[k] + base));
        kayles_word set = _mm512_test_epi8_mask(f, f);
        if (width[k] - base < 64)
            set &= (1ULL << (width[k] - base)) - 1;
        if (base == 0 && drop_zero[k])
            set &= ~1ULL;
        left &= ~kayles_xor_permute(set, c[k] & 63);
    }
    return left;
}

/* into[w] |= kayles_xor_permute(row[w ^ words], 8 * bytes) for w < limit: 8 words a vector,
   the bytes of each word moved within it by one shuffle and the words within their aligned
   8 by one permutation (limit a multiple of 8). */
KAYLES_AVX512 KAYLES_NOINLINE void kayles_or_moved_avx512(
        kayles_word *KAYLES_RESTRICT into, const kayles_word *row, kayles_word open,
        ptrdiff_t block, ptrdiff_t limit, ptrdiff_t words, int bytes) {
    const __m512i lanes = _mm512_xor_si512(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0),
                                           _mm512_set1_epi64(words & 7));
    const kayles_word same = 0x0706050403020100ULL, next = 0x0f0e0d0c0b0a0908ULL;
    const __m512i shuffle = _mm512_xor_si512(   /* byte j of a word from its byte j ^ bytes */
        _mm512_set_epi64((long long) next, (long long) same, (long long) next,
                         (long long) same, (long long) next, (long long) same,
                         (long long) next, (long long) same),
        _mm512_set1_epi8((char) bytes));
    ptrdiff_t high = words & ~(ptrdiff_t) 7, q, from, to;
    while (open) {
        open = kayles_next_run(open, block, limit, &from, &to);
        for (q = from; q < to; q += 8) {
            __m512i words8 = _mm512_loadu_si512(row + (q ^ high));
            if (!_mm512_test_epi64_mask(words8, words8))
                continue;   /* no value there: the sparse rows' many empty stretches */
            __m512i moved = _mm512_permutexvar_epi64(lanes,
                                                     _mm512_shuffle_epi8(words8, shuffle));
            _mm512_storeu_si512(into + q,
                                _mm512_or_si512(_mm512_loadu_si512(into + q), moved));
        }
    }
}

/* out[w] |= kayles_xor_permute(from[w], bits), from[w] = 0: 8 words a vector, the bits
   of each moved by the swaps that bits names (width a multiple of 8). */
KAYLES_AVX512 static inline __m512i kayles_swap_avx512(__m512i x, int shift, long long mask) {
    const __m512i m = _mm512_set1_epi64(mask);
    return _mm512_or_si512(_mm512_slli_epi64(_mm512_and_si512(x, m), shift),
                           _mm512_and_si512(_mm512_srli_epi64(x, shift), m));
}

KAYLES_AVX512 KAYLES_NOINLINE void kayles_or_permuted_avx512(
        kayles_word *KAYLES_RESTRICT out, kayles_word *KAYLES_RESTRICT from, kayles_word open,
        ptrdiff_t block, ptrdiff_t width, int bits) {
    ptrdiff_t q, start, end;
    while (open) {
        open = kayles_next_run(open, block, width, &start, &end);
        for (q = start; q < end; q += 8) {
            __m512i x = _mm512_loadu_si512(from + q);
            if (!_mm512_test_epi64_mask(x, x))
                continue;
            if (bits & 1) x = kayles_swap_avx512(x, 1, 0x5555555555555555LL);
            if (bits & 2) x = kayles_swap_avx512(x, 2, 0x3333333333333333LL);
            if (bits & 4) x = kayles_swap_avx512(x, 4, 0x0F0F0F0F0F0F0F0FLL);
            if (bits & 8) x = kayles_swap_avx512(x, 8, 0x00FF00FF00FF00FFLL);
            if (bits & 16) x = kayles_swap_avx512(x, 16, 0x0000FFFF0000FFFFLL);
            if (bits & 32) x = _mm512_rol_epi64(x, 32);
            _mm512_storeu_si512(out + q, _mm512_or_si512(_mm512_loadu_si512(out + q), x));
            _mm512_storeu_si512(from + q, _mm512_setzero_si512());
        }
    }
}

/* The same step without accumulators, where the CPU has a byte shuffle across the vector
   (AVX512-VBMI) and bit matrices (GFNI): each row moved whole (words and bytes by one
   shuffle, the bits of each byte by one matrix), two rows at a time: into[w] |=
   kayles_xor_permute(row0[w ^ (c0 >> 6)], c0 & 63) | the same of row1 and c1, w < limit
   (a multiple of 8). */
#define KAYLES_AVX512_GFNI __attribute__((target("avx512f,avx512bw,avx512vbmi,gfni")))

/* gf2p8affineqb's matrix that moves bit i ^ c of each byte to bit i (row 7 - i: the
   bits that output bit i takes) */
static long long kayles_bit_matrix(int c) {
    unsigned long long matrix = 0;
    for (int i = 0; i < 8; i++)
        matrix |= (1ULL << (i ^ c)) << (8 * (7 - i));
    return (long long) matrix;
}

KAYLES_AVX512_GFNI static inline __m512i kayles_bytes_from(kayles_value c) {
    const __m512i lanes = _mm512_set_epi8(
        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
        47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
        31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm512_xor_si512(lanes, _mm512_set1_epi8((char) (c >> 3 & 63)));
}

KAYLES_AVX512_GFNI KAYLES_NOINLINE void kayles_or_moved_two_avx512(
        kayles_word *KAYLES_RESTRICT into, const kayles_word *row0, kayles_value c0,
        const kayles_word *row1, kayles_value c1, kayles_word open, ptrdiff_t block,
        ptrdiff_t limit) {
    const __m512i bytes0 = kayles_bytes_from(c0), bytes1 = kayles_bytes_from(c1);
    const __m512i bits0 = _mm512_set1_epi64(kayles_bit_matrix(c0 & 7));
    const __m512i bits1 = _mm512_set1_epi64(kayles_bit_matrix(c1 & 7));
    ptrdiff_t high0 = (ptrdiff_t) (c0 >> 6) & ~(ptrdiff_t) 7;
    ptrdiff_t high1 = (ptrdiff_t) (c1 >> 6) & ~(ptrdiff_t) 7, q, from, to;
    while (open) {
        open = kayles_next_run(open, block, limit, &from, &to);
        for (q = from; q < to; q += 8) {
            __m512i x = _mm512_permutexvar_epi8(bytes0,
                                                _mm512_loadu_si512(row0 + (q ^ high0)));
            __m512i y = _mm512_permutexvar_epi8(bytes1,
                                                _mm512_loadu_si512(row1 + (q ^ high1)));
            __m512i both = _mm512_or_si512(_mm512_gf2p8affine_epi64_epi8(x, bits0, 0),
                                           _mm512_gf2p8affine_epi64_epi8(y, bits1, 0));
            _mm512_storeu_si512(into + q, _mm512_or_si512(_mm512_loadu_si512(into + q), both));
        }
    }
}

const kayles_vectors kayles_avx512_vectors = {
    "avx512bw", 32, kayles_sweep_avx512, kayles_sweep_set_avx512, kayles_sweep_window_avx512,
    kayles_unhit_avx512, kayles_candidates_avx512, kayles_unmarked_avx512,
    kayles_or_moved_avx512, kayles_or_permuted_avx512, NULL,
};

const kayles_vectors kayles_avx512_gfni_vectors = {
    "avx512bw", 32, kayles_sweep_avx512, kayles_sweep_set_avx512, kayles_sweep_window_avx512,
    kayles_unhit_avx512, kayles_candidates_avx512, kayles_unmarked_avx512,
    kayles_or_moved_avx512, kayles_or_permuted_avx512, kayles_or_moved_two_avx512,
};

#endif
