/* Green Hackenbush's kernel (hackenbush.h): the pure twin's passes
   (kayles/kernels/pure/_hackenbush.py) on flat int arrays, each loop stoppable.  Here
   the edge list read and the value; hackenbush_cuts.c the cuts and the chains' arms. */

#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE   /* madvise and MADV_HUGEPAGE under -std=c11 (hackenbush_steps.h) */
#endif

#include "hackenbush.h"
#include "hackenbush_steps.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* -- reading an edge list ---------------------------------------------------------------- */

/* 1: an ASCII space (str.split's: \t-\r, \x1c-\x1f, ' '); 2: '-'; 3: the first byte of
   a UTF-8 sequence that may be a space (wide_space); 0: a byte of a name */
static const unsigned char KIND[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
    [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, [' '] = 1, ['-'] = 2,
    [0xc2] = 3, [0xe1] = 3, [0xe2] = 3, [0xe3] = 3,
};

/* The bytes of the Unicode space starting at p (0: none there): U+0085, U+00A0, U+1680,
   U+2000-U+200A, U+2028, U+2029, U+202F, U+205F and U+3000, the spaces past ASCII that
   str.isspace names. */
static int wide_space(const unsigned char *p, const unsigned char *end)
{
    ptrdiff_t left = end - p;
    if (p[0] == 0xc2)
        return left >= 2 && (p[1] == 0x85 || p[1] == 0xa0) ? 2 : 0;
    if (left < 3)
        return 0;
    switch (p[0]) {
    case 0xe1:
        return p[1] == 0x9a && p[2] == 0x80 ? 3 : 0;
    case 0xe3:
        return p[1] == 0x80 && p[2] == 0x80 ? 3 : 0;
    case 0xe2:
        if (p[1] == 0x80)
            return p[2] <= 0x8a || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf ? 3 : 0;
        return p[1] == 0x81 && p[2] == 0x9f ? 3 : 0;
    default:
        return 0;
    }
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)(address))
#endif

#define AHEAD 16   /* names hashed, and their slots fetched, this many names before their look-up */

static uint64_t name_hash(const unsigned char *s, ptrdiff_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n, word;
    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&word, s, 8);
        h = (h ^ word) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
    }
    if (n > 0) {
        word = 0;
        memcpy(&word, s, (size_t)n);
        h = (h ^ word) * 0xBF58476D1CE4E5B9ULL;
    }
    h ^= h >> 32;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

/* The slot of the name s[0:n] (hash h): its own, or the empty one where it goes.  A slot's
   name is in the text, so it ends where a '-', a space or the text does: equal to s when
   its first n bytes are and its byte n is no name's. */
static kayles_hb_slot *probe(const kayles_hb_parsed *p, uint64_t h, const unsigned char *s,
                             ptrdiff_t n, const unsigned char *end)
{
    unsigned tag = (unsigned)(h >> 32);
    size_t i = (size_t)h & p->slot_mask;
    for (;; i = (i + 1) & p->slot_mask) {
        kayles_hb_slot *slot = &p->slots[i];
        const unsigned char *name = (const unsigned char *)slot->name;
        if (name == NULL)
            return slot;
        if (slot->tag == tag && end - name >= n && memcmp(name, s, (size_t)n) == 0
            && (name + n == end || KIND[name[n]] == 1 || KIND[name[n]] == 2
                || (KIND[name[n]] == 3 && wide_space(name + n, end))))
            return slot;
    }
}

static int rehash(kayles_hb_parsed *p, size_t slots, const unsigned char *end)
{
    kayles_hb_slot *old = p->slots;
    p->slots = block(slots * sizeof *p->slots, 1);
    if (p->slots == NULL) {
        p->slots = old;
        return -1;
    }
    free(old);
    p->slot_mask = slots - 1;
    for (int v = 1; v < p->vertices; v++) {   /* names in order of the text: read in order */
        const unsigned char *name = (const unsigned char *)p->name[v];
        kayles_hb_slot *slot = probe(p, name_hash(name, p->length[v]), name, p->length[v], end);
        slot->tag = (unsigned)(name_hash(name, p->length[v]) >> 32);
        slot->vertex = v;
        slot->name = p->name[v];
    }
    return 0;
}

/* The vertex named by s[0:n] (hash h), numbered now if it is new; -1: no memory.  The
   ground is vertex 0 and not in the table. */
