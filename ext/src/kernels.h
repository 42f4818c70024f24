/* The sparse-space method's vector kernels: the loops where the time goes.

   Plain C on flat arrays (no Python), called by ext/_core.pyx and declared to it
   once in ext/_kernels.pxd.  pairs.c holds the portable kernels (SSE2 where the
   CPU is x86-64, plain C elsewhere); avx2.c and avx512.c those for CPUs with AVX2
   and with AVX-512BW, each compiled for its instructions with target attributes
   and chosen at run time (cpu.c), so one build runs on any CPU.  ext/tests/test_kernels.c checks every kernel against a plain
   loop, built with the warnings on and under the address and undefined-behaviour
   sanitizers (make check-c).

   Values (nimbers) are unsigned 16-bit; heap sizes in the rare set are unsigned
   32-bit; every index into a table is a ptrdiff_t (Py_ssize_t to Cython).

   KAYLES_PORTABLE_ONLY (defined at compile time) leaves out every x86 vector path: the
   build every other CPU gets, checked on x86 too by make check-c.

   The sparse method reaches an instruction set's kernels through its table
   (kayles_vectors), chosen by name once, when a scratch is made. */

#ifndef KAYLES_KERNELS_H
#define KAYLES_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A rare-pass group holds the flags of KAYLES_GROUP remainders, those of
   remainder r0 + j from j * KAYLES_FLAG_STRIDE on: room for every value below
   2**16 and a 64-byte read past the last one. */
#define KAYLES_GROUP 4
#define KAYLES_FLAG_STRIDE 65600

/* 1 where avx2.c and avx512.c compile their kernels (x86-64, GCC or Clang). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && \
    !defined(KAYLES_PORTABLE_ONLY)
#define KAYLES_X86_VECTORS 1
#else
#define KAYLES_X86_VECTORS 0
#endif

#if defined(__GNUC__) || defined(__clang__)
/* aligned: a hot loop's speed then does not hinge on the code placed before it */
#define KAYLES_NOINLINE __attribute__((noinline, aligned(64)))
#define KAYLES_RESTRICT __restrict__
#else
#define KAYLES_NOINLINE
#define KAYLES_RESTRICT
#endif

typedef unsigned short kayles_value;   /* a nimber */
typedef unsigned int kayles_pos;       /* a heap size in the rare set */
typedef unsigned int kayles_stamp;     /* seen[v] == stamp: v is an option of the heap at hand */
typedef unsigned long long kayles_word;   /* a one-hot set of values below 64 */

/* {v ^ u : v in x} for a one-hot set x of values below 64: swap the bit blocks
   of each size in u. */
static inline kayles_word kayles_xor_permute(kayles_word x, int u) {
    if (u & 1) x = ((x & 0x5555555555555555ULL) << 1) | ((x >> 1) & 0x5555555555555555ULL);
    if (u & 2) x = ((x & 0x3333333333333333ULL) << 2) | ((x >> 2) & 0x3333333333333333ULL);
    if (u & 4) x = ((x & 0x0F0F0F0F0F0F0F0FULL) << 4) | ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL);
    if (u & 8) x = ((x & 0x00FF00FF00FF00FFULL) << 8) | ((x >> 8) & 0x00FF00FF00FF00FFULL);
    if (u & 16) x = ((x & 0x0000FFFF0000FFFFULL) << 16) | ((x >> 16) & 0x0000FFFF0000FFFFULL);
    if (u & 32) x = (x << 32) | (x >> 32);
    return x;
}

#if defined(__GNUC__) || defined(__clang__)
#define kayles_parity(x) __builtin_parity(x)
#define kayles_lowest_bit(x) __builtin_ctzll(x)
#define kayles_prefetch(p) __builtin_prefetch(p)
#else
#define kayles_prefetch(p) ((void) (p))   /* a hint only: nothing elsewhere */
static inline int kayles_parity(unsigned int x) {
    x ^= x >> 16; x ^= x >> 8; x ^= x >> 4; x ^= x >> 2; x ^= x >> 1;
    return x & 1;
}
static inline int kayles_lowest_bit(kayles_word x) {   /* x != 0 */
    int i = 0;
    for (; !(x & 1); x >>= 1)
        i++;
    return i;
}
#endif

/* The take-and-break unions' rows go in blocks: bit b of a mask of open blocks names words
   b * block to (b + 1) * block, cut at limit.  The lowest run of open blocks as the words
   [*from, *to) (empty at or past limit), and the mask without it. */
