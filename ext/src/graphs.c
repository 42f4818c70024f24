/* Node Kayles and Arc Kayles on graphs of at most 256 vertices (games.h).
 *
 * Node Kayles (KB_NODE): a move removes a vertex and its neighbours.  Arc Kayles (KB_ARC):
 * a move removes the two ends of an edge.  A position is a set of the root graph's
 * vertices (the subgraph they induce); a component is a connected one.
 *
 * Keys: a bit string (its first 52 bits in the first word, then 64 a word, from the lowest
 * bit, so that the first word fits the table's mixer at any size): 9 bits n (the
 * component's vertices), 1 bit kind, then
 *  - kind 0 (n <= 64): the component canonically labelled, its adjacency's upper
 *    triangle row by row (row i: its neighbours i + 1 .. n - 1): isomorphic components,
 *    wherever they lie, have one key;
 *  - kind 1 (n > 64): the set of the root graph's vertices (the root's n bits).
 * A key's length follows from n and kind.
 *
 * Canonical labelling (canonical()): colour refinement to the coarsest equitable
 * partition (a queue of splitter cells; each cell split by its vertices' numbers of
 * neighbours in the splitter, the pieces in increasing order of that number), then
 * individualisation: the first cell of more than one vertex is split into each of its
 * vertices in turn (first) and the rest, refined again, down to discrete partitions; each
 * gives a labelling (a vertex's place), and the key is the least of their adjacency
 * strings.  Every step depends on the graph alone (places and counts, never the vertices'
 * names), so the set of labellings, and the least, is the same for isomorphic graphs.  Of
 * two twins in the cell being split (u and v with N(u) - v = N(v) - u) only the first is
 * tried: the transposition (u v) is an automorphism fixing what was individualised before,
 * so it maps one branch onto the other, with the same strings.  Past `leaves` labellings
 * the least so far is taken (an exact key, perhaps not canonical: isomorphic components
 * may then get two entries, never a wrong value; `fallbacks` counts them).
 *
 * Splitting a position into parts (split()), for each component:
 *  - Arc Kayles first reduces the position: of the leaves (degree 1) of one vertex all but
 *    the first are deleted, and so is a vertex that is neither a leaf nor a leaf's
 *    neighbour all of whose neighbours are leaves' neighbours; isolated vertices go (no
 *    move).  boards.c's header proves both rules for Cram; the proofs use adjacency alone.
 *  - heaps from the rules: Node Kayles on a single vertex, a clique (any move takes all):
 *    *1; on a path of k vertices: Dawson's chess; on a cycle of k: mex of the path of
 *    k - 3.  Arc Kayles on a clique of k: k/2 mod 2 (each move leaves the clique of k - 2);
 *    on a path of k vertices: 0.07 of k; on a cycle of k: mex of the path of k - 2.
 * Moves in the order of the vertices (Node) or of the edges (u, v), u < v (Arc).
 */
#include "games.h"

#include <string.h>

enum {
    HEADER_BITS = 10,
    FIRST_BITS = 52,
    MAX_PATH = KB_GRAPH_VERTICES + 1,
    QUEUE = 128
};

typedef struct small {        /* a graph of at most 64 vertices, one word a row */
    int n;
    kb_word adj[64];
} small;

static int popcount(kb_word x) { return __builtin_popcountll(x); }

/* ---------------------------------------------------------------- sets of the root */

static int set_count(const kb_set* s) {
    return popcount(s->w[0]) + popcount(s->w[1]) + popcount(s->w[2]) + popcount(s->w[3]);
}

static int set_empty(const kb_set* s) { return !(s->w[0] | s->w[1] | s->w[2] | s->w[3]); }

static int set_has(const kb_set* s, int v) { return (s->w[v >> 6] >> (v & 63)) & 1; }

static void set_add(kb_set* s, int v) { s->w[v >> 6] |= (kb_word)1 << (v & 63); }

static void set_del(kb_set* s, int v) { s->w[v >> 6] &= ~((kb_word)1 << (v & 63)); }

static int set_lowest(const kb_set* s) {
    for (int i = 0; i < KB_GRAPH_WORDS; i++)
        if (s->w[i])
            return 64 * i + __builtin_ctzll(s->w[i]);
    return -1;
}