static int vertex(kayles_hb_parsed *p, const unsigned char *s, ptrdiff_t n, uint64_t h,
                  const unsigned char *end)
{
    kayles_hb_slot *slot;
    int v;
    if (n == 1 && s[0] == 'g')
        return 0;
    slot = probe(p, h, s, n, end);
    if (slot->name != NULL)
        return slot->vertex;
    if (2 * (size_t)p->vertices > p->slot_mask + 1) {   /* at most half full */
        if (rehash(p, 2 * (p->slot_mask + 1), end))
            return -1;
        slot = probe(p, h, s, n, end);
    }
    if (p->vertices == p->vertex_room) {
        ptrdiff_t room = p->vertex_room, length_room = p->vertex_room;
        if (grow((void **)&p->name, &room, room + 1, sizeof *p->name)
            || grow((void **)&p->length, &length_room, room, sizeof *p->length))
            return -1;
        p->vertex_room = (int)room;
    }
    v = p->vertices++;
    p->name[v] = (const char *)s;
    p->length[v] = n;
    slot->tag = (unsigned)(h >> 32);
    slot->vertex = v;
    slot->name = (const char *)s;
    return v;
}

typedef struct {   /* names read and hashed, waiting for their look-up, oldest first */
    struct {
        const unsigned char *s;
        ptrdiff_t n, at;   /* at: 2 e for edge e's first end, 2 e + 1 for its second */
        uint64_t h;
    } ring[AHEAD];
    int first, count;
} ahead_t;

static int look_up_oldest(kayles_hb_parsed *p, ahead_t *q, const unsigned char *end)
{
    int v = vertex(p, q->ring[q->first].s, q->ring[q->first].n, q->ring[q->first].h, end);
    ptrdiff_t at = q->ring[q->first].at;
    if (v < 0)
        return -1;
    (at & 1 ? p->vs : p->us)[at >> 1] = v;
    q->first = (q->first + 1) % AHEAD;
    q->count--;
    return 0;
}

/* Queue the name s[0:n] for the end `at`: its slot is fetched now, the name in the slot of
   the one AHEAD / 2 before it (by now in the cache) too, and the oldest looked up. */
static int queue(kayles_hb_parsed *p, ahead_t *q, const unsigned char *s, ptrdiff_t n,
                 ptrdiff_t at, const unsigned char *end)
{
    int k;
    if (q->count == AHEAD && look_up_oldest(p, q, end))
        return -1;
    k = (q->first + q->count++) % AHEAD;
    q->ring[k].s = s;
    q->ring[k].n = n;
    q->ring[k].at = at;
    q->ring[k].h = name_hash(s, n);
    PREFETCH(&p->slots[q->ring[k].h & p->slot_mask]);
    if (q->count > AHEAD / 2) {
        const char *name = p->slots[q->ring[(k + AHEAD / 2) % AHEAD].h & p->slot_mask].name;
        if (name != NULL)
            PREFETCH(name);
    }
    return 0;
}

int kayles_hb_parse(const char *text, ptrdiff_t length, ptrdiff_t most, ptrdiff_t chunk,
                    kayles_hb_parsed *out, kayles_hb_pulse *pulse)
{
    const unsigned char *at = (const unsigned char *)text, *end = at + length, *mark;
    ptrdiff_t dashes = 0;
    size_t slots = 1024;
    int rc = 0, kind, wide;
    ahead_t q = {0};
    memset(out, 0, sizeof *out);
    out->bad = -1;
    for (ptrdiff_t i = 0; i < length; i++)   /* edges <= dashes: the table sized once */
        dashes += text[i] == '-';
    if (dashes > most + 1)
        dashes = most + 1;
    while (slots < 2 * (size_t)dashes + 2)
        slots *= 2;
    out->slots = block(slots * sizeof *out->slots, 1);
    NEED(out->slots);
    out->slot_mask = slots - 1;
    out->name = malloc(16 * sizeof *out->name);
    out->length = malloc(16 * sizeof *out->length);
    NEED(out->name);
    NEED(out->length);
    out->vertex_room = 16;
    out->name[0] = "g";   /* the ground */
    out->length[0] = 1;
    out->vertices = 1;
    mark = end - at > chunk ? at + chunk : end;
    for (;;) {
        const unsigned char *start, *dash = NULL;
        int many = 0;   /* dashes past one */
        for (;;) {   /* the spaces before a token */
            if (at >= end)
                goto drain;
            kind = KIND[*at];
            if (kind == 1)
                at++;
            else if (kind == 3 && (wide = wide_space(at, end)) != 0)
                at += wide;
            else
                break;
        }
        for (start = at; at < end; at++) {   /* the token */
            kind = KIND[*at];
            if (kind == 2) {
                many += dash != NULL;
                dash = at;
            } else if (kind == 1 || (kind == 3 && wide_space(at, end))) {
                break;
            }
        }
        if (dash == NULL || many || dash == start || dash + 1 == at) {
            out->bad = (const char *)start - text;
            goto drain;
        }
        if (out->edges == out->edge_room) {   /* vs grows beside us, to the same room */
            ptrdiff_t room = out->edge_room, vs_room = out->edge_room;
            if (grow((void **)&out->us, &room, room + 1, sizeof(int))
                || grow((void **)&out->vs, &vs_room, room, sizeof(int))) {
                rc = KAYLES_HB_NO_MEMORY;
                goto done;
            }
            out->edge_room = room;
        }
        if (queue(out, &q, start, dash - start, 2 * out->edges, end)
            || queue(out, &q, dash + 1, at - dash - 1, 2 * out->edges + 1, end)) {
            rc = KAYLES_HB_NO_MEMORY;
            goto done;
        }
        if (++out->edges > most)
            goto drain;
        if (at >= mark) {
            mark = end - at > chunk ? at + chunk : end;
            if (pulse->look != NULL && pulse->look(pulse->context) != 0) {
                rc = KAYLES_HB_STOPPED;
                goto done;
            }
        }
    }
drain:
    while (q.count > 0)
        if (look_up_oldest(out, &q, end)) {
            rc = KAYLES_HB_NO_MEMORY;
            goto done;
        }
done:
    if (rc != 0)
        kayles_hb_parsed_free(out);
    return rc;
}

