"""The public API from several threads at once: the answers one thread alone gives, no crash.

Hypothesis draws a list of calls; eight threads, started together at a barrier, share it
out (thread i makes calls i, i + 8, ...) on objects they share: the process-wide sequences
behind the module functions (made anew for each example, so the threads race to grow
them), one Sequence, one misère Solver, one kernel Scratch.  Each answer is compared with
the answer of the same call made in one thread on objects of its own.  The comparison
holds under any interleaving, so nothing here depends on the threads' timing; a run
under load (make stress) or ThreadSanitizer (make tsan) only makes races likelier.
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kayles.games import grundys_game
from kayles.misere import Solver

import kayles
from kayles import heaps, row, xox
from kayles.engine.codes import get_game
from kayles.engine.rules import parse_octal
from kayles.engine.sequence import Sequence
from kayles.storage import proof_cache

from conftest import is_compiled

THREADS = 8
COMPILED = kayles.IMPLEMENTATION == "cython"
BIG = 60_000 if COMPILED else 400  # heaps far enough that the threads grow the tables at once
SETTINGS = settings(max_examples=6 if COMPILED else 3, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def run_together(calls, shared: dict) -> list:
    """Each call's answer (or its exception's type and text), THREADS threads at once."""
    answers: list = [None] * len(calls)
    barrier = threading.Barrier(THREADS)

    def work(first: int) -> None:
        barrier.wait()
        for i in range(first, len(calls), THREADS):
            answers[i] = answer(calls[i], shared)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def answer(call, shared: dict):
    name, argument = call
    try:
        if name == "grundy.nimber":
            return grundys_game.nimber(argument)
        if name == "grundy.winning_move":
            return grundys_game.winning_move(argument)
        if name == "xox.nimber":
            return xox.nimber(argument)
        if name == "xox.winning_move":
            return xox.winning_move(argument)
        if name == "sequence.nimber":
            return shared["sequence"].nimber(argument)
        if name == "sequence.table":
            return shared["sequence"].table(argument).tolist()
        if name == "sequence.prove":
            return shared["sequence"].prove(argument)
        if name == "heaps.winning_move":
            return heaps.winning_move(argument, shared["sequence"])
        if name == "row.winning_move":
            return row.winning_move(argument, shared["sequence"])
        if name == "misere.value":
            return shared["solver"].value(argument)
        raise AssertionError(name)
    except ValueError as exc:
        return ("ValueError", str(exc))


def fresh(game_code: str) -> dict:
    return {"sequence": Sequence(parse_octal(game_code)), "solver": Solver(get_game("0.77"))}


heap = st.integers(0, BIG)
calls = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["grundy.nimber", "xox.nimber", "sequence.nimber"]), heap),
        st.tuples(st.just("sequence.table"), st.integers(0, BIG)),
        st.tuples(st.just("sequence.prove"), st.integers(1, BIG)),
        st.tuples(st.sampled_from(["grundy.winning_move", "heaps.winning_move"]),
                  st.lists(heap, max_size=4)),
        st.tuples(st.sampled_from(["xox.winning_move", "row.winning_move"]),
                  st.text("x.", max_size=40)),
        st.tuples(st.just("misere.value"), st.lists(st.integers(0, 9), max_size=4)),
    ),
    min_size=THREADS,
    max_size=4 * THREADS,
)


@pytest.mark.parametrize("game_code", ["0.161", "0.14"])
@SETTINGS
@given(drawn=calls)
def test_the_api_from_eight_threads_answers_as_one_thread_does(game_code, drawn):
    saved = dict(proof_cache._SHARED)
    try:
        # The module functions' process-wide sequences, made anew: the threads race to grow
        # them (Grundy's game has no proof to read from the cache).
        proof_cache._SHARED.clear()
        together = run_together(drawn, fresh(game_code))
        proof_cache._SHARED.clear()
        alone = [answer(call, fresh(game_code)) for call in drawn]
    finally:
        proof_cache._SHARED.clear()
        proof_cache._SHARED.update(saved)
    assert together == alone


def test_one_scratch_shared_by_threads_gives_each_its_values(kernel):
    """A kernel's working memory used by several threads at once: each call waits its turn."""
    kinds = tuple((span, tuple(kept), leave, unequal)
                  for span, kept, leave, unequal in [(0, (), 4, True)])  # Grundy's game
    size = 30_000 if is_compiled(kernel) else 300
    expected = memoryview(bytearray(2 * size)).cast("H")
    kernel.extend_plain(expected, 0, size, kinds)
    scratch = kernel.Scratch()
    tables = [memoryview(bytearray(2 * size)).cast("H") for _ in range(THREADS)]
    barrier = threading.Barrier(THREADS)

    def work(k: int) -> None:
        barrier.wait()
        stop = size * (k + 1) // THREADS  # calls of different lengths, some going on
        kernel.extend_sparse(tables[k], 0, stop, kinds, scratch)
        kernel.extend_sparse(tables[k], stop, size, kinds, scratch)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for table in tables:
        assert table.tolist() == expected.tolist()


def test_one_misere_memo_shared_by_threads(misere_kernel):
    from kayles.engine.rules import encode

    kinds = encode(get_game("0.77").kinds)
    positions = [[a, b, c] for a in range(1, 8) for b in range(0, 6) for c in (0, 3)]
    alone = [misere_kernel.misere_value(misere_kernel.MisereMemo(kinds, 100_000), p, 0)
             for p in positions]
    memo = misere_kernel.MisereMemo(kinds, 100_000)
    found: list = [None] * len(positions)
    barrier = threading.Barrier(THREADS)

    def work(k: int) -> None:
        barrier.wait()
        for i in range(k, len(positions), THREADS):
            found[i] = misere_kernel.misere_value(memo, positions[i], 0)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == alone
