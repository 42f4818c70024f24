/* The kernels for CPUs with AVX2 (and no AVX-512: most desktops, many servers): 16 pairs a
   vector.  Compiled for those instructions alone (target attributes) and chosen at run time
   (cpu.c), as avx512.c's are; the same contracts (kernels.h).  AVX2 has no mask registers
   and no two-table word permute, so there is no set path here (one by gathers was 1.5x
   slower: docs/benchmarks.md): the compare sweep takes the search's last stage, and the
   checked share of the rare pass compares 32 lanes as two vectors of 16. */

#include <string.h>

#include "kernels.h"

#if KAYLES_X86_VECTORS
#include <immintrin.h>

#define KAYLES_AVX2 __attribute__((target("avx2")))

/* G(p - 15 .. p) reversed: lane k holds G(p - k). */
KAYLES_AVX2 static inline __m256i kayles_reversed16(const kayles_value *p) {
    const __m256i swap_words = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    __m256i y = _mm256_loadu_si256((const __m256i *) (p - 15));
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(y, swap_words), 0x4E);
}

/* 16-bit lanes to one bit each: bit i of the result is lane i's top bit. */
KAYLES_AVX2 static inline unsigned kayles_lanes16(__m256i x) {
    __m256i bytes = _mm256_packs_epi16(x, _mm256_setzero_si256());   /* per 128-bit half */
    bytes = _mm256_permute4x64_epi64(bytes, 0xD8);                  /* the halves' lows together */
    return (unsigned) _mm256_movemask_epi8(bytes) & 0xFFFFu;
}

KAYLES_AVX2 KAYLES_NOINLINE int kayles_sweep_avx2(
        const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last, const unsigned int *c,
        int nsplits, ptrdiff_t a, kayles_value *values, int n, kayles_stamp *seen,
        kayles_stamp stamp) {
    int s, i, v, active = 1;
    for (; n > 0 && active; a += 128) {
        active = 0;
        for (s = 0; s < nsplits && n > 0; s++) {
            if (a > last[s])
                continue;
            active = 1;
            ptrdiff_t end = a + 128 < last[s] + 1 ? a + 128 : last[s] + 1;
            __m256i x[8];
            const __m256i cv = _mm256_set1_epi16((short) c[s]);
            int vectors = (int) ((end - a) / 16);
            for (v = 0; v < vectors; v++)
                x[v] = _mm256_xor_si256(_mm256_xor_si256(
                    _mm256_loadu_si256((const __m256i *) (g + a + 16 * v)),
                    kayles_reversed16(g + r[s] - a - 16 * v)), cv);
            ptrdiff_t tail = a + 16 * vectors;
            for (i = 0; i < n;) {
                const __m256i w = _mm256_set1_epi16((short) values[i]);
                __m256i any = _mm256_setzero_si256();
                for (v = 0; v < vectors; v++)
                    any = _mm256_or_si256(any, _mm256_cmpeq_epi16(x[v], w));
                if (!_mm256_testz_si256(any, any) ||
                        kayles_tail_has(g, r[s], tail, end, c[s], values[i]))
                    n = kayles_found(values, i, n, seen, stamp);
                else
                    i++;
            }
        }
    }
    return n;
}

/* The rare pass's checked share on 32 lanes (lane 4k + j: candidate k of remainder r0 + j),
   as two vectors of 16: a rare a costs one 8-byte broadcast, two compares and two ORs. */
KAYLES_AVX2 KAYLES_NOINLINE unsigned kayles_unhit_avx2(
        const kayles_value *top, const kayles_pos *a, const kayles_pos *end,
        const kayles_value *value_of_a, const kayles_value *cands) {
    const __m256i want_lo = _mm256_loadu_si256((const __m256i *) cands);
    const __m256i want_hi = _mm256_loadu_si256((const __m256i *) (cands + 16));
    __m256i lo0 = _mm256_setzero_si256(), hi0 = lo0, lo1 = lo0, hi1 = lo0;
#define KAYLES_HIT(lo, hi, i) do {                                                     \
        long long four_;                                                                \
        memcpy(&four_, top - (ptrdiff_t) a[i], sizeof four_);                           \
        __m256i x_ = _mm256_xor_si256(_mm256_set1_epi64x(four_),                        \
                                      _mm256_set1_epi16((short) value_of_a[i]));        \
        lo = _mm256_or_si256(lo, _mm256_cmpeq_epi16(x_, want_lo));                      \
        hi = _mm256_or_si256(hi, _mm256_cmpeq_epi16(x_, want_hi));                      \
    } while (0)
    for (; end - a >= 2; a += 2, value_of_a += 2) {
        KAYLES_HIT(lo0, hi0, 0); KAYLES_HIT(lo1, hi1, 1);
    }
    for (; a < end; a++, value_of_a++)
        KAYLES_HIT(lo0, hi0, 0);
