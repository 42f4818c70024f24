"""Several threads on one nim-sequence: the same values as the plain scan, always.

The compiled core hands heaps to a crew of threads past heap 4,096 once a game has
256 rare heaps (PARALLEL_FROM, CREW_RARE in ext/_core.pyx; Scratch(crew_from=...,
crew_rare=...) moves both, so some tests run crews from the first heap on).  A crew
may be as large as the heaps that need none of each other's pairs (the independence,
computed here from the rules) and SLACK more, whose options with a part not yet in
the table are left out and checked once it is; and, unless told (cores=), as the
cores present: the tests tell, so crews run on a machine of one core too.
threads_used says whether a crew ran and solved_again whether a value found without
some options was solved again, so a test that meant to run either and did not fails.
Which heaps a crew solves again depends on how far the other threads got, so the tests
ask for waited_only: each heap sees only the values its block waited for, and the
count is the same on every run, whatever the load.
The pure twin takes the same arguments and runs one thread.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games

from kayles.engine.rules import GAMES, MoveKind, encode, parse_octal
from kayles.engine.sequence import Sequence
from kayles.kernels.constants import MAX_THREADS

from conftest import is_compiled, new_table

# Games whose crews run by 20,000 heaps, with two-part moves of spans 1 to 3 (and a
# one-part move of span 1 or 2, left out of a heap till its part is known: .161, .376).
CREW_GAMES = ["0.014", "0.161", "0.172", "0.034", "0.376", "0.74", "0.314"]
SLACK = 16  # ext/_core.pyx: heaps a crew may go past the independence


def plain(kernel, kinds, n: int) -> list[int]:
    table = new_table(n)
    kernel.extend_plain(table, 0, n, kinds)
    return table.tolist()


def independence(kinds) -> int:
    """How many heaps in a row need none of each other's pairs: the least span + 1 of a
    kind that leaves two parts (rules.encode: leave bit 2)."""
    return min((span + 1 for span, _, leave, _ in kinds if leave & 4), default=65)


def largest_crew(kinds) -> int:
    return independence(kinds) + SLACK


def crews_give_the_plain_values(kernel, kinds, n: int, crews: tuple[int, ...], **where):
    """extend_sparse on each crew (where: Scratch's crew_from, crew_rare) gives the plain
    scan's values; the compiled core ran the whole crew, and solved some heaps again."""
    compiled = is_compiled(kernel)
    expected = plain(kernel, kinds, n)
    for threads in crews:
        table = new_table(n)
        scratch = kernel.Scratch(threads=threads, cores=threads, waited_only=True, **where)
        kernel.extend_sparse(table, 0, n, kinds, scratch)
        assert table.tolist() == expected, threads
        assert scratch.threads == threads
        assert scratch.threads_used == (min(threads, largest_crew(kinds)) if compiled else 1)
        assert (scratch.solved_again > 0) == compiled


@pytest.mark.parametrize("code", CREW_GAMES)
def test_a_crew_gives_the_plain_values(kernel, code):
    n = 20000 if is_compiled(kernel) else 500
    crews_give_the_plain_values(kernel, encode(parse_octal(code).kinds), n, (2, 3, 4, 5))


# Unequal splits: Grundy's game (independence 1: a split leaves a part of n - 1); two
# unequal kinds whose remainders meet (n - 3 of heap n is heap n - 3's n), so heaps
# solved from different values share what the rare pass found about the equal split;
# an unequal kind beside a one-part move.
UNEQUAL_GAMES = {
    "grundy": GAMES["grundy"].kinds,
    "two unequal kinds": (MoveKind("", {2}, unequal=True), MoveKind("xxx", {1, 2}, unequal=True)),
    "unequal and one part": (MoveKind("xx", {1, 2}, unequal=True), MoveKind("x", {0, 1})),
}


@pytest.mark.parametrize("name", UNEQUAL_GAMES)
def test_unequal_splits_run_a_crew_past_the_independence(kernel, name):
    """A kind that forbids equal parts drops the rare pass's 0 where only the equal split
    gave it, judged from the pairs already in the table; the rest are checked when the
    heap is settled, as for any crew."""
    n = 20000 if is_compiled(kernel) else 500
    crews_give_the_plain_values(kernel, encode(UNEQUAL_GAMES[name]), n, (2, 3, 5))


# Crews from the first heap on (crew_from=0, crew_rare=0), where a game's values are
# still irregular: rare heaps keep coming, the mask changes at every power of two and
# G = 0 still occurs (Grundy's game: up to heap 1,222).  So a crew takes every path it
# has, unequal splits dropping the rare pass's 0 (from the equal split only, judged
# from the pairs in the table) where 0 may be the value.
EARLY_GAMES = {
    **{code: parse_octal(code).kinds for code in ["0.014", "0.161", "0.172", "0.034", "0.376",
                                                  "0.167"]},
    **UNEQUAL_GAMES,
    "kayles-xox": GAMES["kayles-xox"].kinds,
}


@pytest.mark.parametrize("name", EARLY_GAMES)
def test_crews_from_the_first_heap(kernel, name):
    n = 3000 if is_compiled(kernel) else 300
    crews_give_the_plain_values(kernel, encode(EARLY_GAMES[name]), n, (2, 3, 5),
                                crew_from=0, crew_rare=0)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=games, n=st.integers(300, 2500), threads=st.integers(2, 6),
       crew_from=st.sampled_from([0, 17, 200]), crew_rare=st.sampled_from([0, 1, 5]),
       cuts=st.lists(st.integers(0, 2500), max_size=3), data=st.data())
