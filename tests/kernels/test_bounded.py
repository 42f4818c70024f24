"""extend_bounded: the sparse method on a table whose middle is gone, both twins.

The values it returns must be extend_sparse's; it must read nothing between the
prefix and the window (those values are overwritten with garbage here, so a read
would show); and both twins must stop at the same heap when a value cannot be
settled within reach.
"""

from __future__ import annotations

import random
from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kayles.engine.rules import GAMES, encode, parse_octal
from kayles.kernels.spectrum import is_rare, split_parity

from conftest import load_kernel, new_table

MAX_SPAN = 64



def full(kernel, kinds, n: int):
    """G(0..n-1) by extend_sparse."""
    table = new_table(n)
    scratch = kernel.Scratch()
    kernel.extend_sparse(table, 0, n, kinds, scratch)
    return table.tolist()


def state_at(kernel, kinds, values: list[int], start: int):
    """(mask, last rare, histogram) of extend_sparse's state after G(0..start-1)."""
    table = new_table(start)
    scratch = kernel.Scratch()
    kernel.extend_sparse(table, 0, start, kinds, scratch)
    assert table.tolist() == values[:start]
    mask, _, last = scratch.rare()
    return mask, last, scratch.histogram()


def poisoned(values, size: int, start: int, prefix: int, seed: int):
    """A table holding G(0..start-1) (``values``: a list or an array) but garbage where
    extend_bounded may not look."""
    table = new_table(size)
    table[:start] = values[:start] if isinstance(values, array) else array("H", values[:start])
    end = max(prefix, start - prefix - MAX_SPAN - 1)
    rng = random.Random(seed)
    table[prefix:end] = array("H", rng.randbytes(2 * (end - prefix)))
    return table


GAMES_ = {
    ".167": parse_octal("0.167").kinds,
    ".161": parse_octal("0.161").kinds,
    ".14": parse_octal("0.14").kinds,
    ".034": parse_octal("0.034").kinds,
    ".172": parse_octal("0.172").kinds,
    "grundy": GAMES["grundy"].kinds,
}


# Every game on the compiled core (its vector paths differ by game); the pure twin, whose
# steps are the same whatever the game, on four of them (one per kind of stop and move: few
# rare heaps, a rare stop, unequal parts), to 2,000 values: each meets both stops there, and
# each stop costs the twin a pass over the table (to 3,000 the four took 35 s, not 12 s);
# test_twins_agree_on_bounded_runs compares the two.
BOUNDED_CASES = [("cython", name) for name in GAMES_] + [("python", ".167")] + [
    pytest.param("python", name, marks=pytest.mark.slow)  # 5-10 s each: make test-slow
    for name in (".161", ".14", "grundy")]


@pytest.mark.parametrize(("implementation", "name"), BOUNDED_CASES)
def test_bounded_values_are_the_full_tables(implementation, name):
    """Each stop is settled as a run with the full table on disk would: the middle
    comes back, then a far search runs with no reach, a new rare heap moves the
    prefix past it."""
    kernel = load_kernel(implementation)
    compiled = implementation == "cython"
    stops, crews = settle_every_stop(kernel, name, 1, (60000, 20000) if compiled else (2000, 1000))
    assert "reach" in stops and (name != ".14" or "rare" in stops), stops   # both were forced
    assert crews == 1


@pytest.mark.parametrize("name", [".161", ".034", ".14", ".167", "grundy"])
def test_bounded_crews_stop_where_one_thread_stops(both_kernels, name):
    """With 3 threads the compiled core's crews meet those stops too (threads_used
    says a crew ran; .167, with 60 rare heaps, runs one unless told: crew_rare=0)."""
    stops, crews = settle_every_stop(both_kernels[0], name, 3, (40000, 20000))
    assert "reach" in stops, stops
    assert crews == (1 if name == ".167" else 3)
    if name == ".167":
        stops, crews = settle_every_stop(both_kernels[0], name, 3, (40000, 20000), crew_rare=0)
        assert "reach" in stops, stops
        assert crews == 3


def settle_every_stop(kernel, name: str, threads: int, sizes: tuple[int, int], **crew):
    """Run extend_bounded from sizes[1] to sizes[0] with a short reach, settling each
    stop; check every value; the reasons it stopped and the most threads it ran (crew:
    Scratch's crew_from, crew_rare)."""
    kinds = encode(GAMES_[name])
    n, start = sizes
    values = full(kernel, kinds, n)
    mask, last, counts = state_at(kernel, kinds, values, start)
    assert mask, f"{name} has a rare/common split at {start}"
    prefix = max(last + 1, MAX_SPAN + 1)
    reach = prefix // 2 + 1   # a short reach: some searches need more
    known = array("H", values)   # copied into each table at C speed
    table = poisoned(known, n, start, prefix, seed=1)
    scratch = kernel.Scratch(threads=threads, cores=threads, **crew)
    got, stops, crews = start, set(), 1
    histogram = Histogram(values)
    while got < n:
        begin = got
        got, why = kernel.extend_bounded(table, got, n, kinds, scratch, mask,
                                         histogram.below(got), prefix, reach)
        assert table[begin:got].tolist() == values[begin:got]
        crews = max(crews, scratch.threads_used)
        if why is None:
            break
        stops.add(why)
        table[prefix:got] = known[prefix:got]   # the middle comes back
        if why == "reach":
            got, why = kernel.extend_bounded(table, got, got + 1, kinds, scratch, mask,
                                             histogram.below(got), prefix, 0)
            assert why == "rare" or table[got - 1] == values[got - 1]
        if why == "rare":
            assert is_rare(mask, split_parity(kinds), got, values[got]) and got >= prefix
            stops.add(why)
            prefix = got + 1
        table = poisoned(known, n, got, prefix, seed=got)
    assert got == n
    return stops, crews