static inline kayles_word kayles_next_run(kayles_word open, ptrdiff_t block, ptrdiff_t limit,
                                          ptrdiff_t *from, ptrdiff_t *to) {
    int first = kayles_lowest_bit(open);
    kayles_word above = ~(open | (((kayles_word) 1 << first) - 1));
    int end = above ? kayles_lowest_bit(above) : 64;
    *from = (ptrdiff_t) first * block < limit ? (ptrdiff_t) first * block : limit;
    *to = (ptrdiff_t) end * block < limit ? (ptrdiff_t) end * block : limit;
    return end == 64 || *to == limit ? 0 : open & ~(((kayles_word) 1 << end) - 1);
}

/* The sweeps' shared steps: whether a pair b in [b, end) gives value; and value
   i found (marked, the last one takes its place; returns how many are left). */
static inline int kayles_tail_has(const kayles_value *g, ptrdiff_t r, ptrdiff_t b,
                                  ptrdiff_t end, unsigned c, unsigned value) {
    for (; b < end; b++)
        if ((unsigned) (g[b] ^ g[r - b] ^ c) == value)
            return 1;
    return 0;
}

static inline int kayles_found(kayles_value *values, int i, int n, kayles_stamp *seen,
                               kayles_stamp stamp) {
    seen[values[i]] = stamp;
    values[i] = values[n - 1];
    return n - 1;
}

/* -- the rare pass (pairs.c) ------------------------------------------------------ */

/* flags[j * KAYLES_FLAG_STRIDE + (G(a) ^ G(r0 + j - a))] = 1 for the rare a in
   [a, end) and j < KAYLES_GROUP; top = G + r0, value_of_a[i] = G(a[i]). */
void kayles_flag_group(const kayles_value *top, const kayles_pos *a, const kayles_pos *end,
                       const kayles_value *value_of_a, unsigned char *flags);

/* The same for one remainder r: flags[G(a) ^ G(r - a)] = 1 (top = G + r). */
void kayles_flag_one(const kayles_value *top, const kayles_pos *a, const kayles_pos *end,
                     const kayles_value *value_of_a, unsigned char *flags);

/* out[j] = OR over i < n of onehot[r0 - pos[i] + j], j < 64: the one-hot path. */
void kayles_gather_or(kayles_word *out, const kayles_word *onehot, ptrdiff_t r0,
                      const kayles_pos *pos, ptrdiff_t n);

/* -- the search (pairs.c; avx512.c) ----------------------------------------------- */

/* seen[G(a) ^ G(r - a) ^ c] = stamp for a in [a, end). */
void kayles_mark_pairs(const kayles_value *g, ptrdiff_t r, ptrdiff_t a, ptrdiff_t end,
                       unsigned int c, kayles_stamp *seen, kayles_stamp stamp);

/* The search's last stage: look for values[0..n-1] among G(b) ^ G(r[s] - b) ^ c[s]
   for b from a to last[s], the splits side by side.  A value found gets
   seen[v] = stamp and leaves the list (the last one takes its place); returns
   how many are left in values[0..left-1]: the values no pair gives. */
int kayles_sweep_portable(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                          const unsigned int *c, int nsplits, ptrdiff_t a,
                          kayles_value *values, int n, kayles_stamp *seen, kayles_stamp stamp);
int kayles_sweep_avx512(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                        const unsigned int *c, int nsplits, ptrdiff_t a,
                        kayles_value *values, int n, kayles_stamp *seen, kayles_stamp stamp);
int kayles_sweep_avx2(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                      const unsigned int *c, int nsplits, ptrdiff_t a,
                      kayles_value *values, int n, kayles_stamp *seen, kayles_stamp stamp);

/* The same for any number of values below 2048, given as a set (bit v & 15 of
   set[v >> 4]); returns how many are left unfound (0: all found). */
int kayles_sweep_set_avx512(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                            const unsigned int *c, int nsplits, ptrdiff_t a,
                            const kayles_value *set, int left, kayles_stamp *seen,
                            kayles_stamp stamp);

/* The same for values in [base, base + 2048) and below 2**16, bit v - base of set,
   whatever the pair values (those outside the window are passed over): the dense
   path's window. */
