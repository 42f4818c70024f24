/* The pruned search of games that fall apart into sums: the core every board and graph
 * family shares (ext/src/search.c), its exact bounded transposition table, and the games
 * (ext/src/boards.c, graphs.c, chomp.c).
 *
 * A *component* is a position that the game does not split further, named by a *key*: a
 * few 64-bit words that describe it exactly, the same for every position the game counts
 * as the same (symmetries, relabelling).  A key's length must follow from its words (a
 * game writes its own length into them where lengths vary).  The game's expand() writes
 * a component's options, each an *option* of zero or more parts (its components), through
 * kb_option() and kb_part(); a part that is a known nim heap goes in as kb_heap().
 *
 * The search (kb_nimber) is Beling and Rogalski's aspiration search (AI 283, 2020) over
 * Lemoine and Viennot's principle (TCS 462, 2012): "is the value r?" asked of the hardest
 * component of each option against the target XOR the exact values of the other parts,
 * the enhanced transposition cut-off first (options whose parts are all known never enter
 * the recursion), options sorted easiest first, an option classified once (consumed).
 * search.c says how and why.  The table holds exact values and *exclusions*: the small
 * values (0 to 10) an answer "not in the set" ruled out for a component not yet solved.
 *
 * The table (kb_table) is exact: a key's first word goes through a bijective mixer, the
 * mixed word's low bits pick a cluster of eight entries and the rest is stored with the
 * value, the other words verbatim, so two keys never share an entry.  It grows by doubling
 * up to the memory cap given, then evicts: from a full cluster its oldest exclusion, else
 * its oldest value (an exclusion is dropped rather than push a value out).
 */
#ifndef KAYLES_SEARCH_H
#define KAYLES_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* The search counts bits everywhere: on x86-64 it is compiled for the POPCNT instruction
 * (every x86-64 CPU since 2008 has it; kb_cpu_ok() says whether this one does, and the
 * compiled modules refuse to load without it, leaving the pure twins in charge). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(KAYLES_PORTABLE_ONLY)
#pragma GCC target("popcnt")
#endif

typedef uint64_t kb_word;

enum {
    KB_OK = 0,
    KB_STOPPED = 1,           /* the look hook asked to stop */
    KB_NO_MEMORY = 2,         /* malloc failed */
    KB_CUT = 3,               /* (inside the search) an expansion stopped by in_set's cut-off */
    KB_NOT_IN_SET = -1,       /* in_set's answer: the value is not in the set asked about */
    KB_VALUE_BITS = 12,       /* bits of an entry's value field */
    KB_STORED_MAX = 2047,     /* a larger value is searched each time, never stored */
    KB_EXCLUDED = 2048,       /* a field of this bit: values 0 .. 10 ruled out (the low bits) */
    KB_EXCLUDE_VALUES = 11,   /* the values an exclusion can rule out */
    KB_EMPTY = 4095,          /* an entry's value field when it holds nothing */
    KB_CLUSTER = 8,           /* entries a cluster: a lookup reads one (64 bytes of 1-word keys) */
    KB_MAX_WIDTH = 40,        /* words of the longest key stored (a longer one never is) */
    KB_FIRST_CLUSTERS = 64,   /* a table's first size, in clusters (it doubles from there) */
    KB_SMALL_LOG2 = 14,       /* a table of fewer than 2**14 clusters grows at its first full one */
    KB_LOOK_WORK = 1 << 16    /* units of work between looks (a unit: one part, some 50-200 ns) */
};

typedef struct kb_table {
    int width;                /* words an entry (the key's length) */
    int log2;                 /* log2 of the number of clusters (-1: not allocated) */
    int bits;                 /* bits of the mixer's domain: min(64, log2 + 52) */
    kb_word* data;
    size_t count;             /* entries held */
} kb_table;

typedef struct kb_memo {
    kb_table tables[KB_MAX_WIDTH + 1];   /* one a key length (index 0 unused) */
    size_t cap;               /* bytes the tables may use together */
    size_t used;              /* bytes they use */
    uint64_t evictions;       /* entries pushed out of a full cluster */
    uint64_t unstored;        /* stores refused: a key too long or too large for the table */
} kb_memo;

void kb_memo_init(kb_memo* memo, size_t cap);
void kb_memo_free(kb_memo* memo);
int kb_memo_get(const kb_memo* memo, const kb_word* key, int len);  /* the value, or -1 */
void kb_memo_put(kb_memo* memo, const kb_word* key, int len, int value);
/* The values (bit v: value v, v < KB_EXCLUDE_VALUES) the key is known not to have, 0 when
 * none is or its value is known; adding to them stores nothing where the value is known. */
