# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled Green Hackenbush kernel: an edge list read, a picture's value and every
cut that leaves a value, the arms of a chain.

kayles/kernels/pure/_hackenbush.py is the twin (same names, arguments, results and
errors) and its header says how each pass works; ext/src/hackenbush.c and
hackenbush_cuts.c (declared in ext/_hackenbush_c.pxd) are the same passes on flat int arrays (arrays where the twin has dicts
and sets).  ``parse`` reads the text's UTF-8 in place (no copy for an ASCII text) and
names vertices by a hash table of byte slices; the names come back joined by newlines,
decoded once.  Every argument is checked by kayles.kernels.checks (the twin's checks,
so the same errors) and copied before the GIL is let go.

Every call releases the GIL for its loops and takes it back, every KAYLES_HB_PULSE steps
of work (a few ms; parsing: every ``chunk`` bytes), for a look at Ctrl-C and at the
interrupt hook of kayles.kernels.limits, either of which ends the call by raising.  A
Search holds a lock: one call on it at a time.
"""

from cpython cimport array as cyarray
from cpython.ref cimport PyObject
from cpython.pythread cimport (
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from _common cimport hold
from _hackenbush_c cimport *

from kayles.kernels import checks as _args
from kayles.kernels import limits as _limits

__all__ = ["CONSTANTS", "Search", "chain_values", "chain_values_direct", "chain_values_trie",
           "parse"]

# What this module was built with, for tests/kernels/test_constants.py to compare with
# kayles/kernels/constants.py (their one home in Python).
CONSTANTS = {"HACKENBUSH_EDGES": HB_EDGES}

cdef enum:
    LEAST_TARGET_MISSED = 1 << 30  # every value stays below 2**23 (HB_EDGES edges): a larger
                                   # target is never met, and from here on one stands for all

cdef cyarray.array INTS = cyarray.array("i")


cdef extern from "Python.h":
    # declared bare (no Cython error handling): an exception they raise stays set for the
    # call's def to raise (see raised)
    int PyErr_CheckSignals()   # -1 with the handler's exception set
    PyObject* PyObject_CallNoArgs(object callable)   # NULL with the exception set
    void Py_DecRef(PyObject* result)
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size) except NULL
    object PyUnicode_DecodeUTF8(const char* data, Py_ssize_t size, const char* errors)


cdef int look(void* context) noexcept nogil:
    """Ctrl-C (a signal's Python handler that raised), then the interrupt hook (a server's
    time cap): 1, the exception left set, when either raised; the GIL taken for that
    alone."""
    cdef PyObject* result
    with gil:
        if PyErr_CheckSignals() != 0:
            return 1
        result = PyObject_CallNoArgs(_limits.interrupt)
        if result == NULL:
            return 1
        Py_DecRef(result)
    return 0


cdef int raised(int rc) except -1:
    """Raise what stopped a C call (the exception a look left set), or MemoryError."""
    if rc == HB_STOPPED:
        return -1
    if rc == HB_NO_MEMORY:
        raise MemoryError()
    return 0


cdef inline void pulse_open(pulse_t* pulse) noexcept:
    pulse.look = look
    pulse.context = NULL
    pulse.steps = 0


cdef cyarray.array int_array(const int* items, Py_ssize_t count):
    cdef cyarray.array out = cyarray.clone(INTS, count, False)
    if count:
        memcpy(out.data.as_ints, items, count * sizeof(int))
    return out


cdef int check_vertices(const int[::1] ends, int n) except -1:
    """Every end is a vertex 0 to n - 1 (the twin's check_vertices, in C)."""
    cdef Py_ssize_t i
    cdef bint bad = False
    with nogil:
        for i in range(ends.shape[0]):
            if not 0 <= ends[i] < n:
                bad = True
                break
    if bad:
        raise _args.out_of_range("a vertex", n)
    return 0


cdef int* copy_ints(const int[::1] values) except? NULL:
    """values in a new malloc'd block (at least one int), made with the GIL held."""
    cdef Py_ssize_t count = values.shape[0]
    cdef int* out = <int*>malloc((count if count else 1) * sizeof(int))
    if out == NULL:
        raise MemoryError()
    if count:
        memcpy(out, &values[0], count * sizeof(int))
    return out


# -- reading an edge list -------------------------------------------------------------------

def parse(text, most, chunk):
    """``(names, us, vs, bad)`` of an edge list (kayles/kernels/pure/_hackenbush.py)."""
    _args.for_parse(text, most, chunk)
    cdef Py_ssize_t size, bad = -1, most_c = most, chunk_c = chunk, names_size
    cdef const char* data = PyUnicode_AsUTF8AndSize(text, &size)
    cdef parsed_t parsed
    cdef pulse_t pulse
    cdef char* joined
    cdef int rc
    pulse_open(&pulse)
    with nogil:
        rc = hb_parse(data, size, most_c, chunk_c, &parsed, &pulse)
    raised(rc)
    try:
        us = int_array(parsed.us, parsed.edges)
        vs = int_array(parsed.vs, parsed.edges)
        names_size = hb_names_size(&parsed)
        joined = <char*>malloc(names_size + 1)
        if joined == NULL:
            raise MemoryError()
        try:
            hb_names_join(&parsed, joined)
            names = PyUnicode_DecodeUTF8(joined, names_size, NULL)
        finally:
            free(joined)
        if parsed.bad >= 0:
            bad = hb_characters(data, parsed.bad)
    finally:
        hb_parsed_free(&parsed)
    return names, us, vs, bad


# -- the search -----------------------------------------------------------------------------

cdef class Search:
    """A picture's value (``value``), the edges that reach the ground (``grounded``) and
    the cuts that leave a value (``cuts``): Search(n, us, vs) as the twin's."""

    cdef search_t s
    cdef bint made
    cdef PyThread_type_lock lock
    cdef readonly int value

    def __cinit__(self):
        self.made = False
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()

    def __dealloc__(self):
        if self.made:
            hb_search_free(&self.s)
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    def __init__(self, n, us, vs):
        n, us, vs = _args.for_search(n, us, vs)
        check_vertices(us, n)
        check_vertices(vs, n)
        cdef int n_c = n, rc
        cdef Py_ssize_t m = len(us)
        cdef int* u = copy_ints(us)
        cdef int* v
        cdef pulse_t pulse
        try:
            v = copy_ints(vs)
        except MemoryError:
            free(u)
            raise
        pulse_open(&pulse)
        hold(self.lock)
        try:
            if self.made:  # made again: the old search goes
                hb_search_free(&self.s)
                self.made = False
            with nogil:
                rc = hb_search_open(&self.s, n_c, u, v, m, &pulse)  # u and v: the search's
            raised(rc)
            self.made = True
            self.value = self.s.value
        finally:
            PyThread_release_lock(self.lock)

    def grounded(self):
        """For each edge, whether it reaches the ground."""
        cdef unsigned char* out
        cdef pulse_t pulse
        cdef int rc
        cdef Py_ssize_t e
        pulse_open(&pulse)
        hold(self.lock)
        try:
            out = <unsigned char*>malloc(self.s.m + 1)
            if out == NULL:
                raise MemoryError()
            try:
                with nogil:
                    rc = hb_grounded(&self.s, out, &pulse)
                raised(rc)
                return [out[e] != 0 for e in range(self.s.m)]
            finally:
                free(out)
        finally:
            PyThread_release_lock(self.lock)

    def cuts(self, target, direct_per_level):
        """Every edge, in input order, whose cut leaves the value ``target`` (the twin's
        Search.cuts)."""
        want = _args.check_at_least(target, "target", 0)
        direct = _args.check_count(direct_per_level, "direct_per_level", -1, 1 << 30)
        cdef int want_c = min(want, LEAST_TARGET_MISSED), direct_c = direct, rc
        cdef int* won = NULL
        cdef Py_ssize_t count = 0, i
        cdef pulse_t pulse
        pulse_open(&pulse)
        hold(self.lock)
        try:
            with nogil:
                rc = hb_cuts(&self.s, want_c, direct_c, &won, &count, &pulse)
        finally:
            PyThread_release_lock(self.lock)
        try:
            raised(rc)
            return [won[i] for i in range(count)]
        finally:
            free(won)


# -- arms of a chain ------------------------------------------------------------------------

cdef enum:
    CHOSEN = 0  # the arms by the method direct_per_level picks
    DIRECT = 1
    TRIE = 2


cdef list arms(weights, int method, int direct_per_level):
    cdef Py_ssize_t m = len(weights), i
    cdef int* w = copy_ints(weights)
    cdef int* out = <int*>malloc((m if m else 1) * sizeof(int))
    cdef int rc
    cdef pulse_t pulse
    pulse_open(&pulse)
    try:
        if out == NULL:
            raise MemoryError()
        with nogil:
            if method == DIRECT:
                rc = hb_chain_direct(w, m, out, &pulse)
            elif method == TRIE:
                rc = hb_chain_trie(w, m, out, &pulse)
            else:
                rc = hb_chain_values(w, m, direct_per_level, out, &pulse)
        raised(rc)
        return [out[i] for i in range(m)]
    finally:
        free(w)
        free(out)


def chain_values(weights, direct_per_level):
    """``[V(1), ..., V(m)]`` of a chain (the twin's chain_values)."""
    weights = _args.for_weights(weights)
    direct = _args.check_count(direct_per_level, "direct_per_level", -1, 1 << 30)
    return arms(weights, CHOSEN, direct)


def chain_values_direct(weights):
    """``chain_values`` by direct evaluation."""
    return arms(_args.for_weights(weights), DIRECT, 0)


def chain_values_trie(weights):
    """``chain_values`` on the trie."""
    return arms(_args.for_weights(weights), TRIE, 0)
