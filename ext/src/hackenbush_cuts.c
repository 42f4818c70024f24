/* Green Hackenbush's kernel (hackenbush.h): every cut that leaves a value, and the
   chains' arms (the pure twin's Search.cuts and chain_values, in the same passes). */

#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE   /* madvise and MADV_HUGEPAGE under -std=c11 (hackenbush_steps.h) */
#endif

#include "hackenbush.h"
#include "hackenbush_steps.h"

#include <stdlib.h>
#include <string.h>

/* -- arms of a chain ---------------------------------------------------------------------- */

typedef struct {   /* the arms' working memory, kept from one class to the next */
    int *runs, *child, *leaf, *key, *stack;
    ptrdiff_t runs_room, child_room, leaf_room, key_room, stack_room;
} arms_t;

static void arms_free(arms_t *arms)
{
    free(arms->runs);
    free(arms->child);
    free(arms->leaf);
    free(arms->key);
    free(arms->stack);
}

static int levels_of(const int *weights, ptrdiff_t m)
{   /* every V(p) <= sum + m < 2**levels */
    long long total = m;
    int levels = 0;
    for (ptrdiff_t i = 0; i < m; i++)
        total += weights[i];
    while (total >> levels)
        levels++;
    return levels > 1 ? levels : 1;
}

static int direct(arms_t *arms, const int *w, ptrdiff_t m, int *out, kayles_hb_pulse *pulse)
{
    int rc = 0;
    int *runs;   /* runs[i]: where the run of zero weights through i starts */
    if (grow((void **)&arms->runs, &arms->runs_room, m, sizeof(int)))
        return KAYLES_HB_NO_MEMORY;
    runs = arms->runs;
    for (ptrdiff_t i = 0; i < m; i++)
        runs[i] = (int)(w[i] == 0 && i > 0 && w[i - 1] == 0 ? runs[i - 1] : i);
    for (ptrdiff_t p = 0; p < m; p++) {
        int x = w[p];
        ptrdiff_t c = p - 1, steps = 1;
        while (c >= 0) {
            if (w[c]) {
                x = w[c] ^ (x + 1);
                c--;
            } else {
                x += (int)(c - runs[c] + 1);
                c = runs[c] - 1;
            }
            steps++;
        }
        out[p] = x;
        TICK(steps);
    }
done:
    return rc;
}

static int trie(arms_t *arms, const int *w, ptrdiff_t m, int *out, kayles_hb_pulse *pulse)
{
    int rc = 0, levels = levels_of(w, m), mask = 0, node, *child, *key, *stack;
    ptrdiff_t nodes = 1, top;
    if (grow((void **)&arms->child, &arms->child_room, 2, sizeof(int))
        || grow((void **)&arms->leaf, &arms->leaf_room, m, sizeof(int)))
        return KAYLES_HB_NO_MEMORY;
    arms->child[0] = arms->child[1] = -1;   /* node k's children: child[2k], child[2k + 1] */
    for (ptrdiff_t c = m - 1; c >= 0; c--) {
        int stored = w[c] ^ mask, level;
        if (grow((void **)&arms->child, &arms->child_room, 2 * (nodes + levels), sizeof(int)))
            return KAYLES_HB_NO_MEMORY;
        child = arms->child;
        node = 0;
        for (level = 0; level < levels; level++) {
            int at = 2 * node + (stored >> level & 1);
            node = child[at];
            if (node < 0) {
                node = child[at] = (int)nodes++;
                child[2 * node] = child[2 * node + 1] = -1;
            }
        }
        arms->leaf[c] = node;
        if (c == 0)
            break;
        for (node = 0, level = 0; node >= 0 && level < levels; level++) {   /* x -> x + 1 ... */
            int at = 2 * node, zero = child[at], one = child[at + 1];
            child[at] = one;   /* swapped; then on into what is now child[at + mask's bit] */
            child[at + 1] = zero;
            node = mask >> level & 1 ? zero : one;
        }
        mask ^= w[c - 1];   /* ... then x -> w ^ x */
        TICK(RANDOM * levels);
    }
    /* each leaf's key, read down the trie (a stack of node, level, bits) */
    if (grow((void **)&arms->key, &arms->key_room, nodes, sizeof(int))
        || grow((void **)&arms->stack, &arms->stack_room, 3 * (2 * levels + 2), sizeof(int)))
        return KAYLES_HB_NO_MEMORY;
    child = arms->child;
    key = arms->key;
    stack = arms->stack;
    stack[0] = stack[1] = stack[2] = 0;
    top = 1;
    while (top > 0) {
        int bits, level;
        top--;
        node = stack[3 * top];
        level = stack[3 * top + 1];
        bits = stack[3 * top + 2];
        TICK(1);
        if (level == levels) {
            key[node] = bits ^ mask;
            continue;
        }
        for (int bit = 0; bit < 2; bit++) {
            int below = child[2 * node + bit];
            if (below >= 0) {
                stack[3 * top] = below;
                stack[3 * top + 1] = level + 1;
                stack[3 * top + 2] = bits | bit << level;
                top++;
            }
        }
    }
    for (ptrdiff_t c = 0; c < m; c++)
        out[c] = key[arms->leaf[c]];
done:
    return rc;
}

