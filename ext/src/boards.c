/* Cram and Node Kayles on boards of at most 64 cells (games.h).
 *
 * A position is a bitboard of its free cells, bit r * cols + c for row r, column c.
 * Cram (KB_ARC): a move fills two free adjacent cells.  Node Kayles (KB_NODE): a move fills
 * a free cell and its free neighbours.  A component is a set of free cells connected by
 * adjacency; its key is one word: the component moved to the top-left corner, the least of
 * its images under the symmetries of the square that fit the board (rows x cols): a
 * component congruent to another, anywhere on the board, has the same key.  (The images
 * that fit depend on the shape alone, so the least is a function of the congruence class.)
 *
 * Splitting a position (kb_board_split) into parts: nim heaps and components.
 *  - Node Kayles: a single cell is the heap *1; components are the connected sets.
 *  - Both games: a straight line of k cells is a heap, of the value the line's game has
 *    (Cram on 1 x k is Dawson's Kayles 0.07; Node Kayles on a path is Dawson's Chess),
 *    computed here from the rules once (line_values).
 *  - Cram: isolated cells have no move and are dropped.  Before the cells are grouped,
 *    three reductions (Beling's igsolve; here for boards, and tested against a plain
 *    search in tests/kernels/test_boards.py).  A *tuft* is a free cell with exactly one free
 *    neighbour, its *centre*.
 *    (1) Twin tufts: of the tufts of one centre all but one are deleted.  Proof, by
 *        induction on the cells: with tufts t1, t2 of centre c, the move (t2, c) leaves the
 *        position that (t1, c) leaves, up to the isolated cell t1 or t2; every other move
 *        keeps t1, t2 twin tufts of c or removes c, so the options of X and of X - t2 have
 *        the same values and so do X and X - t2.
 *    (2) Bridges: a cell b that is neither a tuft nor a centre, all of whose free
 *        neighbours are centres, is deleted.  Proof: the move (b, c) leaves X - b - c with
 *        c's tuft t isolated, which is the position (c, t) leaves in X - b; every other
 *        move keeps b such a cell (a centre loses its tuft only with the centre), so by
 *        induction the values of X's options are those of X - b's, and X = X - b.
 *    (3) The 2 x 2 cut: in a 2 x 2 block of free cells a b / c d where a's left and upper
 *        neighbours and d's right and lower neighbours are filled (or off the board), or
 *        b's right and upper and c's left and lower, the horizontal pairs a-b and c-d are
 *        ignored when the cells are grouped.  Proof: in the first case N(a) = N(d) = {b, c}
 *        (false twins), the move (a, b) leaves the position (d, b) leaves with a and d
 *        swapped, and (c, d) the one (c, a) leaves; the same holds in every position that
 *        keeps the block's cells, and once a (d) is gone so is c (b), so the edges a-b and
 *        c-d never change a value: the game is that of the board without them, whose
 *        components are found here.  A component is still played as the set of its cells
 *        (with every edge), which changes nothing by the same argument.  Where a cut did
 *        split a group, each piece is reduced and split again.
 * Duplicate components cancel in the search core (G + G = 0).
 *
 * Moves in order (the search sorts options by the sizes of their parts and keeps this order
 * among equals): Cram's vertical dominoes from the middle column outwards, then horizontal
 * ones from the middle row outwards; Node Kayles' cells by rows from the middle row
 * outwards, each row left to right.  Central moves split the board.
 */
#include "games.h"

#include <string.h>

static int popcount(kb_word x) { return __builtin_popcountll(x); }

/* Shifts by a row (1 to 64 bits: a board of one row of 64 cells shifts by 64). */
static kb_word up_rows(kb_word x, int n) { return x >> (n - 1) >> 1; }
static kb_word down_rows(kb_word x, int n) { return x << (n - 1) << 1; }

