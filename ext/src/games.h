/* The games the pruned search (search.h) plays: boards (boards.c: Cram and Node Kayles on
 * any shape of at most 64 cells), graphs (graphs.c: Node Kayles and Arc Kayles on graphs
 * of at most 256 vertices) and Chomp (chomp.c).  Each file's header says what its keys
 * are and which reductions it makes, with their proofs. */
#ifndef KAYLES_GAMES_H
#define KAYLES_GAMES_H

#include "search.h"

enum {
    KB_ARC = 0,               /* a move takes two adjacent cells or vertices (Cram, Arc Kayles) */
    KB_NODE = 1,              /* a move takes a cell or vertex and its neighbours (Node Kayles) */
    KB_BOARD_CELLS = 64,      /* cells of a board: rows * columns */
    KB_GRAPH_VERTICES = 256,  /* vertices of a graph */
    KB_GRAPH_WORDS = 4,       /* words of a set of vertices */
    KB_CANON_VERTICES = 64,   /* components up to this size are labelled canonically */
    KB_CHOMP_SQUARES = 4096,  /* squares of a Chomp diagram (the search's depth) */
    KB_MAX_PARTS = 256,       /* parts of one position */
    KB_SPREAD_BITS = 10       /* boards of at most this many rows transpose by a table */
};

/* ---------------------------------------------------------------- boards */

typedef struct kb_board {
    int rows, cols, rule;
    kb_word all, first_col, last_col;
    unsigned char transposed[KB_BOARD_CELLS];   /* bit r*cols + c -> bit c*cols + r */
    unsigned char line[KB_BOARD_CELLS + 1];     /* the value of a straight line of k cells */
    unsigned char row_start[KB_BOARD_CELLS];    /* bit i -> the first bit of its row */
    unsigned char rows_to[KB_BOARD_CELLS];      /* bit i -> rows from bit 0's to its, counted */
    kb_word spread[1 << KB_SPREAD_BITS];        /* a row's bits down a column (rows <= 10) */
} kb_board;

typedef struct kb_split {     /* a position cut into parts: nim heaps and components */
    int nim;
    int count;
    kb_word keys[KB_MAX_PARTS];
    int sizes[KB_MAX_PARTS];
} kb_split;

void kb_board_init(kb_board* board, int rows, int cols, int rule);
void kb_board_split(const kb_board* board, kb_word free, kb_split* out);
kb_word kb_board_canonical(const kb_board* board, kb_word component);
int kb_board_expand(void* board, kb_search* search, const kb_word* key, int len);
int kb_board_bound(void* board, const kb_word* key, int len);
int kb_board_moves(const kb_board* board, kb_word free, kb_word* moves, int max);

/* ---------------------------------------------------------------- graphs */

typedef struct kb_set {
    kb_word w[KB_GRAPH_WORDS];
} kb_set;

typedef struct kb_graph {
    int n, rule;              /* vertices; KB_ARC or KB_NODE */
    kb_set adj[KB_GRAPH_VERTICES];
    int leaves;               /* how many labellings a canonical labelling may try */
    uint64_t fallbacks;       /* labellings that stopped there (exact keys, not canonical) */
    uint64_t work;            /* the labellings' work since the search last counted it */
} kb_graph;

void kb_graph_init(kb_graph* graph, int n, int rule, int leaves);
void kb_graph_edge(kb_graph* graph, int u, int v);
int kb_graph_split(kb_graph* graph, const kb_set* alive, kb_word* keys, int room, int* lens,
                   int* sizes, int max, int* nim);
int kb_graph_key(kb_graph* graph, const kb_set* component, kb_word* key);
int kb_graph_moves(const kb_graph* graph, const kb_set* alive, kb_set* moves, int max);
int kb_graph_expand(void* graph, kb_search* search, const kb_word* key, int len);
int kb_graph_bound(void* graph, const kb_word* key, int len);

/* ---------------------------------------------------------------- Chomp */

typedef struct kb_chomp {
    int rows, cols, bits;     /* the frame; bits a row length */
    int words;                /* words of a key */
} kb_chomp;

void kb_chomp_init(kb_chomp* chomp, int rows, int cols);
void kb_chomp_key(const kb_chomp* chomp, const int* lengths, int nrows, kb_word* key);
int kb_chomp_moves(const kb_chomp* chomp, const int* lengths, int nrows, int* out, int room);
int kb_chomp_expand(void* chomp, kb_search* search, const kb_word* key, int len);
int kb_chomp_bound(void* chomp, const kb_word* key, int len);

#endif
