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
   Eight accumulators a heap, not 64 (bits 0-5 of c): for 64 heaps at 2**16 values they
   are 4 MB, not 32 MB.  Where the CPU can move a vector's bits within their bytes
   cheaply (vec->or_moved_two: AVX512-VBMI and GFNI by bit matrices; AVX2 by two nibble
   lookups) there are no accumulators: each row is moved whole, two rows an OR, and the
   rows made ahead stay in the caches (past 2**14 values 64 heaps' accumulators do not).
   A row made ahead goes in blocks of words: those full (every value there reached) are
   closed, and no further row is ORed into them; each vector step takes a mask of the
   open blocks. */

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

/* The words of one row in the open blocks moved by the words and bytes of c into an
   accumulator (vec->or_moved, or plain). */
static inline void kayles_or_moved(kayles_word *KAYLES_RESTRICT into, const kayles_word *row,
                                   kayles_word open, ptrdiff_t block, ptrdiff_t limit,
                                   kayles_value c, const kayles_vectors *vec) {
    ptrdiff_t w, from, to, words = (ptrdiff_t) (c >> 6);
    int bytes = c >> 3 & 7;
    if (vec->or_moved != NULL && limit >= 8) {
        vec->or_moved(into, row, open, block, limit, words, bytes);
        return;
    }
    while (open) {
        open = kayles_next_run(open, block, limit, &from, &to);
        for (w = from; w < to; w++)
            if (row[w ^ words])
                into[w] |= kayles_xor_permute(row[w ^ words], bytes << 3);
    }
}

/* out |= the bits of each accumulator that used names, moved by its shift (vec->or_permuted,
   or plain), in the open blocks, and the accumulators zero again there. */
static void kayles_fold(kayles_word *KAYLES_RESTRICT out, kayles_word *KAYLES_RESTRICT
                        accumulators, ptrdiff_t width, kayles_word open, ptrdiff_t block,
                        ptrdiff_t limit, kayles_word used, const kayles_vectors *vec) {
    ptrdiff_t w, from, to;
    while (used) {
        int bits = kayles_lowest_bit(used);
        kayles_word *source = accumulators + (ptrdiff_t) bits * width, runs = open;
        used &= used - 1;
        if (vec->or_permuted != NULL && limit >= 8) {
            vec->or_permuted(out, source, open, block, limit, bits);
            continue;
        }
        while (runs) {
            runs = kayles_next_run(runs, block, limit, &from, &to);
            for (w = from; w < to; w++) {
                if (source[w]) {
                    out[w] |= kayles_xor_permute(source[w], bits);
                    source[w] = 0;
                }
            }
        }
    }
}

static ptrdiff_t kayles_block_words(ptrdiff_t limit) {
    ptrdiff_t block = KAYLES_BLOCK_WORDS;
    while (block * 64 < limit)
        block *= 2;
    return block;
}

void kayles_xor_union(kayles_word *KAYLES_RESTRICT out, const kayles_word *rows,
                      ptrdiff_t width, ptrdiff_t limit, const kayles_value *g, ptrdiff_t t,
                      ptrdiff_t low, ptrdiff_t high, kayles_word *KAYLES_RESTRICT accumulators,
                      const kayles_vectors *vec) {
    const kayles_word all = ~(kayles_word) 0;
    ptrdiff_t a, w, block = kayles_block_words(limit);
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
                              all, block, limit);
        }
        return;
    }
    for (a = low; a <= high; a++) {
        used |= 1ULL << (g[a] & 7);
        kayles_or_moved(accumulators + (ptrdiff_t) (g[a] & 7) * width, rows + (t - a) * width,
                        all, block, limit, g[a], vec);
    }
    kayles_fold(out, accumulators, width, all, block, limit, used, vec);
}

void kayles_xor_union_ahead_open(kayles_word *open, ptrdiff_t limit) {
    ptrdiff_t block = kayles_block_words(limit), blocks = (limit + block - 1) / block;
    int k;
    for (k = 0; k < KAYLES_AHEAD; k++)
        open[k] = blocks >= 64 ? ~(kayles_word) 0 : ((kayles_word) 1 << blocks) - 1;
}

/* Whether words [from, to) of the union of the rows r - span for each reader span are
   full (rows at or past the pass's end, or below 0, read as empty). */
static int kayles_union_full(const kayles_word *out, ptrdiff_t width, ptrdiff_t t,
                             ptrdiff_t r, const int *spans, int nspans, ptrdiff_t from,
                             ptrdiff_t to) {
    ptrdiff_t w;
    int i;
    for (w = from; w < to; w++) {
        kayles_word any = 0;
        for (i = 0; i < nspans; i++)
            if (r - spans[i] >= 0 && r - spans[i] < t + KAYLES_AHEAD)
                any |= out[(r - spans[i] - t) * width + w];
        if (any != ~(kayles_word) 0)
            return 0;
    }
    return 1;
}

