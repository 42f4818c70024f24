# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The exact bounded transposition table of the pruned search (ext/src/search.c), callable
from Python: the boards', graphs' and Chomp's kernels keep theirs inside, and this one is
what the tests and the docs show of it.

kayles/kernels/pure/_search.py is the twin (same names, results and errors) and its header
says how a key is placed, why no two keys share an entry, and when entries are evicted.
"""

from libc.stdint cimport uint64_t

from _pruned cimport (
    KB_CLUSTER,
    KB_EXCLUDE_VALUES,
    KB_EXCLUDED,
    KB_FIRST_CLUSTERS,
    KB_MAX_WIDTH,
    KB_STORED_MAX,
    KB_VALUE_BITS,
    kb_memo,
    kb_memo_count,
    kb_memo_exclude,
    kb_memo_excluded,
    kb_memo_free,
    kb_memo_get,
    kb_memo_init,
    kb_memo_put,
    kb_mix,
    kb_unmix,
    kb_word,
    require_cpu,
)

from kayles.kernels import board_checks as checks

require_cpu()

__all__ = ["CONSTANTS", "Table", "mix", "unmix"]

CONSTANTS = {"SEARCH_VALUE_BITS": KB_VALUE_BITS, "SEARCH_STORED_MAX": KB_STORED_MAX,
             "SEARCH_EXCLUDED": KB_EXCLUDED, "SEARCH_EXCLUDE_VALUES": KB_EXCLUDE_VALUES,
             "SEARCH_CLUSTER": KB_CLUSTER, "SEARCH_MAX_WIDTH": KB_MAX_WIDTH,
             "SEARCH_FIRST_CLUSTERS": KB_FIRST_CLUSTERS}


def mix(x, bits):
    """The bijection of [0, 2**bits) (bits 1 to 64) that places a key's first word."""
    checks.check_bits(bits)
    return kb_mix(checks.check_word(x), bits)


def unmix(x, bits):
    """The inverse of ``mix``."""
    checks.check_bits(bits)
    return kb_unmix(checks.check_word(x), bits)


cdef class Table:
    """An exact transposition table of at most ``memory`` bytes.

    ``get(key)`` is the value stored for ``key`` (a tuple of 64-bit words) or None;
    ``put(key, value)`` stores it where it can.  ``exclude(key, values)`` adds the values
    0 to 10 of the bits of ``values`` to those ``key`` is known not to have, unless its value
    is stored; ``excluded(key)`` is those values, as bits.  ``stats()``: entries (values
    and exclusions), bytes, cap, evictions, unstored."""

    cdef kb_memo memo

    def __cinit__(self, memory):
        kb_memo_init(&self.memo, checks.check_memory(memory))

    def __dealloc__(self):
        kb_memo_free(&self.memo)

    def __len__(self):
        return kb_memo_count(&self.memo)

    def stats(self):
        return {"entries": kb_memo_count(&self.memo), "bytes": self.memo.used,
                "cap": self.memo.cap, "evictions": self.memo.evictions,
                "unstored": self.memo.unstored}

    def get(self, key):
        cdef kb_word words[KB_MAX_WIDTH]
        cdef int n = load(checks.check_key(key), words)
        cdef int v = kb_memo_get(&self.memo, words, n)
        return None if v < 0 else v

    def put(self, key, value):
        cdef kb_word words[KB_MAX_WIDTH]
        cdef int n = load(checks.check_key(key), words)
        value = checks.check_value(value)
        kb_memo_put(&self.memo, words, n, value if value <= KB_STORED_MAX else -1)

    def excluded(self, key):
        cdef kb_word words[KB_MAX_WIDTH]
        cdef int n = load(checks.check_key(key), words)
        return kb_memo_excluded(&self.memo, words, n)

    def exclude(self, key, values):
        cdef kb_word words[KB_MAX_WIDTH]
        cdef int n = load(checks.check_key(key), words)
        values = checks.check_value(values)
        kb_memo_exclude(&self.memo, words, n, values & (KB_EXCLUDED - 1))


cdef int load(tuple key, kb_word* words) except -1:
    cdef int i
    for i in range(len(key)):
        words[i] = <uint64_t> key[i]
    return len(key)
