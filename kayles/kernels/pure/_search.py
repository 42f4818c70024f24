"""The pruned search of sums and its exact bounded table, in plain Python: the twin of
ext/_search.pyx (``Table``, ``mix``, ``unmix``) and of the C search core (ext/src/search.c),
which the pure families (pure/_boards.py, _graphs.py, _chomp.py) run as ``solve``.

The table: a key is a tuple of 64-bit words.  Its first word goes through ``mix``, a
bijection on [0, 2**bits) (Stafford's mix13, masked after each odd multiplication), XORed
first with a hash of the other words; the mixed word's low ``log2`` bits pick a cluster of
eight entries, and the rest of it (at most 52 bits) is kept with the value (12 bits), the
other words verbatim.  As the mixer is a bijection, an entry names its key exactly: no two
keys share one.  A value field below EXCLUDED is an exact value; EXCLUDED with low bits is
an *exclusion*, the values 0 to 10 the search has proved a component not to have (search.c
says how they are used).  A table per key length grows by doubling while the tables
together stay within the cap in bytes (counted as the compiled twin's 8 bytes a word), then a store
pushes an entry of a full cluster out (an eviction): its oldest exclusion, else its oldest
value (an exclusion is dropped rather than push a value out).  Values past 2,047 are not
stored, nor keys too long (past 40 words) or too large for a small table's domain.

The search: search.c's header says what exact() and in_set() compute and why; this is the
same algorithm step for step (the same options in the same order, the same table), so
both twins visit the same positions and store the same entries.  Each is a generator that
yields the sub-searches it needs and is sent their answers; ``solve`` runs them on its own
stack, so no position is too deep for Python's recursion.
"""

from __future__ import annotations

from .. import board_checks as checks
from ..limits import interrupt

__all__ = ["CONSTANTS", "Table", "mix", "unmix"]  # (solve, has_value: the pure siblings' own)

VALUE_BITS = 12  # bits of an entry's value field
STORED_MAX = (1 << (VALUE_BITS - 1)) - 1  # 2047: a larger value is never stored
EXCLUDED = 1 << (VALUE_BITS - 1)  # a field of this bit: values ruled out in the low bits
EXCLUDE_VALUES = VALUE_BITS - 1  # an exclusion's values: 0 to 10
EMPTY = (1 << VALUE_BITS) - 1
CLUSTER = 8  # entries a cluster (a 64-byte line of one-word keys)
MAX_WIDTH = 40  # words of the longest key stored
FIRST_CLUSTERS = 64  # a table's first size
SMALL_LOG2 = 14  # a table of fewer than 2**14 clusters grows at its first full one
REMAINDER_BITS = 52
LOOK_WORK = 1 << 10  # units of work between looks (the compiled twin's 2**16, Python being slower)
NOT_IN_SET = -1
CONSTANTS = {"SEARCH_VALUE_BITS": VALUE_BITS, "SEARCH_STORED_MAX": STORED_MAX,
             "SEARCH_EXCLUDED": EXCLUDED, "SEARCH_EXCLUDE_VALUES": EXCLUDE_VALUES,
             "SEARCH_CLUSTER": CLUSTER, "SEARCH_MAX_WIDTH": MAX_WIDTH,
             "SEARCH_FIRST_CLUSTERS": FIRST_CLUSTERS}

_M64 = (1 << 64) - 1
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_INV1, _INV2 = pow(_MIX1, -1, 1 << 64), pow(_MIX2, -1, 1 << 64)
_GOLDEN = 0x9E3779B97F4A7C15


def mix(x: int, bits: int) -> int:
    """The bijection of [0, 2**bits) (bits 1 to 64) that places a key's first word."""
    checks.check_bits(bits)
    return _mix(checks.check_word(x) & ((1 << bits) - 1), bits)


def unmix(x: int, bits: int) -> int:
    """The inverse of ``mix``."""
    checks.check_bits(bits)
    return _unmix(checks.check_word(x), bits)


def _mix(x: int, bits: int) -> int:
    m = (1 << bits) - 1
    x = ((x ^ (x >> 30)) * _MIX1) & m
    x = ((x ^ (x >> 27)) * _MIX2) & m
    return x ^ (x >> 31)


def _unshift(y: int, s: int) -> int:
    return y ^ (y >> s) ^ (y >> (2 * s))


def _unmix(x: int, bits: int) -> int:
    m = (1 << bits) - 1
    x = _unshift(x & m, 31)
    x = _unshift((x * _INV2) & m, 27)
    return _unshift((x * _INV1) & m, 30)


def _hash_rest(words) -> int:
    h = _GOLDEN
    for w in words:
        h = (_mix(h ^ w, 64) + _GOLDEN) & _M64
    return h