static kb_word reversed(kb_word x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

static kb_word row_mask(const kb_board* b) {
    return b->cols >= 64 ? ~(kb_word)0 : (((kb_word)1 << b->cols) - 1);
}

static int mex_of(const unsigned char* seen, int n) {
    int m = 0;
    while (m < n && seen[m])
        m++;
    return m;
}

/* line[k]: Cram on 1 x k (0.07: a move takes two adjacent cells of a row) or Node Kayles on
 * the path of k vertices (a move takes a vertex and its neighbours), from the rules. */
static void line_values(kb_board* b) {
    unsigned char seen[KB_BOARD_CELLS + 2];
    b->line[0] = 0;
    for (int k = 1; k <= KB_BOARD_CELLS; k++) {
        memset(seen, 0, sizeof(seen));
        if (b->rule == KB_ARC) {
            for (int a = 0; a + 2 <= k; a++)
                seen[b->line[a] ^ b->line[k - 2 - a]] = 1;
        } else {
            for (int i = 0; i < k; i++) {
                int left = i >= 1 ? i - 1 : 0, right = k - i - 2 > 0 ? k - i - 2 : 0;
                seen[b->line[left] ^ b->line[right]] = 1;
            }
        }
        b->line[k] = (unsigned char)mex_of(seen, KB_BOARD_CELLS + 2);
    }
}

void kb_board_init(kb_board* b, int rows, int cols, int rule) {
    memset(b, 0, sizeof(*b));
    b->rows = rows;
    b->cols = cols;
    b->rule = rule;
    b->all = rows * cols >= 64 ? ~(kb_word)0 : (((kb_word)1 << (rows * cols)) - 1);
    for (int r = 0; r < rows; r++) {
        b->first_col |= (kb_word)1 << (r * cols);
        b->last_col |= (kb_word)1 << (r * cols + cols - 1);
        for (int c = 0; c < cols; c++) {
            b->transposed[r * cols + c] = (unsigned char)(c * cols + r);
            b->row_start[r * cols + c] = (unsigned char)(r * cols);   /* (no division) */
            b->rows_to[r * cols + c] = (unsigned char)(r + 1);
        }
    }
    if (rows <= KB_SPREAD_BITS)   /* a row of a component that transposes: under 2**min(r, c) */
        for (int bits = 0; bits < (1 << (rows < cols ? rows : cols)); bits++)
            for (int j = 0; j < rows; j++)
                if (bits >> j & 1)
                    b->spread[bits] |= (kb_word)1 << (j * cols);
    line_values(b);
}

/* Neighbour masks: bit i set when that neighbour of cell i is free. */
static kb_word below(const kb_board* b, kb_word x) { return up_rows(x, b->cols); }
static kb_word above(const kb_board* b, kb_word x) { return down_rows(x, b->cols) & b->all; }
static kb_word right_of(const kb_board* b, kb_word x) { return (x & ~b->first_col) >> 1; }
static kb_word left_of(const kb_board* b, kb_word x) { return (x & ~b->last_col) << 1; }

static kb_word around(const kb_board* b, kb_word t) {   /* the cells next to those of t */
    return up_rows(t, b->cols) | (down_rows(t, b->cols) & b->all) |
           ((t & ~b->first_col) >> 1) | ((t & ~b->last_col) << 1);
}

/* Cram's reductions (1) and (2) of the header, on one position. */
static kb_word reduced(const kb_board* b, kb_word x) {
    kb_word d = below(b, x), u = above(b, x), r = right_of(b, x), l = left_of(b, x);
    kb_word two = (d & u) | (d & r) | (d & l) | (u & r) | (u & l) | (r & l);
    kb_word tufts = x & (d | u | r | l) & ~two, centres, others;
    kb_word t_above, t_left, t_below, t_right, c_above, c_left, c_below, drop;
    if (!tufts)
        return x & (d | u | r | l);   /* isolated cells go anyway */
    centres = x & around(b, tufts);
    t_above = tufts & d;    /* its centre is below it */
    t_below = tufts & u;
    t_left = tufts & r;     /* its centre is to its right */
    t_right = tufts & l;
    c_above = down_rows(t_above, b->cols);   /* centres with a tuft above them */
    c_left = t_left << 1;
    c_below = up_rows(t_below, b->cols);
    /* one tuft a centre: the one above, else the left one, else below, else right */
    drop = (t_left & (c_above >> 1)) | (t_below & down_rows(c_above | c_left, b->cols)) |
           (t_right & ((c_above | c_left | c_below) << 1));
    others = x & ~tufts & ~centres;
    return x & ~drop & ~(others & ~around(b, others));
}

/* The cells connected to `seed` within x, a horizontal step allowed from the cells of
 * `steps` to their right neighbour. */
static kb_word grown(const kb_board* b, kb_word x, kb_word seed, kb_word steps) {
    kb_word s = seed, n;
    for (;;) {   /* two steps a turn */
        n = (s | up_rows(s, b->cols) | down_rows(s, b->cols) | ((s & steps) << 1) |
             ((s >> 1) & steps)) & x;
        n = (n | up_rows(n, b->cols) | down_rows(n, b->cols) | ((n & steps) << 1) |
             ((n >> 1) & steps)) & x;
        if (n == s)
            return s;
        s = n;
    }
}

/* The anchors (top-left cells) of the 2 x 2 blocks of reduction (3). */
static kb_word cut_blocks(const kb_board* b, kb_word x) {
    kb_word d = below(b, x), u = above(b, x), r = right_of(b, x), l = left_of(b, x);
    kb_word blocks = x & r & d & below(b, r);
    int c = b->cols;
    if (!blocks)
        return 0;
    return blocks & ((~l & ~u & ((~r & ~d) >> (c + 1))) | (((~r & ~u) >> 1) & ((~l & ~d) >> c)));
}

/* The columns x has a cell in (bit c: column c): its rows ORed, by halving strides. */
static kb_word columns_of(const kb_board* b, kb_word x) {
    for (int shift = b->cols; shift < b->rows * b->cols; shift *= 2)
        x |= x >> shift;
    return x & row_mask(b);
}

static void anchored(const kb_board* b, kb_word* x, int* h, int* w) {
    kb_word m = *x, columns;
    int c0;
    m >>= b->row_start[__builtin_ctzll(m)];
    columns = columns_of(b, m);
    c0 = __builtin_ctzll(columns);
    m >>= c0;
    *w = 64 - __builtin_clzll(columns) - c0;
    *h = b->rows_to[63 - __builtin_clzll(m)];
    *x = m;
}

static kb_word turned(const kb_board* b, kb_word x, int h, int w) {   /* 180 degrees */
    return reversed(x) >> (64 - h * b->cols + b->cols - w);
}

static kb_word flipped(const kb_board* b, kb_word x, int h) {   /* upside down */
    kb_word y = 0, rows = row_mask(b);
    int c = b->cols;
    for (int r = 0; r < h; r++)
        y |= ((x >> (r * c)) & rows) << ((h - 1 - r) * c);
    return y;
}

static kb_word least_image(const kb_board* b, kb_word x, int h, int w) {
    kb_word best = x, y = flipped(b, x, h), z;
    if (y < best)
        best = y;
    z = turned(b, x, h, w);
    if (z < best)
        best = z;
    z = turned(b, y, h, w);   /* left to right */
    if (z < best)
        best = z;
    return best;
}

static kb_word transposed(const kb_board* b, kb_word x, int h) {   /* anchored, fitting */
    kb_word t = 0;
    if (b->rows <= KB_SPREAD_BITS) {   /* each row's bits spread down a column */
        kb_word rows = row_mask(b);
        for (int r = 0; r < h; r++)
            t |= b->spread[(x >> (r * b->cols)) & rows] << r;
        return t;
    }
    for (kb_word m = x; m; m &= m - 1)
        t |= (kb_word)1 << b->transposed[__builtin_ctzll(m)];
    return t;
}

/* The key of an anchored component of height h and width w. */
static kb_word canonical_of(const kb_board* b, kb_word x, int h, int w) {
    kb_word best = least_image(b, x, h, w), t;
    if (w <= b->rows && h <= b->cols) {   /* its transpose fits too */
        t = least_image(b, transposed(b, x, h), w, h);
        if (t < best)
            best = t;
    }
    return best;
}

kb_word kb_board_canonical(const kb_board* b, kb_word x) {
    int h, w;
    anchored(b, &x, &h, &w);
    return canonical_of(b, x, h, w);
}

static void add(kb_split* out, const kb_board* b, kb_word piece) {
    int n = popcount(piece), h, w;
    if (b->rule == KB_NODE && n == 1) {
        out->nim ^= 1;
        return;
    }
    anchored(b, &piece, &h, &w);
    if (h == 1 || w == 1) {
        out->nim ^= b->line[n];
    } else if (out->count < KB_MAX_PARTS) {
        out->keys[out->count] = canonical_of(b, piece, h, w);
        out->sizes[out->count] = n;
        out->count++;
    }
}

static void split_cram(const kb_board* b, kb_word x, kb_split* out) {
    kb_word cut, steps, rest;
    x = reduced(b, x);
    cut = cut_blocks(b, x);
    steps = right_of(b, x) & ~(cut | down_rows(cut, b->cols));
    for (rest = x; rest;) {
        kb_word seed = rest & -rest, piece = grown(b, rest, seed, steps);
        rest &= ~piece;
        if (popcount(piece) < 2)
            continue;
        if (cut && piece != grown(b, x, seed, right_of(b, x)))
            split_cram(b, piece, out);   /* a cut split its group: reduce the piece again */
        else
            add(out, b, piece);
    }
}

void kb_board_split(const kb_board* b, kb_word x, kb_split* out) {
    out->nim = 0;
    out->count = 0;
    x &= b->all;
    if (b->rule == KB_ARC) {
        split_cram(b, x, out);
        return;
    }
    while (x) {
        kb_word piece = grown(b, x, x & -x, right_of(b, x));
        x &= ~piece;
        add(out, b, piece);
    }
}

/* The order of the moves: rows or columns from the middle outwards. */
static int middle_out(int n, int* order) {
    int mid = (n - 1) / 2, k = 0;
    order[k++] = mid;
    for (int d = 1; k < n; d++) {
        if (mid - d >= 0)
            order[k++] = mid - d;
        if (mid + d < n)
            order[k++] = mid + d;
    }
    return n;
}

/* The positions the moves of x lead to, in the order of the header; their number. */
int kb_board_moves(const kb_board* b, kb_word x, kb_word* moves, int max) {
    int k = 0, h, w, rows[KB_BOARD_CELLS], cols[KB_BOARD_CELLS], C = b->cols, r0, c0;
    kb_word columns, rmask = row_mask(b);
    if (!x)
        return 0;
    r0 = b->rows_to[__builtin_ctzll(x)] - 1;
    columns = columns_of(b, x >> (r0 * C));
    c0 = __builtin_ctzll(columns);
    w = 64 - __builtin_clzll(columns) - c0;
    h = b->rows_to[63 - __builtin_clzll(x)] - r0;
    middle_out(h, rows);
    middle_out(w, cols);
    if (b->rule == KB_NODE) {
        for (int i = 0; i < h; i++)
            for (kb_word m = x & (rmask << ((r0 + rows[i]) * C)); m && k < max; m &= m - 1) {
                kb_word bit = m & -m;
                moves[k++] = x & ~(bit | around(b, bit));
            }
        return k;
    }
    {
        kb_word v = x & below(b, x), hz = x & right_of(b, x);
        for (int j = 0; j < w; j++)
            for (kb_word m = v & (b->first_col << (c0 + cols[j])); m && k < max; m &= m - 1) {
                kb_word bit = m & -m;
                moves[k++] = x & ~(bit | down_rows(bit, C));
            }
        for (int i = 0; i < h; i++)
            for (kb_word m = hz & (rmask << ((r0 + rows[i]) * C)); m && k < max; m &= m - 1) {
                kb_word bit = m & -m;
                moves[k++] = x & ~(bit | (bit << 1));
            }
    }
    return k;
}

int kb_board_bound(void* game, const kb_word* key, int len) {
    const kb_board* b = game;
    kb_word x = key[0];
    (void)len;
    if (b->rule == KB_NODE)
        return popcount(x);
    return popcount(x & below(b, x)) + popcount(x & right_of(b, x));
}

int kb_board_expand(void* game, kb_search* s, const kb_word* key, int len) {
    const kb_board* b = game;
    kb_word moves[2 * KB_BOARD_CELLS];
    kb_split parts;
    int n = kb_board_moves(b, key[0], moves, 2 * KB_BOARD_CELLS);
    (void)len;
    for (int i = 0; i < n; i++) {
        if (kb_option(s))
            break;
        kb_board_split(b, moves[i], &parts);
        kb_heap(s, parts.nim);
        for (int k = 0; k < parts.count; k++)
            kb_part(s, &parts.keys[k], 1, parts.sizes[k]);
    }
    return KB_OK;
}