static kb_set set_and(const kb_set* a, const kb_set* b) {
    kb_set r;
    for (int i = 0; i < KB_GRAPH_WORDS; i++)
        r.w[i] = a->w[i] & b->w[i];
    return r;
}

static int set_within(const kb_set* a, const kb_set* b) {   /* a <= b */
    for (int i = 0; i < KB_GRAPH_WORDS; i++)
        if (a->w[i] & ~b->w[i])
            return 0;
    return 1;
}

#define EACH(s, v) \
    for (int each_i = 0; each_i < KB_GRAPH_WORDS; each_i++) \
        for (kb_word each_m = (s).w[each_i]; each_m; each_m &= each_m - 1) \
            for (int v = 64 * each_i + __builtin_ctzll(each_m), each_once = 1; each_once; \
                 each_once = 0)

/* ---------------------------------------------------------------- the values of heaps */

static unsigned char path_value[2][MAX_PATH];   /* [rule][k]: paths of k vertices */
static int values_made;

static int mex_of(const unsigned char* seen, int n) {
    int m = 0;
    while (m < n && seen[m])
        m++;
    return m;
}

static void make_values(void) {   /* from the rules (module header) */
    unsigned char seen[MAX_PATH + 2];
    if (values_made)
        return;
    for (int k = 0; k < MAX_PATH; k++) {
        memset(seen, 0, sizeof(seen));
        for (int a = 0; a + 2 <= k; a++)   /* Arc: an edge of the path */
            seen[path_value[KB_ARC][a] ^ path_value[KB_ARC][k - 2 - a]] = 1;
        path_value[KB_ARC][k] = (unsigned char)mex_of(seen, MAX_PATH + 2);
        memset(seen, 0, sizeof(seen));
        for (int i = 0; i < k; i++) {      /* Node: a vertex and its neighbours */
            int left = i >= 1 ? i - 1 : 0, right = k - i - 2 > 0 ? k - i - 2 : 0;
            seen[path_value[KB_NODE][left] ^ path_value[KB_NODE][right]] = 1;
        }
        path_value[KB_NODE][k] = (unsigned char)mex_of(seen, MAX_PATH + 2);
    }
    values_made = 1;
}

/* The value of a component of n vertices, e edges and degrees in [low, high] when it is a
 * clique, path or cycle (a connected graph), else -1. */
static int shape_value(int rule, int n, int e, int low, int high) {
    if (n == 1)
        return rule == KB_NODE ? 1 : 0;
    if (2 * e == n * (n - 1))   /* a clique */
        return rule == KB_NODE ? 1 : (n / 2) % 2;
    if (high <= 2 && e == n - 1 && low == 1)   /* a path */
        return path_value[rule][n];
    if (low == 2 && high == 2 && e == n) {      /* a cycle */
        int rest = path_value[rule][n - (rule == KB_NODE ? 3 : 2)];
        return rest == 0 ? 1 : 0;
    }
    return -1;
}

/* ---------------------------------------------------------------- keys */

typedef struct bits {
    kb_word* w;
    int at;
} bits;

static void put(bits* b, kb_word v, int n) {   /* the low n (<= 64) bits of v */
    int word = b->at >> 6, off = b->at & 63;
    if (n == 0)
        return;
    if (n < 64)
        v &= ((kb_word)1 << n) - 1;
    b->w[word] |= v << off;
    if (off + n > 64)
        b->w[word + 1] |= v >> (64 - off);
    b->at += n;
}

static kb_word take(bits* b, int n) {
    int word = b->at >> 6, off = b->at & 63;
    kb_word v = b->w[word] >> off;
    if (n == 0)
        return 0;
    if (off + n > 64)
        v |= b->w[word + 1] << (64 - off);
    b->at += n;
    return n < 64 ? v & (((kb_word)1 << n) - 1) : v;
}

/* A key holds its bit string's first 52 bits in its first word and 64 in each other, so
 * that its first word fits the table's mixer whatever the table's size (search.c). */
static int key_words(int nbits) { return nbits <= FIRST_BITS ? 1 : 2 + (nbits - FIRST_BITS - 1) / 64; }

static void laid_out(const kb_word* plain, int len, kb_word* key) {
    key[0] = plain[0] & (((kb_word)1 << FIRST_BITS) - 1);
    for (int k = 1; k < len; k++)
        key[k] = (plain[k - 1] >> FIRST_BITS) | (plain[k] << (64 - FIRST_BITS));
}