class _Width:
    """The table of one key length: clusters of at most CLUSTER entries (remainder, rest,
    value), the newest first."""

    __slots__ = ("bits", "clusters", "count", "log2", "width")

    def __init__(self, width: int, log2: int) -> None:
        self.width, self.log2 = width, log2
        self.bits = min(64, log2 + REMAINDER_BITS)
        self.clusters: list[list] = [[] for _ in range(1 << log2)]
        self.count = 0

    def bytes(self) -> int:
        return _table_bytes(self.width, self.log2)

    def place(self, key: tuple) -> tuple[int, int] | None:
        m = (1 << self.bits) - 1
        h = key[0]
        if h & ~m:
            return None
        if len(key) > 1:
            h ^= _hash_rest(key[1:]) & m
        h = _mix(h, self.bits)
        return h & ((1 << self.log2) - 1), h >> self.log2


def _table_bytes(width: int, log2: int) -> int:
    return (1 << log2) * CLUSTER * width * 8


class Table:
    """An exact transposition table of at most ``memory`` bytes (module header).

    ``get(key)`` is the value stored for ``key`` (a tuple of 64-bit words) or None;
    ``put(key, value)`` stores it where it can; ``exclude``/``excluded`` as the compiled
    twin's.  ``stats()``: entries (values and exclusions), bytes, cap, evictions,
    unstored."""

    def __init__(self, memory: int) -> None:
        self.cap = checks.check_memory(memory)
        self.used = 0
        self.evictions = 0
        self.unstored = 0
        self._tables: dict[int, _Width] = {}

    def __len__(self) -> int:
        return sum(t.count for t in self._tables.values())

    def stats(self) -> dict[str, int]:
        return {"entries": len(self), "bytes": self.used, "cap": self.cap,
                "evictions": self.evictions, "unstored": self.unstored}

    def get(self, key) -> int | None:
        value = self._get(checks.check_key(key))
        return None if value < 0 else value

    def excluded(self, key) -> int:
        """The values 0 to 10 (bit v: value v) the table knows ``key`` not to have."""
        field = self._field(checks.check_key(key))
        return field & (EXCLUDED - 1) if field >= EXCLUDED else 0

    def exclude(self, key, values: int) -> None:
        """Add the values 0 to 10 of the bits of ``values`` to those ``key`` is known not
        to have, unless its value is stored."""
        self._exclude(checks.check_key(key), checks.check_value(values))

    def put(self, key, value: int) -> None:
        self._put(checks.check_key(key), checks.check_value(value))

    def _get(self, key: tuple) -> int:
        field = self._field(key)
        return -1 if field >= EXCLUDED else field

    def _field(self, key: tuple) -> int:
        t = self._tables.get(len(key))
        if t is None:
            return -1
        at = t.place(key)
        if at is None:
            return -1
        rest = key[1:]
        for remainder, words, value in t.clusters[at[0]]:
            if remainder == at[1] and words == rest:
                return value
        return -1

    def _put(self, key: tuple, value: int) -> None:
        if not 1 <= len(key) <= MAX_WIDTH or not 0 <= value <= STORED_MAX:
            self.unstored += 1
            return
        self._store(key, value, False)

    def _exclude(self, key: tuple, values: int) -> None:
        values &= EXCLUDED - 1
        if not 1 <= len(key) <= MAX_WIDTH or values in (0, EXCLUDED - 1):
            return  # (all of 0 to 10 at once: the field cannot say so)
        self._store(key, EXCLUDED | values, True)

    def _store(self, key: tuple, field: int, merge: bool) -> None:
        """An exact value replaces what the key had; an exclusion (merge) adds its values to
        the key's exclusion and leaves an exact value be."""
        width = len(key)
        t = self._tables.get(width)
        if t is None:
            log2 = 0
            while (1 << log2) < FIRST_CLUSTERS and \
                    self.used + _table_bytes(width, log2 + 1) <= self.cap:
                log2 += 1
            if self.used + _table_bytes(width, log2) > self.cap:
                self.unstored += 1
                return
            t = self._tables[width] = _Width(width, log2)
            self.used += t.bytes()
        at = t.place(key)
        if at is None:
            self.unstored += 1
            return
        cluster, rest = t.clusters[at[0]], key[1:]
        for i, (remainder, words, had) in enumerate(cluster):
            if remainder == at[1] and words == rest:
                if merge:
                    if had < EXCLUDED or field | had == EMPTY:
                        return
                    field |= had
                cluster[i] = (remainder, words, field)
                return
        # a table three quarters full, or a full cluster in a table three eighths full or
        # of fewer than 2**SMALL_LOG2 clusters: double it, if the cap allows (a cluster
        # fills up long before the table does)
        size = CLUSTER << t.log2
        if 4 * (t.count + 1) > 3 * size or (len(cluster) == CLUSTER and (
                t.log2 < SMALL_LOG2 or 8 * (t.count + 1) > 3 * size)):
            grown = self._grown(t)
            if grown is not t:
                t = grown
                at = t.place(key)
                if at is None:
                    self.unstored += 1
                    return
                cluster = t.clusters[at[0]]
        self._insert(t, cluster, (at[1], rest, field))

    def _insert(self, t: _Width, cluster: list, entry: tuple) -> None:
        """At the front; from a full cluster the oldest exclusion goes, else the oldest
        value, and an exclusion never pushes a value out (it is dropped)."""
        if len(cluster) == CLUSTER:
            out = next((i for i in range(CLUSTER - 1, -1, -1) if cluster[i][2] >= EXCLUDED),
                       None)
            if out is None:
                if entry[2] >= EXCLUDED:
                    return
                out = CLUSTER - 1
            del cluster[out]
            self.evictions += 1
            t.count -= 1
        cluster.insert(0, entry)
        t.count += 1

    def _grown(self, old: _Width) -> _Width:
        after = _table_bytes(old.width, old.log2 + 1)
        if self.used - old.bytes() + after > self.cap:
            return old
        t = _Width(old.width, old.log2 + 1)
        self._tables[old.width] = t
        self.used += after - old.bytes()
        m = (1 << old.bits) - 1
        for index, cluster in enumerate(old.clusters):
            for remainder, rest, value in reversed(cluster):
                first = _unmix((remainder << old.log2) | index, old.bits)
                if rest:
                    first ^= _hash_rest(rest) & m
                key = (first, *rest)
                at = t.place(key)
                if at is None:
                    self.unstored += 1
                else:
                    self._insert(t, t.clusters[at[0]], (at[1], rest, value))
        return t


