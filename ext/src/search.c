/* The pruned search of sums and its exact, bounded transposition table (search.h).
 *
 * Values.  g(p) is the mex of p's options' values, an option's value the XOR of its parts'.
 * With n options, g(p) <= n.
 *
 * exact(p): the value of p.  Candidates r = 0, 1, ... in turn: r is the value unless some
 * option has value r.  "Has option o value r?" is asked as in_set(c, {r ^ off}) of o's
 * hardest part c, where off is the XOR of the exact values of o's other parts (computed
 * once, by exact(), the first time o is asked about: reduce()).  An answer that gives o's
 * exact value (in_set may give it whenever it is at most the largest value asked about)
 * takes o out of the scan for good, its value remembered (a later candidate equal to it
 * needs no search).  Options whose parts were all known when p was expanded (the enhanced
 * transposition cut-off) give their values at once.  A candidate no remaining option has
 * is the value.
 *
 * in_set(p, R): g(p) when g(p) is in R; perhaps g(p) when g(p) <= max(R) (or when it was
 * found exactly anyway); else KB_NOT_IN_SET.  It keeps P, the values g(p) may still take:
 * P = {0..n} at first, and each option of value v removes v from P when v is in P, else
 * max(P); after the n options P holds the mex alone (values below the mex occur among the
 * options and are removed, n removals in all, and the mex is never removed).  An option
 * is asked only about R' = (P \ {max P}) & [0, max R]: an answer "not in R'" removes
 * max(P), which is what its true value would remove unless that value lies in P above
 * max(R); so P is exact on [0, max R] throughout, and P & R empty proves g(p) not in R
 * (the cut-off).  At the end the one element of P is g(p) when no answer was partial or
 * when it is at most max(R); else g(p) > max(R).
 *
 * The table keeps exact values and exclusions.  An answer KB_NOT_IN_SET proves g(p) not
 * in R, and every option's value found on the way is not g(p) either: those of them below
 * KB_EXCLUDE_VALUES are added to p's exclusion (an entry of its own, until p's exact
 * value replaces it).  A later in_set(p, R) asks only about R less p's exclusion (nothing
 * at all when that is empty), and exact(p) skips the candidates it rules out (each is
 * some option's value, though not one known).  Most of the positions an in_set expands
 * stop at the cut-off, their values asked about one at a time (Cram 5 x 7: 312,000 of
 * 382,000 with R alone excluded); without exclusions each such question was searched
 * again every time it came: 602,000 positions expanded in all, against 382,000 with R
 * excluded and 344,000 with the options' values too.
 *
 * A component's parts are smaller than the component (every move removes a cell, a vertex or a square), so the recursion is at most as deep as the
 * root is large (64 cells, 256 vertices, the squares of a Chomp position), each level a
 * few hundred bytes of C stack; the options of each level live on a stack of blocks that
 * never move (push/release).
 */
#include "search.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the table */

#define MIX1 0xbf58476d1ce4e5b9ULL   /* Stafford's mix13 (the SplitMix64 finaliser) */
#define MIX2 0x94d049bb133111ebULL
#define REMAINDER_BITS 52            /* bits of the mixed word kept in an entry */

static kb_word mask_of(int bits) {
    return bits >= 64 ? ~(kb_word)0 : (((kb_word)1 << bits) - 1);
}

static kb_word inverse(kb_word odd) {   /* odd^-1 mod 2**64 (Newton: bits double a step) */
    kb_word x = odd;
    for (int i = 0; i < 5; i++)
        x *= 2 - odd * x;
    return x;
}

static kb_word unshift(kb_word y, int s) {   /* the inverse of y = x ^ (x >> s), 3s >= 64 */
    return y ^ (y >> s) ^ (y >> (2 * s));
}

kb_word kb_mix(kb_word x, int bits) {
    kb_word m = mask_of(bits);
    x &= m;
    x = ((x ^ (x >> 30)) * MIX1) & m;
    x = ((x ^ (x >> 27)) * MIX2) & m;
    return x ^ (x >> 31);
}

kb_word kb_unmix(kb_word x, int bits) {
    kb_word m = mask_of(bits);
    x = unshift(x & m, 31);
    x = unshift((x * inverse(MIX2)) & m, 27);
    return unshift((x * inverse(MIX1)) & m, 30);
}

kb_word kb_hash_rest(const kb_word* words, int n) {
    kb_word h = 0x9e3779b97f4a7c15ULL;   /* any fixed start */
    for (int i = 0; i < n; i++)
        h = kb_mix(h ^ words[i], 64) + 0x9e3779b97f4a7c15ULL;
    return h;
}

