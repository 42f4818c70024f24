"""The nim-sequence kernels in plain Python: same names, arguments, results and errors as
ext/_core.pyx (tables, masks, periods, row moves).

Tables are writable buffers of unsigned 16-bit nimbers (``memoryview(...).cast("H")``);
kinds are the tuples of ``rules.encode``.  Nothing here validates user input: the
layers above do.  See ext/_core.pyx for how the sparse-space method works.
"""

from __future__ import annotations

from _thread import allocate_lock
from bisect import bisect_left
from operator import mul, xor

from .. import constants
from ..constants import MAX_KINDS, MAX_SPAN, PIN, VALUE_LIMIT
from ..limits import CORES, THREADS
from ..spectrum import (
    HEAP_PARITY,
    PARITY_SHIFT,
    allowed_mask,
    is_rare,
    parity,
    split_parity,
    walsh_hadamard,
)
from ._common import check_kinds, constant, mex, options

__all__ = [
    "CONSTANTS",
    "VECTORS",
    "Scratch",
    "choose_mask",
    "chunk_sums",
    "default_vector",
    "extend_bounded",
    "extend_plain",
    "extend_sparse",
    "find_period",
    "rare_heaps",
    "row_move",
    "row_nim_sum",
]

# The sizes this twin works with, as the compiled one exports what its C was built with
CONSTANTS = {name: getattr(constants, name) for name in
             ("VALUE_LIMIT", "MAX_KINDS", "MAX_KEPT", "MAX_SPAN", "PIN", "MAX_THREADS")}

POSITION_LIMIT = (1 << 32) - 1  # the compiled core keeps rare positions in 32 bits
SAVING = 1  # split when its estimated cost is under 1/SAVING of the plain scan's

# The instruction sets the search can sweep with (the compiled core's are CPU ones).
VECTORS = ("python",)


def default_vector() -> str:
    """The instruction set of a scratch that names none: here always "python"
    (KAYLES_VECTOR names the compiled kernels' sets and is not read here)."""
    return VECTORS[0]


def _pair_values(table, r: int, unequal: bool) -> set[int]:
    """{G(a) ^ G(b) : a + b = r, a, b >= 1} (a != b when unequal)."""
    half = r // 2
    if unequal and not r % 2:
        half -= 1
    return set(map(xor, table[1 : half + 1], table[r - 1 : r - half - 1 : -1]))