#undef KAYLES_HIT
    unsigned hit = kayles_lanes16(_mm256_or_si256(lo0, lo1)) |
                   kayles_lanes16(_mm256_or_si256(hi0, hi1)) << 16;
    return ~hit;
}

/* As kayles_candidates_avx512, 32 flags a step. */
KAYLES_AVX2 int kayles_candidates_avx2(
        const unsigned char *flags, int width, int mask, kayles_word low_common,
        kayles_value *out, int max) {
    int n = 0;
    for (int b = 0; b < width && n < max; b += 32) {
        __m256i f = _mm256_loadu_si256((const __m256i *) (flags + b));
        unsigned left = (unsigned) _mm256_movemask_epi8(
            _mm256_cmpeq_epi8(f, _mm256_setzero_si256()));
        unsigned common = (unsigned) (low_common >> (b & 32));
        left &= __builtin_parity((b & ~63) & mask) ? ~common : common;   /* low_common has b & 32 */
        if (width - b < 32)
            left &= (1u << (width - b)) - 1;
        for (; left && n < max; left &= left - 1)
            out[n++] = (kayles_value) (b + __builtin_ctz(left));
    }
    return n;
}

/* 32 flags at p, a bit each: set where the byte is not 0. */
KAYLES_AVX2 static inline unsigned kayles_set32(const unsigned char *p) {
    __m256i f = _mm256_loadu_si256((const __m256i *) p);
    return ~(unsigned) _mm256_movemask_epi8(_mm256_cmpeq_epi8(f, _mm256_setzero_si256()));
}

/* As kayles_unmarked_avx512: the values in [b, b + 64) with no option yet. */
KAYLES_AVX2 kayles_word kayles_unmarked_avx2(
        const kayles_stamp *seen, kayles_stamp stamp, int b, unsigned char *const *flags,
        const int *width, const int *c, const int *drop_zero, int nflags) {
    const __m256i now = _mm256_set1_epi32((int) stamp);
    kayles_word marked = 0;
    for (int q = 0; q < 8; q++) {
        __m256i same = _mm256_cmpeq_epi32(
            _mm256_loadu_si256((const __m256i *) (seen + b + 8 * q)), now);
        marked |= (kayles_word) (unsigned) _mm256_movemask_ps(_mm256_castsi256_ps(same))
                  << (8 * q);
    }
    kayles_word left = ~marked;
    for (int k = 0; k < nflags && left; k++) {
        int base = b ^ (c[k] & ~63);
        if (base >= width[k])
            continue;   /* no flags from here on */
        kayles_word set = kayles_set32(flags[k] + base) |
                          (kayles_word) kayles_set32(flags[k] + base + 32) << 32;
        if (width[k] - base < 64)
            set &= (1ULL << (width[k] - base)) - 1;
        if (base == 0 && drop_zero[k])
            set &= ~1ULL;
        left &= ~kayles_xor_permute(set, c[k] & 63);
    }
    return left;
}

/* The bits of each byte moved by b (bit i to bit i ^ b, b < 8) as two table lookups, one
   for each half of the byte: kayles_nibbles_moved[b][0] maps the low half, [1] the high
   one, each 16 entries twice (a shuffle looks up within each 128-bit half). */
#define KAYLES_BIT_TO(n, i, shift, b) ((((n) >> (i)) & 1) << (((i) + (shift)) ^ (b)))
#define KAYLES_NIBBLE(n, shift, b) \
    (KAYLES_BIT_TO(n, 0, shift, b) | KAYLES_BIT_TO(n, 1, shift, b) | \
     KAYLES_BIT_TO(n, 2, shift, b) | KAYLES_BIT_TO(n, 3, shift, b))
#define KAYLES_NIBBLES16(shift, b) \
    KAYLES_NIBBLE(0, shift, b), KAYLES_NIBBLE(1, shift, b), KAYLES_NIBBLE(2, shift, b), \
    KAYLES_NIBBLE(3, shift, b), KAYLES_NIBBLE(4, shift, b), KAYLES_NIBBLE(5, shift, b), \
    KAYLES_NIBBLE(6, shift, b), KAYLES_NIBBLE(7, shift, b), KAYLES_NIBBLE(8, shift, b), \
    KAYLES_NIBBLE(9, shift, b), KAYLES_NIBBLE(10, shift, b), KAYLES_NIBBLE(11, shift, b), \
    KAYLES_NIBBLE(12, shift, b), KAYLES_NIBBLE(13, shift, b), KAYLES_NIBBLE(14, shift, b), \
    KAYLES_NIBBLE(15, shift, b)
