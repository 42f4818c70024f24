/* Every vector kernel of ext/src against the plain loop that defines it, on random data.

   Built and run by `make check-c` with the warnings as errors and under the
   address and undefined-behaviour sanitizers; buffers are allocated to the exact
   sizes kernels.h promises, so a read or write past them is caught.  The
   AVX-512 kernels are checked where the CPU has them (the run says which).
   Exit status 0: every check passed. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

static unsigned long long state = 0x9E3779B97F4A7C15ULL;
static int failures = 0, checks = 0;
static kayles_stamp last_stamp = 0;   /* a new one for every call that marks seen */

static unsigned random_below(unsigned n) {   /* xorshift64* */
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return (unsigned) ((state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

#define CHECK(condition, ...) do {                                   \
        checks++;                                                    \
        if (!(condition)) {                                          \
            failures++;                                              \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);     \
            fprintf(stderr, __VA_ARGS__);                            \
            fputc('\n', stderr);                                     \
        }                                                            \
    } while (0)

static void *allocate(size_t bytes) {
    void *p = calloc(bytes ? bytes : 1, 1);
    if (!p) {
        perror("calloc");
        exit(2);
    }
    return p;
}

/* A table of n values below width. */
static kayles_value *random_table(ptrdiff_t n, unsigned width) {
    kayles_value *g = allocate(n * sizeof *g);
    for (ptrdiff_t i = 0; i < n; i++)
        g[i] = (kayles_value) random_below(width);
    return g;
}

/* A rare-pass group's inputs: a table of values below width up to r0 + KAYLES_GROUP, and
   "rare" positions a in [4, r0), one in about step/2 (rare[i], their values rare_values[i]). */
typedef struct {
    unsigned width;
    ptrdiff_t r0, count;
    kayles_value *g, *rare_values;
    kayles_pos *rare;
} Group;

static Group random_group(unsigned step) {
    Group t;
    t.width = 1u << (1 + random_below(11));
    t.r0 = 8 + random_below(3000);
    t.count = 0;
    t.g = random_table(t.r0 + KAYLES_GROUP, t.width);
    t.rare = allocate(t.r0 * sizeof *t.rare);
    t.rare_values = allocate(t.r0 * sizeof *t.rare_values);
    for (ptrdiff_t a = 4; a < t.r0; a += 1 + random_below(step)) {
        t.rare[t.count] = (kayles_pos) a;
        t.rare_values[t.count++] = t.g[a];
    }
    return t;
}

static void free_group(Group t) {
    free(t.g); free(t.rare); free(t.rare_values);
}

static void test_xor_permute(void) {
    for (int round = 0; round < 2000; round++) {
        kayles_word x = ((kayles_word) random_below(1u << 31) << 33) ^ random_below(1u << 31);
        int u = (int) random_below(64);
        kayles_word expected = 0;
        for (int v = 0; v < 64; v++)
            if (x >> v & 1)
                expected |= 1ULL << (v ^ u);
        CHECK(kayles_xor_permute(x, u) == expected, "xor_permute(%llx, %d)", x, u);
    }
}

static void test_rare_pass(void) {
    for (int round = 0; round < 200; round++) {
        Group t = random_group(4);
        ptrdiff_t r0 = t.r0, count = t.count;
        kayles_value *g = t.g, *rare_values = t.rare_values;
        kayles_pos *rare = t.rare;
        unsigned char *flags = allocate(KAYLES_GROUP * KAYLES_FLAG_STRIDE);
        unsigned char *expected = allocate(KAYLES_GROUP * KAYLES_FLAG_STRIDE);
        kayles_flag_group(g + r0, rare, rare + count, rare_values, flags);
        for (ptrdiff_t i = 0; i < count; i++)
            for (int j = 0; j < KAYLES_GROUP; j++)
                expected[j * KAYLES_FLAG_STRIDE + (rare_values[i] ^ g[r0 + j - rare[i]])] = 1;
        CHECK(!memcmp(flags, expected, KAYLES_GROUP * KAYLES_FLAG_STRIDE), "flag_group r0=%td",
              r0);
        memset(flags, 0, KAYLES_FLAG_STRIDE);
        kayles_flag_one(g + r0, rare, rare + count, rare_values, flags);
        CHECK(!memcmp(flags, expected, KAYLES_FLAG_STRIDE), "flag_one r0=%td", r0);
        free_group(t); free(flags); free(expected);
    }
}

static void test_gather_or(void) {
    for (int round = 0; round < 100; round++) {
        ptrdiff_t r0 = 64 + random_below(2000), n = random_below(200);
        kayles_word *onehot = allocate((r0 + 64) * sizeof *onehot);
        for (ptrdiff_t i = 0; i < r0 + 64; i++)
            onehot[i] = 1ULL << random_below(64);
        kayles_pos *pos = allocate(n * sizeof *pos);
        for (ptrdiff_t i = 0; i < n; i++)
            pos[i] = (kayles_pos) (1 + random_below((unsigned) r0));
        kayles_word out[64];
        kayles_gather_or(out, onehot, r0, pos, n);
        for (int j = 0; j < 64; j++) {
            kayles_word expected = 0;
            for (ptrdiff_t i = 0; i < n; i++)
                expected |= onehot[r0 - pos[i] + j];
            CHECK(out[j] == expected, "gather_or r0=%td j=%d", r0, j);
        }
        free(onehot); free(pos);
    }
}

static void test_mark_pairs(void) {
    static kayles_stamp seen[1 << 17], expected[1 << 17];
    for (int round = 0; round < 200; round++) {
        unsigned width = 1u << (1 + random_below(15));
        ptrdiff_t r = 2 + random_below(5000), a = 1 + random_below((unsigned) r / 2);
        ptrdiff_t end = a + random_below((unsigned) (r / 2 - a + 2));
        unsigned c = random_below(width);
        kayles_value *g = random_table(r + 1, width);
        kayles_stamp stamp = ++last_stamp;
        kayles_mark_pairs(g, r, a, end, c, seen, stamp);
        for (ptrdiff_t b = a; b < end; b++)
            expected[g[b] ^ g[r - b] ^ c] = stamp;
        CHECK(!memcmp(seen, expected, sizeof seen), "mark_pairs r=%td a=%td end=%td", r, a, end);
        free(g);
    }
}

typedef int sweep_fn(const kayles_value *, const ptrdiff_t *, const ptrdiff_t *,
                     const unsigned int *, int, ptrdiff_t, kayles_value *, int, kayles_stamp *,
                     kayles_stamp);

/* nsplits splits whose pairs start at a: remainders r[s] up to 2a + spread, their
   last smaller parts and constants below width; returns the largest remainder. */
static ptrdiff_t random_splits(int nsplits, ptrdiff_t a, unsigned spread, unsigned width,
                               ptrdiff_t *r, ptrdiff_t *last, unsigned *c) {
    ptrdiff_t top = 0;
    for (int s = 0; s < nsplits; s++) {
        r[s] = 2 * a + random_below(spread);
        last[s] = r[s] / 2;
        c[s] = random_below(width);
        top = r[s] > top ? r[s] : top;
    }
    return top;
}

/* gives[v] = 1 for every value some split's pair b in [a, last[s]] gives. */
static void given(const kayles_value *g, const ptrdiff_t *r, const ptrdiff_t *last,
                  const unsigned *c, int nsplits, ptrdiff_t a, unsigned char *gives) {
    memset(gives, 0, 1 << 16);
    for (int s = 0; s < nsplits; s++)
        for (ptrdiff_t b = a; b <= last[s]; b++)
            gives[g[b] ^ g[r[s] - b] ^ c[s]] = 1;
}

typedef int sweep_set_fn(const kayles_value *, const ptrdiff_t *, const ptrdiff_t *,
                         const unsigned int *, int, ptrdiff_t, const kayles_value *, int,
                         kayles_stamp *, kayles_stamp);

/* One of sweep (a list of values) or sweep_set (the set path: values < 2048 as a set). */
static void test_sweeps(const char *name, sweep_fn *sweep, sweep_set_fn *sweep_set) {
    static kayles_stamp seen[1 << 17];
    int set_path = sweep_set != NULL;
    for (int round = 0; round < 300; round++) {
        unsigned width = set_path ? 2048 : 1u << (1 + random_below(12));
        int nsplits = 1 + random_below(3), n = 1 + random_below(set_path ? 200 : 32);
        n = n < (int) width ? n : (int) width;   /* distinct values below width */
        ptrdiff_t r[3], last[3], a = 1 + random_below(40);
        unsigned c[3];
        ptrdiff_t top = random_splits(nsplits, a, 3000, width, r, last, c);
        kayles_value *g = random_table(top + 1, width);
        kayles_value values[256], set[128] = {0};   /* set: the set path's values < 2048 */
        static unsigned char chosen[1 << 16];
        memset(chosen, 0, sizeof chosen);
        for (int i = 0; i < n; i++) {   /* distinct values */
            do
                values[i] = (kayles_value) random_below(width);
            while (chosen[values[i]]);
            chosen[values[i]] = 1;
            if (set_path)
                set[values[i] >> 4] |= (kayles_value) (1u << (values[i] & 15));
        }
        kayles_value before[256];
        memcpy(before, values, sizeof before);
        kayles_stamp stamp = ++last_stamp;
        int left, expected_left = 0;
        if (set_path)
            left = sweep_set(g, r, last, c, nsplits, a, set, n, seen, stamp);
        else
            left = sweep(g, r, last, c, nsplits, a, values, n, seen, stamp);
        static unsigned char gives[1 << 16];
        given(g, r, last, c, nsplits, a, gives);
        for (int i = 0; i < n; i++) {
            int found = gives[before[i]];
            expected_left += !found;
            CHECK(found == (seen[before[i]] == stamp), "%s: value %u found %d", name, before[i],
                  found);
        }
        CHECK(left == expected_left, "%s: %d left, not %d", name, left, expected_left);
        for (int i = 0; !set_path && i < left; i++)   /* the values left are the unfound ones */
            CHECK(seen[values[i]] != stamp, "%s: a found value %u was left", name, values[i]);
        free(g);
    }
}

typedef int sweep_window_fn(const kayles_value *, const ptrdiff_t *, const ptrdiff_t *,
                            const unsigned int *, int, ptrdiff_t, unsigned, const kayles_value *,
                            int, kayles_stamp *, kayles_stamp);

/* The window sweep: pair values anywhere below 2**16, the values looked for in
   [base, base + 2048) and below 2**16, base anywhere (the window may lie past every
   pair value); the pair values outside the window must leave no mark. */
static void test_window(const char *name, sweep_window_fn *sweep_window) {
    static kayles_stamp seen[1 << 17];
    static unsigned char gives[1 << 16], chosen[2048];
    for (int round = 0; round < 300; round++) {
        unsigned width = 1u << (8 + random_below(9));
        unsigned base = random_below(width < 65536 ? width + 64 : width);
        unsigned room = base + 2048 <= 65536 ? 2048 : 65536 - base;   /* values below 2**16 */
        int nsplits = 1 + random_below(3), n = 1 + random_below(400);
        n = n < (int) room ? n : (int) room;
        ptrdiff_t r[3], last[3], a = 1 + random_below(40);
        unsigned c[3];
        ptrdiff_t top = random_splits(nsplits, a, 6000, width, r, last, c);
        kayles_value *g = random_table(top + 1, width);
        kayles_value values[400], set[128] = {0};
        memset(chosen, 0, sizeof chosen);
        for (int i = 0; i < n; i++) {   /* distinct values in the window */
            unsigned offset;
            do
                offset = random_below(room);
            while (chosen[offset]);
            chosen[offset] = 1;
            values[i] = (kayles_value) (base + offset);
            set[offset >> 4] |= (kayles_value) (1u << (offset & 15));
        }
        kayles_stamp stamp = ++last_stamp;
        int left = sweep_window(g, r, last, c, nsplits, a, base, set, n, seen, stamp);
        given(g, r, last, c, nsplits, a, gives);
        int expected_left = 0, marked = 0;
        for (int i = 0; i < n; i++) {
            int found = gives[values[i]];
            expected_left += !found;
            CHECK(found == (seen[values[i]] == stamp), "%s: window %u value %u found %d", name,
                  base, values[i], found);
        }
        for (unsigned v = 0; v < 65536; v++)
            marked += seen[v] == stamp;
        CHECK(marked == n - expected_left, "%s: %d marked, not %d", name, marked,
              n - expected_left);
        CHECK(left == expected_left || (left > 0 && expected_left > 0),
              "%s: %d left, %d expected", name, left, expected_left);
        free(g);
    }
}

typedef unsigned unhit_fn(const kayles_value *, const kayles_pos *, const kayles_pos *,
                          const kayles_value *, const kayles_value *);

static void test_checked_share(const char *name, unhit_fn *unhit_lanes) {
    for (int round = 0; round < 200; round++) {
        Group t = random_group(8);
        ptrdiff_t r0 = t.r0, count = t.count;
        kayles_value *g = t.g, *rare_values = t.rare_values;
        kayles_pos *rare = t.rare;
        kayles_value cands[32];
        for (int lane = 0; lane < 32; lane++)
            cands[lane] = (kayles_value) random_below(t.width);
        unsigned unhit = unhit_lanes(g + r0, rare, rare + count, rare_values, cands);
        for (int lane = 0; lane < 32; lane++) {
            int j = lane % KAYLES_GROUP, hit = 0;
            for (ptrdiff_t i = 0; i < count; i++)
                hit |= (rare_values[i] ^ g[r0 + j - rare[i]]) == cands[lane];
            CHECK((unhit >> lane & 1) == (unsigned) !hit, "%s: unhit lane %d r0=%td", name, lane,
                  r0);
        }
        free_group(t);
    }
}

typedef int candidates_fn(const unsigned char *, int, int, kayles_word, kayles_value *, int);

static void test_candidates(const char *name, candidates_fn *candidates) {
    for (int round = 0; round < 300; round++) {
        int width = 1 << random_below(12), mask = (int) random_below((unsigned) width) | 1;
        int max = 1 + random_below(8), readable = width > 64 ? width : 64;
        unsigned char *flags = allocate((size_t) readable);
        for (int v = 0; v < width; v++)
            flags[v] = random_below(4) != 0;
        kayles_word low_common = 0;
        for (int i = 0; i < 64; i++)
            low_common |= (kayles_word) kayles_parity((unsigned) (i & mask)) << i;
        kayles_value out[8];
        int n = candidates(flags, width, mask, low_common, out, max), expected = 0;
        for (int v = 0; v < width && expected < max; v++)
            if (!flags[v] && kayles_parity((unsigned) (v & mask))) {
                CHECK(expected < n && out[expected] == v, "%s: candidate #%d is not %d", name,
                      expected, v);
                expected++;
            }
        CHECK(n == expected, "%s: %d candidates, not %d", name, n, expected);
        free(flags);
    }
}

typedef kayles_word unmarked_fn(const kayles_stamp *, kayles_stamp, int, unsigned char *const *,
                                 const int *, const int *, const int *, int);

static void test_unmarked(const char *name, unmarked_fn *unmarked) {
    static kayles_stamp seen[1 << 17];
    for (int round = 0; round < 300; round++) {
        int nflags = 1 + random_below(4), b = 64 * (int) random_below(64);
        kayles_stamp stamp = ++last_stamp;
        for (int v = b; v < b + 64; v++)
            seen[v] = random_below(3) ? 0 : stamp;
        unsigned char *flags[4];
        int width[4], c[4], drop_zero[4];
        for (int k = 0; k < nflags; k++) {
            width[k] = 1 << random_below(13);
            c[k] = (int) random_below(4096);
            drop_zero[k] = random_below(2);
            int readable = width[k] + 64;
            flags[k] = allocate((size_t) readable);
            for (int x = 0; x < width[k]; x++)
                flags[k][x] = random_below(3) == 0;
        }
        kayles_word left = unmarked(seen, stamp, b, flags, width, c, drop_zero, nflags);
        for (int i = 0; i < 64; i++) {
            int v = b + i, open = seen[v] != stamp;
            for (int k = 0; k < nflags && open; k++) {
                int x = v ^ c[k];
                if (x < width[k] && flags[k][x] && !(x == 0 && drop_zero[k]))
                    open = 0;
            }
            CHECK((int) (left >> i & 1) == open, "%s: unmarked b=%d v=%d", name, b, v);
        }
        for (int k = 0; k < nflags; k++)
            free(flags[k]);
    }
}

/* Threads: every worker runs once with the crew's size; a count kept under the lock
   and one kept by kayles_add both come out right; kayles_take hands out each number once
   (three at a time). */
typedef struct {
    int lock, workers_seen[KAYLES_MAX_THREADS], locked_total;
    ptrdiff_t added, next, taken[4 * 1000 * 3];
} Crew;

static void crew_task(void *context, int worker, int workers) {
    Crew *crew = context;
    crew->workers_seen[worker] = workers;
    for (int i = 0; i < 1000; i++) {
        kayles_lock(&crew->lock);
        crew->locked_total++;
        kayles_unlock(&crew->lock);
        kayles_add(&crew->added, 1);
        ptrdiff_t n = kayles_take(&crew->next, 3);
        for (ptrdiff_t k = n; k < n + 3 && k < 4 * 1000 * 3; k++)
            crew->taken[k]++;
    }
}

static void test_threads(void) {
    for (int n = 1; n <= 4; n++) {
        Crew *crew = allocate(sizeof *crew);
        int workers = kayles_run_workers(n, crew_task, crew);
        CHECK(workers == (KAYLES_THREADS ? n : 1), "threads: %d workers of %d", workers, n);
        for (int k = 0; k < workers; k++)
            CHECK(crew->workers_seen[k] == workers, "threads: worker %d of %d", k, workers);
        CHECK(crew->locked_total == 1000 * workers, "threads: locked count %d", crew->locked_total);
        CHECK(crew->added == 1000 * workers, "threads: added %td", crew->added);
        for (ptrdiff_t i = 0; i < 1000 * workers * 3; i++)
            CHECK(crew->taken[i] == 1, "threads: %td taken %td times", i, crew->taken[i]);
        CHECK(kayles_try_lock(&crew->lock) && !kayles_try_lock(&crew->lock), "threads: try_lock");
        free(crew);
    }
}

/* kayles_pair_row and kayles_xor_union (with a vector table's step) against the
   definitions, on random tables whose values fill rows of 1 to 32 words; the accumulators
   must be zero again after each union, and nothing is written outside the row. */
static void test_takebreak_rows(const kayles_vectors *vec) {
    for (int trial = 0; trial < 60; trial++) {
        ptrdiff_t width = (ptrdiff_t) 1 << random_below(6), t = 3 + random_below(200), a, w;
        unsigned limit = (unsigned) (64 * width);
        kayles_value *g = allocate((size_t) t * sizeof *g);
        kayles_word *rows = allocate((size_t) (t * width) * sizeof *rows);
        kayles_word *out = allocate((size_t) width * sizeof *out);
        kayles_word *expected = allocate((size_t) width * sizeof *expected);
        kayles_word *accumulators = allocate((size_t) (KAYLES_CLASSES * width)
                                             * sizeof *accumulators);
        for (a = 0; a < t; a++)
            g[a] = (kayles_value) random_below(limit);
        for (a = 0; a < t * width; a++)
            rows[a] = random_below(3) ? 0 : ((kayles_word) random_below(1u << 30) << 33)
                                              ^ random_below(1u << 31);
        int unequal = (int) random_below(2);
        kayles_pair_row(out, g, t - 1, unequal);
        for (a = 1; a <= (unequal ? (t - 2) / 2 : (t - 1) / 2); a++) {
            unsigned v = (unsigned) (g[a] ^ g[t - 1 - a]);
            expected[v >> 6] |= 1ULL << (v & 63);
        }
        for (w = 0; w < width; w++)
            CHECK(out[w] == expected[w], "pair_row: word %td of t %td", w, t - 1);
        memset(out, 0, (size_t) width * sizeof *out);
        memset(expected, 0, (size_t) width * sizeof *expected);
        ptrdiff_t low = 1 + random_below((unsigned) (t - 1)), high = low + random_below(
            (unsigned) (t - low));
        if (high >= t)
            high = t - 1;
        ptrdiff_t cut = width < 8 ? width : 8 * (1 + random_below((unsigned) width / 8));
        kayles_xor_union(out, rows, width, cut, g, t, low, high, accumulators, vec);
        for (a = low; a <= high; a++)
            for (unsigned v = 0; v < limit; v++)
                if (rows[(t - a) * width + (v >> 6)] >> (v & 63) & 1) {
                    unsigned moved = v ^ g[a];
                    if (moved < 64 * cut)
                        expected[moved >> 6] |= 1ULL << (moved & 63);
                }
        for (w = 0; w < width; w++)
            CHECK(out[w] == expected[w], "xor_union (%s): word %td, t %td, a %td..%td, words "
                  "below %td", vec->name, w, t, low, high, cut);
        for (w = 0; w < KAYLES_CLASSES * width; w++)
            CHECK(accumulators[w] == 0, "xor_union: accumulator word %td left", w);
        free(g);
        free(rows);
        free(out);
        free(expected);
        free(accumulators);
    }
}

/* kayles_xor_union_ahead in pieces of random sizes, looking for full blocks every so many
   rows, and its fold, then the first parts below k of heap t + k by kayles_xor_union (as
   the kernel takes them), against kayles_xor_union of every first part heap by heap.
   With the one reader span 0 (a block closes where its row is full) the rows are exact;
   with the spans 1 and 2 (heap h reads rows h - 1 and h - 2; two rows below t, empty, as
   made) each row holds no value it should not, and each heap whose rows all lie in the
   pass finds their union exact. */
static void test_takebreak_ahead(const kayles_vectors *vec) {
    static const int self[] = {0}, two[] = {1, 2};
    for (int trial = 0; trial < 40; trial++) {
        ptrdiff_t width = (ptrdiff_t) 1 << random_below(6), t = 3 + random_below(300), a, w;
        ptrdiff_t n = t + KAYLES_AHEAD, every = random_below(3) ? random_below(40) : 0;
        int union_of_readers = trial % 2;
        unsigned limit = (unsigned) (64 * width);
        kayles_value *g = allocate((size_t) n * sizeof *g);
        kayles_word *rows = allocate((size_t) (n * width) * sizeof *rows);
        kayles_word *made = allocate((size_t) ((KAYLES_AHEAD + 2) * width) * sizeof *made);
        kayles_word *out = made + 2 * width;   /* rows t - 2 and t - 1 before it: empty */
        kayles_word *whole = allocate((size_t) ((KAYLES_AHEAD + 2) * width) * sizeof *whole);
        kayles_word *expected = whole + 2 * width;
        kayles_word *accumulators = allocate((size_t) (KAYLES_AHEAD * KAYLES_CLASSES * width)
                                             * sizeof *accumulators);
        kayles_word open[KAYLES_AHEAD];
        int parity = union_of_readers && trial % 4 == 1;
        for (a = 0; a < n; a++)
            g[a] = (kayles_value) random_below(limit);
        for (a = 0; a < n * width; a++)
            rows[a] = random_below(3) ? 0 : ((kayles_word) random_below(1u << 30) << 33)
                                              ^ random_below(1u << 31);
        if (parity)   /* row s holds values of s's parity, G(a) has a's: each row made holds
                         values of one parity, two rows running hold both (as 0.BB) */
            for (a = 0; a < n; a++) {
                g[a] = (kayles_value) ((g[a] & ~1u) | (a & 1));
                for (w = 0; w < width; w++)
                    rows[a * width + w] &= a & 1 ? 0xAAAAAAAAAAAAAAAAULL : 0x5555555555555555ULL;
            }
        ptrdiff_t cut = width < 8 ? width : 8 * (1 + random_below((unsigned) width / 8));
        kayles_xor_union_ahead_open(open, cut);
        for (ptrdiff_t high = t, low; high >= t - t / 3; high = low - 1) {   /* in pieces */
            low = high - (ptrdiff_t) random_below(40);
            if (low < t - t / 3)
                low = t - t / 3;
            kayles_xor_union_ahead(out, rows, width, cut, g, t, high, low, accumulators, open,
                                   every, union_of_readers ? two : self,
                                   union_of_readers ? 2 : 1, vec);
        }
        kayles_xor_union_ahead_fold(out, width, cut, accumulators, open, vec);
        for (int k = 0; k < KAYLES_AHEAD; k++) {
            ptrdiff_t high = k - 1 < (t + k) / 3 ? k - 1 : (t + k) / 3;
            if (high >= 1)
                kayles_xor_union(out + k * width, rows, width, cut, g, t + k, 1, high,
                                 accumulators, vec);
            if ((t + k) / 3 >= 1)
                kayles_xor_union(expected + k * width, rows, width, cut, g, t + k, 1,
                                 (t + k) / 3, accumulators, vec);
        }
        for (int k = 0; k < KAYLES_AHEAD; k++)
            for (w = 0; w < width; w++) {
                kayles_word got = out[k * width + w], want = expected[k * width + w];
                if (!union_of_readers)
                    CHECK(got == want, "xor_union_ahead (%s): word %td of heap %td + %d",
                          vec->name, w, t, k);
                CHECK((got & ~want) == 0, "xor_union_ahead (%s): word %td of heap %td + %d "
                      "holds a value it should not", vec->name, w, t, k);
                if (k >= 1)   /* heap t + k + 1 reads rows t + k and t + k - 1 */
                    CHECK((got | out[(k - 1) * width + w])
                          == (want | expected[(k - 1) * width + w]),
                          "xor_union_ahead (%s): word %td of the union of heap %td + %d",
                          vec->name, w, t, k + 1);
            }
        for (w = 0; w < KAYLES_AHEAD * KAYLES_CLASSES * width; w++)
            CHECK(accumulators[w] == 0, "xor_union_ahead: accumulator word %td left", w);
        free(g);
        free(rows);
        free(made);
        free(whole);
        free(accumulators);
    }
}

int main(void) {
    const kayles_vectors *avx2 = kayles_vectors_named("avx2");
    const kayles_vectors *avx512 = kayles_vectors_named("avx512bw");
    const kayles_vectors *portable = kayles_vectors_named(kayles_portable);
    CHECK(portable != NULL && portable->sweep != NULL, "the portable table is there");
    CHECK(kayles_vectors_named("no such set") == NULL, "an unknown set has no table");
    CHECK((avx2 != NULL) == !!kayles_has_avx2() && (avx512 != NULL) == !!kayles_has_avx512(),
          "a table exactly where the CPU runs its set");
    CHECK(avx512 == NULL || (avx512->or_moved_two != NULL) == !!kayles_has_gfni(),
          "or_moved_two exactly where the CPU has VBMI and GFNI");
    CHECK(avx2 == NULL || (avx2->or_moved_two != NULL && avx2->or_moved == NULL),
          "AVX2 moves rows whole, with no accumulators");
    test_xor_permute();
    test_rare_pass();
    test_gather_or();
    test_mark_pairs();
    test_takebreak_rows(portable);
    test_takebreak_ahead(portable);
    test_threads();
    test_sweeps(kayles_portable, portable->sweep, NULL);
    for (int k = 0; k < 3; k++) {
        const kayles_vectors *v = k == 0 ? avx2 : k == 1 ? avx512 : NULL;
#if KAYLES_X86_VECTORS
        if (k == 2 && kayles_has_gfni())   /* the AVX-512 table without or_moved_two too */
            v = &kayles_avx512_vectors;
#endif
        if (v == NULL)
            continue;
        test_sweeps(v->name, v->sweep, NULL);
        if (v->sweep_set != NULL)
            test_sweeps(v->name, NULL, v->sweep_set);
        if (v->sweep_window != NULL)
            test_window(v->name, v->sweep_window);
        test_checked_share(v->name, v->unhit);
        test_candidates(v->name, v->candidates);
        test_unmarked(v->name, v->unmarked);
        test_takebreak_rows(v);
        test_takebreak_ahead(v);
    }
    printf("%d checks of the %s%s%s kernels: %d failed\n", checks, kayles_portable,
           avx2 ? ", avx2" : "", avx512 ? ", avx512bw" : "", failures);
    return failures != 0;
}