static void plain_of(const kb_word* key, int len, kb_word* plain) {
    for (int k = 0; k < len; k++) {
        kb_word next = k + 1 < len ? key[k + 1] : 0;
        plain[k] = (k == 0 ? key[0] : key[k] >> (64 - FIRST_BITS)) | (next << FIRST_BITS);
    }
    plain[len] = 0;
}

static int canonical_length(int n) { return key_words(HEADER_BITS + n * (n - 1) / 2); }

/* The key of the labelled graph g (lab[i]: the vertex at place i) into key. */
static int write_labelled(const small* g, const int* lab, kb_word* key) {
    int n = g->n, place[64], len = canonical_length(n);
    kb_word plain[KB_MAX_WIDTH + 1];
    bits b = {plain, 0};
    memset(plain, 0, (size_t)(len + 1) * sizeof(kb_word));
    put(&b, (kb_word)n, 9);
    put(&b, 0, 1);
    for (int i = 0; i < n; i++)
        place[lab[i]] = i;
    for (int i = 0; i + 1 < n; i++) {
        kb_word row = 0;
        for (kb_word m = g->adj[lab[i]]; m; m &= m - 1)
            row |= (kb_word)1 << place[__builtin_ctzll(m)];
        put(&b, row >> (i + 1), n - 1 - i);
    }
    laid_out(plain, len, key);
    return len;
}

static int subset_length(const kb_graph* g) { return key_words(HEADER_BITS + g->n); }

static int write_subset(const kb_graph* g, const kb_set* s, kb_word* key) {
    int len = subset_length(g), n = set_count(s);
    kb_word plain[KB_MAX_WIDTH + 1];
    bits b = {plain, 0};
    memset(plain, 0, (size_t)(len + 1) * sizeof(kb_word));
    put(&b, (kb_word)n, 9);
    put(&b, 1, 1);
    for (int i = 0; i < KB_GRAPH_WORDS && 64 * i < g->n; i++)
        put(&b, s->w[i], g->n - 64 * i < 64 ? g->n - 64 * i : 64);
    laid_out(plain, len, key);
    return len;
}

/* ---------------------------------------------------------------- canonical labelling */

typedef struct cells {        /* an ordered partition of the places 0 .. n - 1 */
    int lab[64];              /* the vertex at each place */
    unsigned char start[64];  /* the first place of the cell of each place */
    unsigned char size[64];   /* at a cell's first place: its size */
} cells;

typedef struct labelling {
    const small* g;
    kb_word best[KB_MAX_WIDTH];
    kb_word leaf[KB_MAX_WIDTH];
    int len, have, leaves, limit;
} labelling;

static kb_word members(const cells* p, int first) {
    kb_word m = 0;
    for (int i = first; i < first + p->size[first]; i++)
        m |= (kb_word)1 << p->lab[i];
    return m;
}

/* Refine p to the coarsest equitable partition below it, splitters first those queued. */
static void refine(const small* g, cells* p, unsigned char* queue, int nqueue) {
    /* a place is queued once at a time, and each split queues at most its pieces: fewer
     * than 2n entries in all (QUEUE) */
    unsigned char queued[64] = {0};
    int head = 0, n = g->n;
    for (int i = 0; i < nqueue; i++)
        queued[queue[i]] = 1;
    while (head < nqueue) {
        int w = queue[head++];
        kb_word splitter;
        queued[w] = 0;
        splitter = members(p, w);   /* a cell's first place stays its first place */
        for (int x = 0; x < n; x += p->size[x]) {
            int size = p->size[x], count[64], lo = 64, hi = -1, tally[65], next;
            int sorted[64];
            if (size == 1)
                continue;
            for (int i = 0; i < size; i++) {
                count[i] = popcount(g->adj[p->lab[x + i]] & splitter);
                if (count[i] < lo)
                    lo = count[i];
                if (count[i] > hi)
                    hi = count[i];
            }
            if (lo == hi)
                continue;
            for (int c = 0; c <= hi - lo + 1; c++)
                tally[c] = 0;
            for (int i = 0; i < size; i++)
                tally[count[i] - lo + 1]++;
            for (int c = 1; c <= hi - lo + 1; c++)
                tally[c] += tally[c - 1];
            for (int i = 0; i < size; i++)
                sorted[tally[count[i] - lo]++] = p->lab[x + i];
            for (int i = 0; i < size; i++)
                p->lab[x + i] = sorted[i];
            /* the pieces: places with equal counts; x + tally[c - lo] ends piece c */
            next = x;
            for (int c = lo; c <= hi; c++) {
                int end = x + tally[c - lo];
                if (end == next)
                    continue;
                for (int i = next; i < end; i++)
                    p->start[i] = (unsigned char)next;
                p->size[next] = (unsigned char)(end - next);
                if (!queued[next]) {
                    queue[nqueue++] = (unsigned char)next;
                    queued[next] = 1;
                }
                next = end;
            }
        }
    }
}

