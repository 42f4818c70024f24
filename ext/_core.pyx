# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled kernels: Grundy tables, periods and row moves on flat data.

kayles/_pure.py is the twin: same names, arguments, results and errors.  Tables
are writable buffers of unsigned 16-bit nimbers; kinds are the tuples of
rules.encode: (span, kept, leave_mask, unequal).

How the sparse-space method works (Berlekamp; Flammenkamp).  Fix a mask M and
call a value common when popcount(v & M) is odd, rare when it is even.  A
common XOR common or rare XOR rare is rare, so a common option value needs a
rare part.  When rare positions are few, G(n) is found by: (1) marking every
option with a rare part (one pass over the rare positions), which marks every
common option; (2) taking the least unmarked common value as the candidate;
(3) confirming each unmarked rare value below it by scanning the remaining
pairs, resuming where the last scan stopped, until it shows up.  The first
rare value that never shows up is G(n); otherwise the candidate is.  Option
constants (kept 'o' heaps) must be even under M so they do not change a
value's class; masks are chosen among those.  The result is exact whatever the
mask: the mask only decides the speed.

How the mask is chosen (choose_mask; the same integers in both twins).  For
the value histogram h over [0, w), w a power of two, the Walsh-Hadamard
transform H[M] = sum_v h[v] (-1)^popcount(v & M) gives every mask's rare count
at once, rare(M) = (total + H[M]) / 2, in w log2 w steps whatever the width.
The transform of the indicator of the values that occur counts the distinct
rare values D(M) the same way.  Per heap, step (1) costs about rare(M) pairs;
step (3) scans every pair when G(n) is rare (about rare/total of the heaps:
rare/2 pairs on average) and about D log2 D pairs to confirm the rare values
below the candidate.  Doubled to stay an integer, the estimate is
cost(M) = 3 rare(M) + 2 D(M) bit_length(D(M)); the plain scan costs about
total/2 pairs a heap, i.e. total in the same units.  The allowed mask of least
cost wins (ties: the smaller mask) and is used when SAVING * cost < total.