void kayles_hb_parsed_free(kayles_hb_parsed *parsed)
{
    free(parsed->us);
    free(parsed->vs);
    free(parsed->name);
    free(parsed->length);
    free(parsed->slots);
    memset(parsed, 0, sizeof *parsed);
}

ptrdiff_t kayles_hb_characters(const char *text, ptrdiff_t bytes)
{
    ptrdiff_t count = 0;
    for (ptrdiff_t i = 0; i < bytes; i++)
        count += ((unsigned char)text[i] & 0xc0) != 0x80;   /* not a continuation byte */
    return count;
}

ptrdiff_t kayles_hb_names_size(const kayles_hb_parsed *parsed)
{
    ptrdiff_t size = parsed->vertices - 1;
    for (int v = 0; v < parsed->vertices; v++)
        size += parsed->length[v];
    return size;
}

void kayles_hb_names_join(const kayles_hb_parsed *parsed, char *out)
{
    for (int v = 0; v < parsed->vertices; v++) {
        if (v > 0)
            *out++ = '\n';
        memcpy(out, parsed->name[v], (size_t)parsed->length[v]);
        out += parsed->length[v];
    }
}

/* -- the search: value ------------------------------------------------------------------- */

void kayles_hb_search_free(kayles_hb_search *s)
{
    int **arrays[] = {&s->us, &s->vs, &s->loops, &s->above, &s->above_edge, &s->alone,
                      &s->shed, &s->depth, &s->parent, &s->up_edge, &s->order, &s->count,
                      &s->inner, &s->hang, &s->part, &s->lower, &s->upper, &s->back};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) {
        free(*arrays[i]);
        *arrays[i] = NULL;
    }
}

typedef struct {   /* a vertex while the trees are shed, its fields together: one miss */
    int degree;   /* 2 x its edges left, loops aside, + its loops' parity; -1: shed */
    int nbrs;     /* XOR of its neighbours along those edges; once shed, the one it hangs from */
    int edges;    /* XOR of those edges' numbers; once shed, the one it hangs by */
    int hang;     /* XOR of what hangs on it so far */
} leaf_t;

/* Shed every pendant tree, a leaf at a time (the twin's Search._shed): a vertex with one
   edge left has the XOR of its neighbours for that neighbour, and of its edges for that
   edge (a loop comes in twice: it cancels). */