static int chain_values(arms_t *arms, const int *w, ptrdiff_t m, int direct_per_level, int *out,
                        kayles_hb_pulse *pulse)
{
    ptrdiff_t nonzero = 0;
    if (m == 0)
        return 0;
    for (ptrdiff_t i = 0; i < m; i++)
        nonzero += w[i] != 0;
    if (nonzero <= (long long)direct_per_level * levels_of(w, m))
        return direct(arms, w, m, out, pulse);
    return trie(arms, w, m, out, pulse);
}

int kayles_hb_chain_values(const int *weights, ptrdiff_t m, int direct_per_level, int *out,
                           kayles_hb_pulse *pulse)
{
    arms_t arms = {0};
    int rc = chain_values(&arms, weights, m, direct_per_level, out, pulse);
    arms_free(&arms);
    return rc;
}

int kayles_hb_chain_direct(const int *weights, ptrdiff_t m, int *out, kayles_hb_pulse *pulse)
{
    arms_t arms = {0};
    int rc = direct(&arms, weights, m, out, pulse);
    arms_free(&arms);
    return rc;
}

int kayles_hb_chain_trie(const int *weights, ptrdiff_t m, int *out, kayles_hb_pulse *pulse)
{
    arms_t arms = {0};
    int rc = m > 0 ? trie(&arms, weights, m, out, pulse) : 0;
    arms_free(&arms);
    return rc;
}

/* -- the search: cuts -------------------------------------------------------------------- */

typedef struct {   /* one call of kayles_hb_cuts */
    const kayles_hb_search *s;
    int *top, *goal;   /* each vertex's part, by its top vertex; each part's target (-1: none) */
    list_t won;
    arms_t arms;
    int direct_per_level;
    kayles_hb_pulse *pulse;
} cuts_t;

/* The winning cuts in the shed trees, from the core out (Search._shed_cuts). */
static int shed_cuts(cuts_t *k)
{
    const kayles_hb_search *s = k->s;
    kayles_hb_pulse *pulse = k->pulse;
    int rc = 0, flips = 0, *target = filled(s->n, -1);
    unsigned char *flipped = calloc((size_t)s->n, 1);   /* shed vertices whose loops win */
    NEED(target);
    NEED(flipped);
    for (int i = s->shed_count - 1; i >= 0; i--) {
        int v = s->shed[i], p = s->above[v], t, held, d;
        TICK(RANDOM);
        if (s->above[p] >= 0) {   /* hung from a shed vertex */
            t = target[p];
            held = s->alone[p];
        } else if (s->depth[p] >= 0) {   /* from the core */
            t = k->goal[k->top[p]];
            held = s->part[k->top[p]];
        } else {   /* from a tree away from the ground */
            continue;
        }
        if (t < 0)
            continue;
        d = t ^ held ^ (s->alone[v] + 1);
        if (d == 0 && append(&k->won, s->above_edge[v])) {
            rc = KAYLES_HB_NO_MEMORY;
            goto done;
        }
        target[v] = d - 1;
        if (d && s->loops[v] && d - 1 == (s->alone[v] ^ 1)) {   /* a loop's cut flips parity */
            flipped[v] = 1;
            flips = 1;
        }
    }
    if (flips)
        for (ptrdiff_t e = 0; e < s->m; e++) {
            TICK(1);
            if (s->us[e] == s->vs[e] && flipped[s->us[e]] && append(&k->won, (int)e)) {
                rc = KAYLES_HB_NO_MEMORY;
                goto done;
            }
        }
done:
    free(target);
    free(flipped);
    return rc;
}

