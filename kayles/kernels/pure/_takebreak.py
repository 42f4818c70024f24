"""The take-and-break kernel in plain Python: nim-values of any code (moves that leave any
number of heaps, marks, repeating tails); same names, arguments, results and errors as
ext/_takebreak.pyx.

How a heap's value is found (both twins).  The options a move kind gives a heap of n
are those of the t = n - span tokens it leaves:

- no part (t = 0): the value 0; one part: G(t); two parts: the pair set
  X(t) = {G(a) ^ G(t - a) : 1 <= a <= t/2}, or its unequal pairs (mark '!' or '?'),
  or 0 (mark '=', t even).  X(t) is a bit set kept once G(t) is known, so all these
  are marked at once, a kind at a time (a bit-set OR);
- j >= 3 parts, all the same size (mark '='): the one value G(t/j) or 0, marked too;
- j >= 3 parts otherwise: searched per candidate value (a candidate-driven mex).
  v is one of their values iff some smallest part a <= t/j has v ^ G(a) among the
  values of j - 1 parts of t - a, down to the pair sets (no mark: any parts, since the
  smallest part only bounds the search);
- any number of parts from j on (a kind's ``more``): the same search down to P(t),
  the values of every split of t into one part or more, kept as a set per t;
- '?' (not all the same size) differs from no mark only where v is the value of an
  all-same split; then some split has two parts x < y, and the search runs over them
  and the rest; '!' (all different) lists its splits, parts ascending, one by one.

The mex takes the least unmarked value that no search finds.  A repeating tail's kinds
(spans s + i + qk for ever) leave t in one residue class mod q, up to n - s - i: their
sets of one part's and pairs' values are unions over the class, kept per t as running
unions (U(t) = X(t) | U(t - q)), so a tail costs a kind per class, not per span; its
searches (three parts or more) run span by span.
"""

from __future__ import annotations

from _thread import allocate_lock

from .. import constants
from ..checks import for_takebreak
from ..constants import ALL_DIFFERENT, ALL_SAME, NO_MARK, NOT_ALL_SAME, VALUE_LIMIT
from ..limits import interrupt
from ..parts import multisets
from ._core import VECTORS

__all__ = ["CONSTANTS", "VECTORS", "Scratch", "extend"]

# The sizes and marks this twin works with, as the compiled one exports its C's
CONSTANTS = {name: getattr(constants, name) for name in
             ("VALUE_LIMIT", "NO_MARK", "ALL_DIFFERENT", "NOT_ALL_SAME", "ALL_SAME", "MIN_ROOM",
              "MAX_KEPT", "MAX_KINDS", "AHEAD", "ACCUMULATORS")}

PULSE_STEPS = 1 << 12  # search steps between looks at the interrupt hook (a server's cap)


class Scratch:
    """Working memory for extend, kept between calls: a call that goes on where the last
    one ended (start = the heap it reached, the same rules, the same values below start,
    in any buffer) keeps the sets it built; one call at a time (``lock``).  ``vector``: one
    of VECTORS, as the compiled twin takes it (plain Python here)."""

    def __init__(self, vector: str | None = None) -> None:
        if vector is not None and vector not in VECTORS:
            raise ValueError(f"vector must be one of {', '.join(VECTORS)}, not {vector!r}")
        self.vector = VECTORS[0]
        self.lock = allocate_lock()
        self.next = -1
        self.rules = None
        self.fingerprint = None  # G(0..next-1) as the last call left them
        self.state = None