def test_any_game_on_any_crew_gives_the_plain_values(both_kernels, kinds, n, threads,
                                                       crew_from, crew_rare, cuts, data):
    """Drawn games (one-part moves, kept 'o', unequal splits, up to three kinds) on crews
    from early heaps, on a drawn vector path, in drawn pieces.  (Ad hoc, 38,000 such
    runs that ran a crew gave no difference.)"""
    compiled = both_kernels[0]
    expected = plain(compiled, kinds, n)
    table = new_table(n)
    scratch = compiled.Scratch(threads=threads, cores=threads, crew_from=crew_from,
                               crew_rare=crew_rare,
                               vector=data.draw(st.sampled_from(compiled.VECTORS)))
    pieces = sorted({0, n, *(min(cut, n) for cut in cuts)})
    for start, stop in zip(pieces, pieces[1:]):
        compiled.extend_sparse(table, start, stop, kinds, scratch)
    assert table.tolist() == expected


def test_a_crew_on_every_vector_path_and_in_pieces(kernel):
    """A crew goes on across calls with the same scratch (pieces cut anywhere, some
    inside a crew's stretch), on each instruction set this CPU has."""
    compiled = is_compiled(kernel)
    n = 24000 if compiled else 500
    kinds = encode(parse_octal("0.161").kinds)
    expected = plain(kernel, kinds, n)
    cuts = [0, 4000, 4100, 9000, 13313, 20000, n] if compiled else [0, 100, 333, n]
    for vector in kernel.VECTORS:
        table = new_table(n)
        scratch = kernel.Scratch(vector=vector, threads=2, cores=2)
        for start, stop in zip(cuts, cuts[1:]):
            kernel.extend_sparse(table, start, stop, kinds, scratch)
        assert table.tolist() == expected, vector
        assert scratch.threads_used == (2 if compiled else 1)


def test_games_with_few_rare_heaps_run_one_thread(kernel):
    """.167 has 60 rare heaps, too few to share a heap's work: one thread, and so has
    Kayles-xox under a mask with the heap's parity (30).  0.15 runs a crew until the
    one-hot path takes over (from 8,192)."""
    compiled = is_compiled(kernel)
    n = 20000 if compiled else 400
    for kinds, crew in ((parse_octal("0.167").kinds, 1), (GAMES["kayles-xox"].kinds, 1),
                        (parse_octal("0.15").kinds, 4)):
        kinds = encode(kinds)
        table = new_table(n)
        scratch = kernel.Scratch(threads=4, cores=4)
        kernel.extend_sparse(table, 0, n, kinds, scratch)
        assert table.tolist() == plain(kernel, kinds, n)
        assert scratch.threads_used == (crew if compiled else 1)
        assert scratch.one_hot == (compiled and crew > 1)


def test_threads_are_bounded_alike(both_kernels):
    for kernel in both_kernels:
        for bad in (0, -1, MAX_THREADS + 1):
            with pytest.raises(ValueError, match=f"threads must be 1 to {MAX_THREADS}"):
                kernel.Scratch(threads=bad)
            with pytest.raises(ValueError, match=f"cores must be 1 to {MAX_THREADS}"):
                kernel.Scratch(cores=bad)
        for name in ("crew_from", "crew_rare"):
            with pytest.raises(ValueError, match=f"{name} must be 0 or more, not -1"):
                kernel.Scratch(**{name: -1})
        assert kernel.Scratch(threads=MAX_THREADS).threads == MAX_THREADS


def test_a_crew_is_no_larger_than_the_cores(both_kernels):
    """Threads wait by spinning: without cores=, a crew is at most the cores present."""
    compiled = both_kernels[0]
    n = 12000
    kinds = encode(parse_octal("0.014").kinds)
    table = new_table(n)
    scratch = compiled.Scratch(threads=MAX_THREADS)
    compiled.extend_sparse(table, 0, n, kinds, scratch)
    assert scratch.threads_used == min(largest_crew(kinds), len(os.sched_getaffinity(0)))
    assert table.tolist() == plain(compiled, kinds, n)
    with pytest.raises(ValueError, match=f"threads must be 1 to {MAX_THREADS}"):
        Sequence(GAMES["kayles"], threads=0)


def test_a_sequence_with_threads_has_the_values_of_one_without(kernel):
    n = 30000 if is_compiled(kernel) else 500
    game = parse_octal("0.014")
    alone = Sequence(game, kernel=kernel)
    crew = Sequence(game, kernel=kernel, threads=2)
    assert crew.table(n).tolist() == alone.table(n).tolist()