typedef struct {   /* one class's buffers, each room for the longest chain */
    int *weights, *reversed, *out, *back_arm, *edges;
} class_t;

/* The winning cuts among one class (Search._class): the tree edges above chain[0..length)
   (deepest first) and the off-tree edge `back` (-1: none); `top` the part's top vertex,
   `want` its target. */
static int one_class(cuts_t *k, class_t *c, const int *chain, int length, int back, int top,
                     int want)
{
    const kayles_hb_search *s = k->s;
    const int *inner = s->inner, *hang = s->hang;
    int rc, m = 0, edges = 0, root, bottom = chain[0], head = chain[length - 1];
    for (int i = length - 1; i > 0; i--) {   /* the pieces from the root piece on */
        int upper = chain[i], lower = chain[i - 1];
        c->weights[m++] = ((inner[upper] - inner[lower] - 1) & 1) ^ hang[upper] ^ hang[lower];
    }
    for (int i = length - 1; i >= 0; i--)
        c->edges[edges++] = s->up_edge[chain[i]];
    if (back >= 0) {
        c->weights[m++] = (inner[bottom] & 1) ^ hang[bottom];
        c->edges[edges++] = back;
        root = ((inner[top] - inner[head] - 2) & 1) ^ hang[top] ^ hang[head];
    } else {
        root = ((inner[top] - inner[head] - 1 + inner[bottom]) & 1) ^ hang[top] ^ hang[head]
               ^ hang[bottom];
    }
    for (int i = 0; i < m; i++)
        c->reversed[i] = c->weights[m - 1 - i];
    if ((rc = chain_values(&k->arms, c->weights, m, k->direct_per_level, c->out, k->pulse)) != 0
        || (rc = chain_values(&k->arms, c->reversed, m, k->direct_per_level, c->back_arm,
                              k->pulse)) != 0)
        return rc;
    for (int j = 0; j <= m; j++) {   /* cutting edges[j]: pieces 0..j-1 one arm, j..m-1 the other */
        int a = j ? c->out[j - 1] + 1 : 0, b = j < m ? c->back_arm[m - 1 - j] + 1 : 0;
        if ((root ^ a ^ b) == want && append(&k->won, c->edges[j]))
            return KAYLES_HB_NO_MEMORY;
    }
    return 0;
}

static int single(const cuts_t *k, int top)   /* whether a class of one edge wins in top's part */
{
    int t = k->goal[top];
    return t >= 0 && t == (k->s->part[top] ^ 1);
}