class Histogram:
    """counts_of(values[:n]) for growing n, each value counted once."""

    def __init__(self, values: list[int]) -> None:
        self.values, self.counted = values, 0
        self.counts = [0] * (max(values, default=0) + 1)

    def below(self, n: int) -> list[int]:
        assert n >= self.counted
        for v in self.values[self.counted:n]:
            self.counts[v] += 1
        self.counted = n
        largest = max((v for v, c in enumerate(self.counts) if c), default=0)
        return self.counts[:largest + 1]


def counts_of(values: list[int]) -> list[int]:
    """The histogram of the values, up to the largest."""
    counts = [0] * (max(values, default=0) + 1)
    for v in values:
        counts[v] += 1
    return counts


def test_a_search_out_of_reach_stops_at_the_same_heap_in_both_twins(both_kernels):
    """A reach of 65 smaller parts cannot confirm every value of 0.161's heaps: both
    twins stop at the same heap, for the same reason, with the same values before it."""
    kinds = encode(parse_octal("0.161").kinds)
    values = full(both_kernels[0], kinds, 3000)
    mask, last, counts = state_at(both_kernels[0], kinds, values, 1000)
    prefix = max(last + 1, 65)
    stops = []
    for kernel in both_kernels:
        table = poisoned(values, 3000, 1000, prefix, seed=2)
        stop, why = kernel.extend_bounded(table, 1000, 3000, kinds, kernel.Scratch(), mask,
                                          counts, prefix, 65)
        assert table.tolist()[1000:stop] == values[1000:stop]
        stops.append((stop, why))
    assert stops[0] == stops[1] and stops[0][0] < 3000 and stops[0][1] == "reach"


def test_the_arguments_are_checked_alike(both_kernels):
    kinds = encode(parse_octal("0.161").kinds)
    table = new_table(200)
    both_kernels[0].extend_sparse(table, 0, 100, kinds)
    counts = counts_of(table.tolist()[:100])
    for kernel in both_kernels:
        for bad, says in [((0, counts, 80, 80), "mask is 1 to"),
                          ((1 << 16, counts, 80, 80), "mask is 1 to"),
                          ((2, counts, 64, 0), "64 < prefix"),
                          ((2, counts, 80, 90), "0 <= reach <= prefix"),
                          ((2, counts, 80, -1), "0 <= reach <= prefix"),
                          ((2, counts, 1 << 32, 80), "prefix <= 4294967295"),
                          ((2, counts[:-1], 80, 80), "histogram"),
                          ((2, [*counts[:-1], counts[-1] + 1], 80, 80), "histogram"),
                          ((2, [-1, *counts[1:]], 80, 80), "histogram")]:
            with pytest.raises(ValueError, match=says):
                kernel.extend_bounded(table, 100, 150, kinds, kernel.Scratch(), *bad)
        with pytest.raises(ValueError, match="does not fit"):
            kernel.extend_bounded(table, 100, 201, kinds, kernel.Scratch(), 2, counts, 80, 80)
        assert kernel.extend_bounded(table, 100, 100, kinds, None, 2, counts, 80, 80) == (100, None)
        xox = encode(GAMES["kayles-xox"].kinds)   # G(1) = 1 stands beside every 'xox' move
        kernel.extend_sparse(table, 0, 100, xox)
        with pytest.raises(ValueError, match="makes an option constant common"):
            kernel.extend_bounded(table, 100, 150, xox, None, 1,
                                  counts_of(table.tolist()[:100]), 80, 80)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(code=st.sampled_from(["0.161", "0.167", "0.172", "0.014", "0.54", "0.356", "0.074"]),
       start=st.integers(200, 500), reach_cut=st.integers(0, 60), seed=st.integers(0, 99))
def test_twins_agree_on_bounded_runs(both_kernels, code, start, reach_cut, seed):
    """Where they stop, why, and every value before: the same in both twins, and in the
    compiled one on a crew of 3 from the first heap on (crew_from=0, crew_rare=0)."""
    kinds = encode(parse_octal(code).kinds)
    compiled, pure = both_kernels
    n = start + 300
    values = full(compiled, kinds, n)
    mask, last, counts = state_at(compiled, kinds, values, start)
    assert mask, f"{code} has a rare/common split at {start}"
    prefix = max(last + 1, 65)
    reach = max(0, prefix - reach_cut)
    results = []
    crew = compiled.Scratch(threads=3, cores=3, crew_from=0, crew_rare=0)
    for kernel, scratch in ((compiled, compiled.Scratch()), (pure, pure.Scratch()),
                            (compiled, crew)):
        table = poisoned(values, n, start, prefix, seed)
        stop, why = kernel.extend_bounded(table, start, n, kinds, scratch, mask, counts,
                                          prefix, reach)
        results.append((stop, why, table.tolist()[start:stop]))
    assert results[0] == results[1] == results[2]
    assert results[0][2] == values[start:results[0][0]]


def test_chunk_sums_are_the_textbook_loop(both_kernels):
    import oracle

    rng = random.Random(3)
    values = [rng.randrange(1 << 16) for _ in range(10000)]
    table = new_table(len(values))
    for i, v in enumerate(values):
        table[i] = v
    for kernel in both_kernels:
        for start, stop in [(0, 10000), (17, 9000), (5, 5), (9999, 10000)]:
            s1, s2, largest, first = kernel.chunk_sums(table, start, stop)
            chunk = values[start:stop]
            assert (s2 << 16 | s1) == oracle.fletcher32(chunk)
            assert (largest, first) == ((max(chunk), start + chunk.index(max(chunk)))
                                        if chunk else (-1, -1))