# ---------------------------------------------------------------------------- the search

class _Frame:
    """A component expanded: the values of the options known at once, and the others
    (easiest first) as [cost, nim, parts hardest first, used]."""

    __slots__ = ("known", "n", "opts")


class _Search:
    """One search over ``game`` (expand(key) -> [(nim, [(key, size), ...]), ...] and
    bound(key) -> moves) with ``table``."""

    def __init__(self, game, table: Table) -> None:  # game: expand() yields its options
        self.game, self.table = game, table
        self.work = 0
        self.expanded = 0
        self.lookups = 0
        self.known = 0

    def spend(self, units: int) -> None:
        self.work += units
        if self.work >= LOOK_WORK:
            self.work = 0
            interrupt()

    def open(self, key: tuple, potential: list | None = None, want: int = 0) -> _Frame | None:
        """``key`` expanded (the options known at once apart, the others sorted easiest
        first, their parts hardest first); None when in_set's ``potential`` set (a list
        of one int, updated with the known options' values) no longer meets ``want``."""
        self.expanded += 1
        self.known = 0  # the values below EXCLUDE_VALUES of the options known
        f = _Frame()
        f.n = 0
        f.known, f.opts = [], []
        get = self.table._get
        units = 0
        options = iter(self.game.expand(key))
        ahead = next(options, None)
        while ahead is not None:
            nim, parts = ahead
            ahead = next(options, None)  # the compiled twin writes one option ahead
            f.n += 1
            units += len(parts) + 1
            gone = [False] * len(parts)
            for i in range(len(parts)):
                if gone[i]:
                    continue
                for j in range(i + 1, len(parts)):
                    if not gone[j] and parts[j][0] == parts[i][0]:
                        gone[i] = gone[j] = True
                        break
            live = []
            for (part, size), cancelled in zip(parts, gone):
                if cancelled:
                    continue
                self.lookups += 1
                v = get(part)
                if v >= 0:
                    nim ^= v
                else:
                    live.append((part, size))
            if live:
                live.sort(key=lambda p: -p[1])  # stable: largest first
                f.opts.append([sum(size * size for _, size in live), nim, live, False])
                continue
            f.known.append(nim)
            if nim < EXCLUDE_VALUES:
                self.known |= 1 << nim
            if potential is not None:
                potential[0] = _remove(potential[0], nim)
                if not potential[0] & want:
                    self.spend(units)
                    return None
        self.spend(units)
        f.opts.sort(key=lambda o: o[0])
        return f

    def reduce(self, o: list):
        """Option o down to its hardest part, the exact values of the others folded into
        its nim (known when no part is left)."""
        parts = o[2]
        while len(parts) > 1:
            o[1] ^= yield ("exact", parts.pop()[0], 0)

    def in_set(self, key: tuple, want: int):
        table = self.table
        self.lookups += 1
        field = table._field(key)
        if 0 <= field < EXCLUDED:
            return field
        if field >= EXCLUDED:  # ask only about the values not ruled out
            want &= ~(field & (EXCLUDED - 1))
        most = want.bit_length() - 1
        n = self.game.bound(key)
        if not want or ((want & -want).bit_length() - 1) > n:
            return NOT_IN_SET
        potential = [(1 << (n + 1)) - 1]
        f = self.open(key, potential, want)
        learnt = self.known  # g(p) is no option's value
        if f is None:
            table._exclude(key, want | learnt)
            return NOT_IN_SET
        P = potential[0]
        partial = False
        for o in f.opts:
            if not P & want:
                table._exclude(key, want | learnt)
                return NOT_IN_SET
            yield from self.reduce(o)
            if not o[2]:
                P = _remove(P, o[1])
                learnt |= _learnt(o[1])
                continue
            top = P.bit_length() - 1
            limit = min(most, top - 1)
            off = o[1]
            low = P & ((1 << (limit + 1)) - 1)
            ask = 0
            while low:
                bit = low & -low
                ask |= 1 << ((bit.bit_length() - 1) ^ off)
                low ^= bit
            if not ask:
                P &= ~(1 << top)
                partial = True
                continue
            q = yield ("in_set", o[2][0][0], ask)
            if q == NOT_IN_SET:
                P &= ~(1 << top)
                partial = True
            else:
                P = _remove(P, q ^ off)
                learnt |= _learnt(q ^ off)
        v = P.bit_length() - 1
        if not partial or v <= most:
            table._put(key, v)
            return v
        table._exclude(key, want | learnt)
        return NOT_IN_SET

    def exact(self, key: tuple, start: int):
        table = self.table
        self.lookups += 1
        field = table._field(key)
        if 0 <= field < EXCLUDED:
            return field
        f = self.open(key)
        seen = 0
        for v in f.known:
            if v <= f.n:
                seen |= 1 << v
        if field >= EXCLUDED:  # some option has each of these values, though not one known
            seen |= field & (EXCLUDED - 1)
        for r in range(start, f.n):
            if seen >> r & 1:
                continue
            found = False
            for o in f.opts:
                if o[3]:
                    continue
                yield from self.reduce(o)
                if not o[2]:
                    q = o[1]
                else:
                    q = yield ("in_set", o[2][0][0], 1 << (r ^ o[1]))
                    if q == NOT_IN_SET:
                        continue
                    q ^= o[1]
                o[3] = True
                if q <= f.n:
                    seen |= 1 << q
                if q == r:
                    found = True
                    break
            if not found:
                table._put(key, r)
                return r
        table._put(key, f.n)
        return f.n


