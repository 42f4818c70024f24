# The compiled core, one part: ext/_core.pyx includes it and declares the state it uses.
#
# Crews: several threads on one sequence.
#
# How several threads share one sequence (run_crew; Scratch(threads=...)).  A
# two-part move of span t leaves parts of at most n - t - 1, so heaps n..n+d-1
# need none of each other's pairs, d the least such t + 1 (the independence:
# 3 for .161, 4 for .014, 1 for Grundy's game).  Past PARALLEL_FROM, between
# two mask choices, a crew of threads (no more than the cores) takes blocks of
# CREW_BLOCK heaps in turn.  A heap is solved once the values below it less
# d + SLACK are in the table, from the options whose parts are all there: those
# left out (one-part options, and pairs whose smaller part is below first_part)
# are checked when the heap is settled, in order, by whichever thread finds it
# next in line (settle_solved), and where one has the value found the heap is
# solved again (.161: 2% of its heaps; .014: 0.3%; Grundy's game: 0.9%).  So
# a thread runs up to SLACK heaps ahead of a slow one instead of waiting for
# it, and a crew may have more threads than d (Grundy's game: d = 1).  The
# rare pass's groups are shared, each filled under a spin lock and read
# without it once ready, and cover only the rare parts whose pairs are in
# the table for any heap that needs them; each heap marks the rare parts at
# both ends itself (mark_ends).  Their bulk, the rare parts from early_from
# on, is flagged AHEAD heaps before need by the group's own worker
# (fill_ahead), so it falls to the threads evenly.  A kind that
# forbids equal parts drops the rare pass's 0 where only the equal split gave
# it, judged from the pairs in the table (zero_from_equal_only); the others
# are among those checked at settling.  Every crew gives the one thread's
# values (tests/kernels/test_threads.py).
# """

cdef Py_ssize_t run_crew(nimber_t* g, Py_ssize_t start, Py_ssize_t stop, Kind* ks, int nkinds,
                         Sparse* st, int* value) noexcept nogil:
    """Heaps start..stop-1 by st.crew threads at once (the mask fixed); as run_sparse."""
    cdef Crew crew
    cdef int k, v
    crew.g = g
    crew.start = start
    crew.stop = stop
    crew.ks = ks
    crew.nkinds = nkinds
    crew.st = st
    st.claimed = st.published = start
    st.failed = stop
    for k in range(RING):
        st.solved[k].ready = False
    k = run_workers(st.crew, crew_work, &crew)
    st.crew_ran = max(st.crew_ran, k)
    for k in range(k):   # each worker counted the values it settled
        for v in range(st.width):
            st.counts[v] += st.workers[k].counts[v]
            st.workers[k].counts[v] = 0
    if st.failed < stop:
        value[0] = st.failed_value
    return st.failed