#define KAYLES_NIBBLE_TABLES(b) \
    {{KAYLES_NIBBLES16(0, b), KAYLES_NIBBLES16(0, b)}, \
     {KAYLES_NIBBLES16(4, b), KAYLES_NIBBLES16(4, b)}}

static const unsigned char kayles_nibbles_moved[8][2][32] = {
    KAYLES_NIBBLE_TABLES(0), KAYLES_NIBBLE_TABLES(1), KAYLES_NIBBLE_TABLES(2),
    KAYLES_NIBBLE_TABLES(3), KAYLES_NIBBLE_TABLES(4), KAYLES_NIBBLE_TABLES(5),
    KAYLES_NIBBLE_TABLES(6), KAYLES_NIBBLE_TABLES(7),
};

/* How one row's vectors move by c: a byte shuffle within each 128-bit half (the bytes of a
   word by c >> 3 & 7, the two words of the half by bit 0 of c >> 6), then the halves
   swapped where bit 1 of c >> 6 is set, then each byte's bits by the tables of c & 7. */
typedef struct {
    __m256i shuffle, low, high;
    ptrdiff_t from_word;   /* the word that word 0 of an aligned 4 is read from, xor q */
    int swap;
} kayles_move_avx2;

KAYLES_AVX2 static inline kayles_move_avx2 kayles_move_by(kayles_value c) {
    kayles_move_avx2 m;
    ptrdiff_t words = (ptrdiff_t) (c >> 6);
    int bytes = (c >> 3 & 7) | (int) (words & 1) << 3;
    m.shuffle = _mm256_xor_si256(
        _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                         0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        _mm256_set1_epi8((char) bytes));
    m.low = _mm256_loadu_si256((const __m256i *) kayles_nibbles_moved[c & 7][0]);
    m.high = _mm256_loadu_si256((const __m256i *) kayles_nibbles_moved[c & 7][1]);
    m.from_word = words & ~(ptrdiff_t) 3;
    m.swap = (int) (words & 2);
    return m;
}

KAYLES_AVX2 static inline __m256i kayles_moved_avx2(const kayles_word *row, ptrdiff_t q,
                                                    const kayles_move_avx2 *m) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i x = _mm256_loadu_si256((const __m256i *) (row + (q ^ m->from_word)));
    if (m->swap)
        x = _mm256_permute4x64_epi64(x, 0x4E);
    x = _mm256_shuffle_epi8(x, m->shuffle);
    return _mm256_or_si256(
        _mm256_shuffle_epi8(m->low, _mm256_and_si256(x, nibble)),
        _mm256_shuffle_epi8(m->high, _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble)));
}

/* into[w] |= kayles_xor_permute(row0[w ^ (c0 >> 6)], c0 & 63) | the same for row1 and c1,
   in the open blocks: no accumulators, each row moved whole. */
KAYLES_AVX2 KAYLES_NOINLINE void kayles_or_moved_two_avx2(
        kayles_word *KAYLES_RESTRICT into, const kayles_word *row0, kayles_value c0,
        const kayles_word *row1, kayles_value c1, kayles_word open, ptrdiff_t block,
        ptrdiff_t limit) {
    const kayles_move_avx2 m0 = kayles_move_by(c0), m1 = kayles_move_by(c1);
    ptrdiff_t q, from, to;
    while (open) {
        open = kayles_next_run(open, block, limit, &from, &to);
        for (q = from; q < to; q += 4) {
            __m256i both = _mm256_or_si256(kayles_moved_avx2(row0, q, &m0),
                                           kayles_moved_avx2(row1, q, &m1));
            __m256i *at = (__m256i *) (into + q);
            _mm256_storeu_si256(at, _mm256_or_si256(_mm256_loadu_si256(at), both));
        }
    }
}

const kayles_vectors kayles_avx2_vectors = {
    "avx2", 16, kayles_sweep_avx2, NULL, NULL, kayles_unhit_avx2, kayles_candidates_avx2,
    kayles_unmarked_avx2, NULL, NULL, kayles_or_moved_two_avx2,
};

#endif
