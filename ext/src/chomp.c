/* Chomp on Young diagrams (games.h).
 *
 * A position is a Young diagram: row lengths r_0 >= r_1 >= ... >= r_(k-1) > 0 inside a
 * frame of `rows` rows and `cols` columns.  A bite at (i, j), any square but (0, 0) (the
 * poisoned square), removes every square (i', j') with i' >= i and j' >= j: rows i and
 * below are cut to at most j squares.  The diagram of (0, 0) alone has no move.
 *
 * Keys: the row lengths, `bits` (enough for `cols`) each, row 0 first, absent rows 0, as
 * a bit string laid out as graphs.c's keys (52 bits in the first word, then 64 a word).
 * Where the transposed diagram (column lengths as rows) fits the frame too, the key is the
 * least of the two (its lexicographic order on words): a diagram and its transpose are the
 * same game (a bite at (i, j) of one is the bite at (j, i) of the other).
 *
 * L-shapes are heaps.  Theorem: if r_1 <= 1 (every row below the first has one square, or
 * there is one row), the value is (k - 1) XOR (r_0 - 1).  Proof: the squares are the
 * corner, an arm of a = r_0 - 1 squares to its right and a leg of b = k - 1 squares below
 * it.  A bite at (0, j), j >= 1, leaves the arm j - 1 squares and the leg as it was (the
 * rows below have no square in column j); a bite at (i, 0), i >= 1, leaves the leg i - 1
 * squares and the arm.  No other square exists, and the corner is no move: the options are
 * exactly those of the nim heaps a and b, so the value is a XOR b (the Sprague-Grundy sum).
 *
 * Moves in order: rows from the first, each from its first column; the search sorts them
 * by the sizes of what they leave.
 */
#include "games.h"

#include <string.h>

enum { FIRST_BITS = 52 };

static int key_words(int nbits) {
    return nbits <= FIRST_BITS ? 1 : 2 + (nbits - FIRST_BITS - 1) / 64;
}

void kb_chomp_init(kb_chomp* c, int rows, int cols) {
    c->rows = rows;
    c->cols = cols;
    c->bits = 1;
    while ((1 << c->bits) <= cols)
        c->bits++;
    c->words = key_words(rows * c->bits);   /* at most KB_MAX_WIDTH: the caller's check */
}

/* Write `bits` bits of v at stream place `at` of a key. */
static void put(kb_word* key, long at, kb_word v, int bits) {
    while (bits > 0) {
        long word = at < FIRST_BITS ? 0 : 1 + (at - FIRST_BITS) / 64;
        int off = at < FIRST_BITS ? (int)at : (int)((at - FIRST_BITS) % 64);
        int room = (word == 0 ? FIRST_BITS : 64) - off, n = bits < room ? bits : room;
        key[word] |= (v & (((kb_word)1 << n) - 1)) << off;
        v >>= n;
        bits -= n;
        at += n;
    }
}

static kb_word get(const kb_word* key, long at, int bits) {
    kb_word v = 0;
    int done = 0;
    while (done < bits) {
        long word = at < FIRST_BITS ? 0 : 1 + (at - FIRST_BITS) / 64;
        int off = at < FIRST_BITS ? (int)at : (int)((at - FIRST_BITS) % 64);
        int room = (word == 0 ? FIRST_BITS : 64) - off, n = bits - done < room ? bits - done : room;
        v |= ((key[word] >> off) & (((kb_word)1 << n) - 1)) << done;
        done += n;
        at += n;
    }
    return v;
}

static void pack(const kb_chomp* c, const int* lengths, int k, kb_word* key) {
    memset(key, 0, (size_t)c->words * sizeof(kb_word));
    for (int i = 0; i < k; i++)
        put(key, (long)i * c->bits, (kb_word)lengths[i], c->bits);
}

static int unpack(const kb_chomp* c, const kb_word* key, int* lengths) {
    int k = 0;
    for (int i = 0; i < c->rows; i++) {
        lengths[i] = (int)get(key, (long)i * c->bits, c->bits);
        if (lengths[i])
            k = i + 1;
    }
    return k;
}

static int before(const kb_word* a, const kb_word* b, int len) {
    for (int i = 0; i < len; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

/* The key of the diagram of k rows `lengths` (k >= 1). */
void kb_chomp_key(const kb_chomp* c, const int* lengths, int k, kb_word* key) {
    pack(c, lengths, k, key);
    if (lengths[0] <= c->rows && k <= c->cols) {   /* the transpose fits the frame */
        int t[KB_CHOMP_SQUARES];
        kb_word other[KB_MAX_WIDTH];
        for (int j = 0; j < lengths[0]; j++) {
            int n = 0;
            while (n < k && lengths[n] > j)
                n++;
            t[j] = n;
        }
        pack(c, t, lengths[0], other);
        if (before(other, key, c->words))
            memcpy(key, other, (size_t)c->words * sizeof(kb_word));
    }
}

int kb_chomp_bound(void* game, const kb_word* key, int len) {
    const kb_chomp* c = game;
    int lengths[KB_CHOMP_SQUARES], k = unpack(c, key, lengths), squares = 0;
    (void)len;
    for (int i = 0; i < k; i++)
        squares += lengths[i];
    return squares - 1;
}

/* The diagram a bite at (i, j) leaves: its rows into out, their number returned. */
static int bitten(const int* lengths, int k, int i, int j, int* out) {
    int n = 0;
    for (int x = 0; x < k; x++) {
        int v = x < i ? lengths[x] : (lengths[x] < j ? lengths[x] : j);
        if (v == 0)
            break;
        out[n++] = v;
    }
    return n;
}

int kb_chomp_moves(const kb_chomp* c, const int* lengths, int k, int* out, int room) {
    int n = 0, rows[KB_CHOMP_SQUARES];
    (void)c;
    for (int i = 0; i < k; i++)
        for (int j = i == 0 ? 1 : 0; j < lengths[i]; j++) {
            int m = bitten(lengths, k, i, j, rows);
            if (n + m + 1 > room)
                return -1;
            out[n++] = m;
            memcpy(out + n, rows, (size_t)m * sizeof(int));
            n += m;
        }
    return n;
}

int kb_chomp_expand(void* game, kb_search* s, const kb_word* key, int len) {
    const kb_chomp* c = game;
    int lengths[KB_CHOMP_SQUARES], rows[KB_CHOMP_SQUARES], k = unpack(c, key, lengths);
    kb_word part[KB_MAX_WIDTH];
    (void)len;
    for (int i = 0; i < k; i++)
        for (int j = i == 0 ? 1 : 0; j < lengths[i]; j++) {
            int m = bitten(lengths, k, i, j, rows), squares = 0;
            if (kb_option(s))
                return KB_OK;
            if (m == 1 || rows[1] <= 1) {   /* an L-shape: two nim heaps (header) */
                kb_heap(s, (m - 1) ^ (rows[0] - 1));
                continue;
            }
            for (int x = 0; x < m; x++)
                squares += rows[x];
            kb_chomp_key(c, rows, m, part);
            kb_part(s, part, c->words, squares);
        }
    return KB_OK;
}