void kb_memo_init(kb_memo* memo, size_t cap) {
    memset(memo, 0, sizeof(*memo));
    memo->cap = cap;
    for (int w = 0; w <= KB_MAX_WIDTH; w++) {
        memo->tables[w].width = w;
        memo->tables[w].log2 = -1;
    }
}

void kb_memo_free(kb_memo* memo) {
    for (int w = 0; w <= KB_MAX_WIDTH; w++) {
        free(memo->tables[w].data);
        memo->tables[w].data = NULL;
        memo->tables[w].log2 = -1;
        memo->tables[w].count = 0;
    }
    memo->used = 0;
}

size_t kb_memo_count(const kb_memo* memo) {
    size_t count = 0;
    for (int w = 1; w <= KB_MAX_WIDTH; w++)
        count += memo->tables[w].count;
    return count;
}

static size_t table_bytes(int width, int log2) {
    return ((size_t)1 << log2) * KB_CLUSTER * (size_t)width * sizeof(kb_word);
}

typedef kb_place place;

/* The key's place, or 0 when the table cannot hold it (its first word past the domain). */
static int place_of(const kb_table* t, const kb_word* key, place* at) {
    kb_word m = mask_of(t->bits), h;
    if (key[0] & ~m)
        return 0;
    h = key[0];
    if (t->width > 1)
        h ^= kb_hash_rest(key + 1, t->width - 1) & m;
    h = kb_mix(h, t->bits);
    at->cluster = (size_t)(h & mask_of(t->log2));
    at->remainder = h >> t->log2;
    return 1;
}

static kb_word* cluster_at(const kb_table* t, size_t cluster) {
    return t->data + cluster * KB_CLUSTER * (size_t)t->width;
}

/* Insert at the front of its cluster, the others one down.  From a full cluster the oldest
 * exclusion is evicted, else the oldest value; an exclusion never pushes a value out (it
 * is dropped instead: values cost searches, exclusions only save some). */
static void insert(kb_memo* memo, kb_table* t, const place* at, const kb_word* key, int field) {
    kb_word* c = cluster_at(t, at->cluster);
    int w = t->width, out = KB_CLUSTER - 1;
    if ((c[out * w] & KB_EMPTY) != KB_EMPTY) {
        while (out >= 0 && (int)(c[out * w] & KB_EMPTY) < KB_EXCLUDED)
            out--;
        if (out < 0) {
            if (field >= KB_EXCLUDED)
                return;
            out = KB_CLUSTER - 1;
        }
        memo->evictions++;
        t->count--;
    }
    memmove(c + w, c, (size_t)out * w * sizeof(kb_word));
    c[0] = (at->remainder << KB_VALUE_BITS) | (kb_word)field;
    if (w > 1)
        memcpy(c + 1, key + 1, (size_t)(w - 1) * sizeof(kb_word));
    t->count++;
}

static int make_room(kb_table* t, int log2) {
    size_t n = ((size_t)1 << log2) * KB_CLUSTER, w = (size_t)t->width;
    kb_word* data = malloc(n * w * sizeof(kb_word));
    if (data == NULL)
        return 0;
    for (size_t i = 0; i < n; i++) {
        data[i * w] = KB_EMPTY;
        for (size_t k = 1; k < w; k++)
            data[i * w + k] = 0;
    }
    t->data = data;
    t->log2 = log2;
    t->bits = log2 + REMAINDER_BITS < 64 ? log2 + REMAINDER_BITS : 64;
    t->count = 0;
    return 1;
}

/* Double t when the cap allows (its entries moved over, oldest first); else leave it. */
static void grow(kb_memo* memo, kb_table* t) {
    kb_table old = *t;
    size_t before = table_bytes(t->width, t->log2), after = table_bytes(t->width, t->log2 + 1);
    kb_word key[KB_MAX_WIDTH];
    int w = t->width;
    if (memo->used - before + after > memo->cap || !make_room(t, old.log2 + 1)) {
        *t = old;
        return;
    }
    memo->used += after - before;
    for (size_t cl = 0; cl < ((size_t)1 << old.log2); cl++) {
        kb_word* c = cluster_at(&old, cl);
        for (int slot = KB_CLUSTER - 1; slot >= 0; slot--) {
            kb_word* e = c + slot * w;
            place at;
            if ((e[0] & KB_EMPTY) == KB_EMPTY)
                continue;
            for (int k = 1; k < w; k++)
                key[k] = e[k];
            key[0] = kb_unmix(((e[0] >> KB_VALUE_BITS) << old.log2) | cl, old.bits);
            if (w > 1)
                key[0] ^= kb_hash_rest(key + 1, w - 1) & mask_of(old.bits);
            if (place_of(t, key, &at))
                insert(memo, t, &at, key, (int)(e[0] & KB_EMPTY));
            else
                memo->unstored++;
        }
    }
    free(old.data);
}