/* The accumulators moved into the rows in their open blocks (where fold), then each open
   block closed where every heap that reads its row (row r + span for each reader span)
   finds the union of the rows it reads full there: no value there is its mex, whatever
   more those rows gain.  With the one span 0, a block closes where its row is full. */
static ptrdiff_t kayles_close_full(kayles_word *out, ptrdiff_t width, ptrdiff_t limit,
                                   ptrdiff_t t, kayles_word *KAYLES_RESTRICT accumulators,
                                   kayles_word *open, const int *spans, int nspans, int fold,
                                   const kayles_vectors *vec) {
    ptrdiff_t block = kayles_block_words(limit), closed = 0;
    int k, i;
    if (fold)
        for (k = 0; k < KAYLES_AHEAD; k++)
            kayles_fold(out + (ptrdiff_t) k * width,
                        accumulators + (ptrdiff_t) k * KAYLES_CLASSES * width, width, open[k],
                        block, limit, ((kayles_word) 1 << KAYLES_CLASSES) - 1, vec);
    for (k = 0; k < KAYLES_AHEAD; k++) {
        kayles_word blocks = open[k];
        while (blocks) {
            int b = kayles_lowest_bit(blocks), full = 1;
            ptrdiff_t from = (ptrdiff_t) b * block, to = from + block;
            blocks &= blocks - 1;
            if (to > limit)
                break;   /* the last block, cut short, holds the largest values */
            for (i = 0; i < nspans && full; i++)
                full = kayles_union_full(out, width, t, t + k + spans[i], spans, nspans,
                                         from, to);
            if (full) {
                open[k] &= ~((kayles_word) 1 << b);
                closed++;
            }
        }
    }
    return closed;
}

ptrdiff_t kayles_xor_union_ahead(kayles_word *out, const kayles_word *rows, ptrdiff_t width,
                                 ptrdiff_t limit, const kayles_value *g, ptrdiff_t t,
                                 ptrdiff_t high, ptrdiff_t low,
                                 kayles_word *KAYLES_RESTRICT accumulators, kayles_word *open,
                                 ptrdiff_t every, const int *spans, int nspans,
                                 const kayles_vectors *vec) {
    ptrdiff_t s, block = kayles_block_words(limit), closed = 0;
    int k, two = vec->or_moved_two != NULL && limit >= 8, step = two ? 2 : 1;
    if (every <= 0)
        every = two ? KAYLES_FULL_EVERY_DIRECT : KAYLES_FULL_EVERY;
    for (s = high; s >= low; s -= step) {   /* each row read once for every heap ahead */
        const kayles_word *row = rows + s * width, *next = row - width;
        if (s - 3 * step >= 0) {   /* the rows two steps on, on their way to the cache */
            ptrdiff_t w, r;
            for (r = s - 3 * step + 1; r <= s - 2 * step; r++)
                for (w = 0; w < limit; w += 8)
                    kayles_prefetch(rows + r * width + w);
        }
        for (k = 0; k < KAYLES_AHEAD; k++) {
            ptrdiff_t a = t + k - s, first = k > 1 ? k : 1, last = (t + k) / 3;
            if (two) {   /* no accumulators: rows two by two */
                int here = a >= first && a <= last, there = s > low && a + 1 <= last;
                if (here || there)   /* a row alone: read twice */
                    vec->or_moved_two(out + (ptrdiff_t) k * width, here ? row : next,
                                      g[here ? a : a + 1], there ? next : row,
                                      g[there ? a + 1 : a], open[k], block, limit);
            } else if (a >= first && a <= last) {
                kayles_or_moved(accumulators + ((ptrdiff_t) k * KAYLES_CLASSES + (g[a] & 7))
                                * width, row, open[k], block, limit, g[a], vec);
            }
        }
        if ((t - s) % every >= every - step)
            closed += kayles_close_full(out, width, limit, t, accumulators, open, spans,
                                        nspans, !two, vec);
    }
    return closed;
}

void kayles_xor_union_ahead_fold(kayles_word *out, ptrdiff_t width, ptrdiff_t limit,
                                 kayles_word *KAYLES_RESTRICT accumulators, kayles_word *open,
                                 const kayles_vectors *vec) {
    ptrdiff_t block = kayles_block_words(limit);
    int k;
    if (vec->or_moved_two != NULL && limit >= 8)
        return;   /* no accumulators were used */
    for (k = 0; k < KAYLES_AHEAD; k++)
        kayles_fold(out + (ptrdiff_t) k * width,
                    accumulators + (ptrdiff_t) k * KAYLES_CLASSES * width, width, open[k],
                    block, limit, ((kayles_word) 1 << KAYLES_CLASSES) - 1, vec);
}
