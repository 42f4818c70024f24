/* The take-and-break kernel's bit-set steps (ext/_takebreak.pyx): value sets of one heap's
   splits, as rows of 64-bit words (bit v of a row: the value v is reached).

   kayles_pair_row: the values of the splits of t into two parts, G(a) ^ G(t - a).
   kayles_xor_union: the union over a of {v ^ G(a) : v in row(t - a)}, the values of t
   with one part a and the rest as a row says (three parts from the pair rows, any
   number of parts from the rows of every split).  Moving a set by v -> v ^ c moves word
   w to w ^ (c >> 6) and its bits by kayles_xor_permute(c & 63); the union collects each
   a's row in the accumulator of c & 63 (whole words, no bits moved) and moves the bits
   of each accumulator once at the end, so a's row costs one OR a word: a vector's worth at
   a time where the CPU has them (vec->or_moved: 8 words, or 4, a permutation within each
   aligned group of 8 or 4 and an OR). */

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

/* out |= the bits of each accumulator that used names, moved by its shift (vec->or_permuted,
   or plain), and the accumulators zero again. */
static void kayles_fold(kayles_word *KAYLES_RESTRICT out, kayles_word *KAYLES_RESTRICT
                        accumulators, ptrdiff_t width, kayles_word used,
                        const kayles_vectors *vec) {
    ptrdiff_t w;
    while (used) {
        int bits = kayles_lowest_bit(used);
        kayles_word *from = accumulators + (ptrdiff_t) bits * width;
        used &= used - 1;
        if (vec->or_permuted != NULL && width >= 8) {
            vec->or_permuted(out, from, width, bits);
            continue;
        }
        for (w = 0; w < width; w++) {
            if (from[w]) {
                out[w] |= kayles_xor_permute(from[w], bits);
                from[w] = 0;
            }
        }
    }
}

void kayles_xor_union(kayles_word *KAYLES_RESTRICT out, const kayles_word *rows,
                      ptrdiff_t width, const kayles_value *g, ptrdiff_t t, ptrdiff_t low,
                      ptrdiff_t high, kayles_word *KAYLES_RESTRICT accumulators,
                      const kayles_vectors *vec) {
    ptrdiff_t a, w;
    kayles_word used = 0;
    if (high - low < KAYLES_UNION_DIRECT) {   /* few rows: each moved bit by bit */
        for (a = low; a <= high; a++) {
            const kayles_word *row = rows + (t - a) * width;
            ptrdiff_t words = (ptrdiff_t) (g[a] >> 6);
            int bits = g[a] & 63;
            for (w = 0; w < width; w++)
                if (row[w])
                    out[w ^ words] |= kayles_xor_permute(row[w], bits);
        }
        return;
    }
    for (a = low; a <= high; a++) {
        const kayles_word *row = rows + (t - a) * width;
        kayles_word *into = accumulators + (ptrdiff_t) (g[a] & 63) * width;
        ptrdiff_t words = (ptrdiff_t) (g[a] >> 6);
        used |= 1ULL << (g[a] & 63);
        if (vec->or_moved != NULL && width >= 8) {
            vec->or_moved(into, row, width, words);
            continue;
        }
        for (w = 0; w < width; w++)
            into[w ^ words] |= row[w];
    }
    kayles_fold(out, accumulators, width, used, vec);
}

/* One row's words moved by `words` into an accumulator (vec->or_moved, or plain). */
static inline void kayles_or_moved(kayles_word *KAYLES_RESTRICT into, const kayles_word *row,
                                   ptrdiff_t width, ptrdiff_t words,
                                   const kayles_vectors *vec) {
    ptrdiff_t w;
    if (vec->or_moved != NULL && width >= 8) {
        vec->or_moved(into, row, width, words);
        return;
    }
    for (w = 0; w < width; w++)
        into[w ^ words] |= row[w];
}

void kayles_xor_union_ahead(kayles_word *out, const kayles_word *rows, ptrdiff_t width,
                            const kayles_value *g, ptrdiff_t t,
                            kayles_word *KAYLES_RESTRICT accumulators,
                            const kayles_vectors *vec) {
    kayles_word used[KAYLES_AHEAD] = {0};
    ptrdiff_t s, lowest = t - t / 3;   /* heap t's last row: the lowest of all */
    int k;
    for (s = t; s >= lowest; s--) {   /* each row read once for every heap ahead */
        const kayles_word *row = rows + s * width;
        for (k = 0; k < KAYLES_AHEAD; k++) {
            ptrdiff_t a = t + k - s;
            if (a < (k > 1 ? k : 1) || a > (t + k) / 3)
                continue;
            used[k] |= 1ULL << (g[a] & 63);
            kayles_or_moved(accumulators + ((ptrdiff_t) k * 64 + (g[a] & 63)) * width, row,
                            width, (ptrdiff_t) (g[a] >> 6), vec);
        }
    }
    for (k = 0; k < KAYLES_AHEAD; k++)
        kayles_fold(out + (ptrdiff_t) k * width, accumulators + (ptrdiff_t) k * 64 * width,
                    width, used[k], vec);
}