def _whole_and_ends(table, n: int, kinds, options: set[int]) -> list[list]:
    """Add the options of heap n that leave no part or one part; list the two-part kinds.

    Returns [r, c, unequal, next a, last a] per kind that may leave two parts (a + b = r).
    """
    splits = []
    for span, kept, leave, unequal in kinds:
        if n < span:
            continue
        c = constant(table, kept)
        r = n - span
        if r == 0:
            if leave & 1:  # no part left: allowed even when unequal (rules.py)
                options.add(c)
            continue
        if leave & 2:
            options.add(table[r] ^ c)
        if leave & 4:
            splits.append([r, c, unequal, 1, r // 2 - 1 if unequal and r % 2 == 0 else r // 2])
    return splits


def _options_plain(table, n: int, kinds) -> set[int]:
    options: set[int] = set()
    for r, c, unequal, _, _ in _whole_and_ends(table, n, kinds, options):
        values = _pair_values(table, r, unequal)
        options |= {v ^ c for v in values} if c else values
    return options


def _store(table, n: int, value: int) -> None:
    if value >= VALUE_LIMIT:
        raise OverflowError(f"G({n}) = {value} does not fit the 16-bit table")
    table[n] = value


def _cores_here() -> int:
    """The cores this process may run on (the compiled twin's kayles_cores)."""
    from ..._environ import system

    try:
        return max(1, min(len(system.sched_getaffinity(0)), CORES.high))
    except (AttributeError, OSError):
        return max(1, min(system.cpu_count() or 1, CORES.high))


class Scratch:
    """Working memory for extend_plain and extend_sparse, allocated once and reused.

    The compiled core's twin: here it keeps the value histogram's list between
    calls.  It holds no values between calls that a call does not rebuild.
    vector names the sparse method's instructions, one of VECTORS, threads (1 to
    MAX_THREADS) how many threads it may run and cores how many at once, crew_from
    and crew_rare from which heap and how many rare heaps on, waited_only whether a
    crew's heap sees only the values its block waited for; only the speed depends
    on them, and here one thread runs.  One call at a time uses a scratch: a call from
    another thread waits for the one under way to end (``lock``).
    """

    __slots__ = ("_cores", "counts", "lock", "mask", "rare_positions", "threads", "vector")

    def __init__(self, vector: str | None = None, threads: int = 1,
                 cores: int | None = None, crew_from: int | None = None,
                 crew_rare: int | None = None, waited_only: bool = False) -> None:
        if vector is not None and vector not in VECTORS:
            raise ValueError(f"vector must be one of {', '.join(VECTORS)}, not {vector!r}")
        THREADS.check(threads)
        if cores is not None:
            CORES.check(cores)
        for name, value in (("crew_from", crew_from), ("crew_rare", crew_rare)):
            if value is not None and value < 0:
                raise ValueError(f"{name} must be 0 or more, not {value}")
        self.threads = threads
        self._cores = cores or _cores_here()
        self.vector = VECTORS[0]
        self.lock = allocate_lock()
        self.counts: list[int] = []
        self.mask = 0
        self.rare_positions: list[int] = []

    @property
    def cores(self) -> int:
        """How many threads a call may run at once (the compiled twin's crew follows it;
        here one thread runs); settable between calls, 1 to MAX_THREADS."""
        return self._cores

    @cores.setter
    def cores(self, value: int) -> None:
        CORES.check(value)
        with self.lock:
            self._cores = value

    def histogram(self) -> list[int]:
        """How many heaps of the table the last call filled (G(0..stop-1)) have each value:
        a list up to the largest value."""
        top = max((v for v, k in enumerate(self.counts) if k), default=0)
        return self.counts[: top + 1]

    one_hot = False  # the compiled core's one-hot path for many rare values below 64
    threads_used = 1  # how many threads the last call ran at once
    solved_again = 0  # how many heaps its crews solved twice (no crews here)

    def rare(self) -> tuple[int, int, int]:
        """(mask, how many rare heaps, the last of them or -1) after the last sparse call
        (mask 0: the plain scan)."""
        if self.mask <= 0:
            return 0, 0, -1
        return self.mask, len(self.rare_positions), (self.rare_positions or [-1])[-1]


def _scratch_for(scratch) -> Scratch:
    if scratch is None:
        return Scratch()
    if not isinstance(scratch, Scratch):
        raise TypeError(f"scratch must be a Scratch, not {type(scratch).__name__}")
    return scratch


def extend_plain(table, start: int, stop: int, kinds, scratch=None) -> None:
    """Fill table[start:stop] with the mex over every option (the quadratic scan)."""
    check_kinds(kinds)
    with _scratch_for(scratch).lock:
        _check_range(table, start, stop)
        for n in range(start, stop):
            _store(table, n, mex(_options_plain(table, n, kinds)))


def _check_range(table, start: int, stop: int) -> None:
    if not 0 <= start <= stop <= len(table):
        raise ValueError(f"range {start}:{stop} does not fit a table of {len(table)}")


def _pick_mask(counts, constants, odd=None) -> tuple[int, int]:
    """(mask, rare): the allowed mask of least estimated cost (see ext/core/masks.pxi); 0:
    plain.  With odd (the histogram of the heaps of class 1), masks may hold HEAP_PARITY."""
    top = max([0, *constants, *(v for v, k in enumerate(counts) if k)])
    width = 1 << top.bit_length()
    counts = counts[:width] + [0] * (width - len(counts))
    high = ([*odd[:width], *[0] * (width - len(odd))] if odd is not None else [0] * width)
    pairs = [k for v in range(width) for k in (counts[v] - high[v], high[v])]
    total = sum(counts)
    distinct = sum(1 for k in counts if k)
    distinct_pairs = sum(1 for k in pairs if k)
    spectrum = walsh_hadamard(pairs)
    present = walsh_hadamard([1 if k else 0 for k in counts])
    present_pairs = walsh_hadamard([1 if k else 0 for k in pairs])
    best = best_cost = best_rare = None
    for e in range(2, 2 * width):
        if e & 1 and odd is None or not allowed_mask(e >> 1, constants):
            continue
        rare = (total + spectrum[e]) // 2
        if e & 1:
            mask, rare_values = e >> 1 | HEAP_PARITY, (distinct_pairs + present_pairs[e]) // 2
        else:
            mask, rare_values = e >> 1, (distinct + present[e >> 1]) // 2
        cost = 3 * rare + 2 * rare_values * rare_values.bit_length()
        if best_cost is None or cost < best_cost:
            best, best_cost, best_rare = mask, cost, rare
    if best and SAVING * best_cost < total:
        return best, best_rare
    return 0, total


def choose_mask(counts, constants, odd=None) -> tuple[int, int]:
    """(mask, rare) for a value histogram and option constants: the mask extend_sparse picks.

    counts[v] is how many heaps have value v (v < 2**16); constants are the
    values of the kept runs of the move kinds.  rare is how many heaps have an
    even-parity value under the mask; mask 0 means the plain scan (rare: all).
    odd, where the game's two-part kinds share a span parity s, is the
    histogram of the heaps a with (a ^ s) odd: masks may then hold HEAP_PARITY
    (a heap is rare when the parity of its value under the mask, plus its class, is even).
    """
    if len(counts) > VALUE_LIMIT or odd is not None and len(odd) > len(counts):
        raise ValueError(f"at most {VALUE_LIMIT} counts, and no more odd than counts")
    if len(constants) > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    if any(k < 0 for k in counts):
        raise ValueError("counts must be >= 0")
    if odd is not None and not all(0 <= k <= n for k, n in zip(odd, counts)):
        raise ValueError("odd counts must be 0 to counts")
    if not all(0 <= c < VALUE_LIMIT for c in constants):
        raise ValueError(f"constants must be in [0, {VALUE_LIMIT})")
    return _pick_mask(list(counts), list(constants), None if odd is None else list(odd))


def extend_sparse(table, start: int, stop: int, kinds, scratch=None) -> None:
    """Fill table[start:stop] by the sparse-space method; same values as extend_plain."""
    check_kinds(kinds)
    scratch = _scratch_for(scratch)
    with scratch.lock:
        _sparse_call(table, start, stop, kinds, scratch)


def _sparse_call(table, start: int, stop: int, kinds, scratch: Scratch) -> None:
    _check_range(table, start, stop)
    if stop > POSITION_LIMIT:
        raise ValueError(f"the sparse method stops below {POSITION_LIMIT} heaps")
    if start == stop:
        return
    counts = scratch.counts
    counts[:] = [0] * VALUE_LIMIT
    for n in range(start):
        counts[table[n]] += 1
    scratch.mask, scratch.rare_positions = -1, []
    _run(table, start, stop, kinds, scratch)


def extend_bounded(table, start: int, stop: int, kinds, scratch, mask: int, counts,
                   prefix: int, reach: int) -> tuple[int, str | None]:
    """Fill table[start:stop] as extend_sparse does, reading only part of the table before start.

    See ext/_core.pyx: rare heaps (under ``mask``) lie below ``prefix``, the mask
    is kept, ``counts`` is the histogram of G(0..start-1), searches use smaller
    parts below ``reach`` (0: any).  Returns (stop, None), or (n, "reach") or
    (n, "rare") for the first heap n it cannot settle.
    """
    check_kinds(kinds)
    scratch = _scratch_for(scratch)
    with scratch.lock:
        return _bounded_call(table, start, stop, kinds, scratch, mask, counts, prefix, reach)


def _bounded_call(table, start: int, stop: int, kinds, scratch: Scratch, mask: int, counts,
                  prefix: int, reach: int) -> tuple[int, str | None]:
    _check_range(table, start, stop)
    if not (MAX_SPAN < prefix <= POSITION_LIMIT and 0 <= reach <= prefix):
        raise ValueError(f"extend_bounded needs {MAX_SPAN} < prefix <= {POSITION_LIMIT} and "
                         f"0 <= reach <= prefix, not prefix {prefix} and reach {reach}")
    if not (0 < mask < VALUE_LIMIT or mask & HEAP_PARITY and 0 < mask - HEAP_PARITY < VALUE_LIMIT
                                    and split_parity(kinds) >= 0):
        raise ValueError(f"the mask is 1 to {VALUE_LIMIT - 1}, or that plus {HEAP_PARITY} where "
                         f"the two-part kinds' spans share a parity, not {mask}")
    if any(span <= start and parity(constant(table, kept) & mask)
           for span, kept, _, _ in kinds):
        raise ValueError(f"the mask {mask} makes an option constant common")
    if len(counts) > VALUE_LIMIT or any(c < 0 for c in counts) or sum(counts) != start:
        raise ValueError(f"counts must be the histogram of the {start} values before start")
    if start == stop:
        return stop, None
    scratch.counts[:] = [*counts, *[0] * (VALUE_LIMIT - len(counts))]
    scratch.mask = mask
    scratch.rare_positions = [a for a in range(min(prefix, start))
                              if is_rare(mask, split_parity(kinds), a, table[a])]
    return _run(table, start, stop, kinds, scratch, reach=reach, prefix=prefix)


def _run(table, start: int, stop: int, kinds, scratch: Scratch, reach: int = 0,
         prefix: int | None = None) -> tuple[int, str | None]:
    """Fill table[start:stop] from the scratch's state (a prefix: the mask is frozen and a
    rare heap past it stops the run); (stop, None), or the first heap left and why."""
    counts = scratch.counts
    top = max((v for v, k in enumerate(counts) if k), default=0)  # the largest value so far
    spans = {span for span, *_ in kinds}
    widest = max(spans, default=0)
    mask, rare = scratch.mask, scratch.rare_positions
    rare_values = [table[a] for a in rare]
    parity_of_splits = split_parity(kinds)
    pairs: dict[tuple[int, bool], set[int]] = {}  # (r, unequal) -> rare pair values
    for n in range(start, stop):
        if prefix is None and (n == start or n in spans or (n & (n - 1)) == 0):
            live = [constant(table, h) for s, h, *_ in kinds if s <= n]
            odd = None
            if parity_of_splits >= 0:
                odd = [0] * (top + 1)
                for a in range(1 - parity_of_splits, n, 2):
                    odd[table[a]] += 1
            new_mask = _pick_mask(counts[: top + 1], live, odd)[0]
            if new_mask != mask:
                mask = scratch.mask = new_mask
                pairs.clear()
                rare = ([a for a in range(n) if is_rare(mask, parity_of_splits, a, table[a])]
                        if mask else [])
                scratch.rare_positions = rare
                rare_values = [table[a] for a in rare]
        if mask:
            flip = (mask >> PARITY_SHIFT) & (n ^ parity_of_splits) & 1
            value = _mex_sparse(table, n, kinds, mask, flip, rare, rare_values, pairs, reach)
            if value is None:
                return n, "reach"
            for unequal in (False, True):  # remainders no kind will ask for again
                pairs.pop((n - widest, unequal), None)
        else:
            value = mex(_options_plain(table, n, kinds))
        if prefix is not None and n >= prefix and is_rare(mask, parity_of_splits, n, value):
            return n, "rare"
        _store(table, n, value)
        counts[value] += 1
        top = max(top, value)
        if mask and is_rare(mask, parity_of_splits, n, value):
            rare.append(n)
            rare_values.append(value)
    return stop, None


def _rare_pairs(table, r: int, unequal: bool, rare: list[int], rare_values: list[int]) -> set[int]:
    """{G(a) ^ G(r - a) : a rare, 1 <= a <= r - 1} (a != r - a when unequal)."""
    lo, hi = bisect_left(rare, 1), bisect_left(rare, r)
    values = set(map(xor, rare_values[lo:hi], map(table.__getitem__, map(r.__sub__, rare[lo:hi]))))
    if unequal and r % 2 == 0:
        mid = bisect_left(rare, r // 2)
        if mid < hi and rare[mid] == r // 2 and not any(
            rare_values[i] == table[r - rare[i]] for i in range(lo, hi) if i != mid
        ):
            values.discard(0)  # G(r/2) ^ G(r/2) came only from the equal split
    return values


def _mex_sparse(table, n: int, kinds, mask: int, flip: int, rare, rare_values, pairs,
                reach: int = 0) -> int | None:
    """G(n); None when a pair with a smaller part from ``reach`` on would be needed.  A value
    v is rare in heap n's class when parity(v & mask) == flip."""
    marked: set[int] = set()
    splits = _whole_and_ends(table, n, kinds, marked)
    for r, c, unequal, _, _ in splits:
        key = (r, unequal)
        if key not in pairs:  # kinds with other spans meet this r again soon
            pairs[key] = _rare_pairs(table, r, unequal, rare, rare_values)
        marked.update({v ^ c for v in pairs[key]} if c else pairs[key])
    # Every common-valued option has a rare part, so it is marked by now.
    common = 0
    while parity(common & mask) == flip or common in marked:
        common += 1
    cut = False  # within reach, some split has pairs left unsearched
    for split in splits:
        if reach and split[4] >= reach:
            split[4] = reach - 1
            cut = True
    for value in range(common):
        if parity(value & mask) != flip or value in marked:
            continue
        if not _search(table, splits, marked, value):
            return None if cut else value
    return common


def _search(table, splits, marked: set[int], value: int) -> bool:
    """Mark the splits' options, blocks of 64 smaller parts at a time, until ``value`` is marked.

    All splits advance side by side and resume where the last search stopped, up
    to each split's last smaller part.
    """
    while value not in marked:
        active = False
        for split in splits:
            r, c, unequal, a, last = split
            if a > last:
                continue
            active = True
            end = min(a + 64, last + 1)
            values = map(xor, table[a:end], table[r - a : r - end : -1])
            marked.update({v ^ c for v in values} if c else values)
            split[3] = end
        if not active:
            return False
    return True


def chunk_sums(table, start: int, stop: int) -> tuple[int, int, int, int]:
    """(s1, s2, largest, first) of the values v_0..v_{k-1} = table[start:stop]: Fletcher-32's
    sums of the chunk alone (s1 = sum v_i, s2 = sum (k - i) v_i, mod 65535), the largest
    value and the first index where it stands (-1 for an empty chunk)."""
    _check_range(table, start, stop)
    if start == stop:
        return 0, 0, -1, -1
    values = table[start:stop]
    k = stop - start
    s1 = sum(values) % 65535
    s2 = sum(map(mul, values, range(k, 0, -1))) % 65535
    largest = max(values)
    return s1, s2, largest, start + values.tolist().index(largest)


def rare_heaps(table, start: int, stop: int, mask: int, split_parity: int = -1) -> tuple[int, int]:
    """(how many heaps of table[start:stop] are rare under mask, the last of them or -1).

    A mask holding HEAP_PARITY needs the game's split parity (0 or 1: spectrum.split_parity).
    """
    _check_range(table, start, stop)
    if not (0 <= mask < VALUE_LIMIT or mask & HEAP_PARITY and mask < 2 * VALUE_LIMIT
                                      and split_parity in (0, 1)):
        raise ValueError(f"the mask is 0 to {VALUE_LIMIT - 1}, or that plus {HEAP_PARITY} with "
                         f"a split parity of 0 or 1, not {mask} (split parity {split_parity})")
    rare = [i for i in range(start, stop) if is_rare(mask, split_parity, i, table[i])]
    return len(rare), rare[-1] if rare else -1


def find_period(table, length: int, span: int, parts: int = 2) -> tuple[int, int, int] | None:
    """The candidate period whose proof needs the fewest values, if fewer than 2 * length.

    Candidates are the p <= length // 2 (at least half the table is evidence).
    For a period p, n0 is the least index with table[k] == table[k + p] for
    n0 <= k < length - p, and the proof needs
    needed = max(K * max(n0, 1) + K * p + span - K + 1, p + span + 1) values, K =
    ``parts``, the most parts a move leaves (2, octal: 2 max(n0, 1) + 2p + span - 1; see
    kayles/engine/regularity.py).  Returns (p, n0, needed) with the least needed (ties:
    the smaller p), or None.  A p is dismissed as soon as its n0 cannot beat the best so
    far, so the scan stays near linear even when many multiples of the period match.
    """
    if not 0 <= length <= len(table):
        raise ValueError(f"length {length} does not fit a table of {len(table)}")
    if not 1 <= parts <= 64:
        raise ValueError(f"parts must be 1 to 64, not {parts}")
    K = parts
    best = None
    best_needed = 2 * length
    for p in range(1, length // 2 + 1):
        if K * p + span + 1 >= best_needed:
            break  # needed only grows with p
        bound = (best_needed - K * p - span + K - 2) // K  # n0 must be <= bound to win
        k = start = min(bound, length - p)
        while k < length - p and table[k] == table[k + p]:
            k += 1
        if k < length - p:
            continue
        k = start - 1
        while k >= 0 and table[k] == table[k + p]:
            k -= 1
        n0 = k + 1
        best_needed = max(K * max(n0, 1) + K * p + span - K + 1, p + span + 1)
        best = (p, n0, best_needed)
    return best


def _runs(row: bytes):
    """(first index, length) of every run of pins, left to right."""
    start = None
    for i, ch in enumerate(row):
        if ch == PIN:
            if start is None:
                start = i
        elif start is not None:
            yield start, i - start
            start = None
    if start is not None:
        yield start, len(row) - start


def row_nim_sum(row: bytes, table) -> int:
    """XOR of G(run) over the runs of 'x' in a row of b'x' and b'.'."""
    total = 0
    for _, size in _runs(row):
        if size >= len(table):
            raise ValueError(f"a run of {size} pins needs a table longer than {len(table)}")
        total ^= table[size]
    return total


def row_move(row: bytes, table, kinds) -> tuple[int, int] | None:
    """The seed's winning move on a row, as (first covered index, kind index), or None.

    The leftmost run whose value can be lowered to G(run) ^ X; in it, the first
    option in ``Game.options`` order (smallest placement, then the earlier kind)
    whose value G(a) ^ G(kept runs) ^ G(b) is G(run) ^ X.
    """
    check_kinds(kinds)
    total = row_nim_sum(row, table)
    if not total:
        return None
    # The run holding the highest bit of the nim-sum can always be lowered.
    first, size = next((f, s) for f, s in _runs(row) if table[s] ^ total < table[s])
    target = table[size] ^ total
    for a, k, b in options(size, kinds):
        if table[a] ^ table[b] ^ constant(table, kinds[k][1]) == target:
            return first + a, k
    raise RuntimeError(
        f"cannot happen: no option of G({size}) has value {target} (the table is wrong)"
    )
