/* Green Hackenbush's kernel: an edge list read, a picture's value and its cuts.

   Plain C on flat arrays (no Python), called by ext/_hackenbush.pyx and declared to it
   once in ext/_hackenbush_c.pxd.  kayles/kernels/pure/_hackenbush.py is the twin: its
   header says what each pass computes and why; this is the same passes in the same
   order, with arrays where it has dicts and sets.

   Every long loop counts its steps and calls look(context) every KAYLES_HB_PULSE of
   them (parsing: every `chunk` bytes), some milliseconds apart: a nonzero answer
   stops the call, which frees what it made and returns KAYLES_HB_STOPPED (the caller
   has the reason; ext/_hackenbush.pyx looks at Ctrl-C and the interrupt hook there).
   KAYLES_HB_NO_MEMORY: an allocation failed.  No recursion anywhere; vertex and edge
   numbers, and every value, are ints (pictures have at most KAYLES_HB_EDGES edges, so
   values stay below 2**23). */

#ifndef KAYLES_HACKENBUSH_H
#define KAYLES_HACKENBUSH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KAYLES_HB_EDGES (1 << 22)   /* edges of one picture (kayles/kernels/constants.py) */
#define KAYLES_HB_PULSE (1 << 20)   /* steps between looks: some 1-6 ms (a miss counts 16) */
#define KAYLES_HB_STOPPED (-1)
#define KAYLES_HB_NO_MEMORY (-2)

typedef int (*kayles_hb_look)(void *context);   /* nonzero: stop */

typedef struct {   /* who to ask, and the steps since the last look */
    kayles_hb_look look;
    void *context;
    ptrdiff_t steps;
} kayles_hb_pulse;

typedef struct {   /* a slot of the names' hash table (empty: name NULL) */
    unsigned tag;        /* the high 32 bits of the name's hash */
    int vertex;
    const char *name;    /* in the text */
} kayles_hb_slot;

/* An edge list read (kayles_hb_parse): edge i joins us[i] and vs[i]; vertex v is named
   by the `length[v]` bytes at `name[v]` (pointers into the text; vertex 0 is "g"). */
typedef struct {
    int *us, *vs;
    ptrdiff_t edges, edge_room;
    const char **name;
    ptrdiff_t *length;
    int vertices, vertex_room;
    kayles_hb_slot *slots;       /* the names but the ground's, at most half full */
    size_t slot_mask;
    ptrdiff_t bad;               /* the byte where the first bad token starts; -1: none */
} kayles_hb_parsed;

/* Tokens u-v between whitespace (str.split's: ASCII's, \x1c-\x1f and Unicode's spaces in
   UTF-8); stops at the first bad token or once `most` + 1 edges are read.  0, or
   KAYLES_HB_STOPPED / KAYLES_HB_NO_MEMORY (out freed). */
int kayles_hb_parse(const char *text, ptrdiff_t length, ptrdiff_t most, ptrdiff_t chunk,
                    kayles_hb_parsed *out, kayles_hb_pulse *pulse);
void kayles_hb_parsed_free(kayles_hb_parsed *parsed);
/* The characters (UTF-8 code points) in text[0:bytes]. */
ptrdiff_t kayles_hb_characters(const char *text, ptrdiff_t bytes);
/* The names joined by '\n': its size, and the join written into out. */
ptrdiff_t kayles_hb_names_size(const kayles_hb_parsed *parsed);
void kayles_hb_names_join(const kayles_hb_parsed *parsed, char *out);

/* A picture searched (kayles_hb_search_open): the arrays of the pure twin's Search. */
typedef struct {
    int n;
    ptrdiff_t m;
    int *us, *vs;                    /* the edges */
    int value;
    int *loops;                      /* loops at each vertex */
    int *above, *above_edge, *alone; /* shed vertices: neighbour, edge, value; -1: not shed */
    int *shed;                       /* the shed vertices, leaves first */
    int shed_count;
    int *depth, *parent, *up_edge;   /* the core's search tree; depth -1: not reached */
    int *order;                      /* its preorder */
    int order_count;
    int *count, *inner, *hang, *part;
    int *lower, *upper, *back;       /* the core's edges off the tree: ends and number */
    ptrdiff_t backs;
    int deepest;                     /* 1 + the greatest depth */
} kayles_hb_search;

/* us and vs (malloc'd, m ints each; NULL: no memory) become the search's, freed with it,
   and on failure at once. */
int kayles_hb_search_open(kayles_hb_search *s, int n, int *us, int *vs, ptrdiff_t m,
                          kayles_hb_pulse *pulse);
void kayles_hb_search_free(kayles_hb_search *s);
/* out[e]: whether edge e reaches the ground (m bytes). */
int kayles_hb_grounded(const kayles_hb_search *s, unsigned char *out, kayles_hb_pulse *pulse);
/* The edges whose cut leaves `want`, in increasing order: *won (malloc'd, *count of them;
   NULL when none). */
int kayles_hb_cuts(const kayles_hb_search *s, int want, int direct_per_level, int **won,
                   ptrdiff_t *count, kayles_hb_pulse *pulse);

/* A chain's arms (the pure twin's chain_values, _direct, _trie): out[p - 1] = V(p) for
   p = 1..m; the weights and m sum to less than 2**31. */
int kayles_hb_chain_values(const int *weights, ptrdiff_t m, int direct_per_level, int *out,
                           kayles_hb_pulse *pulse);
int kayles_hb_chain_direct(const int *weights, ptrdiff_t m, int *out, kayles_hb_pulse *pulse);
int kayles_hb_chain_trie(const int *weights, ptrdiff_t m, int *out, kayles_hb_pulse *pulse);

#ifdef __cplusplus
}
#endif

#endif
