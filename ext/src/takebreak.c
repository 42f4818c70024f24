/* The take-and-break kernel's bit-set steps (ext/_takebreak.pyx): value sets of one heap's
   splits, as rows of 64-bit words (bit v of a row: the value v is reached).

   kayles_pair_row: the values of the splits of t into two parts, G(a) ^ G(t - a).
   kayles_xor_union: the union over a of {v ^ G(a) : v in row(t - a)}, the values of t
   with one part a and the rest as a row says (three parts from the pair rows, any
   number of parts from the rows of every split).  Moving a set by v -> v ^ c moves word
   w to w ^ (c >> 6), its bytes by c >> 3 & 7 and the bits of each byte by c & 7; the
   union moves each a's row by words and bytes into the accumulator of c & 7 (one of
   KAYLES_CLASSES) and the bits of each accumulator once at the end, so a's row costs one
   OR a word: a vector's worth at a time where the CPU has them (vec->or_moved: 8 words,
   or 4, a byte shuffle, a permutation within each aligned group of 8 or 4 and an OR).
   Eight accumulators a heap, not 64 (bits 0-5 of c): for 32 heaps at 2**16 values they
   are 2 MB, not 16 MB.  Where the CPU has a whole-vector byte shuffle and bit matrices
   (vec->or_moved_two: AVX512-VBMI and GFNI) there are no accumulators: each row is moved
   whole, two rows an OR. */

#include <string.h>

#include "kernels.h"

void kayles_pair_row(kayles_word *KAYLES_RESTRICT out, const kayles_value *g, ptrdiff_t t,
                     int unequal) {
    ptrdiff_t a, last = unequal ? (t - 1) / 2 : t / 2;
    for (a = 1; a <= last; a++) {
        unsigned v = (unsigned) (g[a] ^ g[t - a]);
        out[v >> 6] |= 1ULL << (v & 63);
    }
}

/* Words w < limit of one row moved by the words and bytes of c into an accumulator
   (vec->or_moved, or plain). */
static inline void kayles_or_moved(kayles_word *KAYLES_RESTRICT into, const kayles_word *row,
                                   ptrdiff_t limit, kayles_value c, const kayles_vectors *vec) {
    ptrdiff_t w, words = (ptrdiff_t) (c >> 6);
    int bytes = c >> 3 & 7;
    if (vec->or_moved != NULL && limit >= 8) {
        vec->or_moved(into, row, limit, words, bytes);
        return;
    }
    for (w = 0; w < limit; w++)
        if (row[w ^ words])
            into[w] |= kayles_xor_permute(row[w ^ words], bytes << 3);
}

/* out |= the bits of each accumulator that used names, moved by its shift (vec->or_permuted,
   or plain), words below limit, and the accumulators zero again. */
static void kayles_fold(kayles_word *KAYLES_RESTRICT out, kayles_word *KAYLES_RESTRICT
                        accumulators, ptrdiff_t width, ptrdiff_t limit, kayles_word used,
                        const kayles_vectors *vec) {
    ptrdiff_t w;
    while (used) {
        int bits = kayles_lowest_bit(used);
        kayles_word *from = accumulators + (ptrdiff_t) bits * width;
        used &= used - 1;
        if (vec->or_permuted != NULL && limit >= 8) {
            vec->or_permuted(out, from, limit, bits);
            continue;
        }
        for (w = 0; w < limit; w++) {
            if (from[w]) {
                out[w] |= kayles_xor_permute(from[w], bits);
                from[w] = 0;
            }
        }
    }
}

void kayles_xor_union(kayles_word *KAYLES_RESTRICT out, const kayles_word *rows,
                      ptrdiff_t width, ptrdiff_t limit, const kayles_value *g, ptrdiff_t t,
                      ptrdiff_t low, ptrdiff_t high, kayles_word *KAYLES_RESTRICT accumulators,
                      const kayles_vectors *vec) {
    ptrdiff_t a, w;
    kayles_word used = 0;
    if (high - low < KAYLES_UNION_DIRECT) {   /* few rows: each moved bit by bit */
        for (a = low; a <= high; a++) {
            const kayles_word *row = rows + (t - a) * width;
            ptrdiff_t words = (ptrdiff_t) (g[a] >> 6);
            int bits = g[a] & 63;
            for (w = 0; w < limit; w++)
                if (row[w ^ words])
                    out[w] |= kayles_xor_permute(row[w ^ words], bits);
        }
        return;
    }
    if (vec->or_moved_two != NULL && limit >= 8) {   /* no accumulators: rows two by two */
        for (a = low; a <= high; a += 2) {
            ptrdiff_t b = a < high ? a + 1 : a;
            vec->or_moved_two(out, rows + (t - a) * width, g[a], rows + (t - b) * width, g[b],
                              limit);
        }
        return;
    }
    for (a = low; a <= high; a++) {
        used |= 1ULL << (g[a] & 7);
        kayles_or_moved(accumulators + (ptrdiff_t) (g[a] & 7) * width, rows + (t - a) * width,
                        limit, g[a], vec);
    }
    kayles_fold(out, accumulators, width, limit, used, vec);
}

void kayles_xor_union_ahead(kayles_word *out, const kayles_word *rows, ptrdiff_t width,
                            ptrdiff_t limit, const kayles_value *g, ptrdiff_t t,
                            ptrdiff_t high, ptrdiff_t low,
                            kayles_word *KAYLES_RESTRICT accumulators,
                            const kayles_vectors *vec) {
    ptrdiff_t s;
    int k;
    if (vec->or_moved_two != NULL && limit >= 8) {   /* no accumulators: rows two by two */
        for (s = high; s >= low; s -= 2) {
            const kayles_word *row = rows + s * width, *next = row - width;
            for (k = 0; k < KAYLES_AHEAD; k++) {
                ptrdiff_t a = t + k - s, first = k > 1 ? k : 1, last = (t + k) / 3;
                int here = a >= first && a <= last, there = s > low && a + 1 <= last;
                if (here || there)   /* a row alone: read twice */
                    vec->or_moved_two(out + (ptrdiff_t) k * width, here ? row : next,
                                      g[here ? a : a + 1], there ? next : row,
                                      g[there ? a + 1 : a], limit);
            }
        }
        return;
    }
    for (s = high; s >= low; s--) {   /* each row read once for every heap ahead */
        const kayles_word *row = rows + s * width;
        for (k = 0; k < KAYLES_AHEAD; k++) {
            ptrdiff_t a = t + k - s;
            if (a < (k > 1 ? k : 1) || a > (t + k) / 3)
                continue;
            ptrdiff_t into = (ptrdiff_t) k * KAYLES_CLASSES + (g[a] & 7);
            kayles_or_moved(accumulators + into * width, row, limit, g[a], vec);
        }
    }
}

void kayles_xor_union_ahead_fold(kayles_word *out, ptrdiff_t width, ptrdiff_t limit,
                                 kayles_word *KAYLES_RESTRICT accumulators,
                                 const kayles_vectors *vec) {
    int k;
    for (k = 0; k < KAYLES_AHEAD; k++)
        kayles_fold(out + (ptrdiff_t) k * width,
                    accumulators + (ptrdiff_t) k * KAYLES_CLASSES * width, width, limit,
                    ((kayles_word) 1 << KAYLES_CLASSES) - 1, vec);
}