def _learnt(v: int) -> int:
    """v is an option's value, so not the position's: the bit an exclusion keeps of it."""
    return 1 << v if v < EXCLUDE_VALUES else 0


def _remove(P: int, v: int) -> int:
    """P without v when v is in P, else without its largest element."""
    if v >= 0 and P >> v & 1:
        return P & ~(1 << v)
    return P & ~(1 << (P.bit_length() - 1))


def solve(game, table: Table, key: tuple, winning: bool = False, counts: dict | None = None) -> int:
    """The value of the component ``key`` of ``game`` (see _Search), from 1 up when
    ``winning``; the table keeps what it learns.  ``counts`` (a dict) gets the positions
    expanded and looked up added to its 'expanded' and 'lookups'."""
    search = _Search(game, table)
    return _run(search, search.exact(key, 1 if winning else 0), counts)


def has_value(game, table: Table, key: tuple, value: int, counts: dict | None = None) -> bool:
    """Whether the value of the component ``key`` is ``value``: in_set asked of that one
    value, so no more of the values are found than that needs (as ``solve`` otherwise)."""
    if value > game.bound(key):  # g(p) <= its number of moves
        return False
    search = _Search(game, table)
    return _run(search, search.in_set(key, 1 << value), counts) == value


def sum_has_value(game, table: Table, keys: list, nim: int, value: int,
                  counts: dict | None = None) -> bool:
    """Whether nim XOR the values of the components ``keys`` is ``value``: the exact values
    of all but the last (put the largest last), then ``has_value`` of the last."""
    if not keys:
        return nim == value
    for key in keys[:-1]:
        nim ^= solve(game, table, key, False, counts)
    return has_value(game, table, keys[-1], value ^ nim, counts)


def _run(search: _Search, top, counts: dict | None):
    """Drive the search's generators from ``top`` down; its answer."""
    stack = [top]
    answer = None
    try:
        while True:
            try:
                request = stack[-1].send(answer)
            except StopIteration as done:
                stack.pop()
                answer = done.value
                if not stack:
                    return answer
                continue
            kind, part, arg = request
            stack.append(search.exact(part, arg) if kind == "exact" else search.in_set(part, arg))
            answer = None
    finally:
        if counts is not None:
            counts["expanded"] = counts.get("expanded", 0) + search.expanded
            counts["lookups"] = counts.get("lookups", 0) + search.lookups