static kb_word* find(const kb_table* t, const place* at, const kb_word* key) {
    kb_word* c = cluster_at(t, at->cluster);
    int w = t->width;
    for (int slot = 0; slot < KB_CLUSTER; slot++) {
        kb_word* e = c + slot * w;
        if ((e[0] & KB_EMPTY) == KB_EMPTY)
            return NULL;
        if ((e[0] >> KB_VALUE_BITS) == at->remainder &&
            (w == 1 || memcmp(e + 1, key + 1, (size_t)(w - 1) * sizeof(kb_word)) == 0))
            return e;
    }
    return NULL;
}

/* Where key would be (its table's cluster prefetched); 0 when no table holds it. */
static int placed(const kb_memo* memo, const kb_word* key, int len, place* at) {
    const kb_table* t;
    if (len < 1 || len > KB_MAX_WIDTH)
        return 0;
    t = &memo->tables[len];
    if (t->data == NULL || !place_of(t, key, at))
        return 0;
    __builtin_prefetch(cluster_at(t, at->cluster));
    return 1;
}

/* An entry's value field: an exact value (below KB_EXCLUDED), or KB_EXCLUDED with the
 * values ruled out in its low bits; -1 when the key has no entry. */
static int field_of(const kb_memo* memo, const kb_word* key, int len) {
    const kb_table* t;
    place at;
    kb_word* e;
    if (len < 1 || len > KB_MAX_WIDTH)
        return -1;
    t = &memo->tables[len];
    if (t->data == NULL || !place_of(t, key, &at))
        return -1;
    e = find(t, &at, key);
    return e == NULL ? -1 : (int)(e[0] & KB_EMPTY);
}

static int value_in(int field) {   /* the exact value a field holds, else -1 */
    return field >= KB_EXCLUDED ? -1 : field;
}

static int excluded_in(int field) {   /* the values a field rules out (bits), else 0 */
    return field >= KB_EXCLUDED ? field & (KB_EXCLUDED - 1) : 0;
}

static int get_placed(const kb_memo* memo, const kb_word* key, int len, const place* at) {
    kb_word* e = find(&memo->tables[len], at, key);
    return e == NULL ? -1 : value_in((int)(e[0] & KB_EMPTY));
}

int kb_memo_get(const kb_memo* memo, const kb_word* key, int len) {
    return value_in(field_of(memo, key, len));
}

int kb_memo_excluded(const kb_memo* memo, const kb_word* key, int len) {
    return excluded_in(field_of(memo, key, len));
}

/* Store a field for key: an exact value replaces what the key had; an exclusion (merge)
 * adds its values to the key's exclusion, and leaves an exact value be. */
static void store(kb_memo* memo, const kb_word* key, int len, int field, int merge) {
    kb_table* t = &memo->tables[len];
    place at;
    kb_word* e;
    if (t->data == NULL) {   /* its first size, or the largest that fits the cap */
        int log2 = 0;
        while ((1 << log2) < KB_FIRST_CLUSTERS &&
               memo->used + table_bytes(len, log2 + 1) <= memo->cap)
            log2++;
        if (memo->used + table_bytes(len, log2) > memo->cap || !make_room(t, log2)) {
            memo->unstored++;
            return;
        }
        memo->used += table_bytes(len, log2);
    }
    if (!place_of(t, key, &at)) {
        memo->unstored++;
        return;
    }
    e = find(t, &at, key);
    /* a table three quarters full, or a full cluster in a table three eighths full or of
     * fewer than KB_SMALL_CLUSTERS: double it, if the cap allows (a cluster fills up long
     * before the table does) */
    if (e == NULL && (4 * (t->count + 1) > 3 * ((size_t)KB_CLUSTER << t->log2) ||
                      ((cluster_at(t, at.cluster)[(KB_CLUSTER - 1) * t->width] & KB_EMPTY) !=
                       KB_EMPTY && (t->log2 < KB_SMALL_LOG2 ||
                                    8 * (t->count + 1) > 3 * ((size_t)KB_CLUSTER << t->log2))))) {
        int log2 = t->log2;
        grow(memo, t);
        if (t->log2 != log2 && !place_of(t, key, &at)) {
            memo->unstored++;
            return;
        }
    }
    if (e == NULL) {
        insert(memo, t, &at, key, field);
        return;
    }
    if (merge) {
        int had = (int)(e[0] & KB_EMPTY);
        if (had < KB_EXCLUDED)
            return;
        field |= had;
        if (field == KB_EMPTY)   /* every value 0 .. 10 ruled out: the field cannot say so */
            return;
    }
    e[0] = (e[0] & ~(kb_word)KB_EMPTY) | (kb_word)field;
}

