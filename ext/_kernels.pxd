# cython: language_level=3
"""The C vector kernels of ext/src/kernels.h, declared once (see that header for each).

A new kernel is a C function in ext/src/ and one line here.
"""

from _common cimport nimber_t, pos_t, stamp_t, word_t


cdef extern from "kernels.h" nogil:
    enum:
        GROUP "KAYLES_GROUP"              # remainders per rare-pass group
        FLAG_STRIDE "KAYLES_FLAG_STRIDE"  # a group's flags for r0 + j start at j * FLAG_STRIDE

    word_t xor_permute "kayles_xor_permute"(word_t x, int u) noexcept
    int parity "kayles_parity"(unsigned int x) noexcept
    int lowest_bit "kayles_lowest_bit"(word_t x) noexcept   # x != 0

    void flag_group "kayles_flag_group"(const nimber_t* top, const pos_t* a, const pos_t* end,
                                        const nimber_t* value_of_a, unsigned char* flags) noexcept
    void flag_one "kayles_flag_one"(const nimber_t* top, const pos_t* a, const pos_t* end,
                                    const nimber_t* value_of_a, unsigned char* flags) noexcept
    void gather_or "kayles_gather_or"(word_t* out, const word_t* onehot, Py_ssize_t r0,
                                      const pos_t* pos, Py_ssize_t n) noexcept
    void mark_pairs "kayles_mark_pairs"(const nimber_t* g, Py_ssize_t r, Py_ssize_t a,
                                        Py_ssize_t end, unsigned int c, stamp_t* seen,
                                        stamp_t stamp) noexcept
    void pair_row "kayles_pair_row"(word_t* out, const nimber_t* g, Py_ssize_t t,
                                    int unequal) noexcept
    ctypedef struct vectors_t "kayles_vectors":  # one instruction set's steps (kernels.h)
        const char* name
        int few
        int (*sweep)(const nimber_t* g, const Py_ssize_t* r, const Py_ssize_t* last,
                     const unsigned int* c, int nsplits, Py_ssize_t a, nimber_t* values, int n,
                     stamp_t* seen, stamp_t stamp) noexcept nogil
        int (*sweep_set)(const nimber_t* g, const Py_ssize_t* r, const Py_ssize_t* last,
                         const unsigned int* c, int nsplits, Py_ssize_t a,
                         const nimber_t* wanted, int n, stamp_t* seen, stamp_t stamp) noexcept nogil
        int (*sweep_window)(const nimber_t* g, const Py_ssize_t* r, const Py_ssize_t* last,
                            const unsigned int* c, int nsplits, Py_ssize_t a, unsigned int base,
                            const nimber_t* wanted, int n, stamp_t* seen, stamp_t stamp) noexcept nogil
        unsigned int (*unhit)(const nimber_t* top, const pos_t* a, const pos_t* end,
                              const nimber_t* value_of_a, const nimber_t* cands) noexcept nogil
        int (*candidates)(const unsigned char* flags, int width, int mask, word_t low_common,
                          nimber_t* out, int max) noexcept nogil
        word_t (*unmarked)(const stamp_t* seen, stamp_t stamp, int b, unsigned char** flags,
                           const int* width, const int* c, const bint* drop_zero,
                           int nflags) noexcept nogil
        void (*or_moved)(word_t* into, const word_t* row, word_t open, Py_ssize_t block,
                         Py_ssize_t width, Py_ssize_t words, int bytes) noexcept nogil
        void (*or_permuted)(word_t* out, word_t* source, word_t open, Py_ssize_t block,
                            Py_ssize_t width, int bits) noexcept nogil
        void (*or_moved_two)(word_t* into, const word_t* row0, nimber_t c0, const word_t* row1,
                             nimber_t c1, word_t open, Py_ssize_t block,
                             Py_ssize_t limit) noexcept nogil
    void xor_union "kayles_xor_union"(word_t* out, const word_t* rows, Py_ssize_t width,
                                      Py_ssize_t limit, const nimber_t* g, Py_ssize_t t,
                                      Py_ssize_t low, Py_ssize_t high, word_t* accumulators,
                                      const vectors_t* vec) noexcept
    enum:
        UNION_AHEAD "KAYLES_AHEAD"        # heaps whose three parts one pass over the rows makes
        UNION_CLASSES "KAYLES_CLASSES"    # accumulators a heap (of a part's bits 0-2)
    Py_ssize_t xor_union_ahead "kayles_xor_union_ahead"(word_t* out, const word_t* rows,
                                                        Py_ssize_t width, Py_ssize_t limit,
                                                        const nimber_t* g, Py_ssize_t t,
                                                        Py_ssize_t high, Py_ssize_t low,
                                                        word_t* accumulators, word_t* open,
                                                        Py_ssize_t every,
                                                        const int* spans, int nspans,
                                                        const vectors_t* vec) noexcept
    void xor_union_ahead_fold "kayles_xor_union_ahead_fold"(word_t* out, Py_ssize_t width,
                                                            Py_ssize_t limit,
                                                            word_t* accumulators,
                                                            word_t* open,
                                                            const vectors_t* vec) noexcept
    void xor_union_ahead_open "kayles_xor_union_ahead_open"(word_t* open,
                                                            Py_ssize_t limit) noexcept
    const vectors_t* vectors_named "kayles_vectors_named"(const char* name) noexcept

    enum:
        MAX_THREADS "KAYLES_MAX_THREADS"
        THREADS "KAYLES_THREADS"          # 0: one thread runs whatever is asked
    ctypedef void (*task_t "kayles_task")(void* context, int worker, int workers) noexcept nogil
    int run_workers "kayles_run_workers"(int n, task_t task, void* context) noexcept
    int kayles_cores() noexcept
    void backoff "kayles_backoff"(int* spins) noexcept
    Py_ssize_t atomic_load "kayles_load"(const Py_ssize_t* p) noexcept
    void atomic_store "kayles_store"(Py_ssize_t* p, Py_ssize_t value) noexcept
    void atomic_add "kayles_add"(Py_ssize_t* p, Py_ssize_t value) noexcept
    Py_ssize_t atomic_take "kayles_take"(Py_ssize_t* p, Py_ssize_t count) noexcept
    int atomic_load_int "kayles_load_int"(const int* p) noexcept
    void atomic_store_int "kayles_store_int"(int* p, int value) noexcept
    void lock "kayles_lock"(int* lock) noexcept
    void unlock "kayles_unlock"(int* lock) noexcept
    bint try_lock "kayles_try_lock"(int* lock) noexcept
    void fence "kayles_fence"() noexcept

    const char* PORTABLE "kayles_portable"