int kayles_sweep_window_avx512(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                               const unsigned int *c, int nsplits, ptrdiff_t a, unsigned base,
                               const kayles_value *set, int left, kayles_stamp *seen,
                               kayles_stamp stamp);

/* -- the checked share of the rare pass (avx512.c; avx2.c, the same contracts) ------- */

/* Bit 4k + j: no rare a in [a, end) gives G(a) ^ G(r0 + j - a) == cands[4k + j]
   (top = G + r0; 32 lanes: 8 candidates of 4 remainders). */
unsigned kayles_unhit_avx512(const kayles_value *top, const kayles_pos *a,
                             const kayles_pos *end, const kayles_value *value_of_a,
                             const kayles_value *cands);
unsigned kayles_unhit_avx2(const kayles_value *top, const kayles_pos *a,
                           const kayles_pos *end, const kayles_value *value_of_a,
                           const kayles_value *cands);

/* The first (at most max) values u < width, ascending, that flags leaves unset
   and the mask makes common (bit i of low_common: whether i & 63 is); returns
   how many were written to out. */
int kayles_candidates_avx512(const unsigned char *flags, int width, int mask,
                             kayles_word low_common, kayles_value *out, int max);
int kayles_candidates_avx2(const unsigned char *flags, int width, int mask,
                           kayles_word low_common, kayles_value *out, int max);

/* The values in [b, b + 64) a heap has no option for yet, a bit each: seen[v] !=
   stamp and no split k's rare pass flagged v ^ c[k] (below width[k], save 0
   where drop_zero[k]). */
kayles_word kayles_unmarked_avx512(const kayles_stamp *seen, kayles_stamp stamp, int b,
                                   unsigned char *const *flags, const int *width, const int *c,
                                   const int *drop_zero, int nflags);
kayles_word kayles_unmarked_avx2(const kayles_stamp *seen, kayles_stamp stamp, int b,
                                 unsigned char *const *flags, const int *width, const int *c,
                                 const int *drop_zero, int nflags);

/* -- threads (threads.c) ---------------------------------------------------------- */

/* Several threads solve the heaps of one sequence (one heap each at a time, in turn):
   they share the rare pass's groups under a lock each and publish values in order.
   KAYLES_THREADS is 0 where the compiler lacks GCC's atomic builtins (MSVC): the
   helpers below are then plain loads and stores, and one thread runs. */
#define KAYLES_MAX_THREADS 64