How step (1) is cut (rare_pairs, checked_gives).  The rare pass costs a byte
store a pair, about one a cycle whatever the instructions.  With AVX-512 and
CHECK_MIN rare positions, a group of remainders flags only its older rare parts;
for the newest 1/CHECKED it takes each remainder's first CANDIDATES common
values the flags leave unset and checks those parts against them with vector
compares (a load and a compare for 32 lanes where flagging costs four stores).
Step (2) reads a candidate's answer from the check; a value past a full list
(on .04 about one remainder in a hundred; games of several splits more often)
gets the checked parts flagged after all; where that befalls over 1/MISS_SHARE
of the remainders, checking stops till the mask is next chosen (choose_split,
at each doubling of the table).  Rare values that only a checked pair gives
stay unflagged and are found by step (3) like any other.  Step (2) itself
tests 64 values a step (marks and every split's flags at once) and looks only
at the unmarked ones.

How step (3) ends (sweep).  Marking costs a store a pair, so once the search
has swept FAR pairs and few values are left, it looks for all of them at once
to the end instead: by comparisons (an instruction per value and vector of
pairs), or with AVX-512 and values below 2048 by testing each vector of 32
pairs against the whole set of values left (two table lookups, whatever their
number).  AVX-512 is chosen at run time (VECTORS; Scratch(vector=...)), so one
build runs on any x86-64; every path gives the same values (tests/test_kernels.py).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

ctypedef unsigned short nimber_t
ctypedef unsigned int stamp_t
ctypedef unsigned int pos_t       # a heap size in the rare set: tables stop below 2**32
ctypedef unsigned long long word_t  # a one-hot set of values below 64

cdef enum:
    VALUE_LIMIT = 65536   # nimbers are stored as unsigned 16-bit integers
    STAMPS = 131072       # option values v ^ c < 2**16 and the mex <= 2**16
    SAVING = 1            # split when its estimated cost is under 1/SAVING of the plain scan's
    MAX_KINDS = 64        # move kinds in one game: kayles/_constants.py (a test checks)
    MAX_KEPT = 8          # kept 'o' runs in one pattern: kayles/_constants.py (a test checks)
    MAX_SPAN = 64         # the widest move: kayles/_constants.py (a test checks)
    BATCH = 64            # remainders per batch on the one-hot path (kayles_gather_or's 64)
    GROUP = 4             # remainders per group on the general path (kayles_flag_group's 4)
    FAR = 1024            # the search looks at what is left once it has swept this far
    FEW = 8               # ... and compares (sweep) once this few values are left,
    FEW_AVX512 = 32       # ... with AVX-512 (32 pairs a vector) this few;
    SET_WIDTH = 2048      # with AVX-512 and values below this, the set path takes any number
    SET_FEW = 32          # ... once this few are left
    SET_FAR = 4096        # ... or once the search has swept this far (tuned on .04, Grundy)
    CHECKED = 3           # with AVX-512 the newest 1/CHECKED of a group's rare a are checked,
    CHECK_MIN = 256       # ... not flagged, once there are this many rare a in all
    CANDIDATES = 8        # ... against this many candidates a remainder (32 lanes / GROUP)
    TRIAL_LANES = 1024    # ... and stops till the next choose_split once, after this many
    MISS_SHARE = 4        # ... remainders, over 1/MISS_SHARE of them needed the flags after all
    FLAG_STRIDE = 65600   # a group's flags for r0 + j start at j * FLAG_STRIDE (kayles_flag_group)
    MAX_GROUPS = MAX_SPAN // GROUP + 2   # groups one heap's remainders may need at once
    PIN = <int> c'x'      # a standing pin in a row (kayles/_constants.py)


cdef Py_ssize_t POSITION_LIMIT = 0xFFFFFFFF  # rare positions are unsigned 32-bit integers


cdef extern from *:
    """
    #include <string.h>
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    #if defined(__GNUC__) || defined(__clang__)
    /* aligned: a hot loop's speed then does not hinge on the code placed before it */
    #define KAYLES_NOINLINE __attribute__((noinline, aligned(64)))
    #define KAYLES_RESTRICT __restrict__
    #else
    #define KAYLES_NOINLINE
    #define KAYLES_RESTRICT
    #endif

    /* {v ^ u : v in x} for a one-hot set x of values below 64: swap the bit
       blocks of each size in u. */
    static inline unsigned long long kayles_xor_permute(unsigned long long x, int u) {
        if (u & 1) x = ((x & 0x5555555555555555ULL) << 1) | ((x >> 1) & 0x5555555555555555ULL);
        if (u & 2) x = ((x & 0x3333333333333333ULL) << 2) | ((x >> 2) & 0x3333333333333333ULL);
        if (u & 4) x = ((x & 0x0F0F0F0F0F0F0F0FULL) << 4) | ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL);
        if (u & 8) x = ((x & 0x00FF00FF00FF00FFULL) << 8) | ((x >> 8) & 0x00FF00FF00FF00FFULL);
        if (u & 16) x = ((x & 0x0000FFFF0000FFFFULL) << 16) | ((x >> 16) & 0x0000FFFF0000FFFFULL);
        if (u & 32) x = (x << 32) | (x >> 32);
        return x;
    }

    /* The general sparse path's hottest loop: flags[j * 65600 + (G(a) ^ G(r0 + j - a))] = 1
       for the rare a and j < 4 (the four remainders of a group).  One load of a and
       G(a) serves four pairs, and G(r0 - a .. r0 + 3 - a) are adjacent.  Kept out of
       line so the compiler gives it registers of its own; inlined into the large
       kernel it spilled its pointers on every step. */
    static KAYLES_NOINLINE void kayles_flag_group(
            const unsigned short *KAYLES_RESTRICT top, const unsigned int *KAYLES_RESTRICT a,
            const unsigned int *end, const unsigned short *KAYLES_RESTRICT value_of_a,
            unsigned char *KAYLES_RESTRICT flags) {
        unsigned char *f1 = flags + 65600, *f2 = flags + 2 * 65600, *f3 = flags + 3 * 65600;
        for (; a < end; a++, value_of_a++) {
            const unsigned short *p = top - (Py_ssize_t) *a;   /* p[j] is G(r0 + j - a) */
            unsigned v = *value_of_a;
            flags[v ^ p[0]] = 1; f1[v ^ p[1]] = 1; f2[v ^ p[2]] = 1; f3[v ^ p[3]] = 1;
        }
    }

    /* The same for one remainder r: flags[G(a) ^ G(r - a)] = 1 (top = G + r). */
    static KAYLES_NOINLINE void kayles_flag_one(
            const unsigned short *KAYLES_RESTRICT top, const unsigned int *KAYLES_RESTRICT a,
            const unsigned int *end, const unsigned short *KAYLES_RESTRICT value_of_a,
            unsigned char *KAYLES_RESTRICT flags) {
        for (; a < end; a++, value_of_a++)
            flags[*value_of_a ^ top[-(Py_ssize_t) *a]] = 1;
    }

    /* seen[G(a) ^ G(r - a) ^ c] = stamp for a in [a, end): the search's and the
       plain scan's loop, out of line for the same reason. */
    static KAYLES_NOINLINE void kayles_mark_pairs(
            const unsigned short *KAYLES_RESTRICT g, Py_ssize_t r, Py_ssize_t a, Py_ssize_t end,
            unsigned int c, unsigned int *KAYLES_RESTRICT seen, unsigned int stamp) {
        const unsigned short *low = g + a, *stop = g + end, *high = g + (r - a);
    #if defined(__SSE2__)
        /* Eight pairs a step: load G(a..a+7) and G(r-a-7..r-a), reverse the
           second, XOR; then eight stores.  Every value is below 2**16. */
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

    /* The search's last stage: look for values[0..n-1] among G(b) ^ G(r[s] - b) ^ c[s]
       for b from a to last[s], the splits side by side in blocks of smaller parts.
       A value found gets seen[v] = stamp and leaves the list (the last one takes its
       place); the return is how many are left in values[0..left-1], the values no
       pair gives.  Comparing costs an instruction per value and vector of pairs,
       where marking costs a store a pair: it pays once few values are left. */
    /* The sweeps' shared steps: whether a pair b in [b, end) past the whole
       vectors gives value; and value i found (marked, the last takes its place). */
    static inline int kayles_tail_has(const unsigned short *g, Py_ssize_t r, Py_ssize_t b,
                                      Py_ssize_t end, unsigned c, unsigned value) {
        for (; b < end; b++)
            if ((unsigned) (g[b] ^ g[r - b] ^ c) == value)
                return 1;
        return 0;
    }

    static inline int kayles_found(unsigned short *values, int i, int n, unsigned int *seen,
                                   unsigned int stamp) {
        seen[values[i]] = stamp;
        values[i] = values[n - 1];
        return n - 1;
    }

    static KAYLES_NOINLINE int kayles_sweep_portable(
            const unsigned short *g, const Py_ssize_t *r, const Py_ssize_t *last,
            const unsigned int *c, int nsplits, Py_ssize_t a, unsigned short *values, int n,
            unsigned int *seen, unsigned int stamp) {
        int s, i, v, active = 1;
        for (; n > 0 && active; a += 64) {
            active = 0;
            for (s = 0; s < nsplits && n > 0; s++) {
                if (a > last[s])
                    continue;
                active = 1;
                Py_ssize_t end = a + 64 < last[s] + 1 ? a + 64 : last[s] + 1, tail = a;
    #if defined(__SSE2__)
                /* x[v] lane k: the pair b = a + 8v + k (its partner loaded reversed) */
                __m128i x[8];
                const __m128i cv = _mm_set1_epi16((short) c[s]);
                int vectors = (int) ((end - a) / 8);
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
    #if defined(__SSE2__)
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

    #if defined(__SSE2__)
    #define KAYLES_PORTABLE "sse2"
    #else
    #define KAYLES_PORTABLE "scalar"
    #endif

    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <immintrin.h>
    /* The same sweep on 32 pairs a vector (AVX-512BW), for CPUs that have it
       (kayles_avx512 says; the extension itself is built for any x86-64). */
    __attribute__((target("avx512f,avx512bw"))) static KAYLES_NOINLINE int kayles_sweep_avx512(
            const unsigned short *g, const Py_ssize_t *r, const Py_ssize_t *last,
            const unsigned int *c, int nsplits, Py_ssize_t a, unsigned short *values, int n,
            unsigned int *seen, unsigned int stamp) {
        const __m512i reverse = _mm512_set_epi16(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
            16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
        int s, i, v, active = 1;
        for (; n > 0 && active; a += 256) {
            active = 0;
            for (s = 0; s < nsplits && n > 0; s++) {
                if (a > last[s])
                    continue;
                active = 1;
                Py_ssize_t end = a + 256 < last[s] + 1 ? a + 256 : last[s] + 1;
                __m512i x[8];
                const __m512i cv = _mm512_set1_epi16((short) c[s]);
                int vectors = (int) ((end - a) / 32);
                for (v = 0; v < vectors; v++) {
                    __m512i y = _mm512_loadu_si512((const void *) (g + r[s] - a - 32 * v - 31));
                    x[v] = _mm512_xor_si512(_mm512_xor_si512(
                        _mm512_loadu_si512((const void *) (g + a + 32 * v)),
                        _mm512_permutexvar_epi16(reverse, y)), cv);
                }
                Py_ssize_t tail = a + 32 * vectors;
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

    /* The search's last stage for any number of values below 2048: bit v of
       set (128 words of 16 bits) says v is looked for.  Each vector of 32 pairs
       is tested against the whole set by two table lookups (vpermt2w on the set,
       held in four registers), so the cost does not grow with the values left.
       A value found gets seen[v] = stamp and leaves the set (in the registers:
       a store to set and a wide load of it would stall).  Returns how many are
       left: no pair gives them. */
    #define KAYLES_SET_LOOKUP(x, hits, valid) do {                                        \
            __m512i word_ = _mm512_srli_epi16(x, 4);                                      \
            __m512i lo_ = _mm512_permutex2var_epi16(t0, word_, t1);                        \
            __m512i hi_ = _mm512_permutex2var_epi16(t2, word_, t3);                        \
            __m512i w_ = _mm512_mask_blend_epi16(_mm512_test_epi16_mask(x, bit10), lo_, hi_); \
            hits = _mm512_mask_test_epi16_mask(                                           \
                valid, _mm512_srlv_epi16(w_, _mm512_and_si512(x, low4)), one);            \
        } while (0)
    __attribute__((target("avx512f,avx512bw"))) static KAYLES_NOINLINE int kayles_sweep_set_avx512(
            const unsigned short *g, const Py_ssize_t *r, const Py_ssize_t *last,
            const unsigned int *c, int nsplits, Py_ssize_t a, const unsigned short *set,
            int left, unsigned int *seen, unsigned int stamp) {
        const __m512i reverse = _mm512_set_epi16(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
            16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
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
                Py_ssize_t b = a, end = a + 1024 < last[s] + 1 ? a + 1024 : last[s] + 1;
                const unsigned short *high = g + r[s];   /* high[-b] is G(r - b) */
                const __m512i cv = _mm512_set1_epi16((short) c[s]);
                while (b < end) {
                    __mmask32 hits;
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
                        Py_ssize_t p = b + __builtin_ctz(hits);
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

    /* The rare pass's checked share (AVX-512BW): whether any rare a in [a, end)
       gives G(a) ^ G(r0 + j - a) == cands[4k + j], candidate k of remainder
       r0 + j.  One broadcast of G(r0 - a .. r0 + 3 - a) lines up with all 32
       lanes, so a rare a costs a load and a compare where flagging it costs four
       stores; four chains of compares hide the mask latency.  Returns the lanes
       no pair hits. */
    __attribute__((target("avx512f,avx512bw"))) static KAYLES_NOINLINE unsigned kayles_unhit_avx512(
            const unsigned short *top, const unsigned int *a, const unsigned int *end,
            const unsigned short *value_of_a, const unsigned short *cands) {
        const __m512i want = _mm512_loadu_si512((const void *) cands);
        __mmask32 n0 = 0xFFFFFFFFu, n1 = 0xFFFFFFFFu, n2 = 0xFFFFFFFFu, n3 = 0xFFFFFFFFu;
    #define KAYLES_UNHIT(none, i) do {                                                    \
            long long four_;                                                               \
            memcpy(&four_, top - (Py_ssize_t) a[i], sizeof four_);                         \
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

    /* The first (at most max) values u < width, ascending, that flags leaves
       unset and the mask makes common; bit i of low_common says whether i & 63
       is (width: a power of two; flags readable to max(width, 64)). */
    __attribute__((target("avx512f,avx512bw"))) static int kayles_candidates_avx512(
            const unsigned char *flags, int width, int mask, unsigned long long low_common,
            unsigned short *out, int max) {
        int n = 0;
        for (int b = 0; b < width && n < max; b += 64) {
            __m512i f = _mm512_loadu_si512((const void *) (flags + b));
            unsigned long long left = _mm512_testn_epi8_mask(f, f);
            left &= __builtin_parity(b & mask) ? ~low_common : low_common;
            if (width - b < 64)
                left &= (1ULL << (width - b)) - 1;
            for (; left && n < max; left &= left - 1)
                out[n++] = (unsigned short) (b + __builtin_ctzll(left));
        }
        return n;
    }

    /* The values in [b, b + 64) a heap has no option for yet, a bit each: those
       with seen[v] != stamp that no split's rare pass flagged (x = v ^ c[k]
       below width[k] with flags[k][x] set, save x == 0 where drop_zero[k]).
       Flags are tested 64 at a time and moved into place by XOR-permuting the
       bits with c[k] & 63. */
    __attribute__((target("avx512f,avx512bw"))) static unsigned long long kayles_unmarked_avx512(
            const unsigned int *seen, unsigned int stamp, int b, unsigned char *const *flags,
            const int *width, const int *c, const int *drop_zero, int nflags) {
        const __m512i now = _mm512_set1_epi32((int) stamp);
        unsigned long long left = 0;
        for (int q = 0; q < 4; q++)
            left |= (unsigned long long) _mm512_cmpneq_epi32_mask(
                _mm512_loadu_si512((const void *) (seen + b + 16 * q)), now) << (16 * q);
        for (int k = 0; k < nflags && left; k++) {
            int base = b ^ (c[k] & ~63);
            if (base >= width[k])
                continue;   /* no flags from here on */
            __m512i f = _mm512_loadu_si512((const void *) (flags[k] + base));
            unsigned long long set = _mm512_test_epi8_mask(f, f);
            if (width[k] - base < 64)
                set &= (1ULL << (width[k] - base)) - 1;
            if (base == 0 && drop_zero[k])
                set &= ~1ULL;
            left &= ~kayles_xor_permute(set, c[k] & 63);
        }
        return left;
    }

    static int kayles_avx512(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    }
    #else
    static int kayles_sweep_avx512(
            const unsigned short *g, const Py_ssize_t *r, const Py_ssize_t *last,
            const unsigned int *c, int nsplits, Py_ssize_t a, unsigned short *values, int n,
            unsigned int *seen, unsigned int stamp) {
        return kayles_sweep_portable(g, r, last, c, nsplits, a, values, n, seen, stamp);
    }
    static int kayles_sweep_set_avx512(
            const unsigned short *g, const Py_ssize_t *r, const Py_ssize_t *last,
            const unsigned int *c, int nsplits, Py_ssize_t a, const unsigned short *set, int left,
            unsigned int *seen, unsigned int stamp) {
        return left;   /* never called: kayles_avx512() is 0 */
    }
    static unsigned kayles_unhit_avx512(
            const unsigned short *top, const unsigned int *a, const unsigned int *end,
            const unsigned short *value_of_a, const unsigned short *cands) {
        return 0xFFFFFFFFu;   /* never called: kayles_avx512() is 0 */
    }
    static int kayles_candidates_avx512(
            const unsigned char *flags, int width, int mask, unsigned long long low_common,
            unsigned short *out, int max) {
        return 0;   /* never called */
    }
    static unsigned long long kayles_unmarked_avx512(
            const unsigned int *seen, unsigned int stamp, int b, unsigned char *const *flags,
            const int *width, const int *c, const int *drop_zero, int nflags) {
        return 0;   /* never called */
    }
    static int kayles_avx512(void) { return 0; }
    #endif

    /* out[j] = OR over i < n of onehot[r0 - pos[i] + j], j < 64: the one-hot
       path's hot loop.  Eight accumulators stay in registers, so each source
       word costs one load and one OR. */
    static KAYLES_NOINLINE void kayles_gather_or(
            unsigned long long *out, const unsigned long long *onehot, Py_ssize_t r0,
            const unsigned int *pos, Py_ssize_t n) {
        for (int jb = 0; jb < 64; jb += 8) {
            unsigned long long a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
            for (Py_ssize_t i = 0; i < n; i++) {
                const unsigned long long *s = onehot + (r0 - pos[i]) + jb;
                a0 |= s[0]; a1 |= s[1]; a2 |= s[2]; a3 |= s[3];
                a4 |= s[4]; a5 |= s[5]; a6 |= s[6]; a7 |= s[7];
            }
            out[jb] = a0; out[jb + 1] = a1; out[jb + 2] = a2; out[jb + 3] = a3;
            out[jb + 4] = a4; out[jb + 5] = a5; out[jb + 6] = a6; out[jb + 7] = a7;
        }
    }
    """
    void flag_group "kayles_flag_group"(const nimber_t* top, const pos_t* a,
                                        const pos_t* end, const nimber_t* value_of_a,
                                        unsigned char* flags) noexcept nogil
    void flag_one "kayles_flag_one"(const nimber_t* top, const pos_t* a, const pos_t* end,
                                    const nimber_t* value_of_a, unsigned char* flags) noexcept nogil
    void mark_pairs "kayles_mark_pairs"(const nimber_t* g, Py_ssize_t r, Py_ssize_t a,
                                        Py_ssize_t end, unsigned int c, stamp_t* seen,
                                        stamp_t stamp) noexcept nogil
    int sweep_portable "kayles_sweep_portable"(
        const nimber_t* g, const Py_ssize_t* r, const Py_ssize_t* last, const unsigned int* c,
        int nsplits, Py_ssize_t a, nimber_t* values, int n, stamp_t* seen,
        stamp_t stamp) noexcept nogil
    int sweep_avx512 "kayles_sweep_avx512"(
        const nimber_t* g, const Py_ssize_t* r, const Py_ssize_t* last, const unsigned int* c,
        int nsplits, Py_ssize_t a, nimber_t* values, int n, stamp_t* seen,
        stamp_t stamp) noexcept nogil
    int sweep_set_avx512 "kayles_sweep_set_avx512"(
        const nimber_t* g, const Py_ssize_t* r, const Py_ssize_t* last, const unsigned int* c,
        int nsplits, Py_ssize_t a, const nimber_t* wanted, int n, stamp_t* seen,
        stamp_t stamp) noexcept nogil
    unsigned int unhit_avx512 "kayles_unhit_avx512"(
        const nimber_t* top, const pos_t* a, const pos_t* end, const nimber_t* value_of_a,
        const nimber_t* cands) noexcept nogil
    int candidates_avx512 "kayles_candidates_avx512"(
        const unsigned char* flags, int width, int mask, word_t low_common, nimber_t* out,
        int max) noexcept nogil
    word_t unmarked_avx512 "kayles_unmarked_avx512"(
        const stamp_t* seen, stamp_t stamp, int b, unsigned char** flags, const int* width,
        const int* c, const bint* drop_zero, int nflags) noexcept nogil
    word_t xor_permute "kayles_xor_permute"(word_t x, int u) noexcept nogil
    bint has_avx512 "kayles_avx512"() noexcept nogil
    const char* PORTABLE "KAYLES_PORTABLE"
    void gather_or "kayles_gather_or"(word_t* out, const word_t* onehot, Py_ssize_t r0,
                                      const pos_t* pos, Py_ssize_t n) noexcept nogil


# The instruction sets the sparse method's vector steps can use on this CPU, fastest first.
VECTORS = (("avx512bw",) if has_avx512() else ()) + (PORTABLE.decode(),)


cdef struct Kind:
    Py_ssize_t span
    int leave
    bint unequal
    Py_ssize_t kept[MAX_KEPT]   # lengths of the kept 'o' runs
    int nkept


cdef struct Split:        # a kind that may leave two parts, at the heap being solved
    Py_ssize_t r
    int c
    bint unequal


cdef struct PairGroup:    # the G(a) ^ G(r - a) over rare a, for r in [r0, r0 + GROUP)
    Py_ssize_t r0         # -1: empty
    bint done[GROUP]      # the flags of r0 + j are complete
    int width[GROUP]      # flags of r0 + j: valid below width[j]
    signed char drop_zero[GROUP]  # unequal splits of r0 + j: 0 only from the equal one (-1: unknown)
    unsigned char* flags  # flags[j * FLAG_STRIDE + v] = 1: some rare a gives v for r0 + j
    Py_ssize_t checked_lo, checked_hi  # rare[checked_lo:checked_hi]: checked, not flagged
    bint checking[GROUP]  # r0 + j still relies on its candidates for those a
    int ncandidates[GROUP]
    int checked_width[GROUP]      # candidates are below this; so is every checked pair
    nimber_t candidates[CANDIDATES * GROUP]  # lane k * GROUP + j: candidate k of r0 + j
    unsigned int unhit    # bit k * GROUP + j: no checked pair gives that candidate


cdef struct Sparse:       # the sparse method's state, kept by a Scratch between calls
    bint avx512           # sweep 32 pairs a vector (the CPU has AVX-512BW)
    int few               # values left at which the search sweeps for them all at once
    nimber_t wanted[SET_WIDTH >> 4]    # the set path's values, a bit each
    int mask              # 0: no saving split, use the plain scan
    word_t low_common     # bit i: i is common under the mask (i < 64)
    Py_ssize_t checked_lanes, checked_misses  # remainders checked, and flagged after all
    pos_t* rare           # the rare positions, ascending
    nimber_t* rare_values # G at those positions
    Py_ssize_t nrare
    Py_ssize_t rare_room  # room in rare and rare_values
    int width             # a power of two above every value so far
    stamp_t* seen         # option marks: seen[v] == stamp while heap stamp is solved
    stamp_t stamp
    nimber_t* pending     # scratch: the rare values a heap's search must confirm
    long long* counts     # the histogram of the table so far (zeros from width on)
    long long* spectrum   # choose_mask's transforms
    long long* present
    unsigned char* slots  # the groups' flags: GROUP * FLAG_STRIDE per group
    int nslots
    PairGroup groups[MAX_GROUPS]    # the general path: pair values by (r // GROUP) % ngroups
    int ngroups
    bint narrow           # values below 64 and no unequal split: the one-hot path
    word_t* onehot        # onehot[i] = 1 << G(i), written only on the one-hot path
    Py_ssize_t onehot_room
    pos_t* by_value[64]               # the rare positions of each value, ascending
    Py_ssize_t by_value_count[64]
    Py_ssize_t by_value_room[64]
    Py_ssize_t batch_r0[2]            # the aligned batch each slot holds (-1: none)
    word_t batch_bits[2 * BATCH]


cdef class Scratch:
    """Working memory for extend_plain and extend_sparse, allocated once and reused.

    A Sequence owns one and passes it to every call, so a call costs no
    allocation and no clearing; without one, each call makes its own.  It holds
    no values between calls that a call does not rebuild from its table.

    vector names the instructions of the sparse method's vector steps (the rare
    pass's checked share, the candidate scan, the search's last stage), one of
    VECTORS (default: the first, the fastest this CPU runs); only the speed
    depends on it.
    """

    cdef Sparse st

    def __cinit__(self, vector=None):
        if vector is not None and vector not in VECTORS:
            raise ValueError(f"vector must be one of {', '.join(VECTORS)}, not {vector!r}")
        memset(&self.st, 0, sizeof(Sparse))
        self.st.avx512 = (vector or VECTORS[0]) == "avx512bw"
        self.st.few = FEW_AVX512 if self.st.avx512 else FEW
        self.st.seen = <stamp_t*> calloc(STAMPS, sizeof(stamp_t))
        self.st.pending = <nimber_t*> calloc(VALUE_LIMIT, sizeof(nimber_t))
        self.st.counts = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        self.st.spectrum = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        self.st.present = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        if not (self.st.seen and self.st.pending and self.st.counts and self.st.spectrum
                and self.st.present):
            raise MemoryError()

    def __dealloc__(self):
        free(self.st.seen)
        free(self.st.pending)
        free(self.st.counts)
        free(self.st.spectrum)
        free(self.st.present)
        free(self.st.slots)
        free(self.st.rare)
        free(self.st.rare_values)
        free(self.st.onehot)
        for k in range(64):
            free(self.st.by_value[k])


cdef inline stamp_t next_stamp(Sparse* st) noexcept nogil:
    """A stamp no entry of seen holds yet (seen is cleared when the stamps wrap)."""
    st.stamp += 1
    if st.stamp == 0:
        memset(st.seen, 0, STAMPS * sizeof(stamp_t))
        st.stamp = 1
    return st.stamp


cdef int reserve(void** items, Py_ssize_t* room, Py_ssize_t count, size_t size) except -1:
    """Grow items to room for count entries (untouched room costs address space only)."""
    if count <= room[0]:
        return 0
    count = max(count, 2 * room[0])
    cdef void* grown = realloc(items[0], count * size)
    if grown == NULL:
        raise MemoryError()
    items[0] = grown
    room[0] = count
    return 0


cdef Scratch scratch_for(scratch):
    if scratch is None:
        return Scratch()
    if not isinstance(scratch, Scratch):
        raise TypeError(f"scratch must be a Scratch, not {type(scratch).__name__}")
    return scratch


cdef int load_kinds(kinds, Kind* out) except -1:
    cdef int k = 0, h
    if len(kinds) > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    for span, kept, leave, unequal in kinds:
        if len(kept) > MAX_KEPT:
            raise ValueError(f"at most {MAX_KEPT} kept runs in one pattern")
        if not 0 <= span <= MAX_SPAN:
            raise ValueError(f"a move spans at most {MAX_SPAN} tokens")
        out[k].span = span
        out[k].leave = leave
        out[k].unequal = unequal
        out[k].nkept = len(kept)
        for h in range(out[k].nkept):
            out[k].kept[h] = kept[h]
        k += 1
    return k


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define kayles_parity(x) __builtin_parity(x)
    #define kayles_lowest_bit(x) __builtin_ctzll(x)
    #else
    static int kayles_parity(unsigned int x) {
        x ^= x >> 16; x ^= x >> 8; x ^= x >> 4; x ^= x >> 2; x ^= x >> 1;
        return x & 1;
    }
    static int kayles_lowest_bit(unsigned long long x) {
        int i = 0;
        for (; !(x & 1); x >>= 1)
            i++;
        return i;
    }
    #endif
    """
    int parity "kayles_parity"(unsigned int x) noexcept nogil
    int lowest_bit "kayles_lowest_bit"(word_t x) noexcept nogil   # x != 0


cdef inline int constant(const nimber_t* g, Kind* kind) noexcept nogil:
    """XOR of G over the kept runs: the part of an option's value its kind fixes."""
    cdef int c = 0, h
    for h in range(kind.nkept):
        c ^= g[kind.kept[h]]
    return c


cdef int check_range(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop) except -1:
    if not 0 <= start <= stop <= table.shape[0]:
        raise ValueError(f"range {start}:{stop} does not fit a table of {table.shape[0]}")
    return 0


cdef int store(nimber_t[::1] table, Py_ssize_t n, int value) except -1:
    if value >= VALUE_LIMIT:
        raise OverflowError(f"G({n}) = {value} does not fit the 16-bit table")
    table[n] = value
    return 0


cdef int mark_whole_and_ends(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                             stamp_t* seen, stamp_t stamp, Split* splits) noexcept nogil:
    """Mark the options of heap n that leave no part or one part; list the two-part kinds.

    Returns how many Split entries (kinds that may leave two parts) were written.
    """
    cdef int k, c, nsplits = 0
    cdef Py_ssize_t r
    for k in range(nkinds):
        if n < kinds[k].span:
            continue
        c = constant(g, &kinds[k])
        r = n - kinds[k].span
        if r == 0:
            if kinds[k].leave & 1:  # no part left: allowed even when unequal (rules.py)
                seen[c] = stamp
            continue
        if kinds[k].leave & 2:
            seen[g[r] ^ c] = stamp
        if kinds[k].leave & 4:
            splits[nsplits].r = r
            splits[nsplits].c = c
            splits[nsplits].unequal = kinds[k].unequal
            nsplits += 1
    return nsplits


cdef inline Py_ssize_t last_part(const Split* split) noexcept nogil:
    """The largest smaller part a of the split r = a + (r - a)."""
    return split.r // 2 - 1 if split.unequal and split.r % 2 == 0 else split.r // 2


cdef int mex_plain(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                   stamp_t* seen, stamp_t stamp) noexcept nogil:
    cdef Split splits[MAX_KINDS]
    cdef int s, m, nsplits = mark_whole_and_ends(g, n, kinds, nkinds, seen, stamp, splits)
    for s in range(nsplits):
        mark_pairs(g, splits[s].r, 1, last_part(&splits[s]) + 1, splits[s].c, seen, stamp)
    m = 0
    while seen[m] == stamp:
        m += 1
    return m


def extend_plain(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds, scratch=None):
    """Fill table[start:stop] with the mex over every option (the quadratic scan)."""
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef Py_ssize_t n
    cdef int value
    cdef Scratch own = scratch_for(scratch)
    cdef Sparse* st = &own.st
    check_range(table, start, stop)
    if start == stop:
        return
    with nogil:
        n = run_plain(&table[0], start, stop, ks, nkinds, st, &value)
    if n < stop:
        store(table, n, value)  # raises: the value does not fit


cdef Py_ssize_t run_plain(nimber_t* g, Py_ssize_t start, Py_ssize_t stop, Kind* ks, int nkinds,
                          Sparse* st, int* value) noexcept nogil:
    """Fill g[start:stop] by the plain scan; the first heap whose value does not fit, or stop."""
    cdef Py_ssize_t n
    for n in range(start, stop):
        value[0] = mex_plain(g, n, ks, nkinds, st.seen, next_stamp(st))
        if value[0] >= VALUE_LIMIT:
            return n
        g[n] = value[0]
    return stop


cdef inline int bit_length(long long x) noexcept nogil:
    cdef int bits = 0
    while x:
        bits += 1
        x >>= 1
    return bits


cdef void transform(long long* h, int width) noexcept nogil:
    """The Walsh-Hadamard transform of h[0:width] in place (width a power of two)."""
    cdef int half = 1, i, j
    cdef long long x, y
    while half < width:
        i = 0
        while i < width:
            for j in range(i, i + half):
                x = h[j]
                y = h[j + half]
                h[j] = x + y
                h[j + half] = x - y
            i += 2 * half
        half *= 2


cdef int pick_mask(Sparse* st, const int* constants, int nconst,
                     long long* rare_count) noexcept nogil:
    """The allowed mask of least estimated cost (see the header); 0: the plain scan.

    rare_count receives the rare positions under the mask (under 0: all).
    """
    cdef int top = 0, width = 1, v, mask, i, best = 0
    cdef long long total = 0, distinct = 0, rare, rare_values, cost, best_cost = -1
    for v in range(st.width):
        if st.counts[v]:
            top = v
    for i in range(nconst):
        top = max(top, constants[i])
    while width <= top:
        width <<= 1
    for v in range(width):
        total += st.counts[v]
        distinct += st.counts[v] != 0
        st.spectrum[v] = st.counts[v]
        st.present[v] = st.counts[v] != 0
    transform(st.spectrum, width)
    transform(st.present, width)
    rare_count[0] = total
    for mask in range(1, width):
        for i in range(nconst):
            if parity(constants[i] & mask):
                break
        else:
            rare = (total + st.spectrum[mask]) // 2
            rare_values = (distinct + st.present[mask]) // 2
            cost = 3 * rare + 2 * rare_values * bit_length(rare_values)
            if best_cost < 0 or cost < best_cost:
                best, best_cost = mask, cost
                rare_count[0] = rare
    if best and SAVING * best_cost < total:
        return best
    rare_count[0] = total
    return 0


def choose_mask(counts, constants):
    """(mask, rare) for a value histogram and option constants: the mask extend_sparse picks.

    counts[v] is how many heaps have value v (v < 2**16); constants are the
    values of the kept runs of the move kinds.  rare is how many heaps have an
    even-parity value under the mask; mask 0 means the plain scan (rare: all).
    """
    cdef Scratch own = Scratch()
    cdef int cs[MAX_KINDS]
    cdef int nconst = len(constants), v
    cdef long long rare = 0
    if len(counts) > VALUE_LIMIT:
        raise ValueError(f"at most {VALUE_LIMIT} counts")
    if nconst > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    for v in range(len(counts)):
        if counts[v] < 0:
            raise ValueError("counts must be >= 0")
        own.st.counts[v] = counts[v]
    for v in range(nconst):
        if not 0 <= constants[v] < VALUE_LIMIT:
            raise ValueError(f"constants must be in [0, {VALUE_LIMIT})")
        cs[v] = constants[v]
    own.st.width = VALUE_LIMIT
    mask = pick_mask(&own.st, cs, nconst, &rare)
    return mask, rare


cdef inline Py_ssize_t bisect(const pos_t* items, Py_ssize_t count, Py_ssize_t x) noexcept nogil:
    """How many of the sorted items are below x."""
    cdef Py_ssize_t lo = 0, hi = count, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if <Py_ssize_t> items[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef unsigned char* rare_pairs(const nimber_t* g, Py_ssize_t r, Sparse* st,
                               int* width, PairGroup** of_group) noexcept nogil:
    """The flags of every G(a) ^ G(r - a) over rare a in [1, r - 1], valid below width.

    Remainders come in groups of GROUP: the first r of a group asked for flags
    the rare a in [GROUP, r0) for all of them at once (r0 + j - a < r0: its G is
    known by then); each r adds the rest, a < GROUP and a in [r0, r), when first
    asked.  Every a < r is computed by the time r is needed, so the flags stay
    valid until the rare set changes (a new mask).

    With AVX-512 the newest 1/CHECKED of the group's rare a are not flagged but
    checked against candidates (see checked_gives); of_group receives the group.
    """
    cdef Py_ssize_t r0 = r - r % GROUP, i, lo, hi, mid
    cdef int j = r - r0, k
    cdef nimber_t unset[CANDIDATES]
    cdef PairGroup* group = &st.groups[(r0 // GROUP) % st.ngroups]
    cdef unsigned char* flags
    of_group[0] = group
    if group.r0 != r0:
        for i in range(GROUP):
            memset(group.flags + i * FLAG_STRIDE, 0, st.width)
            group.done[i] = False
            group.width[i] = st.width
            group.drop_zero[i] = -1
        lo = bisect(st.rare, st.nrare, GROUP)
        hi = bisect(st.rare, st.nrare, r0)
        mid = hi
        if st.avx512 and hi - lo >= CHECK_MIN and (st.checked_lanes < TRIAL_LANES or
                                                   MISS_SHARE * st.checked_misses < st.checked_lanes):
            mid = hi - (hi - lo) // CHECKED
            st.checked_lanes += GROUP
        if lo < mid:
            flag_group(g + r0, st.rare + lo, st.rare + mid, st.rare_values + lo, group.flags)
        group.checked_lo = mid
        group.checked_hi = hi
        for i in range(GROUP):
            group.checking[i] = mid < hi
        if mid < hi:
            memset(group.candidates, 0, sizeof(group.candidates))
            for i in range(GROUP):
                group.checked_width[i] = st.width
                group.ncandidates[i] = candidates_avx512(
                    group.flags + i * FLAG_STRIDE, st.width, st.mask, st.low_common, unset,
                    CANDIDATES)
                for k in range(group.ncandidates[i]):
                    group.candidates[k * GROUP + i] = unset[k]
            group.unhit = unhit_avx512(g + r0, st.rare + mid, st.rare + hi,
                                       st.rare_values + mid, group.candidates)
        group.r0 = r0
    flags = group.flags + j * FLAG_STRIDE
    if not group.done[j]:
        if group.width[j] < st.width:  # a wider value came after the group was filled
            memset(flags + group.width[j], 0, st.width - group.width[j])
            group.width[j] = st.width
        for i in range(bisect(st.rare, st.nrare, 1), bisect(st.rare, st.nrare, min(GROUP, r))):
            flags[st.rare_values[i] ^ g[r - st.rare[i]]] = 1
        for i in range(bisect(st.rare, st.nrare, max(GROUP, r0)), bisect(st.rare, st.nrare, r)):
            flags[st.rare_values[i] ^ g[r - st.rare[i]]] = 1
        group.done[j] = True
    width[0] = group.width[j]
    return flags


cdef bint zero_from_equal_only(const nimber_t* g, Sparse* st, Py_ssize_t r) noexcept nogil:
    """For even r: whether the rare pass's 0 came only from the equal split r/2 + r/2."""
    cdef PairGroup* group = &st.groups[(r // GROUP) % st.ngroups]   # filled by rare_pairs
    cdef int j = r % GROUP
    cdef Py_ssize_t i, lo, hi
    if group.drop_zero[j] < 0:
        lo = bisect(st.rare, st.nrare, 1)
        hi = bisect(st.rare, st.nrare, r)
        i = bisect(st.rare, st.nrare, r // 2)
        group.drop_zero[j] = (i < hi and st.rare[i] == <pos_t> (r // 2)
                              and not has_split(g, st, lo, hi, r, i))
    return group.drop_zero[j]


cdef bint checked_gives(const nimber_t* g, Sparse* st, PairGroup* group, Py_ssize_t r,
                        int x) noexcept nogil:
    """Whether a checked rare a (not flagged) gives the common value x for r.

    Called only for an x the flags leave unset.  The group's candidates for r
    are the least common values its flags left unset when it was filled, so an
    x among them has its answer, and an x below the last one or past the
    width then is not given by a checked pair.  Past a full list, the checked
    a are flagged for r after all (rarely: the candidate is mostly the first).
    """
    cdef int j = r % GROUP, k
    cdef unsigned char* flags
    if not group.checking[j] or x >= group.checked_width[j]:
        return False
    for k in range(group.ncandidates[j]):
        if group.candidates[k * GROUP + j] == x:
            return not (group.unhit >> (k * GROUP + j) & 1)
    if group.ncandidates[j] < CANDIDATES or x < group.candidates[(CANDIDATES - 1) * GROUP + j]:
        return False
    st.checked_misses += 1
    flags = group.flags + j * FLAG_STRIDE
    flag_one(g + r, st.rare + group.checked_lo, st.rare + group.checked_hi,
             st.rare_values + group.checked_lo, flags)
    group.checking[j] = False
    return flags[x]


cdef void fill_batch(Sparse* st, Py_ssize_t r0, word_t* bits) noexcept nogil:
    """bits[j] = the one-hot set of G(a) ^ G(r0 + j - a) over rare a in [BATCH, r0 - 1].

    For such a, r0 + j - a < r0: the batch reads only G already known when r0
    is first needed.  Rare parts are taken a value u at a time, so the hot loop
    ORs contiguous one-hot words; each value's result is XOR-shifted by u once.
    """
    cdef Py_ssize_t j, lo, hi
    cdef int u
    cdef word_t group[BATCH]
    for j in range(BATCH):
        bits[j] = 0
    for u in range(64):
        lo = bisect(st.by_value[u], st.by_value_count[u], BATCH)
        hi = bisect(st.by_value[u], st.by_value_count[u], r0)
        if lo < hi:
            gather_or(group, st.onehot, r0, st.by_value[u] + lo, hi - lo)
            for j in range(BATCH):
                bits[j] |= xor_permute(group[j], u)


cdef word_t narrow_pairs(const nimber_t* g, Sparse* st, Py_ssize_t r) noexcept nogil:
    """The one-hot set of G(a) ^ G(r - a) over rare a in [1, r - 1] (values below 64)."""
    cdef Py_ssize_t r0 = r - r % BATCH, i
    cdef int slot = (r0 // BATCH) % 2
    if st.batch_r0[slot] != r0:
        fill_batch(st, r0, st.batch_bits + slot * BATCH)
        st.batch_r0[slot] = r0
    cdef word_t bits = st.batch_bits[slot * BATCH + r - r0]
    # The rare parts the batch leaves out: below BATCH, and from r0 on (recent).
    for i in range(bisect(st.rare, st.nrare, 1), bisect(st.rare, st.nrare, min(BATCH, r))):
        bits |= (<word_t> 1) << (st.rare_values[i] ^ g[r - st.rare[i]])
    for i in range(bisect(st.rare, st.nrare, max(BATCH, r0)), bisect(st.rare, st.nrare, r)):
        bits |= (<word_t> 1) << (st.rare_values[i] ^ g[r - st.rare[i]])
    return bits


cdef bint has_split(const nimber_t* g, Sparse* st, Py_ssize_t lo, Py_ssize_t hi,
                    Py_ssize_t r, Py_ssize_t skip) noexcept nogil:
    """Whether a rare a other than rare[skip] in rare[lo:hi] has G(a) == G(r - a)."""
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if i != skip and st.rare_values[i] == g[r - st.rare[i]]:
            return True
    return False


cdef int search(const nimber_t* g, Split* splits, int nsplits, Py_ssize_t* next_a,
                Py_ssize_t pause, stamp_t* seen, stamp_t stamp, int value) noexcept nogil:
    """Mark the options of the splits until value is marked: 1; 0 if it never is.

    The splits are swept side by side in blocks of 32 smaller parts, resuming
    where the last search stopped (next_a), so each pair is marked at most once
    per heap and a value that one split lacks costs no more than the first hit
    in another.  (Blocks of 64 took about 7% longer on .376: most searches end
    early, and a block is marked whole.)  -1: next_a reached pause first, for the
    caller to look at what is left.
    """
    cdef Py_ssize_t a, last, end
    cdef int s
    cdef bint active = True
    while seen[value] != stamp:
        if not active:
            return 0
        if next_a[0] >= pause:
            return -1
        active = False
        a = next_a[0]
        end = a + 32
        for s in range(nsplits):
            last = last_part(&splits[s])
            if a > last:
                continue
            active = True
            mark_pairs(g, splits[s].r, a, min(end, last + 1), splits[s].c, seen, stamp)
        next_a[0] = end
    return 1


cdef int sweep(const nimber_t* g, Split* splits, int nsplits, Py_ssize_t a, Sparse* st,
               nimber_t* values, int nvalues, stamp_t stamp) noexcept nogil:
    """Look for all the values at once, from smaller part a to the splits' ends.

    The splits are swept side by side and each value found is marked.  Returns
    the least value no pair gives, or -1 if every one is found.  Callers keep
    nvalues <= st.few unless st.avx512 and st.width <= SET_WIDTH (the set path).
    """
    cdef Py_ssize_t r[MAX_KINDS]
    cdef Py_ssize_t last[MAX_KINDS]
    cdef unsigned int c[MAX_KINDS]
    cdef int s, k, left, least = -1
    for s in range(nsplits):
        r[s] = splits[s].r
        last[s] = last_part(&splits[s])
        c[s] = splits[s].c
    if st.avx512 and st.width <= SET_WIDTH:
        memset(st.wanted, 0, sizeof(st.wanted))
        for k in range(nvalues):
            st.wanted[values[k] >> 4] |= 1 << (values[k] & 15)
        left = sweep_set_avx512(g, r, last, c, nsplits, a, st.wanted, nvalues, st.seen, stamp)
        left = nvalues if left else 0   # the values left are those still unmarked
    elif st.avx512:
        left = sweep_avx512(g, r, last, c, nsplits, a, values, nvalues, st.seen, stamp)
    else:
        left = sweep_portable(g, r, last, c, nsplits, a, values, nvalues, st.seen, stamp)
    for k in range(left):
        if st.seen[values[k]] != stamp and (least < 0 or values[k] < least):
            least = values[k]
    return least


cdef inline bint flagged(unsigned char** found, const int* widths, const int* consts,
                         const bint* drop_zero, int nfound, int v) noexcept nogil:
    """Whether a rare pass flagged the option value v (v ^ c over its split's flags)."""
    cdef int k, x
    for k in range(nfound):
        x = v ^ consts[k]
        if x < widths[k] and found[k][x] and not (x == 0 and drop_zero[k]):
            return True
    return False


cdef bint checked(const nimber_t* g, Sparse* st, PairGroup** groups, const Py_ssize_t* rs,
                  const int* consts, int nfound, int v) noexcept nogil:
    """Whether a checked rare a of some split gives the common option value v."""
    cdef int k
    for k in range(nfound):
        if checked_gives(g, st, groups[k], rs[k], v ^ consts[k]):
            return True
    return False


cdef int mex_sparse(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds, Sparse* st,
                    stamp_t* seen, stamp_t stamp) noexcept nogil:
    cdef Split splits[MAX_KINDS]
    cdef unsigned char* found[MAX_KINDS]   # the splits' rare passes, read in place
    cdef int widths[MAX_KINDS]
    cdef bint drop_zero[MAX_KINDS]         # 0 came only from an equal split it may not make
    cdef int consts[MAX_KINDS]
    cdef PairGroup* groups[MAX_KINDS]      # ... and where their checked rare a are
    cdef Py_ssize_t rs[MAX_KINDS]
    cdef int nsplits = mark_whole_and_ends(g, n, kinds, nkinds, seen, stamp, splits)
    cdef int s, c, v, common, mask = st.mask, nfound = 0
    cdef Py_ssize_t next_a = 1  # where the search resumes
    cdef Py_ssize_t r, j
    cdef word_t bits
    for s in range(nsplits):
        r = splits[s].r
        c = splits[s].c
        if st.narrow:
            bits = narrow_pairs(g, st, r)
            for v in range(64):
                if bits >> v & 1:
                    seen[v ^ c] = stamp
        else:
            found[nfound] = rare_pairs(g, r, st, &widths[nfound], &groups[nfound])
            rs[nfound] = r
            drop_zero[nfound] = (splits[s].unequal and r % 2 == 0
                                 and zero_from_equal_only(g, st, r))
            consts[nfound] = c
            nfound += 1
    # Every common-valued option has a rare part, so it is flagged by now or,
    # for a checked rare part, answered by checked(): the least common value
    # neither marks is the candidate; the unmarked rare values below it wait
    # for the search, in ascending order.
    cdef Py_ssize_t npending = 0, left, k
    cdef word_t unmarked
    cdef int candidate = -1
    common = 0
    if st.avx512:   # 64 values a step, then only the unmarked ones
        while candidate < 0:
            unmarked = unmarked_avx512(seen, stamp, common, found, widths, consts, drop_zero,
                                       nfound)
            while unmarked and candidate < 0:
                v = common + lowest_bit(unmarked)
                unmarked &= unmarked - 1
                if flagged(found, widths, consts, drop_zero, nfound, v):
                    continue   # by a checked share flagged in full since the step began
                if not parity(v & mask):
                    st.pending[npending] = v
                    npending += 1
                elif not checked(g, st, groups, rs, consts, nfound, v):
                    candidate = v
            common += 64
        common = candidate
    else:
        while True:
            if seen[common] != stamp and not flagged(found, widths, consts, drop_zero, nfound,
                                                     common):
                if parity(common & mask):
                    if not checked(g, st, groups, rs, consts, nfound, common):
                        break
                    common += 1
                    continue
                st.pending[npending] = common
                npending += 1
            common += 1
    # Confirm the smallest first, marking; from FAR pairs on, look now and then
    # at the values left and, once they are few (on the set path: few, or the
    # search has reached SET_FAR), look for all of them at once to the end.
    cdef bint set_path = st.avx512 and st.width <= SET_WIDTH
    cdef Py_ssize_t check = FAR
    j = 0
    while True:
        if next_a >= check:
            left = 0
            for k in range(j, npending):   # without branches: found or not is a coin toss
                st.pending[left] = st.pending[k]
                left += seen[st.pending[k]] != stamp
            npending = left
            j = 0
            if npending and (npending <= st.few or set_path and
                             (npending <= SET_FEW or next_a >= SET_FAR)):
                v = sweep(g, splits, nsplits, next_a, st, st.pending, npending, stamp)
                return common if v < 0 else v
            check = next_a + next_a // 2  # a geometric pace keeps the looks few
            if set_path:
                check = max(check, SET_FAR)
        while j < npending and seen[st.pending[j]] == stamp:
            j += 1
        if j == npending:
            return common
        if not search(g, splits, nsplits, &next_a, check, seen, stamp, st.pending[j]):
            return st.pending[j]


cdef void choose_split(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                       Sparse* st) noexcept nogil:
    """Pick the mask for the table so far; on a new mask, list the rare positions anew."""
    cdef int constants[MAX_KINDS]
    cdef int nconst = 0, k, mask
    cdef long long rare
    cdef Py_ssize_t a
    for k in range(nkinds):
        if kinds[k].span <= n:
            constants[nconst] = constant(g, &kinds[k])
            nconst += 1
    mask = pick_mask(st, constants, nconst, &rare)
    st.checked_lanes = st.checked_misses = 0   # the checked share is tried anew
    if mask == st.mask:
        return
    st.mask = mask
    st.low_common = 0
    for k in range(64):
        st.low_common |= (<word_t> parity(k & mask)) << k
    st.nrare = 0
    st.batch_r0[0] = st.batch_r0[1] = -1
    for k in range(st.ngroups):
        st.groups[k].r0 = -1
    for k in range(64):
        st.by_value_count[k] = 0
    if mask:
        for a in range(n):
            if not parity(g[a] & mask):
                add_rare(st, a, g[a])


cdef inline void add_rare(Sparse* st, Py_ssize_t a, int value) noexcept nogil:
    """Append a rare position (room for the whole call is reserved up front)."""
    st.rare[st.nrare] = <pos_t> a
    st.rare_values[st.nrare] = value
    st.nrare += 1
    if not st.narrow:
        return
    cdef Py_ssize_t room = st.by_value_room[value]
    cdef pos_t* grown
    if st.by_value_count[value] == room:
        room = 2 * room + 16
        grown = <pos_t*> realloc(st.by_value[value], room * sizeof(pos_t))
        if grown == NULL:
            st.narrow = False  # the general path is exact too, only slower
            return
        st.by_value[value] = grown
        st.by_value_room[value] = room
    st.by_value[value][st.by_value_count[value]] = <pos_t> a
    st.by_value_count[value] += 1


cdef int start_sparse(Sparse* st, const nimber_t* g, Py_ssize_t start, Py_ssize_t stop,
                      Kind* ks, int nkinds) except -1:
    """Make the scratch ready for heaps start..stop-1 of the table g."""
    cdef int k
    cdef Py_ssize_t n
    cdef bint unequal = False
    cdef void* grown
    cdef Py_ssize_t widest = 0
    for k in range(nkinds):
        widest = max(widest, ks[k].span)
        unequal = unequal or ks[k].unequal
    st.ngroups = widest // GROUP + 2   # a heap's remainders n - span lie in that many groups
    if st.nslots < st.ngroups:
        grown = realloc(st.slots, st.ngroups * GROUP * FLAG_STRIDE)
        if grown == NULL:
            raise MemoryError()
        st.slots = <unsigned char*> grown
        st.nslots = st.ngroups
    for k in range(st.ngroups):
        st.groups[k].r0 = -1
        st.groups[k].flags = st.slots + k * GROUP * FLAG_STRIDE
    reserve(<void**> &st.rare, &st.rare_room, stop, sizeof(pos_t))
    grown = realloc(st.rare_values, st.rare_room * sizeof(nimber_t))
    if grown == NULL:
        raise MemoryError()
    st.rare_values = <nimber_t*> grown
    memset(st.counts, 0, st.width * sizeof(long long))
    st.width = 1
    for n in range(start):
        st.counts[g[n]] += 1
        st.width = max(st.width, next_power(g[n]))
    st.narrow = st.width <= 64 and not unequal
    if st.narrow:
        reserve(<void**> &st.onehot, &st.onehot_room, stop, sizeof(word_t))
        for n in range(start):
            st.onehot[n] = (<word_t> 1) << g[n]
    st.mask = -1  # no rare set yet: the first choose_split lists one
    st.nrare = 0
    return 0


def extend_sparse(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds, scratch=None):
    """Fill table[start:stop] by the sparse-space method; same values as extend_plain."""
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef int value
    cdef Py_ssize_t n
    cdef Scratch own = scratch_for(scratch)
    cdef Sparse* st = &own.st
    check_range(table, start, stop)
    if stop > POSITION_LIMIT:
        raise ValueError(f"the sparse method stops below {POSITION_LIMIT} heaps")
    if start == stop:
        return
    start_sparse(st, &table[0], start, stop, ks, nkinds)
    with nogil:
        n = run_sparse(&table[0], start, stop, ks, nkinds, st, &value)
    if n < stop:
        store(table, n, value)  # raises: the value does not fit


cdef Py_ssize_t run_sparse(nimber_t* g, Py_ssize_t start, Py_ssize_t stop, Kind* ks, int nkinds,
                           Sparse* st, int* value) noexcept nogil:
    """Fill g[start:stop] by the sparse method; the first heap whose value does not fit, or stop."""
    cdef Py_ssize_t n
    cdef int v
    for n in range(start, stop):
        if n == start or (n & (n - 1)) == 0 or is_span(ks, nkinds, n):
            choose_split(g, n, ks, nkinds, st)
        if st.mask:
            v = mex_sparse(g, n, ks, nkinds, st, st.seen, next_stamp(st))
        else:
            v = mex_plain(g, n, ks, nkinds, st.seen, next_stamp(st))
        if v >= VALUE_LIMIT:
            value[0] = v
            return n
        g[n] = v
        st.counts[v] += 1
        st.width = max(st.width, next_power(v))
        if st.narrow:
            st.narrow = st.width <= 64
            st.onehot[n] = (<word_t> 1) << v
        if st.mask and not parity(v & st.mask):
            add_rare(st, n, v)
    return stop


cdef inline int next_power(int value) noexcept nogil:
    """The least power of two above value: XORs of values below it stay below it."""
    cdef int p = 1
    while p <= value:
        p <<= 1
    return p


cdef inline bint is_span(Kind* kinds, int nkinds, Py_ssize_t n) noexcept nogil:
    cdef int k
    for k in range(nkinds):
        if kinds[k].span == n:
            return True
    return False


def find_period(const nimber_t[::1] table, Py_ssize_t length, Py_ssize_t span):
    """The candidate period whose proof needs the fewest values, if fewer than 2 * length.

    Returns (p, n0, needed) or None; see kayles/_pure.py for the definition.
    """
    if not 0 <= length <= table.shape[0]:
        raise ValueError(f"length {length} does not fit a table of {table.shape[0]}")
    cdef Py_ssize_t p, k, start, bound, best_n0 = 0, best_p = 0, best_needed = 2 * length
    cdef const nimber_t* t
    if length < 2:
        return None
    t = &table[0]
    with nogil:
        for p in range(1, length // 2 + 1):
            if max(2 * p + span + 1, p + span + 1) >= best_needed:
                break  # needed only grows with p
            bound = (best_needed - 2 * p - span) // 2  # n0 must be <= bound to win
            start = min(bound, length - p)
            # Is t[k] == t[k + p] for every k in [start, length - p)?  memcmp (vector
            # compares) matters: multiples of a period match far into the preperiod.
            if memcmp(t + start, t + start + p, (length - p - start) * sizeof(nimber_t)):
                continue
            k = start - 1
            while k >= 0 and t[k] == t[k + p]:
                k -= 1
            best_n0 = k + 1
            best_needed = max(2 * max(best_n0, 1) + 2 * p + span - 1, p + span + 1)
            best_p = p
    if best_p == 0:
        return None
    return best_p, best_n0, best_needed


cdef inline Py_ssize_t next_run(const unsigned char* row, Py_ssize_t n, Py_ssize_t i,
                                Py_ssize_t* first) noexcept nogil:
    """The end of the first run of pins at or after i, its start into first (equal: no run)."""
    while i < n and row[i] != PIN:
        i += 1
    first[0] = i
    while i < n and row[i] == PIN:
        i += 1
    return i


cdef Py_ssize_t scan_runs(const unsigned char* row, Py_ssize_t n, const nimber_t* g,
                          Py_ssize_t limit, int* total) noexcept nogil:
    """XOR G(run) over the runs of pins into total and return -1; or, if a run is as
    long as limit (the table's length), return that run's length and leave total."""
    cdef Py_ssize_t i = 0, first
    cdef int t = 0
    while i < n:
        i = next_run(row, n, i, &first)
        if i == first:
            break
        if i - first >= limit:
            return i - first
        t ^= g[i - first]
    total[0] = t
    return -1


cdef int row_total(const unsigned char[::1] row, const nimber_t[::1] table) except -1:
    cdef int total = 0
    cdef Py_ssize_t n = row.shape[0], limit = table.shape[0], too_long = -1
    if n:
        with nogil:
            too_long = scan_runs(&row[0], n, &table[0], limit, &total)
    if too_long >= 0:
        raise ValueError(f"a run of {too_long} pins needs a table longer than {limit}")
    return total


def row_nim_sum(const unsigned char[::1] row, const nimber_t[::1] table):
    """XOR of G(run) over the runs of 'x' in a row of b'x' and b'.'."""
    return row_total(row, table)


cdef inline bint allows(const Kind* kind, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Whether outer parts a and b may remain (rules.MoveKind.allows)."""
    return (kind.leave >> ((a > 0) + (b > 0))) & 1 and not (kind.unequal and a == b > 0)


def row_move(const unsigned char[::1] row, const nimber_t[::1] table, kinds):
    """The seed's winning move on a row, as (first covered index, kind index), or None.

    The leftmost run whose value can be lowered; in it, the first option in
    Game.options order (smallest placement a, then the earlier kind) that reaches
    the target.  See kayles/_pure.py.
    """
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef int total = row_total(row, table), target = 0, k, found_kind = 0
    cdef Py_ssize_t a, i = 0, size = 0, first = 0, b, n = row.shape[0], found = -1
    if total == 0:
        return None
    with nogil:
        # The run holding the highest bit of the nim-sum can always be lowered.
        while i < n:
            i = next_run(&row[0], n, i, &first)
            if i == first:
                break
            size = i - first
            target = table[size] ^ total
            if target < table[size]:
                break
        # Game.options order; a < size, since on rows every kind removes a pin.
        for a in range(size):
            for k in range(nkinds):
                b = size - ks[k].span - a
                if b >= 0 and allows(&ks[k], a, b) and (
                        table[a] ^ table[b] ^ constant(&table[0], &ks[k]) == target):
                    found, found_kind = first + a, k
                    break
            if found >= 0:
                break
    if found < 0:
        raise RuntimeError(
            f"cannot happen: no option of G({size}) has value {target} (the table is wrong)"
        )
    return found, found_kind


# -- misère search ----------------------------------------------------------------------------
#
# Misère Grundy values v of positions: a multiset of game heaps, plus ``twos`` nim heaps *2
# and ``ones`` (0 or 1) nim heap *1; v(terminal) = 1, otherwise the mex over the options.
# Same reductions, order of search, budget and errors as kayles/_pure.py (see its header:
# heaps with no move vanish, heaps that are the game *1 become *1, *1 + *1 cancels).
#
# A position is a key of 32-bit words (twos, ones, live heaps ascending).  Stored keys sit
# in one arena as [length, words...]; an open-addressing table (linear probing, at most half
# full) maps them to their values.  The depth-first search keeps its own stack: each frame's
# options are written after its key in a second arena and dropped when the frame is done.

cdef enum:
    SHAPE_LIVE = 0
    SHAPE_DEAD = 1
    SHAPE_STAR1 = 2
    EMPTY_SLOT = 0xFFFFFFFF  # a slot's offset when it holds no key
    FIRST_SLOTS = 1024       # table size to start with (a power of two)


cdef struct Slot:
    uint64_t hash
    uint32_t offset          # where the key starts in the arena (EMPTY_SLOT: none)
    int value


cdef struct Frame:
    Py_ssize_t key_at        # the key's place in the pending arena
    Py_ssize_t options_at    # its options: [options_at, options_end)
    Py_ssize_t options_end
    Py_ssize_t next          # the first option whose value is not known yet


cdef struct Words:           # a growable array of 32-bit words
    uint32_t* data
    Py_ssize_t length
    Py_ssize_t room


cdef int reserve_words(Words* w, Py_ssize_t more) except -1:
    cdef Py_ssize_t room = w.room if w.room else 1024
    cdef uint32_t* data
    if w.length + more <= w.room:
        return 0
    while room < w.length + more:
        room *= 2
    data = <uint32_t*> realloc(w.data, room * sizeof(uint32_t))
    if data == NULL:
        raise MemoryError()
    w.data, w.room = data, room
    return 0


cdef inline uint64_t hash_words(const uint32_t* words, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL  # FNV-1a offset basis, over whole words
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ words[i]) * 1099511628211ULL   # FNV prime
    return h ^ (h >> 29)


cdef class MisereMemo:
    """The misère values found so far for one game (kinds as in rules.encode)."""

    cdef Kind kinds[MAX_KINDS]
    cdef int nkinds
    cdef readonly Py_ssize_t budget
    cdef Py_ssize_t count
    cdef Slot* slots
    cdef Py_ssize_t nslots
    cdef Words stored            # stored keys: [length, words...]
    cdef Words pending           # keys of the search in progress: [length, words...]
    cdef Frame* frames
    cdef Py_ssize_t nframes, frame_room
    cdef unsigned char* shapes
    cdef Py_ssize_t nshapes
    cdef unsigned char* flags    # scratch for the mex
    cdef Py_ssize_t flag_room

    def __cinit__(self, kinds, Py_ssize_t budget):
        cdef Py_ssize_t i
        self.nkinds = load_kinds(kinds, self.kinds)
        self.budget = budget
        self.slots = <Slot*> PyMem_Malloc(FIRST_SLOTS * sizeof(Slot))
        if self.slots == NULL:
            raise MemoryError()
        self.nslots = FIRST_SLOTS
        for i in range(FIRST_SLOTS):
            self.slots[i].offset = EMPTY_SLOT

    def __dealloc__(self):
        PyMem_Free(self.slots)
        free(self.stored.data)
        free(self.pending.data)
        free(self.frames)
        free(self.shapes)
        free(self.flags)

    def __len__(self):
        return self.count

    cdef int find(self, const uint32_t* words, Py_ssize_t n) noexcept:
        """The stored value of the key, or -1."""
        cdef uint64_t h = hash_words(words, n)
        cdef Py_ssize_t mask = self.nslots - 1, i = <Py_ssize_t> (h & <uint64_t> mask)
        cdef const uint32_t* key
        while self.slots[i].offset != EMPTY_SLOT:
            if self.slots[i].hash == h:
                key = self.stored.data + self.slots[i].offset
                if key[0] == n and memcmp(key + 1, words, n * sizeof(uint32_t)) == 0:
                    return self.slots[i].value
            i = (i + 1) & mask
        return -1

    cdef int grow_table(self) except -1:
        cdef Py_ssize_t old_n = self.nslots, n = 2 * old_n, i, j
        cdef Slot* old = self.slots
        cdef Slot* slots = <Slot*> PyMem_Malloc(n * sizeof(Slot))
        if slots == NULL:
            raise MemoryError()
        for i in range(n):
            slots[i].offset = EMPTY_SLOT
        for i in range(old_n):
            if old[i].offset != EMPTY_SLOT:
                j = <Py_ssize_t> (old[i].hash & <uint64_t> (n - 1))
                while slots[j].offset != EMPTY_SLOT:
                    j = (j + 1) & (n - 1)
                slots[j] = old[i]
        self.slots, self.nslots = slots, n
        PyMem_Free(old)
        return 0

    cdef int store(self, const uint32_t* words, Py_ssize_t n, int value) except -1:
        """Add a key that is not stored yet (words must not point into the stored arena)."""
        cdef uint64_t h
        cdef Py_ssize_t i
        if self.count >= self.budget:
            raise ValueError(
                f"the misère search needs more than {self.budget} positions (its budget)"
            )
        if 2 * (self.count + 1) > self.nslots:
            self.grow_table()
        reserve_words(&self.stored, n + 1)
        if self.stored.length >= EMPTY_SLOT:
            raise MemoryError("the misère memo's key arena is full")
        h = hash_words(words, n)
        i = <Py_ssize_t> (h & <uint64_t> (self.nslots - 1))
        while self.slots[i].offset != EMPTY_SLOT:
            i = (i + 1) & (self.nslots - 1)
        self.slots[i].hash = h
        self.slots[i].offset = <uint32_t> self.stored.length
        self.slots[i].value = value
        self.stored.data[self.stored.length] = <uint32_t> n
        memcpy(self.stored.data + self.stored.length + 1, words, n * sizeof(uint32_t))
        self.stored.length += n + 1
        self.count += 1
        return 0

    cdef int grow_shapes(self, Py_ssize_t h) except -1:
        cdef Py_ssize_t n, a, b, rest, j
        cdef int k, shape
        cdef Kind* kind
        cdef unsigned char* more
        if h < self.nshapes:
            return 0
        more = <unsigned char*> realloc(self.shapes, h + 1)
        if more == NULL:
            raise MemoryError()
        self.shapes = more
        for n in range(self.nshapes, h + 1):
            shape = SHAPE_DEAD
            for k in range(self.nkinds):
                kind = &self.kinds[k]
                rest = n - kind.span  # may be < 0: no move of this kind
                for a in range(rest // 2 + 1 if rest >= 0 else 0):
                    b = rest - a
                    if not (kind.leave >> ((a > 0) + (b > 0))) & 1 or (kind.unequal and a == b > 0):
                        continue
                    shape = SHAPE_STAR1
                    if self.shapes[a] != SHAPE_DEAD or self.shapes[b] != SHAPE_DEAD:
                        shape = SHAPE_LIVE
                    for j in range(kind.nkept):
                        if self.shapes[kind.kept[j]] != SHAPE_DEAD:
                            shape = SHAPE_LIVE
                    if shape == SHAPE_LIVE:
                        break
                if shape == SHAPE_LIVE:
                    break
            self.shapes[n] = shape
        self.nshapes = h + 1
        return 0

    cdef int push_frame(self, Py_ssize_t key_at) except -1:
        cdef Frame* more
        cdef Py_ssize_t room
        if self.nframes == self.frame_room:
            room = 2 * self.frame_room if self.frame_room else 64
            more = <Frame*> realloc(self.frames, room * sizeof(Frame))
            if more == NULL:
                raise MemoryError()
            self.frames, self.frame_room = more, room
        self.frames[self.nframes].key_at = key_at
        self.frames[self.nframes].options_at = self.pending.length
        self.write_options(key_at)
        self.frames[self.nframes].options_end = self.pending.length
        self.frames[self.nframes].next = self.frames[self.nframes].options_at
        self.nframes += 1
        return 0

    cdef int write_options(self, Py_ssize_t key_at) except -1:
        """Append every option of the pending key at key_at to the pending arena."""
        cdef Py_ssize_t n = self.pending.data[key_at], i, j, a, b, rest, start, count
        cdef uint32_t h
        cdef int k, t
        cdef Kind* kind
        cdef uint32_t* old
        cdef uint32_t* words
        if n > 2:
            self.grow_shapes(self.pending.data[key_at + n])  # the largest heap
        for i in range(2, n):
            old = self.pending.data + key_at + 1
            h = old[i]
            if i > 2 and old[i - 1] == h:
                continue  # equal heaps have the same options
            for k in range(self.nkinds):
                kind = &self.kinds[k]
                rest = <Py_ssize_t> h - kind.span
                for a in range(rest // 2 + 1 if rest >= 0 else 0):
                    b = rest - a
                    if not (kind.leave >> ((a > 0) + (b > 0))) & 1 or (kind.unequal and a == b > 0):
                        continue
                    reserve_words(&self.pending, n + 1 + 2 + 8)  # two parts and eight kept runs
                    old = self.pending.data + key_at + 1
                    start = self.pending.length
                    words = self.pending.data + start + 1
                    words[0] = old[0]
                    words[1] = old[1]
                    count = 2
                    for j in range(2, n):
                        if j != i:
                            words[count] = old[j]  # already ascending
                            count += 1
                    add_part(self.shapes, words, &count, a)
                    add_part(self.shapes, words, &count, b)
                    for t in range(kind.nkept):
                        add_part(self.shapes, words, &count, kind.kept[t])
                    self.pending.data[start] = <uint32_t> count
                    self.pending.length += count + 1
        for t in range(3):  # *2 -> *1, *2 -> 0, *1 -> 0
            reserve_words(&self.pending, n + 1)
            old = self.pending.data + key_at + 1
            if (t < 2 and not old[0]) or (t == 2 and not old[1]):
                continue
            start = self.pending.length
            words = self.pending.data + start + 1
            memcpy(words, old, n * sizeof(uint32_t))
            if t < 2:
                words[0] = old[0] - 1
                words[1] = old[1] ^ (1 - t)
            else:
                words[1] = 0
            self.pending.data[start] = <uint32_t> n
            self.pending.length += n + 1
        return 0

    cdef int finish(self, Frame* f) except -1:
        """Store the value of a frame whose options are all known."""
        cdef Py_ssize_t at = f.options_at, n, noptions = 0, m
        cdef int v, value
        while at < f.options_end:
            noptions += 1
            at += self.pending.data[at] + 1
        if noptions == 0:
            value = 1
        else:
            if noptions + 1 > self.flag_room:
                free(self.flags)
                self.flags = <unsigned char*> malloc(noptions + 1)
                if self.flags == NULL:
                    self.flag_room = 0
                    raise MemoryError()
                self.flag_room = noptions + 1
            memset(self.flags, 0, noptions + 1)
            at = f.options_at
            while at < f.options_end:
                n = self.pending.data[at]
                v = self.find(self.pending.data + at + 1, n)
                if v <= noptions:
                    self.flags[v] = 1
                at += n + 1
            m = 0
            while self.flags[m]:
                m += 1
            value = <int> m
        self.store(self.pending.data + f.key_at + 1, self.pending.data[f.key_at], value)
        return 0


cdef inline void insert_heap(uint32_t* words, Py_ssize_t* count, uint32_t h) noexcept:
    """Insert h into the ascending heaps words[2:count] (insertion step)."""
    cdef Py_ssize_t i = count[0]
    while i > 2 and words[i - 1] > h:
        words[i] = words[i - 1]
        i -= 1
    words[i] = h
    count[0] += 1


cdef inline void add_part(const unsigned char* shapes, uint32_t* words, Py_ssize_t* count,
                          Py_ssize_t h) noexcept:
    cdef unsigned char shape = shapes[h]
    if shape == SHAPE_STAR1:
        words[1] ^= 1
    elif shape == SHAPE_LIVE:
        insert_heap(words, count, <uint32_t> h)


def misere_value(MisereMemo memo, heaps, Py_ssize_t twos):
    """The misère Grundy value of the heaps plus ``twos`` nim heaps *2 (0: a loss to move)."""
    cdef Py_ssize_t count = 2, h, top = 0, n
    cdef int found
    cdef Frame* f
    heaps = tuple(heaps)
    for h in heaps:
        if h > top:
            top = h
        if h < 0:
            raise ValueError("heap sizes must be >= 0")
    if twos < 0:
        raise ValueError("the number of *2 heaps must be >= 0")
    memo.grow_shapes(top)
    memo.pending.length = 0
    memo.nframes = 0
    reserve_words(&memo.pending, len(heaps) + 3)
    memo.pending.data[1] = <uint32_t> twos
    memo.pending.data[2] = 0
    for h in heaps:
        add_part(memo.shapes, memo.pending.data + 1, &count, h)
    memo.pending.data[0] = <uint32_t> count
    memo.pending.length = count + 1
    found = memo.find(memo.pending.data + 1, count)
    if found >= 0:
        return found
    try:
        memo.push_frame(0)
        while memo.nframes:
            f = &memo.frames[memo.nframes - 1]
            while f.next < f.options_end:
                n = memo.pending.data[f.next]
                if memo.find(memo.pending.data + f.next + 1, n) < 0:
                    break
                f.next += n + 1
            if f.next < f.options_end:
                memo.push_frame(f.next)  # the child's key stays in its parent's options
                continue
            memo.finish(f)
            memo.pending.length = f.options_at
            memo.nframes -= 1
    finally:
        memo.nframes = 0
    return memo.find(memo.pending.data + 1, count)


def misere_layers_agree(MisereMemo memo, Py_ssize_t low, Py_ssize_t high):
    """Whether every position stored with ``high`` nim heaps *2 has the value it has with ``low``.

    See kayles/_pure.py for why that proves the values alternate from ``low`` on.
    """
    cdef Py_ssize_t i, n
    cdef const uint32_t* key
    cdef uint32_t* words
    for i in range(memo.nslots):
        if memo.slots[i].offset == EMPTY_SLOT:
            continue
        key = memo.stored.data + memo.slots[i].offset
        if key[1] != <uint32_t> high:
            continue
        n = key[0]
        memo.pending.length = 0
        reserve_words(&memo.pending, n)
        words = memo.pending.data
        memcpy(words, key + 1, n * sizeof(uint32_t))
        words[0] = <uint32_t> low
        if memo.find(words, n) != memo.slots[i].value:
            return False
    return True