void kb_memo_put(kb_memo* memo, const kb_word* key, int len, int value) {
    if (len < 1 || len > KB_MAX_WIDTH || value < 0 || value > KB_STORED_MAX) {
        memo->unstored++;
        return;
    }
    store(memo, key, len, value, 0);
}

void kb_memo_exclude(kb_memo* memo, const kb_word* key, int len, int values) {
    values &= KB_EXCLUDED - 1;
    if (len < 1 || len > KB_MAX_WIDTH || values == 0 || values == KB_EXCLUDED - 1)
        return;   /* (all of 0 .. 10 at once: the field cannot say so either) */
    store(memo, key, len, KB_EXCLUDED | values, 1);
}

/* ---------------------------------------------------------------- value sets */

static int words_for(int values) {   /* words of a set of values 0 .. values - 1 */
    return (values + 63) / 64;
}

static int has(const kb_word* set, int nw, int v) {
    return v >= 0 && v < 64 * nw && (set[v >> 6] >> (v & 63)) & 1;
}

static int highest(const kb_word* set, int nw) {
    for (int i = nw - 1; i >= 0; i--)
        if (set[i])
            return 64 * i + 63 - __builtin_clzll(set[i]);
    return -1;
}

static int lowest(const kb_word* set, int nw) {
    for (int i = 0; i < nw; i++)
        if (set[i])
            return 64 * i + __builtin_ctzll(set[i]);
    return -1;
}

static void remove_value_or_max(kb_word* set, int nw, int v) {
    if (!has(set, nw, v))
        v = highest(set, nw);
    set[v >> 6] &= ~((kb_word)1 << (v & 63));
}

static int meets(const kb_word* a, int na, const kb_word* b, int nb) {
    for (int i = 0; i < na && i < nb; i++)
        if (a[i] & b[i])
            return 1;
    return 0;
}

/* ---------------------------------------------------------------- writing options */

static int room(void** items, int* have, int need, size_t size) {
    int n;
    void* grown;
    if (need <= *have)
        return 1;
    n = *have ? 2 * *have : 64;
    while (n < need)
        n *= 2;
    grown = realloc(*items, (size_t)n * size);
    if (grown == NULL)
        return 0;
    *items = grown;
    *have = n;
    return 1;
}

static int same_part(const kb_search* s, const kb_piece* a, const kb_piece* b) {
    const kb_word *x = s->words + a->at, *y = s->words + b->at;
    return a->len == b->len && x[0] == y[0] &&
           (a->len == 1 || memcmp(x + 1, y + 1, (size_t)(a->len - 1) * sizeof(kb_word)) == 0);
}

/* Option o as written: equal parts cancelled in pairs (G + G = 0), the others looked up;
 * count 0 when it is known (its value nim).  A known value is taken out of the potential
 * set of an in_set, whose cut-off may then stop the expansion.  (Options are finished one
 * behind the one being written, so that the clusters their parts prefetched are in.) */
static void finish(kb_search* s, int o) {
    kb_pending* p = &s->options[o];
    int live = 0, end = p->first + p->count;
    for (int i = p->first; i < end; i++) {
        if (s->parts[i].size < 0)
            continue;
        for (int j = i + 1; j < end; j++)
            if (s->parts[j].size >= 0 && same_part(s, &s->parts[i], &s->parts[j])) {
                s->parts[i].size = s->parts[j].size = -1;
                break;
            }
    }
    for (int i = p->first; i < end; i++) {
        kb_piece* q = &s->parts[i];
        int v;
        if (q->size < 0)
            continue;
        s->lookups++;
        v = q->placed ? get_placed(s->memo, s->words + q->at, q->len, &q->where) : -1;
        if (v >= 0) {
            p->nim ^= v;
            q->size = -1;
        } else {
            live++;
        }
    }
    s->units += (uint64_t)p->count + 1;
    s->finished = o + 1;
    if (live)
        return;
    p->count = 0;
    if (p->nim < KB_EXCLUDE_VALUES)
        s->known |= 1 << p->nim;
    if (s->potential != NULL) {
        remove_value_or_max(s->potential, s->npotential, p->nim);
        if (!meets(s->potential, s->npotential, s->want, s->nwant))
            s->cut = 1;
    }
}