class _State:
    """What a run over one table keeps per heap t (see the module header)."""

    def __init__(self, table, rules: tuple) -> None:
        kinds, tail = rules
        self.table = table
        self.kinds = kinds
        self.tail = tail
        self.finite = kinds[: len(kinds) - tail]
        self.period = kinds[len(kinds) - tail :]
        self.q = tail
        everything = [(c, m) for _, _, counts, _ in kinds for c, m in counts]
        mores = [(counts[-1], more) for _, _, counts, more in kinds if counts and more]
        self.need_unequal = any(c == 2 and m in (ALL_DIFFERENT, NOT_ALL_SAME)
                                for c, m in everything) or any(
            more and c <= 2 and m in (ALL_DIFFERENT, NOT_ALL_SAME) for (c, m), more in mores)
        self.need_partitions = any(more and m in (NO_MARK, NOT_ALL_SAME) for (_, m), more in mores)
        self.pairs: list[int] = []  # X(t), bit v set when v is a pair's value
        self.unequal: list[int] = []  # ... of the unequal pairs
        self.partitions: list[set[int]] = []  # P(t)
        self.ones: list[int] = []  # tails: running unions per class of bit G(t) (t >= 1)
        self.pair_runs: list[int] = []  # ... of X(t)
        self.unequal_runs: list[int] = []  # ... of the unequal pairs' sets
        self.steps = 0  # search steps since the last look at the interrupt hook

    def step(self) -> None:
        """One search step: every PULSE_STEPS, the interrupt hook (kayles.kernels.limits),
        which raises to end the call (a server's time cap; Ctrl-C reaches Python anyway)."""
        self.steps += 1
        if self.steps >= PULSE_STEPS:
            self.steps = 0
            interrupt()

    def prepare(self, t: int) -> None:
        """Keep the pair sets of t, which need G(0..t-1) only (a kind of span 0 leaves
        t = n tokens, so heap n reads them before its own value is known)."""
        g = self.table
        value = 0
        for a in range(1, t // 2 + 1):
            value |= 1 << (g[a] ^ g[t - a])
        self.pairs.append(value)
        if self.need_unequal:
            if t % 2 == 0 and t:
                value = 0
                for a in range(1, (t - 1) // 2 + 1):
                    value |= 1 << (g[a] ^ g[t - a])
            self.unequal.append(value)
        if self.q:
            before = t - self.q
            self.pair_runs.append(self.pairs[t] | (self.pair_runs[before] if before >= 0 else 0))
            if self.need_unequal:
                self.unequal_runs.append(
                    self.unequal[t] | (self.unequal_runs[before] if before >= 0 else 0))

    def add(self, t: int) -> None:
        """Keep the sets of t that hold G(t) (its value is in the table now)."""
        g = self.table
        if self.need_partitions:
            found = {g[t]} if t else set()
            for a in range(1, t):
                found.update(g[a] ^ x for x in self.partitions[t - a])
            self.partitions.append(found)
        if self.q:
            before = t - self.q
            self.ones.append((1 << g[t] if t else 0) | (self.ones[before] if before >= 0 else 0))

    # -- the searches (j >= 3 parts) -----------------------------------------------------------

    def parts(self, v: int, t: int, j: int) -> bool:
        """Whether j parts of t, any sizes, have the value v."""
        if j == 2:
            return t >= 2 and self.pairs[t] >> v & 1 == 1
        self.step()
        g = self.table
        return any(self.parts(v ^ g[a], t - a, j - 1) for a in range(1, t // j + 1))

    def at_least(self, v: int, t: int, j: int) -> bool:
        """Whether j parts or more of t, any sizes, have the value v."""
        if j <= 1:
            return (t == 0 and v == 0 and j == 0) or (t >= 1 and v in self.partitions[t])
        self.step()
        g = self.table
        return any(self.at_least(v ^ g[a], t - a, j - 1) for a in range(1, t // j + 1))

    def different(self, v: int, t: int, j: int, more: bool) -> bool:
        """Whether j parts of t (j or more with ``more``), all different, have the value v:
        the splits listed one by one, parts ascending."""
        g = self.table
        counts = range(j, t + 1) if more else (j,)
        for count in counts:
            if count * (count + 1) // 2 > t:
                break
            for split in multisets(t, count, "!"):
                self.step()
                value = 0
                for part in split:
                    value ^= g[part]
                if value == v:
                    return True
        return False

    def unequal_pair(self, v: int, t: int, j: int, more: bool) -> bool:
        """Whether j parts of t (j or more with ``more``), not all the same size, have the
        value v: two parts x < y, and the rest any j - 2 parts (or more)."""
        g = self.table
        for x in range(1, t):
            for y in range(x + 1, t - x + 1):
                self.step()
                w, rest = v ^ g[x] ^ g[y], t - x - y
                if more:
                    if self.at_least(w, rest, max(j - 2, 0)):
                        return True
                elif j == 2:
                    if rest == 0 and w == 0:
                        return True
                elif j == 3:
                    if rest >= 1 and g[rest] == w:
                        return True
                elif self.parts(w, rest, j - 2):
                    return True
        return False

    def found(self, v: int, t: int, j: int, mark: int, more: bool) -> bool:
        """Whether a search (t tokens, j parts, or j or more with ``more``) reaches v."""
        if mark == ALL_DIFFERENT:
            return self.different(v, t, j, more)
        if mark == NOT_ALL_SAME:
            same = {_all_same(self.table, t, k) for k in (range(j, t + 1) if more else (j,))
                    if t % k == 0}
            if v in same:  # reached by an all-same split: another split must reach it
                return self.unequal_pair(v, t, j, more)
        return self.at_least(v, t, j) if more else self.parts(v, t, j)


def _all_same(g, t: int, j: int) -> int:
    """The value of t split into j equal parts (j divides t)."""
    return g[t // j] if j % 2 else 0


def _shifted(bits: int, c: int) -> int:
    """The set {v ^ c : v in bits} (c: a kind's kept runs' value)."""
    if not c:
        return bits
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << ((low.bit_length() - 1) ^ c)
        bits ^= low
    return out


def _mark_kind(state: _State, n: int, span: int, kept, counts, more: bool, marked: int,
               searches: list) -> int:
    """Mark what a finite kind's options give heap n, and list its searches."""
    t = n - span
    if t < 0 or not counts:
        return marked
    g = state.table
    c = 0
    for h in kept:
        c ^= g[h]
    top = counts[-1][0]
    listed = [(j, m, False) for j, m in counts]
    if more and top < t:
        listed.append((top + 1, counts[-1][1], True))
    for j, mark, also_more in listed:
        if j > t:
            break
        if also_more:
            if mark == ALL_SAME:  # every count from j up, each of its equal splits
                for k in range(j, t + 1):
                    if t % k == 0:
                        marked |= 1 << (_all_same(g, t, k) ^ c)
                continue
            if j <= 2:
                marked = _mark_kind(state, n, span, kept, tuple((k, mark) for k in range(j, 3)),
                                    False, marked, searches)
                if t >= 3:
                    searches.append((t, 3, mark, True))
                continue
            searches.append((t, j, mark, True))
        elif j == 0:
            if t == 0:
                marked |= 1 << c
        elif j == 1:
            marked |= 1 << (g[t] ^ c)
        elif mark == ALL_SAME:
            if t % j == 0:
                marked |= 1 << (_all_same(g, t, j) ^ c)
        elif j == 2:
            pairs = state.pairs[t] if mark == NO_MARK else state.unequal[t]
            marked |= _shifted(pairs, c)
        else:
            searches.append((t, j, mark, False))
    return marked


def _mark_tail(state: _State, n: int, marked: int, searches: list) -> int:
    """Mark what the tail's kinds give heap n, a class of spans at a time."""
    q = state.q
    for span, _, counts, more in state.period:
        top_t = n - span  # the most tokens a kind of this class leaves
        if top_t < 0 or not counts:
            continue
        simple = not more and all(j <= 2 and m != ALL_SAME for j, m in counts)
        if not simple:  # span by span
            for k_span in range(span, n + 1, q):
                marked = _mark_kind(state, n, k_span, (), counts, more, marked, searches)
            continue
        for j, mark in counts:
            if j == 0:
                if top_t % q == 0:
                    marked |= 1
            elif j == 1 and top_t >= 1:
                marked |= state.ones[top_t]
            elif j == 2 and top_t >= 2:
                runs = state.pair_runs if mark == NO_MARK else state.unequal_runs
                marked |= runs[top_t]
    return marked


def extend(table, start: int, stop: int, rules, scratch=None) -> None:
    """Fill table[start:stop] with the nim-values of the game ``rules``
    (``rules.encode_takebreak``); the values below start must be the game's."""
    rules = for_takebreak(rules)
    if scratch is None:
        scratch = Scratch()
    elif not isinstance(scratch, Scratch):
        raise TypeError(f"scratch must be a Scratch, not {type(scratch).__name__}")
    if not 0 <= start <= stop <= len(table):
        raise ValueError(f"range {start}:{stop} does not fit a table of {len(table)}")
    with scratch.lock:
        goes_on = (scratch.next == start and scratch.rules == rules
                   and scratch.fingerprint == hash(tuple(table[:start])))
        state = scratch.state if goes_on else _State(table, rules)
        state.table = table  # (the same values below start, maybe in a new buffer)
        scratch.rules, scratch.state, scratch.next = rules, state, -1
        if not goes_on:
            for t in range(start):
                state.prepare(t)
                state.add(t)
        for n in range(start, stop):
            interrupt()
            state.prepare(n)
            table[n] = _value(state, n)
            state.add(n)
        scratch.next = stop
        scratch.fingerprint = hash(tuple(table[:stop]))


def _value(state: _State, n: int) -> int:
    searches: list = []
    marked = 0
    for span, kept, counts, more in state.finite:
        marked = _mark_kind(state, n, span, kept, counts, more, marked, searches)
    if state.q:
        marked = _mark_tail(state, n, marked, searches)
    v = 0
    while True:
        if not marked >> v & 1 and not any(state.found(v, *search) for search in searches):
            break
        v += 1
    if v >= VALUE_LIMIT:
        raise OverflowError(f"G({n}) = {v} does not fit the 16-bit table")
    return v
