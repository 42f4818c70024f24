# The compiled core, one part: ext/_core.pyx includes it and declares the state it uses.
#
# What the layers above read off a table: chunk sums, rare heaps, periods, row moves.

def chunk_sums(const nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop):
    """(s1, s2, largest, first) of the values v_0..v_{k-1} = table[start:stop]: Fletcher-32's
    sums of the chunk alone (s1 = sum v_i, s2 = sum (k - i) v_i, mod 65535), the largest
    value and the first index where it stands (-1 for an empty chunk)."""
    check_range(table, start, stop)
    cdef unsigned long long s1 = 0, s2 = 0
    cdef Py_ssize_t i, first = -1
    cdef int largest = -1
    cdef const nimber_t* t
    if start == stop:
        return 0, 0, -1, -1
    t = &table[0]
    with nogil:
        for i in range(start, stop):
            s1 += t[i]
            s2 += s1
            if t[i] > largest:
                largest, first = t[i], i
            if (i - start) % 4096 == 4095:   # keep the sums far from overflowing
                s1 %= 65535
                s2 %= 65535
    return <int> (s1 % 65535), <int> (s2 % 65535), largest, first


def rare_heaps(const nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, int mask,
               int split_parity=-1):
    """(how many heaps of table[start:stop] are rare under mask, the last of them or -1).

    A mask holding HEAP_PARITY needs the game's split parity (0 or 1: spectrum.split_parity).
    """
    check_range(table, start, stop)
    if not (0 <= mask < VALUE_LIMIT or mask & HEAP_PARITY and mask < 2 * VALUE_LIMIT
                                      and split_parity in (0, 1)):
        raise ValueError(f"the mask is 0 to {VALUE_LIMIT - 1}, or that plus {HEAP_PARITY} with "
                         f"a split parity of 0 or 1, not {mask} (split parity {split_parity})")
    cdef Py_ssize_t i, count = 0, last = -1
    cdef const nimber_t* t = &table[0] if stop > start else NULL
    cdef Sparse st
    st.mask = mask
    st.split_parity = split_parity
    with nogil:
        for i in range(start, stop):
            if is_rare(&st, i, t[i]):
                count += 1
                last = i
    return count, last


def find_period(const nimber_t[::1] table, Py_ssize_t length, Py_ssize_t span,
                Py_ssize_t parts=2):
    """The candidate period whose proof needs the fewest values, if fewer than 2 * length.

    Returns (p, n0, needed) or None; see kayles/kernels/pure/_core.py for the definition.
    """
    if not 0 <= length <= table.shape[0]:
        raise ValueError(f"length {length} does not fit a table of {table.shape[0]}")
    if not 1 <= parts <= 64:
        raise ValueError(f"parts must be 1 to 64, not {parts}")
    cdef Py_ssize_t p, k, start, bound, best_n0 = 0, best_p = 0, best_needed = 2 * length
    cdef Py_ssize_t K = parts
    cdef const nimber_t* t
    if length < 2:
        return None
    t = &table[0]
    with nogil:
        for p in range(1, length // 2 + 1):
            if K * p + span + 1 >= best_needed:
                break  # needed only grows with p
            bound = (best_needed - K * p - span + K - 2) // K  # n0 must be <= bound to win
            start = min(bound, length - p)
            # Is t[k] == t[k + p] for every k in [start, length - p)?  memcmp (vector
            # compares) matters: multiples of a period match far into the preperiod.
            if memcmp(t + start, t + start + p, (length - p - start) * sizeof(nimber_t)):
                continue
            k = start - 1
            while k >= 0 and t[k] == t[k + p]:
                k -= 1
            best_n0 = k + 1
            best_needed = max(K * max(best_n0, 1) + K * p + span - K + 1, p + span + 1)
            best_p = p
    if best_p == 0:
        return None
    return best_p, best_n0, best_needed


cdef inline Py_ssize_t next_run(const unsigned char* row, Py_ssize_t n, Py_ssize_t i,
                                Py_ssize_t* first) noexcept nogil:
    """The end of the first run of pins at or after i, its start into first (equal: no run)."""
    while i < n and row[i] != PIN:
        i += 1
    first[0] = i
    while i < n and row[i] == PIN:
        i += 1
    return i


cdef Py_ssize_t scan_runs(const unsigned char* row, Py_ssize_t n, const nimber_t* g,
                          Py_ssize_t limit, int* total) noexcept nogil:
    """XOR G(run) over the runs of pins into total and return -1; or, if a run is as
    long as limit (the table's length), return that run's length and leave total."""
    cdef Py_ssize_t i = 0, first
    cdef int t = 0
    while i < n:
        i = next_run(row, n, i, &first)
        if i == first:
            break
        if i - first >= limit:
            return i - first
        t ^= g[i - first]
    total[0] = t
    return -1


cdef int row_total(const unsigned char[::1] row, const nimber_t[::1] table) except -1:
    cdef int total = 0
    cdef Py_ssize_t n = row.shape[0], limit = table.shape[0], too_long = -1
    if n:
        with nogil:
            too_long = scan_runs(&row[0], n, &table[0], limit, &total)
    if too_long >= 0:
        raise ValueError(f"a run of {too_long} pins needs a table longer than {limit}")
    return total


def row_nim_sum(const unsigned char[::1] row, const nimber_t[::1] table):
    """XOR of G(run) over the runs of 'x' in a row of b'x' and b'.'."""
    return row_total(row, table)


def row_move(const unsigned char[::1] row, const nimber_t[::1] table, kinds):
    """The seed's winning move on a row, as (first covered index, kind index), or None.

    The leftmost run whose value can be lowered; in it, the first option in
    Game.options order (smallest placement a, then the earlier kind) that reaches
    the target.  See kayles/kernels/pure/_core.py.
    """
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef int total = row_total(row, table), target = 0, k, found_kind = 0
    cdef Py_ssize_t a, i = 0, size = 0, first = 0, b, n = row.shape[0], found = -1
    if total == 0:
        return None
    with nogil:
        # The run holding the highest bit of the nim-sum can always be lowered.
        while i < n:
            i = next_run(&row[0], n, i, &first)
            if i == first:
                break
            size = i - first
            target = table[size] ^ total
            if target < table[size]:
                break
        # Game.options order; a < size, since on rows every kind removes a pin.
        for a in range(size):
            for k in range(nkinds):
                b = size - ks[k].span - a
                if b >= 0 and allows(&ks[k], a, b) and (
                        table[a] ^ table[b] ^ constant(&table[0], &ks[k]) == target):
                    found, found_kind = first + a, k
                    break
            if found >= 0:
                break
    if found < 0:
        raise RuntimeError(
            f"cannot happen: no option of G({size}) has value {target} (the table is wrong)"
        )
    return found, found_kind