int kb_option(kb_search* s) {
    if (s->failed || s->cut)
        return 1;
    if (s->noptions - s->finished >= 2) {
        finish(s, s->finished);
        if (s->cut)
            return 1;
    }
    if (!room((void**)&s->options, &s->options_room, s->noptions + 1, sizeof(kb_pending))) {
        s->failed = 1;
        return 1;
    }
    s->options[s->noptions].first = s->nparts;
    s->options[s->noptions].count = 0;
    s->options[s->noptions].nim = 0;
    s->noptions++;
    return 0;
}

void kb_part(kb_search* s, const kb_word* key, int len, int size) {
    if (s->failed || s->noptions == 0)
        return;
    if ((s->nparts >= s->parts_room &&
         !room((void**)&s->parts, &s->parts_room, s->nparts + 1, sizeof(kb_piece))) ||
        (s->nwords + len > s->words_room &&
         !room((void**)&s->words, &s->words_room, s->nwords + len, sizeof(kb_word)))) {
        s->failed = 1;
        return;
    }
    for (int i = 0; i < len; i++)   /* (a key is a word or a few: no call to memcpy) */
        s->words[s->nwords + i] = key[i];
    s->parts[s->nparts].at = s->nwords;
    s->parts[s->nparts].len = len;
    s->parts[s->nparts].size = size;
    s->parts[s->nparts].placed = placed(s->memo, key, len, &s->parts[s->nparts].where);
    s->nparts++;
    s->nwords += len;
    s->options[s->noptions - 1].count++;
}

void kb_heap(kb_search* s, int value) {
    if (!s->failed && s->noptions > 0)
        s->options[s->noptions - 1].nim ^= value;
}

int kb_spend(kb_search* s, uint64_t units) {
    s->work += units;
    if (s->work >= KB_LOOK_WORK) {
        s->work = 0;
        if (s->look != NULL && s->look(s->look_arg))
            return KB_STOPPED;
    }
    return KB_OK;
}

/* ---------------------------------------------------------------- the frames' stack */

#define BLOCK_BYTES ((size_t)1 << 20)

typedef struct mark {
    int block;
    size_t top;
} mark;

static mark mark_of(const kb_search* s) {
    mark m = {s->block, s->nblocks ? s->blocks[s->block].top : 0};
    return m;
}

static void release(kb_search* s, mark m) {
    if (s->nblocks == 0)
        return;
    for (int b = m.block + 1; b <= s->block; b++)
        s->blocks[b].top = 0;
    s->block = m.block;
    s->blocks[m.block].top = m.top;
}

static void* push(kb_search* s, size_t bytes) {
    kb_block* b;
    bytes = (bytes + 15) & ~(size_t)15;
    if (s->nblocks == 0 || s->blocks[s->block].top + bytes > s->blocks[s->block].size) {
        int next = s->nblocks == 0 ? 0 : s->block + 1;
        if (next < s->nblocks && s->blocks[next].size < bytes) {
            free(s->blocks[next].base);
            s->blocks[next].base = NULL;
            s->blocks[next].size = 0;
        }
        if (next >= s->nblocks || s->blocks[next].base == NULL) {
            size_t size = bytes > BLOCK_BYTES ? bytes : BLOCK_BYTES;
            char* base = malloc(size);
            if (base == NULL)
                return NULL;
            if (next >= s->nblocks) {
                kb_block* grown = realloc(s->blocks, (size_t)(next + 1) * sizeof(kb_block));
                if (grown == NULL) {
                    free(base);
                    return NULL;
                }
                s->blocks = grown;
                s->nblocks = next + 1;
            }
            s->blocks[next].base = base;
            s->blocks[next].size = size;
        }
        s->blocks[next].top = 0;
        s->block = next;
    }
    b = &s->blocks[s->block];
    b->top += bytes;
    return b->base + b->top - bytes;
}

/* ---------------------------------------------------------------- frames */

typedef struct opt {          /* an option whose value was not known when p was expanded */
    uint64_t cost;            /* sum of its unknown parts' sizes squared */
    int nim;                  /* XOR of what is known */
    int first, count;         /* its unknown parts, hardest first */
    int used;                 /* consumed by exact()'s scan */
} opt;