static int shed(kayles_hb_search *s, kayles_hb_pulse *pulse)
{
    int rc = 0, n = s->n, *leaves = ints(n);
    const int *us = s->us, *vs = s->vs;
    ptrdiff_t top = 0;
    leaf_t *at = block((size_t)n * sizeof *at, 1);
    NEED(at);
    NEED(leaves);
    for (ptrdiff_t e = 0; e < s->m; e++) {
        int u = us[e], v = vs[e];
        TICK(RANDOM);
        if (u == v) {
            s->loops[u]++;
            continue;
        }
        at[u].degree += 2;
        at[v].degree += 2;
        at[u].nbrs ^= v;
        at[v].nbrs ^= u;
        at[u].edges ^= (int)e;
        at[v].edges ^= (int)e;
    }
    for (int v = 0; v < n; v++) {
        at[v].degree |= s->loops[v] & 1;
        if (v > 0 && at[v].degree >> 1 == 1)
            leaves[top++] = v;
    }
    while (top > 0) {   /* each vertex is pushed once, when its degree falls to 1 */
        int v = leaves[--top], p, e, g;
        TICK(RANDOM);
        if (at[v].degree >> 1 != 1)   /* the last vertex of a tree away from the ground */
            continue;
        p = at[v].nbrs;
        e = at[v].edges;
        g = at[v].hang ^ (at[v].degree & 1);
        at[p].hang ^= g + 1;
        at[p].nbrs ^= v;
        at[p].edges ^= e;
        at[p].degree -= 2;
        if (at[p].degree >> 1 == 1 && p != 0)
            leaves[top++] = p;
        at[v].degree = -1;
        s->shed[s->shed_count++] = v;
    }
    for (int v = 0; v < n; v++) {
        s->hang[v] = at[v].hang;
        if (at[v].degree == -1) {
            s->above[v] = at[v].nbrs;
            s->above_edge[v] = at[v].edges;
            s->alone[v] = at[v].hang ^ (s->loops[v] & 1);
        }
    }
done:
    free(at);
    free(leaves);
    return rc;
}

typedef struct {   /* an arc of the core: to a vertex, by an edge */
    int to, edge;
} arc_t;

typedef struct {   /* an arc waiting on the search's stack, and where it starts */
    int to, edge, from, depth;   /* depth: its end's, if the arc goes down the tree */
} step_t;

/* The depth-first search of the core from the ground (Search._dfs): each vertex's arcs
   (those of the edges it is the first end of, in edge order, then those it is the second
   end of) pushed at once and taken last first.  Then the core's edges off the tree, loops
   aside (Search._back_edges). */
static int dfs(kayles_hb_search *s, kayles_hb_pulse *pulse)
{
    int rc = 0, n = s->n, *start = filled(n + 1, 0), *fill = NULL;
    const int *us = s->us, *vs = s->vs;
    ptrdiff_t core = 0, top = 0;
    unsigned char *kind = block((size_t)s->m, 1);   /* 0: core, 1: shed or loop, 2: on the tree */
    arc_t *arcs = NULL;
    step_t *stack = NULL;
    NEED(start);
    NEED(kind);
    for (int i = 0; i < s->shed_count; i++)
        kind[s->above_edge[s->shed[i]]] = 1;
    for (ptrdiff_t e = 0; e < s->m; e++) {
        int u = us[e], v = vs[e];
        TICK(RANDOM);
        if (u == v || kind[e]) {
            kind[e] = 1;
            continue;
        }
        start[u + 1]++;
        start[v + 1]++;
        core++;
    }
    for (int x = 0; x < n; x++)
        start[x + 1] += start[x];
    fill = ints(n);
    arcs = block((size_t)(2 * core) * sizeof *arcs, 0);
    stack = block((size_t)(2 * core) * sizeof *stack, 0);
    NEED(fill);
    NEED(arcs);
    NEED(stack);
    memcpy(fill, start, (size_t)n * sizeof(int));
    for (int backward = 0; backward < 2; backward++)
        for (ptrdiff_t e = 0; e < s->m; e++) {
            TICK(backward ? RANDOM : 1);
            if (kind[e] == 0) {
                arc_t *arc = &arcs[fill[backward ? vs[e] : us[e]]++];
                arc->to = backward ? us[e] : vs[e];
                arc->edge = (int)e;
            }
        }
    s->depth[0] = 0;
    s->order[s->order_count++] = 0;
    for (int w = 0, depth = 1;;) {   /* push w's arcs, then take the last arc to a new vertex */
        for (int a = start[w]; a < start[w + 1]; a++) {
            step_t *step = &stack[top++];
            step->to = arcs[a].to;
            step->edge = arcs[a].edge;
            step->from = w;
            step->depth = depth;
        }
        for (;;) {
            step_t *step;
            if (top == 0)
                goto searched;
            step = &stack[--top];
            TICK(RANDOM);
            w = step->to;
            if (s->depth[w] < 0) {
                s->depth[w] = depth = step->depth;
                s->parent[w] = step->from;
                s->up_edge[w] = step->edge;
                kind[step->edge] = 2;
                s->order[s->order_count++] = w;
                depth++;
                break;
            }
        }
    }
searched:
    free(arcs);
    free(stack);
    free(fill);
    arcs = NULL;
    stack = NULL;
    fill = NULL;
    for (int pass = 0; pass < 2; pass++) {   /* count the edges off the tree, then list them */
        s->backs = 0;
        for (ptrdiff_t e = 0; e < s->m; e++) {
            int u = us[e], v = vs[e];
            TICK(1);
            if (kind[e] || s->depth[u] < 0 || s->depth[v] < 0)
                continue;
            if (pass == 1) {
                int deeper = s->depth[u] >= s->depth[v];
                s->lower[s->backs] = deeper ? u : v;
                s->upper[s->backs] = deeper ? v : u;
                s->back[s->backs] = (int)e;
            }
            s->backs++;
        }
        if (pass == 0) {
            s->lower = ints(s->backs);
            s->upper = ints(s->backs);
            s->back = ints(s->backs);
            NEED(s->lower);
            NEED(s->upper);
            NEED(s->back);
        }
    }
done:
    free(start);
    free(fill);
    free(arcs);
    free(stack);
    free(kind);
    return rc;
}