/* The winning cuts of edges inside parts, by classes of cut pairs (Search._inside). */
static int inside(cuts_t *k)
{
    const kayles_hb_search *s = k->s;
    const int *depth = s->depth, *parent = s->parent, *count = s->count, *order = s->order;
    const int *lower = s->lower, *upper = s->upper, *back = s->back, *goal = k->goal;
    const int *top = k->top;
    kayles_hb_pulse *pulse = k->pulse;
    int rc = 0, n = s->n, deepest = s->deepest, room = s->order_count + 1, path_length = 0;
    int any_single = 0;
    int *start = filled(deepest + 1, 0), *by_depth = ints(s->backs), *high = filled(n, -1);
    int *jump = ints(n), *over = filled(n, 0), *link = filled(n, -1);
    int *last = filled(s->backs + 1, -1), *path = ints(room), *saved = ints(room);
    int *chain = ints(room);
    unsigned char *linked = calloc((size_t)n, 1), *in_class = calloc((size_t)(s->m + 1), 1);
    class_t c = {ints(room), ints(room), ints(room), ints(room), ints(room)};
    NEED(start);
    NEED(by_depth);
    NEED(high);
    NEED(jump);
    NEED(over);
    NEED(link);
    NEED(last);
    NEED(path);
    NEED(saved);
    NEED(chain);
    NEED(linked);
    NEED(in_class);
    NEED(c.weights);
    NEED(c.reversed);
    NEED(c.out);
    NEED(c.back_arm);
    NEED(c.edges);
    /* high[v]: the depth of the deepest landing among the edges over v's tree edge (back
       edges taken from the deepest landing up, a counting sort by depth; union-find
       skips the vertices done) */
    for (ptrdiff_t i = 0; i < s->backs; i++)
        start[deepest - depth[upper[i]]]++;
    for (int d = 1; d <= deepest; d++)
        start[d] += start[d - 1];
    for (ptrdiff_t i = s->backs - 1; i >= 0; i--)
        by_depth[--start[deepest - depth[upper[i]]]] = (int)i;
    for (int v = 0; v < n; v++)
        jump[v] = v;
    for (ptrdiff_t i = 0; i < s->backs; i++) {   /* XOR of the numbers of the edges over v */
        over[lower[i]] ^= back[i];
        over[upper[i]] ^= back[i];
        TICK(RANDOM);
    }
    for (ptrdiff_t j = 0; j < s->backs; j++) {
        int i = by_depth[j], h = depth[upper[i]], x = lower[i];
        for (;;) {
            TICK(RANDOM);
            while (jump[x] != x) {   /* find, halving the path */
                jump[x] = jump[jump[x]];
                x = jump[x];
            }
            if (depth[x] <= h)
                break;
            high[x] = h;
            jump[x] = parent[x];
            x = parent[x];
        }
    }
    for (int i = s->order_count - 1; i > 0; i--) {
        over[parent[order[i]]] ^= over[order[i]];
        TICK(RANDOM);
    }
    /* link[v]: the next tree edge up in v's class (the deepest ancestor u with the same
       count, when no edge over v lands at u or below), from a walk down the tree; last[c]
       the deepest vertex of count c on the path, saved[] what each replaced (-2: none) */
    for (int i = 1; i < s->order_count; i++) {
        int v = order[i], p = parent[v], u;
        TICK(RANDOM);
        while (path_length > 0 && path[path_length - 1] != p) {
            int x = path[--path_length];
            if (saved[path_length] != -2)
                last[count[x]] = saved[path_length];
        }
        path[path_length] = v;
        if (count[v] == 0 || goal[top[v]] < 0) {
            saved[path_length++] = -2;   /* not in a class of interest */
            continue;
        }
        u = last[count[v]];
        if (u >= 0 && depth[u] > high[v]) {
            link[v] = u;
            linked[u] = 1;
        }
        saved[path_length++] = u;
        last[count[v]] = v;
    }
    for (int i = 0; i < s->order_count; i++) {
        int v = order[i], length = 0, one;
        if (v == 0 || count[v] == 0 || linked[v] || goal[top[v]] < 0)
            continue;
        chain[length++] = v;   /* deepest first */
        while (link[chain[length - 1]] >= 0) {
            chain[length] = link[chain[length - 1]];
            length++;
        }
        TICK(RANDOM * length);
        one = count[v] == 1;
        if (length == 1 && !one)
            continue;   /* a class of one edge: with the others below */
        if (one)
            in_class[over[v]] = 1;
        if ((rc = one_class(k, &c, chain, length, one ? over[v] : -1, top[v], goal[top[v]])) != 0)
            goto done;
    }
    /* classes of one edge (cutting it leaves the part's value XOR 1), loops included */
    for (int i = 0; i < s->order_count; i++) {
        int v = order[i];
        if (v == 0 || count[v] == 0)
            any_single |= single(k, v);   /* v tops a part */
    }
    if (!any_single)
        goto done;
    for (int i = 1; i < s->order_count; i++) {
        int v = order[i];
        TICK(1);
        if (count[v] >= 2 && !linked[v] && link[v] < 0 && single(k, top[v])
            && append(&k->won, s->up_edge[v]))
            goto no_memory;
    }
    for (ptrdiff_t i = 0; i < s->backs; i++) {
        TICK(1);
        if (!in_class[back[i]] && single(k, top[lower[i]]) && append(&k->won, back[i]))
            goto no_memory;
    }
    for (ptrdiff_t e = 0; e < s->m; e++) {
        int u = s->us[e];
        TICK(1);
        if (u == s->vs[e] && depth[u] >= 0 && single(k, top[u]) && append(&k->won, (int)e))
            goto no_memory;
    }
    goto done;
no_memory:
    rc = KAYLES_HB_NO_MEMORY;
done:
    free(start);
    free(by_depth);
    free(high);
    free(jump);
    free(over);
    free(link);
    free(last);
    free(path);
    free(saved);
    free(chain);
    free(linked);
    free(in_class);
    free(c.weights);
    free(c.reversed);
    free(c.out);
    free(c.back_arm);
    free(c.edges);
    return rc;
}