typedef struct frame {
    int n;                    /* options (moves) */
    int nknown;
    int* known;               /* values of the options known at once */
    int nopts;
    opt* opts;                /* the others, easiest first */
    kb_piece* parts;
    kb_word* words;
} frame;

static void sort_opts(opt* a, opt* tmp, int n) {   /* stable, by cost */
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = a[j].cost < a[i].cost ? a[j++] : a[i++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof(opt));
    }
}

/* Expand p into f (on the frames' stack): the options known at once apart (their values
 * taken out of `potential` when it is not NULL), the others sorted, their parts hardest
 * first.  KB_CUT when the potential set no longer meets `want` (in_set's cut-off). */
static int open_frame(kb_search* s, const kb_word* key, int len, frame* f, kb_word* potential,
                      int npotential, const kb_word* want, int nwant) {
    int rc, nunknown = 0, nwords = 0, nparts = 0, k = 0, o, i, j;
    s->noptions = s->nparts = s->nwords = s->finished = 0;
    s->failed = s->cut = s->known = 0;
    s->units = 0;
    s->potential = potential;
    s->npotential = npotential;
    s->want = want;
    s->nwant = nwant;
    s->expanded++;
    rc = s->expand(s->game, s, key, len);
    while (rc == KB_OK && !s->failed && !s->cut && s->finished < s->noptions)
        finish(s, s->finished);
    s->potential = NULL;
    if (rc == KB_OK)
        rc = kb_spend(s, s->units);
    if (rc != KB_OK)
        return rc;
    if (s->failed)
        return KB_NO_MEMORY;
    if (s->cut)
        return KB_CUT;
    for (o = 0; o < s->noptions; o++)
        if (s->options[o].count) {
            nunknown++;
            for (i = s->options[o].first; i < s->options[o].first + s->options[o].count; i++)
                if (s->parts[i].size >= 0) {
                    nparts++;
                    nwords += s->parts[i].len;
                }
        }
    f->n = s->noptions;
    f->nknown = s->noptions - nunknown;
    f->nopts = nunknown;
    f->known = push(s, (size_t)f->nknown * sizeof(int) + 1);
    f->opts = push(s, (size_t)nunknown * sizeof(opt) + 1);
    f->parts = push(s, (size_t)nparts * sizeof(kb_piece) + 1);
    f->words = push(s, (size_t)nwords * sizeof(kb_word) + 1);
    if (!f->known || !f->opts || !f->parts || !f->words)
        return KB_NO_MEMORY;
    nunknown = nparts = nwords = 0;
    for (o = 0; o < s->noptions; o++) {
        kb_pending* p = &s->options[o];
        opt* q;
        if (p->count == 0) {
            f->known[k++] = p->nim;
            continue;
        }
        q = &f->opts[nunknown++];
        q->nim = p->nim;
        q->first = nparts;
        q->count = 0;
        q->cost = 0;
        q->used = 0;
        for (i = p->first; i < p->first + p->count; i++) {
            kb_piece* src = &s->parts[i];
            kb_piece* dst;
            if (src->size < 0)
                continue;
            /* insertion by size, largest first, stable */
            for (j = nparts; j > q->first && f->parts[j - 1].size < src->size; j--)
                f->parts[j] = f->parts[j - 1];
            dst = &f->parts[j];
            dst->at = nwords;
            dst->len = src->len;
            dst->size = src->size;
            memcpy(f->words + nwords, s->words + src->at, (size_t)src->len * sizeof(kb_word));
            nwords += src->len;
            nparts++;
            q->count++;
            q->cost += (uint64_t)src->size * (uint64_t)src->size;
        }
    }
    if (nunknown > 1) {
        opt* tmp = push(s, (size_t)nunknown * sizeof(opt));
        if (tmp == NULL)
            return KB_NO_MEMORY;
        sort_opts(f->opts, tmp, nunknown);
    }
    return KB_OK;
}

/* ---------------------------------------------------------------- the search */

static int exact(kb_search* s, const kb_word* key, int len, int start, int* out);

/* Make option o of f a single part (its hardest), the exact values of the others folded
 * into its nim; known (count 0) when none is left. */
static int reduce(kb_search* s, frame* f, opt* o) {
    while (o->count > 1) {
        kb_piece* p = &f->parts[o->first + o->count - 1];
        int v, rc = exact(s, f->words + p->at, p->len, 0, &v);
        if (rc != KB_OK)
            return rc;
        o->nim ^= v;
        o->count--;
    }
    return KB_OK;
}