static int discrete(const cells* p, int n) {
    for (int x = 0; x < n; x += p->size[x])
        if (p->size[x] > 1)
            return 0;
    return 1;
}

static int before(const kb_word* a, const kb_word* b, int len) {   /* word by word */
    for (int i = 0; i < len; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

static void explore(labelling* L, const cells* p) {
    const small* g = L->g;
    int n = g->n, target = -1, tried[64], ntried = 0;
    if (L->leaves >= L->limit)
        return;
    if (discrete(p, n)) {
        L->leaves++;
        write_labelled(g, p->lab, L->leaf);
        if (!L->have || before(L->leaf, L->best, L->len)) {
            memcpy(L->best, L->leaf, (size_t)L->len * sizeof(kb_word));
            L->have = 1;
        }
        return;
    }
    for (int x = 0; x < n; x += p->size[x])
        if (p->size[x] > 1) {
            target = x;
            break;
        }
    for (int i = 0; i < p->size[target]; i++) {
        int v = p->lab[target + i], twin = 0, size = p->size[target];
        cells q;
        unsigned char queue[QUEUE];
        for (int k = 0; k < ntried && !twin; k++) {
            int u = tried[k];
            kb_word bu = (kb_word)1 << u, bv = (kb_word)1 << v;
            twin = (g->adj[u] & ~bv) == (g->adj[v] & ~bu);
        }
        if (twin)
            continue;
        tried[ntried++] = v;
        q = *p;
        /* v first, alone; the rest of the cell after it */
        for (int k = 0, at = target + 1; k < size; k++)
            if (p->lab[target + k] != v)
                q.lab[at++] = p->lab[target + k];
        q.lab[target] = v;
        q.size[target] = 1;
        for (int k = target + 1; k < target + size; k++)
            q.start[k] = (unsigned char)(target + 1);
        q.size[target + 1] = (unsigned char)(size - 1);
        queue[0] = (unsigned char)target;
        refine(g, &q, queue, 1);
        explore(L, &q);
        if (L->leaves >= L->limit)
            return;
    }
}

/* The canonical key of the connected small graph g into key (its length); fallbacks
 * counted where the labellings ran past the limit. */
static int canonical(kb_graph* root, const small* g, kb_word* key) {
    labelling L;
    cells p;
    unsigned char queue[QUEUE];
    int n = g->n;
    L.g = g;
    L.len = canonical_length(n);
    L.have = 0;
    L.leaves = 0;
    L.limit = root->leaves;
    for (int i = 0; i < n; i++) {
        p.lab[i] = i;
        p.start[i] = 0;
    }
    p.size[0] = (unsigned char)n;
    queue[0] = 0;
    refine(g, &p, queue, 1);
    explore(&L, &p);
    if (L.leaves >= L.limit)
        root->fallbacks++;
    memcpy(key, L.best, (size_t)L.len * sizeof(kb_word));
    return L.len;
}

/* ---------------------------------------------------------------- parts */

typedef struct sink {         /* where parts go: the search, or a caller's buffer */
    kb_search* search;
    kb_word* keys;            /* the buffer: keys one after another */
    int* lens;
    int* sizes;
    int room, used, count, max, nim;
} sink;

static void heap(sink* out, int v) {
    if (out->search != NULL)
        kb_heap(out->search, v);
    else
        out->nim ^= v;
}

static void part(sink* out, const kb_word* key, int len, int size) {
    if (out->search != NULL) {
        kb_part(out->search, key, len, size);
    } else if (out->count < out->max && out->used + len <= out->room) {
        memcpy(out->keys + out->used, key, (size_t)len * sizeof(kb_word));
        out->lens[out->count] = len;
        out->sizes[out->count] = size;
        out->used += len;
        out->count++;
    }
}

/* The graph the connected set `comp` of g's vertices induces, its vertices in order. */
static void induced_small(const small* g, kb_word comp, small* out) {
    int local[64], k = 0;
    out->n = popcount(comp);
    for (kb_word m = comp; m; m &= m - 1)
        local[__builtin_ctzll(m)] = k++;
    k = 0;
    for (kb_word m = comp; m; m &= m - 1) {
        kb_word row = 0;
        for (kb_word r = g->adj[__builtin_ctzll(m)] & comp; r; r &= r - 1)
            row |= (kb_word)1 << local[__builtin_ctzll(r)];
        out->adj[k++] = row;
    }
}

static void induced_root(const kb_graph* g, const kb_set* comp, small* out) {
    int local[KB_GRAPH_VERTICES], k = 0;
    out->n = set_count(comp);
    EACH(*comp, v)
        local[v] = k++;
    k = 0;
    EACH(*comp, v) {
        kb_set r = set_and(&g->adj[v], comp);
        kb_word row = 0;
        EACH(r, u)
            row |= (kb_word)1 << local[u];
        out->adj[k++] = row;
    }
}

static void emit_small(kb_graph* root, const small* g, kb_word comp, sink* out) {
    int n = popcount(comp), e = 0, low = 64, high = 0, value;
    kb_word key[KB_MAX_WIDTH];
    small h;
    for (kb_word m = comp; m; m &= m - 1) {
        int d = popcount(g->adj[__builtin_ctzll(m)] & comp);
        e += d;
        low = d < low ? d : low;
        high = d > high ? d : high;
    }
    value = shape_value(root->rule, n, e / 2, low, high);
    if (value >= 0) {
        heap(out, value);
        return;
    }
    induced_small(g, comp, &h);
    root->work += (uint64_t)n * (uint64_t)n / 8;
    part(out, key, canonical(root, &h, key), n);
}

static void emit_root(kb_graph* g, const kb_set* comp, sink* out) {
    int n = set_count(comp), e = 0, low = KB_GRAPH_VERTICES, high = 0, value;
    kb_word key[KB_MAX_WIDTH];
    small h;
    EACH(*comp, v) {
        kb_set r = set_and(&g->adj[v], comp);
        int d = set_count(&r);
        e += d;
        low = d < low ? d : low;
        high = d > high ? d : high;
    }
    value = shape_value(g->rule, n, e / 2, low, high);
    if (value >= 0) {
        heap(out, value);
        return;
    }
    if (n > KB_CANON_VERTICES) {
        part(out, key, write_subset(g, comp, key), n);
        return;
    }
    induced_root(g, comp, &h);
    g->work += (uint64_t)n * (uint64_t)n / 8;
    part(out, key, canonical(g, &h, key), n);
}

/* Arc Kayles' reductions (module header) of the vertices `alive` of a small graph. */
static kb_word reduced_small(const small* g, kb_word alive) {
    kb_word leaves = 0, centres = 0, served = 0, drop = 0;
    for (kb_word m = alive; m; m &= m - 1) {
        int v = __builtin_ctzll(m), d = popcount(g->adj[v] & alive);
        if (d == 0)
            drop |= (kb_word)1 << v;
        else if (d == 1)
            leaves |= (kb_word)1 << v;
    }
    for (kb_word m = leaves; m; m &= m - 1) {
        int v = __builtin_ctzll(m), c = __builtin_ctzll(g->adj[v] & alive);
        kb_word bc = (kb_word)1 << c;
        centres |= bc;
        if (served & bc)
            drop |= (kb_word)1 << v;
        served |= bc;
    }
    for (kb_word m = alive & ~leaves & ~centres & ~drop; m; m &= m - 1) {
        int v = __builtin_ctzll(m);
        if (!(g->adj[v] & alive & ~centres))
            drop |= (kb_word)1 << v;
    }
    return alive & ~drop;
}

static void reduced_root(const kb_graph* g, kb_set* alive) {
    kb_set leaves = {{0}}, centres = {{0}}, served = {{0}}, drop = {{0}};
    EACH(*alive, v) {
        kb_set r = set_and(&g->adj[v], alive);
        int d = set_count(&r);
        if (d == 0)
            set_add(&drop, v);
        else if (d == 1)
            set_add(&leaves, v);
    }
    EACH(leaves, v) {
        kb_set r = set_and(&g->adj[v], alive);
        int c = set_lowest(&r);
        set_add(&centres, c);
        if (set_has(&served, c))
            set_add(&drop, v);
        set_add(&served, c);
    }
    EACH(*alive, v) {
        kb_set r;
        if (set_has(&leaves, v) || set_has(&centres, v) || set_has(&drop, v))
            continue;
        r = set_and(&g->adj[v], alive);
        if (set_within(&r, &centres))
            set_add(&drop, v);
    }
    for (int i = 0; i < KB_GRAPH_WORDS; i++)
        alive->w[i] &= ~drop.w[i];
}

static void split_small(kb_graph* root, const small* g, kb_word alive, sink* out) {
    if (root->rule == KB_ARC)
        alive = reduced_small(g, alive);
    while (alive) {
        kb_word comp = alive & -alive, edge = comp;
        while (edge) {
            kb_word next = 0;
            for (kb_word m = edge; m; m &= m - 1)
                next |= g->adj[__builtin_ctzll(m)];
            edge = next & alive & ~comp;
            comp |= edge;
        }
        alive &= ~comp;
        emit_small(root, g, comp, out);
    }
}

static void split_root(kb_graph* g, kb_set alive, sink* out) {
    if (g->rule == KB_ARC)
        reduced_root(g, &alive);
    while (!set_empty(&alive)) {
        kb_set comp = {{0}}, edge = {{0}};
        set_add(&edge, set_lowest(&alive));
        while (!set_empty(&edge)) {
            kb_set next = {{0}};
            for (int i = 0; i < KB_GRAPH_WORDS; i++)
                comp.w[i] |= edge.w[i];
            EACH(edge, v)
                for (int i = 0; i < KB_GRAPH_WORDS; i++)
                    next.w[i] |= g->adj[v].w[i];
            for (int i = 0; i < KB_GRAPH_WORDS; i++)
                edge.w[i] = next.w[i] & alive.w[i] & ~comp.w[i];
        }
        for (int i = 0; i < KB_GRAPH_WORDS; i++)
            alive.w[i] &= ~comp.w[i];
        emit_root(g, &comp, out);
    }
}

/* ---------------------------------------------------------------- the game */

void kb_graph_init(kb_graph* g, int n, int rule, int leaves) {
    memset(g, 0, sizeof(*g));
    g->n = n;
    g->rule = rule;
    g->leaves = leaves;
    make_values();
}

void kb_graph_edge(kb_graph* g, int u, int v) {
    set_add(&g->adj[u], v);
    set_add(&g->adj[v], u);
}

static int kind_of(const kb_word* key) { return (int)((key[0] >> 9) & 1); }

static void decode_small(const kb_word* key, int len, small* g) {
    kb_word plain[KB_MAX_WIDTH + 1];
    bits b = {plain, 0};
    int n;
    plain_of(key, len, plain);
    n = (int)take(&b, 9);
    take(&b, 1);
    g->n = n;
    memset(g->adj, 0, sizeof(g->adj));
    for (int i = 0; i + 1 < n; i++) {
        kb_word row = take(&b, n - 1 - i) << (i + 1);
        g->adj[i] |= row;
        for (kb_word m = row; m; m &= m - 1)
            g->adj[__builtin_ctzll(m)] |= (kb_word)1 << i;
    }
}

static void decode_subset(const kb_graph* g, const kb_word* key, int len, kb_set* s) {
    kb_word plain[KB_MAX_WIDTH + 1];
    bits b = {plain, HEADER_BITS};
    plain_of(key, len, plain);
    memset(s, 0, sizeof(*s));
    for (int i = 0; i < KB_GRAPH_WORDS && 64 * i < g->n; i++)
        s->w[i] = take(&b, g->n - 64 * i < 64 ? g->n - 64 * i : 64);
}

static kb_word all_of(int n) { return n >= 64 ? ~(kb_word)0 : (((kb_word)1 << n) - 1); }

int kb_graph_bound(void* game, const kb_word* key, int len) {
    const kb_graph* g = game;
    int e = 0;
    if (kind_of(key) == 0) {
        small h;
        decode_small(key, len, &h);
        if (g->rule == KB_NODE)
            return h.n;
        for (int v = 0; v < h.n; v++)
            e += popcount(h.adj[v]);
        return e / 2;
    } else {
        kb_set alive;
        decode_subset(g, key, len, &alive);
        if (g->rule == KB_NODE)
            return set_count(&alive);
        EACH(alive, v) {
            kb_set r = set_and(&g->adj[v], &alive);
            e += set_count(&r);
        }
        return e / 2;
    }
}

int kb_graph_expand(void* game, kb_search* s, const kb_word* key, int len) {
    kb_graph* g = game;
    sink out = {s, NULL, NULL, NULL, 0, 0, 0, 0, 0};

    if (kind_of(key) == 0) {
        small h;
        kb_word all;
        decode_small(key, len, &h);
        all = all_of(h.n);
        for (int u = 0; u < h.n; u++) {
            if (g->rule == KB_NODE) {
                if (kb_option(s))
                    return KB_OK;
                split_small(g, &h, all & ~(h.adj[u] | (kb_word)1 << u), &out);
            } else {
                for (kb_word m = h.adj[u] & ~all_of(u + 1); m; m &= m - 1) {
                    if (kb_option(s))
                        return KB_OK;
                    split_small(g, &h, all & ~((kb_word)1 << u | (kb_word)1 << __builtin_ctzll(m)),
                                &out);
                }
            }
            if (kb_spend(s, g->work) != KB_OK)
                return KB_STOPPED;
            g->work = 0;
        }
        return KB_OK;
    }
    {
        kb_set alive;
        decode_subset(g, key, len, &alive);
        EACH(alive, u) {
            if (g->rule == KB_NODE) {
                kb_set q = alive;
                if (kb_option(s))
                    return KB_OK;
                for (int i = 0; i < KB_GRAPH_WORDS; i++)
                    q.w[i] &= ~g->adj[u].w[i];
                set_del(&q, u);
                split_root(g, q, &out);
            } else {
                kb_set r = set_and(&g->adj[u], &alive);
                EACH(r, v) {
                    kb_set q = alive;
                    if (v < u)
                        continue;
                    if (kb_option(s))
                        return KB_OK;
                    set_del(&q, u);
                    set_del(&q, v);
                    split_root(g, q, &out);
                }
            }
            if (kb_spend(s, g->work) != KB_OK)
                return KB_STOPPED;
            g->work = 0;
        }
    }
    return KB_OK;
}

/* The parts of the position `alive` into the caller's buffers (keys one after another in
 * `keys`, room words; at most max parts); the heaps' XOR into *nim; the parts' number. */
int kb_graph_split(kb_graph* g, const kb_set* alive, kb_word* keys, int room, int* lens,
                   int* sizes, int max, int* nim) {
    sink out = {NULL, keys, lens, sizes, room, 0, 0, max, 0};
    split_root(g, *alive, &out);
    *nim = out.nim;
    return out.count;
}

/* The key of a connected set of vertices (canonical up to 64 vertices). */
int kb_graph_key(kb_graph* g, const kb_set* comp, kb_word* key) {
    small h;
    if (set_count(comp) > KB_CANON_VERTICES)
        return write_subset(g, comp, key);
    induced_root(g, comp, &h);
    return canonical(g, &h, key);
}

/* The positions the moves of `alive` lead to, in the search's order; their number. */
int kb_graph_moves(const kb_graph* g, const kb_set* alive, kb_set* moves, int max) {
    int k = 0;
    EACH(*alive, u) {
        if (g->rule == KB_NODE) {
            kb_set q = *alive;
            for (int i = 0; i < KB_GRAPH_WORDS; i++)
                q.w[i] &= ~g->adj[u].w[i];
            set_del(&q, u);
            if (k < max)
                moves[k++] = q;
        } else {
            kb_set r = set_and(&g->adj[u], alive);
            EACH(r, v) {
                kb_set q = *alive;
                if (v < u || k >= max)
                    continue;
                set_del(&q, u);
                set_del(&q, v);
                moves[k++] = q;
            }
        }
    }
    return k;
}