int kayles_hb_cuts(const kayles_hb_search *s, int want, int direct_per_level, int **won,
                   ptrdiff_t *count, kayles_hb_pulse *pulse)
{
    int rc = 0, circuit = 0;
    unsigned char *times = NULL;   /* how often each edge was found */
    cuts_t k = {s, filled(s->n, 0), filled(s->n, -1), {NULL, 0, 0}, {0}, direct_per_level,
                pulse};
    *won = NULL;
    *count = 0;
    if (want == s->value)   /* no option of a game has the game's own value */
        goto done;
    NEED(k.top);
    NEED(k.goal);
    k.goal[0] = want;
    for (int i = 1; i < s->order_count; i++) {   /* each part's target, top-down */
        int v = s->order[i], p = s->parent[v], t, d;
        TICK(RANDOM);
        if (s->count[v]) {
            k.top[v] = k.top[p];
            continue;
        }
        k.top[v] = v;
        t = k.goal[k.top[p]];
        if (t < 0) {
            k.goal[v] = -1;
            continue;
        }
        d = t ^ s->part[k.top[p]] ^ (s->part[v] + 1);
        if (d == 0 && append(&k.won, s->up_edge[v])) {
            rc = KAYLES_HB_NO_MEMORY;
            goto done;
        }
        k.goal[v] = d - 1;
    }
    for (int i = 0; i < s->order_count; i++) {   /* a part with a circuit to aim at */
        int v = s->order[i];
        if ((v == 0 || s->count[v] == 0) && k.goal[v] >= 0 && s->inner[v])
            circuit = 1;
    }
    if ((circuit && (rc = inside(&k)) != 0) || (rc = shed_cuts(&k)) != 0)
        goto done;
    /* in increasing order: counted by edge (each is found once) */
    times = calloc((size_t)(s->m > 0 ? s->m : 1), 1);
    NEED(times);
    for (ptrdiff_t i = 0; i < k.won.count; i++)
        times[k.won.at[i]]++;
    for (ptrdiff_t e = 0, at = 0; e < s->m; e++)
        for (int again = times[e]; again > 0; again--)
            k.won.at[at++] = (int)e;
    *won = k.won.at;
    *count = k.won.count;
    k.won.at = NULL;
done:
    free(times);
    free(k.top);
    free(k.goal);
    free(k.won.at);
    arms_free(&k.arms);
    return rc;
}