#if (defined(__GNUC__) || defined(__clang__)) && !defined(KAYLES_NO_THREADS)
#define KAYLES_THREADS 1
static inline ptrdiff_t kayles_load(const ptrdiff_t *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline void kayles_store(ptrdiff_t *p, ptrdiff_t value) {
    __atomic_store_n(p, value, __ATOMIC_RELEASE);
}
static inline void kayles_add(ptrdiff_t *p, ptrdiff_t value) {   /* a shared counter */
    __atomic_fetch_add(p, value, __ATOMIC_RELAXED);
}
static inline ptrdiff_t kayles_take(ptrdiff_t *p, ptrdiff_t count) {   /* *p, and count on */
    return __atomic_fetch_add(p, count, __ATOMIC_RELAXED);
}
static inline int kayles_load_int(const int *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline void kayles_store_int(int *p, int value) {
    __atomic_store_n(p, value, __ATOMIC_RELEASE);
}
#else
#define KAYLES_THREADS 0
static inline ptrdiff_t kayles_load(const ptrdiff_t *p) { return *p; }
static inline void kayles_store(ptrdiff_t *p, ptrdiff_t value) { *p = value; }
static inline void kayles_add(ptrdiff_t *p, ptrdiff_t value) { *p += value; }
static inline ptrdiff_t kayles_take(ptrdiff_t *p, ptrdiff_t count) {
    ptrdiff_t taken = *p;
    *p += count;
    return taken;
}
static inline int kayles_load_int(const int *p) { return *p; }
static inline void kayles_store_int(int *p, int value) { *p = value; }
#endif

/* takebreak.c: the take-and-break kernel's bit sets, rows of `width` words (a power of
   two; bit v of a row: value v reached; every value below 64 * width).
   kayles_pair_row: out |= {G(a) ^ G(t - a) : 1 <= a <= t/2} (a < t - a when unequal).
   kayles_xor_union: out |= the union over low <= a <= high of {v ^ g[a] : v in row
   t - a of rows} (0 < low, high < t), its words below limit alone (limit: width, or a
   multiple of 8 below it; the words past it are not touched); accumulators:
   KAYLES_CLASSES * width zero words, zero again on return; vec: the instructions of its
   step (or_moved).  Below KAYLES_UNION_DIRECT rows each is moved bit by bit instead. */
#define KAYLES_UNION_DIRECT 48
#define KAYLES_CLASSES 8   /* accumulators a heap: one for each value of a part's bits 0-2 */
void kayles_pair_row(kayles_word *out, const kayles_value *g, ptrdiff_t t, int unequal);
struct kayles_vectors;
void kayles_xor_union(kayles_word *out, const kayles_word *rows, ptrdiff_t width,
                      ptrdiff_t limit, const kayles_value *g, ptrdiff_t t, ptrdiff_t low,
                      ptrdiff_t high, kayles_word *accumulators,
                      const struct kayles_vectors *vec);
/* kayles_xor_union_ahead: the same union for the KAYLES_AHEAD heaps t, t + 1, ... at once,
   each row read once for all of them (the rows outgrow the caches: a pass a heap is
   bound by the memory's bandwidth): row t + k of out |= the union over the first parts a
   from max(k, 1) to (t + k) / 3 whose rows t + k - a lie from high down to low (t >=
   high >= low >= t - t / 3: a pass may go in pieces, rows t - t / 3 to t in all), its
   words below limit, some of it in the accumulators: KAYLES_AHEAD * KAYLES_CLASSES *
   width words, zero before the first piece, which kayles_xor_union_ahead_fold moves into
   out after the last, zero again.  The first parts below k of heap t + k read rows after
   t: a kayles_xor_union each, once those rows are made.
   Blocks: each heap's row goes in blocks of words (KAYLES_BLOCK_WORDS, or more so that 64
   cover limit); open (KAYLES_AHEAD masks, set by kayles_xor_union_ahead_open before the
   first piece) names those not yet full.  Every `every` rows (0: KAYLES_FULL_EVERY, or
   KAYLES_FULL_EVERY_DIRECT without accumulators) the accumulators are folded into out and
   the blocks now full closed: no further row is ORed there.  Full: heap h reads the rows
   h - spans[i] (nspans of them), and a block of row r closes
   where the union of the rows each of its readers reads is full there (so that heap's
   mex is not there); with the one span 0, where row r is full (the rows stay exact).
   The rows below t that readers read must be made (rows from 0 up are read).  It returns
   how many blocks it closed. */
#define KAYLES_AHEAD 64
#define KAYLES_BLOCK_WORDS 8
#define KAYLES_FULL_EVERY 256        /* with accumulators: a look folds them */
#define KAYLES_FULL_EVERY_DIRECT 64  /* without (or_moved_two): a look reads the rows */
void kayles_xor_union_ahead_open(kayles_word *open, ptrdiff_t limit);
ptrdiff_t kayles_xor_union_ahead(kayles_word *out, const kayles_word *rows, ptrdiff_t width,
                            ptrdiff_t limit, const kayles_value *g, ptrdiff_t t,
                            ptrdiff_t high, ptrdiff_t low, kayles_word *accumulators,
                            kayles_word *open, ptrdiff_t every, const int *spans,
                            int nspans, const struct kayles_vectors *vec);
void kayles_xor_union_ahead_fold(kayles_word *out, ptrdiff_t width, ptrdiff_t limit,
                                 kayles_word *accumulators, kayles_word *open,
                                 const struct kayles_vectors *vec);

/* How many cores this process may run on (1 without threads). */
int kayles_cores(void);

/* One pause of a thread waiting for another (spins: how often it has waited so far). */
void kayles_backoff(int *spins);

/* A spin lock: 0 free, 1 held. */
static inline void kayles_lock(int *lock) {
#if KAYLES_THREADS
    int spins = 0;
    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(lock, __ATOMIC_RELAXED))
            kayles_backoff(&spins);
#else
    *lock = 1;
#endif
}
static inline void kayles_unlock(int *lock) {
    kayles_store_int(lock, 0);
}
static inline int kayles_try_lock(int *lock) {   /* 1: taken */
#if KAYLES_THREADS
    return !__atomic_exchange_n(lock, 1, __ATOMIC_SEQ_CST);
#else
    return !*lock && (*lock = 1);
#endif
}
/* Stores before it are seen before loads after it (a lock let go, then a look). */
static inline void kayles_fence(void) {
#if KAYLES_THREADS
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/* Run task(context, k, workers) for k in [0, workers) on as many threads at once, k = 0
   on the caller's; workers <= n (fewer where a thread could not be started, 1 without
   threads).  Returns workers once every task has returned. */
typedef void (*kayles_task)(void *context, int worker, int workers);
int kayles_run_workers(int n, kayles_task task, void *context);

/* -- the CPU (cpu.c) -------------------------------------------------------------- */

int kayles_has_avx512(void);          /* 1: the AVX-512 kernels run on this CPU */
int kayles_has_avx2(void);            /* 1: the AVX2 kernels run on this CPU */
int kayles_has_gfni(void);            /* 1: AVX512-VBMI and GFNI too (or_moved_two) */
extern const char kayles_portable[];  /* the portable kernels' instructions: "sse2" or "scalar" */

/* One instruction set's steps of the sparse method.  A NULL step is one this set
   does without: the portable set has no checked share (unhit, candidates) and no
   64-value step (unmarked); only AVX-512 has the set sweeps. */
typedef struct kayles_vectors {
    const char *name;  /* "avx512bw", "avx2", or kayles_portable */
    int few;           /* the sweep compares at most this many values at once */
    int (*sweep)(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                 const unsigned int *c, int nsplits, ptrdiff_t a, kayles_value *values,
                 int n, kayles_stamp *seen, kayles_stamp stamp);
    int (*sweep_set)(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                     const unsigned int *c, int nsplits, ptrdiff_t a, const kayles_value *set,
                     int left, kayles_stamp *seen, kayles_stamp stamp);
    int (*sweep_window)(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                        const unsigned int *c, int nsplits, ptrdiff_t a, unsigned base,
                        const kayles_value *set, int left, kayles_stamp *seen,
                        kayles_stamp stamp);
    unsigned (*unhit)(const kayles_value *top, const kayles_pos *a, const kayles_pos *end,
                      const kayles_value *value_of_a, const kayles_value *cands);
    int (*candidates)(const unsigned char *flags, int width, int mask, kayles_word low_common,
                      kayles_value *out, int max);
    kayles_word (*unmarked)(const kayles_stamp *seen, kayles_stamp stamp, int b,
                            unsigned char *const *flags, const int *width, const int *c,
                            const int *drop_zero, int nflags);
    /* into[w] |= kayles_xor_permute(row[w ^ words], 8 * bytes) for w < limit, bytes < 8
       (the take-and-break unions' step: a row moved by a value's bits 3 and up), limit a
       multiple of 8, words below the row's width (a power of two); NULL: the plain loop. */
    void (*or_moved)(kayles_word *into, const kayles_word *row, kayles_word open,
                     ptrdiff_t block, ptrdiff_t limit, ptrdiff_t words, int bytes);
    /* out[w] |= kayles_xor_permute(from[w], bits) and from[w] = 0 for w < width (the
       unions' last step: an accumulator's bits moved once), width a multiple of 8; NULL:
       the plain loop. */
    void (*or_permuted)(kayles_word *out, kayles_word *from, kayles_word open, ptrdiff_t block,
                        ptrdiff_t width, int bits);
    /* into[w] |= kayles_xor_permute(row0[w ^ (c0 >> 6)], c0 & 63) | the same of row1 and
       c1, for w < limit (a multiple of 8): the unions' step without accumulators, two rows
       at a time (AVX2; AVX-512 with VBMI and GFNI); NULL where the table has none (then
       or_moved and or_permuted). */
    void (*or_moved_two)(kayles_word *into, const kayles_word *row0, kayles_value c0,
                         const kayles_word *row1, kayles_value c1, kayles_word open,
                         ptrdiff_t block, ptrdiff_t limit);
} kayles_vectors;

extern const kayles_vectors kayles_portable_vectors;  /* pairs.c */
#if KAYLES_X86_VECTORS
extern const kayles_vectors kayles_avx2_vectors;      /* avx2.c */
extern const kayles_vectors kayles_avx512_vectors;    /* avx512.c */
extern const kayles_vectors kayles_avx512_gfni_vectors;   /* the same, with or_moved_two */
#endif

/* The table of the set called name, or NULL where this build or this CPU lacks it. */
const kayles_vectors *kayles_vectors_named(const char *name);

#ifdef __cplusplus
}
#endif

#endif