cdef void crew_work(void* context, int k, int crew) noexcept nogil:
    """Worker k of a crew: take the next block of st.block heaps, solve it, settle what it can.

    Heap m is solved once the values below m - st.independence - st.slack + 1
    are in the table, with those there when it starts (first_part), and waits in
    st.solved till the heaps before it are settled (settle_solved).  While a
    worker waits, it fills its groups ahead of need (fill_ahead).
    """
    cdef Crew* c = <Crew*> context
    cdef Sparse* st = c.st
    cdef Worker* w = &st.workers[k]
    cdef Py_ssize_t n, m, end, known, first = c.start - c.start % GROUP
    cdef Solved* solved
    w.next_group = first + ((k - first // GROUP) % crew + crew) % crew * GROUP
    while True:
        n = atomic_take(&st.claimed, st.block)
        if n >= c.stop:
            return
        end = min(c.stop, n + st.block)
        known = end - st.independence - st.slack
        if not wait_for(c, st, w, crew, known):
            return
        fill_ahead(c.g, st, w, crew, c.stop)
        known = max(c.start, known) if st.waited_only else atomic_load(&st.published)
        w.width = atomic_load_int(&st.width)
        w.nrare = atomic_load(&st.nrare)   # every rare heap below known, or more
        for m in range(n, end):
            solved = &st.solved[m % RING]
            solved.value = mex_heap(c.g, m, c.ks, c.nkinds, st, w, known)
            solved.known = known
            atomic_store_int(&solved.ready, True)
        settle_solved(c, st, w)


cdef void settle_solved(Crew* c, Sparse* st, Worker* w) noexcept nogil:
    """Settle the solved heaps from st.published on, in order, till one is not solved yet.

    One worker at a time does, under st.settling; a worker that finds it held
    leaves its heaps to the holder, who looks again once it has let go (the
    fences: one of the two sees the other's store).  A heap's value stands
    unless an option it was solved without has it (left_out): then it is
    solved again, now that every value below it is in the table.
    """
    cdef Py_ssize_t m
    cdef Solved* solved
    cdef int v
    fence()
    while True:
        m = atomic_load(&st.published)
        if (m >= c.stop or atomic_load(&st.failed) < c.stop
                or not atomic_load_int(&st.solved[m % RING].ready) or not try_lock(&st.settling)):
            return
        m = st.published
        while m < c.stop and atomic_load_int(&st.solved[m % RING].ready):
            solved = &st.solved[m % RING]
            v = solved.value
            atomic_store_int(&solved.ready, False)
            if v == OUT_OF_REACH or (solved.known < m and 0 <= v < VALUE_LIMIT and left_out(
                    c.g, m, c.ks, c.nkinds, solved.known, v)):
                w.width = st.width
                w.nrare = st.nrare
                v = mex_heap(c.g, m, c.ks, c.nkinds, st, w, m)
                st.solved_again += 1
            if settle(c.g, m, v, st, w.counts, &st.failed_value):
                atomic_store(&st.failed, m)
                break
            m += 1
        atomic_store(&st.published, m)
        unlock(&st.settling)
        fence()


cdef bint wait_for(Crew* c, Sparse* st, Worker* w, int crew, Py_ssize_t n) noexcept nogil:
    """Wait till heaps below n are settled, filling groups ahead meanwhile; False when the
    crew stopped at a heap it could not settle."""
    cdef int spins = 0
    while atomic_load(&st.published) < n:
        if atomic_load(&st.failed) < c.stop:
            return False
        if not fill_ahead(c.g, st, w, crew, c.stop):
            backoff(&spins)
    return True


cdef inline Py_ssize_t first_part(Py_ssize_t n, Kind* kinds, int nkinds,
                                  Py_ssize_t known) noexcept nogil:
    """The least smaller part of the pairs of heap n both of whose parts are below known:
    a pair with a part from known on has its smaller part below this."""
    cdef int k
    cdef Py_ssize_t first = 1
    for k in range(nkinds):
        if kinds[k].leave & 4:
            first = max(first, n - kinds[k].span - known + 1)
    return first


cdef bint left_out(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds, Py_ssize_t known,
                   int v) noexcept nogil:
    """Whether an option of heap n that mex_sparse left out, G below known only, has the
    value v (a one-part option, or a pair whose smaller part is below first_part): v
    is then not G(n), and it is whenever none has it.  Every value below n is known."""
    cdef int k, c
    cdef Py_ssize_t r, a, first = first_part(n, kinds, nkinds, known)
    for k in range(nkinds):
        r = n - kinds[k].span
        if r <= 0:
            continue
        c = constant(g, &kinds[k])
        if kinds[k].leave & 2 and g[r] ^ c == v:
            return True
        if kinds[k].leave & 4:
            for a in range(1, min(first, last_part(r, kinds[k].unequal) + 1)):
                if g[a] ^ g[r - a] ^ c == v:
                    return True
    return False


cdef inline int next_power(int value) noexcept nogil:
    """The least power of two above value: XORs of values below it stay below it."""
    cdef int p = 1
    while p <= value:
        p <<= 1
    return p


cdef inline bint is_span(Kind* kinds, int nkinds, Py_ssize_t n) noexcept nogil:
    cdef int k
    for k in range(nkinds):
        if kinds[k].span == n:
            return True
    return False