/* Each part's value, deepest first (Search._value). */
static int value(kayles_hb_search *s, kayles_hb_pulse *pulse)
{
    int rc = 0, *count = s->count, *inner = s->inner, *hang = s->hang;
    for (int v = 0; v < s->n; v++) {
        inner[v] = s->depth[v] >= 0 ? s->loops[v] : 0;
        if (s->depth[v] >= s->deepest)
            s->deepest = s->depth[v] + 1;
    }
    for (ptrdiff_t i = 0; i < s->backs; i++) {
        count[s->lower[i]]++;
        count[s->upper[i]]--;
        inner[s->upper[i]]++;
        TICK(RANDOM);
    }
    for (int i = s->order_count - 1; i > 0; i--) {
        int v = s->order[i], p = s->parent[v];
        TICK(RANDOM);
        if (count[v]) {
            count[p] += count[v];
            inner[p] += inner[v] + 1;
            hang[p] ^= hang[v];
        } else {   /* a bridge: v tops a part; its branch is worth 1 + its value */
            int g = (inner[v] & 1) ^ hang[v];
            s->part[v] = g;
            hang[p] ^= g + 1;
        }
    }
    s->part[0] = (inner[0] & 1) ^ hang[0];
    s->value = s->part[0];
done:
    return rc;
}

int kayles_hb_search_open(kayles_hb_search *s, int n, int *us, int *vs, ptrdiff_t m,
                          kayles_hb_pulse *pulse)
{
    int rc = 0;
    memset(s, 0, sizeof *s);
    s->n = n;
    s->m = m;
    s->us = us;
    s->vs = vs;
    NEED(us);
    NEED(vs);
    s->loops = filled(n, 0);
    s->above = filled(n, -1);
    s->above_edge = filled(n, -1);
    s->alone = filled(n, 0);
    s->shed = ints(n);
    s->depth = filled(n, -1);
    s->parent = filled(n, -1);
    s->up_edge = filled(n, -1);
    s->order = ints(n);
    s->count = filled(n, 0);
    s->inner = filled(n, 0);
    s->hang = filled(n, 0);
    s->part = filled(n, 0);
    NEED(s->loops);
    NEED(s->above);
    NEED(s->above_edge);
    NEED(s->alone);
    NEED(s->shed);
    NEED(s->depth);
    NEED(s->parent);
    NEED(s->up_edge);
    NEED(s->order);
    NEED(s->count);
    NEED(s->inner);
    NEED(s->hang);
    NEED(s->part);
    if ((rc = shed(s, pulse)) != 0 || (rc = dfs(s, pulse)) != 0)
        goto done;
    rc = value(s, pulse);
done:
    if (rc != 0)
        kayles_hb_search_free(s);
    return rc;
}

int kayles_hb_grounded(const kayles_hb_search *s, unsigned char *out, kayles_hb_pulse *pulse)
{
    int rc = 0;
    unsigned char *reached = malloc((size_t)s->n);
    NEED(reached);
    for (int v = 0; v < s->n; v++)
        reached[v] = s->depth[v] >= 0;
    for (int i = s->shed_count - 1; i >= 0; i--) {   /* as the neighbour towards the core */
        int v = s->shed[i];
        reached[v] = reached[s->above[v]];
        TICK(RANDOM);
    }
    for (ptrdiff_t e = 0; e < s->m; e++) {
        out[e] = reached[s->us[e]] && reached[s->vs[e]];
        TICK(1);
    }
done:
    free(reached);
    return rc;
}