static void learn(int* values, int v) {   /* v is an option's value: g(p) is not v */
    if (v < KB_EXCLUDE_VALUES)
        *values |= 1 << v;
}

static void clear(kb_word* set, int v) {
    set[v >> 6] &= ~((kb_word)1 << (v & 63));
}

static int in_set(kb_search* s, const kb_word* key, int len, const kb_word* want, int nwant,
                  int* out) {
    int field = field_of(s->memo, key, len), rc = KB_OK, most, n, nw, partial = 0, i, v;
    int ruled = excluded_in(field), excludes = 0, learnt = 0;
    mark m;
    frame f;
    kb_word* P;
    s->lookups++;
    if (value_in(field) >= 0) {
        *out = field;
        return KB_OK;
    }
    n = s->bound(s->game, key, len);   /* g(p) <= its number of moves */
    *out = KB_NOT_IN_SET;
    m = mark_of(s);
    if (want[0] & (kb_word)ruled) {   /* ask only about the values not ruled out */
        kb_word* narrowed = push(s, (size_t)nwant * sizeof(kb_word));
        if (narrowed == NULL) {
            rc = KB_NO_MEMORY;
            goto done;
        }
        memcpy(narrowed, want, (size_t)nwant * sizeof(kb_word));
        narrowed[0] &= ~(kb_word)ruled;
        want = narrowed;
    }
    most = highest(want, nwant);
    if (most < 0 || lowest(want, nwant) > n)
        goto done;
    nw = words_for(n + 1);
    P = push(s, (size_t)nw * sizeof(kb_word));
    if (P == NULL) {
        rc = KB_NO_MEMORY;
        goto done;
    }
    for (i = 0; i < nw; i++)
        P[i] = 0;
    for (i = 0; i <= n; i++)
        P[i >> 6] |= (kb_word)1 << (i & 63);
    rc = open_frame(s, key, len, &f, P, nw, want, nwant);
    learnt = s->known;   /* g(p) is no option's value */
    if (rc == KB_CUT) {
        rc = KB_OK;
        excludes = 1;
        goto done;
    }
    if (rc != KB_OK)
        goto done;
    for (i = 0; i < f.nopts; i++) {
        opt* o = &f.opts[i];
        int top, limit, off, nask, q, b, empty = 1;
        kb_word* ask;
        mark inner;
        if (!meets(P, nw, want, nwant)) {
            excludes = 1;
            goto done;
        }
        rc = reduce(s, &f, o);
        if (rc != KB_OK)
            goto done;
        if (o->count == 0) {
            remove_value_or_max(P, nw, o->nim);
            learn(&learnt, o->nim);
            continue;
        }
        top = highest(P, nw);
        limit = most < top - 1 ? most : top - 1;
        off = o->nim;
        b = limit | off;   /* every element of the set asked about is below 2**bitlength(b) */
        nask = b ? words_for(2 << (63 - __builtin_clzll((kb_word)b))) : 1;
        inner = mark_of(s);
        ask = push(s, (size_t)nask * sizeof(kb_word));
        if (ask == NULL) {
            rc = KB_NO_MEMORY;
            goto done;
        }
        for (int k = 0; k < nask; k++)
            ask[k] = 0;
        for (int x = 0; x <= limit; x++)
            if (has(P, nw, x)) {
                int y = x ^ off;
                ask[y >> 6] |= (kb_word)1 << (y & 63);
                empty = 0;
            }
        if (empty) {   /* no answer could matter at or below max(R) */
            release(s, inner);
            clear(P, top);
            partial = 1;
            continue;
        }
        {
            kb_piece* p = &f.parts[o->first];
            rc = in_set(s, f.words + p->at, p->len, ask, nask, &q);
        }
        release(s, inner);
        if (rc != KB_OK)
            goto done;
        if (q == KB_NOT_IN_SET) {
            clear(P, top);
            partial = 1;
        } else {
            remove_value_or_max(P, nw, q ^ off);
            learn(&learnt, q ^ off);
        }
    }
    v = highest(P, nw);
    if (!partial || v <= most) {
        kb_memo_put(s->memo, key, len, v);
        *out = v;
    } else {
        excludes = 1;
    }
done:
    if (excludes)   /* the answer "not in the set", and the options' values found */
        kb_memo_exclude(s->memo, key, len, (int)want[0] | learnt);
    release(s, m);
    return rc;
}

