/* The portable kernels: the rare pass, the one-hot path and the search, in plain C
   with SSE2 where the CPU is x86-64 (every x86-64 has it).  See kernels.h. */

#include "kernels.h"

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(KAYLES_PORTABLE_ONLY)
#include <emmintrin.h>
#define KAYLES_SSE2 1
#endif

/* The general sparse path's hottest loop.  One load of a and G(a) serves four
   pairs, and G(r0 - a .. r0 + 3 - a) are adjacent.  Kept out of line so the
   compiler gives it registers of its own; inlined into the large kernel it
   spilled its pointers on every step. */
KAYLES_NOINLINE void kayles_flag_group(
        const kayles_value *KAYLES_RESTRICT top, const kayles_pos *KAYLES_RESTRICT a,
        const kayles_pos *end, const kayles_value *KAYLES_RESTRICT value_of_a,
        unsigned char *KAYLES_RESTRICT flags) {
    unsigned char *f1 = flags + KAYLES_FLAG_STRIDE, *f2 = flags + 2 * KAYLES_FLAG_STRIDE;
    unsigned char *f3 = flags + 3 * KAYLES_FLAG_STRIDE;
    for (; a < end; a++, value_of_a++) {
        const kayles_value *p = top - (ptrdiff_t) *a;   /* p[j] is G(r0 + j - a) */
        unsigned v = *value_of_a;
        flags[v ^ p[0]] = 1; f1[v ^ p[1]] = 1; f2[v ^ p[2]] = 1; f3[v ^ p[3]] = 1;
    }
}

KAYLES_NOINLINE void kayles_flag_one(
        const kayles_value *KAYLES_RESTRICT top, const kayles_pos *KAYLES_RESTRICT a,
        const kayles_pos *end, const kayles_value *KAYLES_RESTRICT value_of_a,
        unsigned char *KAYLES_RESTRICT flags) {
    for (; a < end; a++, value_of_a++)
        flags[*value_of_a ^ top[-(ptrdiff_t) *a]] = 1;
}

/* Eight accumulators stay in registers, so each source word costs one load and
   one OR. */
KAYLES_NOINLINE void kayles_gather_or(kayles_word *out, const kayles_word *onehot, ptrdiff_t r0,
                                      const kayles_pos *pos, ptrdiff_t n) {
    for (int jb = 0; jb < 64; jb += 8) {
        kayles_word a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
        for (ptrdiff_t i = 0; i < n; i++) {
            const kayles_word *s = onehot + (r0 - (ptrdiff_t) pos[i]) + jb;
            a0 |= s[0]; a1 |= s[1]; a2 |= s[2]; a3 |= s[3];
            a4 |= s[4]; a5 |= s[5]; a6 |= s[6]; a7 |= s[7];
        }
        out[jb] = a0; out[jb + 1] = a1; out[jb + 2] = a2; out[jb + 3] = a3;
        out[jb + 4] = a4; out[jb + 5] = a5; out[jb + 6] = a6; out[jb + 7] = a7;
    }
}

/* The search's and the plain scan's loop, out of line for the same reason. */
KAYLES_NOINLINE void kayles_mark_pairs(
        const kayles_value *KAYLES_RESTRICT g, ptrdiff_t r, ptrdiff_t a, ptrdiff_t end,
        unsigned int c, kayles_stamp *KAYLES_RESTRICT seen, kayles_stamp stamp) {
    const kayles_value *low = g + a, *stop = g + end, *high = g + (r - a);
#ifdef KAYLES_SSE2
    /* Eight pairs a step: load G(a..a+7) and G(r-a-7..r-a), reverse the second,
       XOR; then eight stores.  Every value is below 2**16. */
    const __m128i cv = _mm_set1_epi16((short) c);
    for (; stop - low >= 8; low += 8, high -= 8) {
        __m128i x = _mm_loadu_si128((const __m128i *) low);
        __m128i y = _mm_loadu_si128((const __m128i *) (high - 7));
        y = _mm_shuffle_epi32(y, _MM_SHUFFLE(0, 1, 2, 3));
        y = _mm_shufflelo_epi16(y, _MM_SHUFFLE(2, 3, 0, 1));
        y = _mm_shufflehi_epi16(y, _MM_SHUFFLE(2, 3, 0, 1));
        x = _mm_xor_si128(_mm_xor_si128(x, y), cv);
        seen[_mm_extract_epi16(x, 0)] = stamp; seen[_mm_extract_epi16(x, 1)] = stamp;
        seen[_mm_extract_epi16(x, 2)] = stamp; seen[_mm_extract_epi16(x, 3)] = stamp;
        seen[_mm_extract_epi16(x, 4)] = stamp; seen[_mm_extract_epi16(x, 5)] = stamp;
        seen[_mm_extract_epi16(x, 6)] = stamp; seen[_mm_extract_epi16(x, 7)] = stamp;
    }
#endif
    for (; low < stop; low++, high--)
        seen[(*low ^ *high) ^ c] = stamp;
}

/* Comparing costs an instruction per value and vector of pairs, where marking
   costs a store a pair: it pays once few values are left.  Blocks of 64 smaller
   parts, the splits side by side. */
KAYLES_NOINLINE int kayles_sweep_portable(
        const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last, const unsigned int *c,
        int nsplits, ptrdiff_t a, kayles_value *values, int n, kayles_stamp *seen,
        kayles_stamp stamp) {
    int s, i, active = 1;
    for (; n > 0 && active; a += 64) {
        active = 0;
        for (s = 0; s < nsplits && n > 0; s++) {
            if (a > last[s])
                continue;
            active = 1;
            ptrdiff_t end = a + 64 < last[s] + 1 ? a + 64 : last[s] + 1, tail = a;
#ifdef KAYLES_SSE2
            /* x[v] lane k: the pair b = a + 8v + k (its partner loaded reversed) */
            __m128i x[8];
            const __m128i cv = _mm_set1_epi16((short) c[s]);
            int v, vectors = (int) ((end - a) / 8);
            for (v = 0; v < vectors; v++) {
                __m128i y = _mm_loadu_si128((const __m128i *) (g + r[s] - a - 8 * v - 7));
                y = _mm_shuffle_epi32(y, _MM_SHUFFLE(0, 1, 2, 3));
                y = _mm_shufflelo_epi16(y, _MM_SHUFFLE(2, 3, 0, 1));
                y = _mm_shufflehi_epi16(y, _MM_SHUFFLE(2, 3, 0, 1));
                x[v] = _mm_xor_si128(_mm_xor_si128(
                    _mm_loadu_si128((const __m128i *) (g + a + 8 * v)), y), cv);
            }
            tail = a + 8 * vectors;
#endif
            for (i = 0; i < n;) {
                int hit = 0;
#ifdef KAYLES_SSE2
                const __m128i w = _mm_set1_epi16((short) values[i]);
                __m128i any = _mm_setzero_si128();
                for (v = 0; v < vectors; v++)
                    any = _mm_or_si128(any, _mm_cmpeq_epi16(x[v], w));
                hit = _mm_movemask_epi8(any);
#endif
                if (hit || kayles_tail_has(g, r[s], tail, end, c[s], values[i]))
                    n = kayles_found(values, i, n, seen, stamp);
                else
                    i++;
            }
        }
    }
    return n;
}

const kayles_vectors kayles_portable_vectors = {
    kayles_portable, 8, kayles_sweep_portable, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};