int kb_memo_excluded(const kb_memo* memo, const kb_word* key, int len);
void kb_memo_exclude(kb_memo* memo, const kb_word* key, int len, int values);
size_t kb_memo_count(const kb_memo* memo);

kb_word kb_mix(kb_word x, int bits);     /* the bijection on [0, 2**bits) */
kb_word kb_unmix(kb_word x, int bits);   /* its inverse */
kb_word kb_hash_rest(const kb_word* words, int n);   /* the hash of a key's other words */

struct kb_search;
typedef int (*kb_expand_fn)(void* game, struct kb_search* search, const kb_word* key,
                            int len);
typedef int (*kb_bound_fn)(void* game, const kb_word* key, int len);
typedef int (*kb_look_fn)(void* arg);

typedef struct kb_place {     /* where a key goes in its table */
    size_t cluster;
    kb_word remainder;
} kb_place;

typedef struct kb_piece {     /* one part of an option being written */
    int at;                   /* its key: words [at, at + len) of the scratch words */
    int len;
    int size;                 /* its size (cells, vertices): the sort's measure */
    int placed;               /* where it would be in the table (else no table holds it) */
    kb_place where;
} kb_piece;

typedef struct kb_pending {   /* an option being written: parts [first, first + count) */
    int first, count;
    int nim;                  /* XOR of the heaps and known parts */
} kb_pending;

typedef struct kb_block {     /* a block of the frames' stack: never moved */
    char* base;
    size_t size, top;
} kb_block;

typedef struct kb_search {
    void* game;
    kb_expand_fn expand;      /* writes a component's options (kb_option, kb_part, kb_heap) */
    kb_bound_fn bound;        /* an upper bound on a component's value: its number of moves */
    kb_memo* memo;
    kb_look_fn look;          /* called every KB_LOOK_WORK units: nonzero stops the search */
    void* look_arg;
    uint64_t work;            /* units since the last look */
    /* the options of the component being expanded */
    kb_pending* options;
    int noptions, options_room;
    int finished;             /* options looked up (one behind those written) */
    kb_piece* parts;
    int nparts, parts_room;
    kb_word* words;
    int nwords, words_room;
    int failed;               /* a kb_option/kb_part/kb_heap ran out of memory */
    int cut;                  /* the options known so far rule out every value asked about */
    int known;                /* the values below KB_EXCLUDE_VALUES of the options known */
    kb_word* potential;       /* in_set's potential set while it expands (else NULL) */
    int npotential;
    const kb_word* want;      /* ... and the set it was asked about */
    int nwant;
    uint64_t units;           /* work of the expansion under way */
    /* the frames' stack */
    kb_block* blocks;
    int nblocks, block;       /* blocks made; the one in use */
    /* counts */
    uint64_t expanded;        /* components expanded (positions visited) */
    uint64_t lookups;         /* components looked up in the memo */
} kb_search;

void kb_search_init(kb_search* search, void* game, kb_expand_fn expand, kb_bound_fn bound,
                    kb_memo* memo, kb_look_fn look, void* look_arg);
void kb_search_free(kb_search* search);
/* The value of the component `key` into *value; from 1 up when `winning` (the value is
 * known not to be 0).  KB_OK, KB_STOPPED or KB_NO_MEMORY. */
int kb_nimber(kb_search* search, const kb_word* key, int len, int winning, int* value);
/* Whether the value of the component `key` is `value` into *yes, found with no more of the
 * values than that needs (the search's "is it in this set?" asked of one value).  KB_OK,
 * KB_STOPPED or KB_NO_MEMORY. */
int kb_has_value(kb_search* search, const kb_word* key, int len, int value, int* yes);
int kb_cpu_ok(void);   /* searchcpu.c */
/* Count units of work; past KB_LOOK_WORK, call the look hook. KB_OK or KB_STOPPED. */
int kb_spend(kb_search* search, uint64_t units);

/* What expand() calls: a new option (nonzero: stop writing options, the search needs no
 * more); a part of it; a known nim heap of it.  expand() writes the options in the
 * order of the search and exactly bound() of them. */
int kb_option(kb_search* search);
void kb_part(kb_search* search, const kb_word* key, int len, int size);
void kb_heap(kb_search* search, int value);

#endif