static int exact(kb_search* s, const kb_word* key, int len, int start, int* out) {
    int field = field_of(s->memo, key, len), rc, nw, r, i;
    int ruled = excluded_in(field);
    mark m;
    frame f;
    kb_word* seen;
    s->lookups++;
    if (value_in(field) >= 0) {
        *out = field;
        return KB_OK;
    }
    m = mark_of(s);
    rc = open_frame(s, key, len, &f, NULL, 0, NULL, 0);
    if (rc != KB_OK)
        goto done;
    nw = words_for(f.n + 1);
    seen = push(s, (size_t)nw * sizeof(kb_word));   /* values some option is known to have */
    if (seen == NULL) {
        rc = KB_NO_MEMORY;
        goto done;
    }
    for (i = 0; i < nw; i++)
        seen[i] = 0;
    for (i = 0; i < f.nknown; i++)
        if (f.known[i] <= f.n)
            seen[f.known[i] >> 6] |= (kb_word)1 << (f.known[i] & 63);
    for (r = start; r < f.n; r++) {
        int found = 0;
        if (has(seen, nw, r) || (r < KB_EXCLUDE_VALUES && (ruled >> r & 1)))
            continue;   /* an option has value r, or an exclusion says one has */
        for (i = 0; i < f.nopts && !found; i++) {
            opt* o = &f.opts[i];
            int q, target, nask;
            kb_word* ask;
            mark inner;
            if (o->used)
                continue;
            rc = reduce(s, &f, o);
            if (rc != KB_OK)
                goto done;
            if (o->count == 0) {
                q = o->nim;
            } else {
                target = r ^ o->nim;
                nask = words_for(target + 1);
                inner = mark_of(s);
                ask = push(s, (size_t)nask * sizeof(kb_word));
                if (ask == NULL) {
                    rc = KB_NO_MEMORY;
                    goto done;
                }
                for (int k = 0; k < nask; k++)
                    ask[k] = 0;
                ask[target >> 6] = (kb_word)1 << (target & 63);
                {
                    kb_piece* p = &f.parts[o->first];
                    rc = in_set(s, f.words + p->at, p->len, ask, nask, &q);
                }
                release(s, inner);
                if (rc != KB_OK)
                    goto done;
                if (q == KB_NOT_IN_SET)
                    continue;
                q ^= o->nim;
            }
            o->used = 1;
            if (q <= f.n)
                seen[q >> 6] |= (kb_word)1 << (q & 63);
            found = q == r;
        }
        if (!found) {
            kb_memo_put(s->memo, key, len, r);
            *out = r;
            goto done;
        }
    }
    kb_memo_put(s->memo, key, len, f.n);
    *out = f.n;
done:
    release(s, m);
    return rc;
}

void kb_search_init(kb_search* s, void* game, kb_expand_fn expand, kb_bound_fn bound,
                    kb_memo* memo, kb_look_fn look, void* look_arg) {
    memset(s, 0, sizeof(*s));
    s->game = game;
    s->expand = expand;
    s->bound = bound;
    s->memo = memo;
    s->look = look;
    s->look_arg = look_arg;
}

void kb_search_free(kb_search* s) {
    for (int b = 0; b < s->nblocks; b++)
        free(s->blocks[b].base);
    free(s->blocks);
    free(s->options);
    free(s->parts);
    free(s->words);
    s->blocks = NULL;
    s->options = NULL;
    s->parts = NULL;
    s->words = NULL;
    s->nblocks = s->block = 0;
    s->options_room = s->parts_room = s->words_room = 0;
}

int kb_nimber(kb_search* s, const kb_word* key, int len, int winning, int* value) {
    return exact(s, key, len, winning ? 1 : 0, value);
}

int kb_has_value(kb_search* s, const kb_word* key, int len, int value, int* yes) {
    int nw, q, rc;
    mark m;
    kb_word* want;
    *yes = 0;
    if (value < 0 || value > s->bound(s->game, key, len))   /* g(p) <= its number of moves */
        return KB_OK;
    m = mark_of(s);
    nw = words_for(value + 1);
    want = push(s, (size_t)nw * sizeof(kb_word));
    if (want == NULL)
        return KB_NO_MEMORY;
    memset(want, 0, (size_t)nw * sizeof(kb_word));
    want[value >> 6] = (kb_word)1 << (value & 63);
    rc = in_set(s, key, len, want, nw, &q);
    release(s, m);
    *yes = rc == KB_OK && q == value;
    return rc;
}
