"""Misère quotients (issue 22): the incremental algorithm against a brute-force oracle (the
misère outcome of every small position from the literal rules), the published quotients
(tame T1 and T2, Plambeck's R8 for 0.75, Kayles solved with order 40), and the twins."""

from __future__ import annotations

import functools
import itertools
import json
import math
import subprocess
import sys
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kayles.analysis.quotient import quotient
from kayles.engine.codes import get_game
from kayles.engine.rules import parse_octal

import oracle
from conftest import ROOT, assert_usage_error, kayles_said, load_kernel

ROOM = 1 << 40  # a walk's room (4-byte entries of states): no bound


def test_misere_nim_heaps_up_to_1_give_t1(quotient_kernel):
    # Plambeck-Siegel: T1 = <a | a^2 = 1>, P-portion {a} (Kayles heap 1 is the nim heap *1).
    q = quotient(get_game("kayles"), 1, kernel=quotient_kernel)
    assert (q.order, q.presentation(), q.p_words(), q.tame()) == (2, "<a | a^2 = 1>", ["a"], "T1")


@pytest.mark.parametrize("max_heap", [2, 3, 4])
def test_kayles_small_heaps_give_the_tame_quotient_t2(max_heap, quotient_kernel):
    # Plambeck-Siegel's tame quotient T2 = <a, b | a^2 = 1, b^3 = b>, P-portion {a, b^2}:
    # Kayles heaps 1..3 are the nim heaps *1..*3, and heap 4 (genus 1^031) adds nothing.
    q = quotient(get_game("kayles"), max_heap, kernel=quotient_kernel)
    assert (q.order, q.presentation(), q.p_words(), q.tame()) == (
        6, "<a, b | a^2 = 1, b^3 = b>", ["a", "b^2"], "T2"
    )
    assert [q.words[c] for c in q.heaps] == ["1", "a", "b", "ab", "a"][: max_heap + 1]


def test_0_75_gives_r8_and_is_solved(quotient_kernel):
    # Plambeck's R8, the quotient of the wild octal game 0.75 (order 8, P-portion {a, b^2});
    # Plambeck-Siegel: the heaps' classes have period 2 from heap 8 on.
    q = quotient(get_game("0.75"), 6, kernel=quotient_kernel)
    assert (q.order, q.presentation(), q.p_words(), q.solved, q.tame()) == (
        8, "<a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>", ["a", "b^2"], None, None
    )
    q = quotient(get_game("0.75"), 1000, kernel=quotient_kernel)
    assert (q.order, q.p_size) == (8, 2)
    _, period, preperiod = q.solved
    assert (period, preperiod) == (2, 8)
    assert len(q.heaps) == 1001


def test_kayles_is_solved_with_the_published_quotient():
    # Plambeck-Siegel (MisereSolver): Kayles' quotient has order 40 and |P| = 9, and the
    # heaps' classes have period 12 and preperiod 71.
    q = quotient(get_game("kayles"), 400)
    _, period, preperiod = q.solved
    assert (q.order, q.p_size, period, preperiod) == (40, 9, 12, 71)


@pytest.mark.parametrize("code, max_heap, order, p_size, tokens", [
    ("0.07", 25, 144, 23, 40), ("0.07", 30, 360, 65, 40), ("4.7", 20, 122, 30, 32),
])
def test_the_reference_solvers_quotients(code, max_heap, order, p_size, tokens):
    """Dawson's Kayles to heap 30 (order 360, |P| 65) and 4.7 to heap 20 (order 122), as
    Plambeck and Siegel's MisereSolver gives them; compiled only (the pure twin takes
    minutes, and agrees with it on smaller cases in test_twins_agree).  Every position of
    up to 3 heaps and ``tokens`` tokens is checked by the oracle: 4.7 splits a heap without
    taking, so the oracle walks every partition below the bound (43,202 positions to 32
    tokens, 1.5 s; 207,042 to 40, 11 s)."""
    q = quotient(get_game(code), max_heap, kernel=load_kernel("cython", "quotient"))
    assert (q.order, q.p_size, q.solved) == (order, p_size, None)
    for count in (1, 2, 3):
        for heaps in itertools.combinations_with_replacement(range(1, max_heap + 1), count):
            if sum(heaps) <= tokens:
                assert q.outcome(list(heaps)) == ("P" if misere_lost(code, heaps) else "N")


def test_tame_games_give_tame_quotients():
    assert quotient(get_game("0.31"), 40).tame() == "T2"  # solved, tame
    assert quotient(parse_octal("0.333333333333333"), 15).tame() == "T4"  # misère Nim to *15
    assert quotient(get_game("0.07"), 12).tame() is None


@functools.cache
def octal_splits(code: str):
    """One splits function per code, so the oracle's cache serves both kernels' runs."""
    return functools.cache(functools.partial(oracle.octal_splits, code))


def misere_lost(code: str, heaps: tuple[int, ...]) -> bool:
    return oracle.heap_misere_value(octal_splits(code), heaps) == 0


@pytest.mark.parametrize("code, max_heap, parts", [
    ("0.77", 10, 3), ("0.77", 6, 4), ("0.75", 9, 3), ("0.07", 14, 2), ("0.07", 9, 3),
    ("0.137", 9, 3), ("4.7", 8, 3), ("0.6", 9, 3), ("0.54", 9, 3),
])
def test_the_quotient_predicts_every_outcome(code, max_heap, parts, quotient_kernel):
    q = quotient(get_game(code), max_heap, kernel=quotient_kernel)
    for count in range(parts + 1):
        for heaps in itertools.combinations_with_replacement(range(1, max_heap + 1), count):
            assert q.outcome(list(heaps)) == ("P" if misere_lost(code, heaps) else "N"), heaps


def test_a_solved_quotient_predicts_heaps_past_the_search():
    q = quotient(get_game("0.31"), 40)
    at, _, _ = q.solved
    for heaps in itertools.combinations_with_replacement(range(1, 26), 2):
        assert q.outcome(list(heaps)) == ("P" if misere_lost("0.31", heaps) else "N"), heaps
    assert max(len(q.heaps) - 1, at) == 40
    assert q.outcome([1000, 1003]) in ("P", "N")  # any size, by the period


@settings(max_examples=30, deadline=None)
@given(st.text("01234567", min_size=1, max_size=3), st.integers(1, 10))
def test_twins_agree(digits, max_heap):
    """The same quotient, or the same error, from both kernels; with a smaller memory bound
    than the search's own (tables of 64 Ki entries) so that the pure twin stays quick on
    any code (past it both give the same error, which is compared too)."""
    game = parse_octal("0." + digits)
    found = []
    for name in ("cython", "python"):
        try:
            q = quotient(game, max_heap, 1 << 16, kernel=load_kernel(name, "quotient"),
                         memory=1 << 18)
            found.append((q.order, q.presentation(), q.p_words(), q.heaps, q.solved))
        except ValueError as exc:
            found.append(str(exc))
    assert found[0] == found[1]


def kernel_view(code: str, max_heap: int, kernel):
    """A proved quotient as the kernels take it: flat table, P flags, behaviours."""
    game = parse_octal(code)
    q = quotient(game, max_heap, kernel=kernel)
    table = array("i", [x for row in q.table for x in row])
    p = bytes(int(x in q.p_portion) for x in range(q.order))

    def image(parts) -> int:
        element = 0
        for size in parts:
            element = q.times(element, q.heap_class(size))
        return element

    behaviours = list(dict.fromkeys(  # heaps with no move are the empty position: left out
        (q.heap_class(h), tuple(sorted({image(o.parts) for o in game.options(h)})))
        for h in range(1, max_heap + 1) if any(True for _ in game.options(h))))
    return q, table, p, behaviours


def all_states(q, behaviours) -> set:
    """Every (image, options' images) of a position, by a plain search from the start."""
    start = (0, frozenset())
    seen, todo = {start}, [start]
    while todo:
        x, u = todo.pop()
        for g, options in behaviours:
            state = (q.table[x][g], frozenset({q.table[e][g] for e in u} |
                                              {q.table[x][t] for t in options}))
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return seen


@pytest.mark.parametrize("code, max_heap", [("0.77", 30), ("4.7", 9), ("0.07", 14)])
def test_grown_walks_reach_every_state(code, max_heap, quotient_kernel):
    """grow, from the start or resumed from the states of fewer behaviours, reaches the
    states a plain search finds, each once, and none breaks the rule of a proved quotient."""
    q, table, p, behaviours = kernel_view(code, max_heap, quotient_kernel)
    expected = all_states(q, behaviours)
    assert len(expected) > len(behaviours) > 3
    for first in (0, len(behaviours) // 2, len(behaviours) - 1):
        _, head, head_sets = quotient_kernel.grow(table, q.order, q.order, p,
                                                  behaviours[:first], array("i"), array("i"), 0,
                                                  10**6, ROOM)
        broken, ys, sets = quotient_kernel.grow(table, q.order, q.order, p, behaviours, head,
                                                head_sets, first, 10**6, ROOM)
        found, at = [], 0
        for x in ys:  # each set: its size, then its elements in increasing order
            elements = list(sets[at + 1 : at + 1 + sets[at]])
            assert elements == sorted(set(elements))
            found.append((x, frozenset(elements)))
            at += 1 + sets[at]
        assert at == len(sets)
        assert not broken and len(set(found)) == len(found)
        assert set(found) == expected
    with pytest.raises(ValueError, match="more than 5 states"):
        quotient_kernel.grow(table, q.order, q.order, p, behaviours, array("i"), array("i"), 0,
                             5, ROOM)
    with pytest.raises(ValueError, match="more than 40 entries of states"):
        quotient_kernel.grow(table, q.order, q.order, p, behaviours, array("i"), array("i"), 0,
                             10**6, 40)
    wrong = p[:1] + bytes(1 - flag for flag in p[1:])  # the first new state breaks the rule
    broken, ys, _ = quotient_kernel.grow(table, q.order, q.order, wrong, behaviours,
                                         array("i"), array("i"), 0, 10**6, ROOM)
    assert broken and len(ys) == 2


@pytest.mark.parametrize("code, max_heap", [("0.77", 30), ("4.7", 9), ("0.07", 14)])
def test_marking_a_proved_quotient_finds_its_p_portion(code, max_heap, quotient_kernel):
    """Every flag unknown, mark reads each element's outcome off its least position: on a
    proved quotient, its P-portion; the same from a table of only the columns used."""
    q, table, p, behaviours = kernel_view(code, max_heap, quotient_kernel)
    flags = bytearray([2]) * q.order
    quotient_kernel.mark(table, q.order, q.order, flags, behaviours, 10**6)
    assert bytes(flags) == p
    used = sorted({g for g, _ in behaviours} | {t for _, options in behaviours for t in options})
    column = {e: k for k, e in enumerate(used)}
    narrow = array("i", [q.table[x][e] for x in range(q.order) for e in used])
    flags = bytearray([2]) * q.order
    quotient_kernel.mark(narrow, q.order, len(used), flags,
                         [(column[g], [column[t] for t in options]) for g, options in behaviours],
                         10**6)
    assert bytes(flags) == p
    with pytest.raises(ValueError, match="more than 3 states"):
        quotient_kernel.mark(table, q.order, q.order, bytearray([2]) * q.order, behaviours, 3)


@pytest.mark.parametrize("code, max_heap", [("0.77", 12), ("4.7", 8), ("0.07", 14)])
def test_candidates_keep_every_element_a_walk_proves(code, max_heap, quotient_kernel):
    """The sifting before the walks only drops elements that cannot work: for a next heap
    with any options' images, every element whose walk holds is among the candidates."""
    q, table, p, behaviours = kernel_view(code, max_heap, quotient_kernel)
    proved = 0
    for options in [(0,), (1,), (0, 1), tuple(range(0, q.order, 3)), behaviours[-1][1]]:
        for lost in (True, False):
            kept = set(quotient_kernel.candidates(q.trans, len(q.letters), q.parent,
                                                  q.letter, p, table, q.order, options, lost))
            assert all(bool(p[x]) == lost for x in kept)
            for x in range(q.order):
                broken, _, _ = quotient_kernel.grow(table, q.order, q.order, p,
                                                    [*behaviours, (x, options)], array("i"),
                                                    array("i"), 0, 10**6, ROOM)
                if not broken and bool(p[x]) == lost:
                    assert x in kept, (options, x)
                    proved += 1
    assert proved  # (the last heap's own behaviour, at least)


def least_first(vector: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(reversed(vector))  # positions compared from the last behaviour down


@pytest.mark.parametrize("code, max_heap", [("0.77", 12), ("4.7", 8), ("0.07", 14)])
def test_the_least_failure_is_broken_and_nothing_before_it_is(code, max_heap,
                                                              quotient_kernel):
    q, table, p, behaviours = kernel_view(code, max_heap, quotient_kernel)
    assert quotient_kernel.least_failure(table, q.order, q.order, p, behaviours, 10**6,
                                         ROOM) is None
    width = len(behaviours)

    def broken(vector, flags) -> bool:
        x = 0
        for b, count in enumerate(vector):
            for _ in range(count):
                x = q.table[x][behaviours[b][0]]
        options = set()
        for b, count in enumerate(vector):
            if count:
                rest = list(vector)
                rest[b] -= 1
                y = 0
                for c, k in enumerate(rest):
                    for _ in range(k):
                        y = q.table[y][behaviours[c][0]]
                options |= {q.table[y][t] for t in behaviours[b][1]}
        return any(vector) and bool(flags[x]) == any(flags[o] for o in options)

    for flip in range(1, min(q.order, 6)):
        flags = bytearray(p)
        flags[flip] ^= 1
        word = quotient_kernel.least_failure(table, q.order, q.order, bytes(flags), behaviours,
                                             10**6, ROOM)
        vector = tuple(word.count(b) for b in range(width))
        assert broken(vector, flags)
        for smaller in itertools.product(range(3), repeat=min(width, 5)):
            small = smaller + (0,) * (width - len(smaller))
            if least_first(small) < least_first(vector):
                assert not broken(small, flags), (small, vector)
    with pytest.raises(ValueError, match="more than 2 states"):
        flags = bytearray(p)
        flags[-1] ^= 1
        quotient_kernel.least_failure(table, q.order, q.order, bytes(flags), behaviours, 2,
                                      ROOM)
    with pytest.raises(ValueError, match="more than 30 entries of states"):
        quotient_kernel.least_failure(table, q.order, q.order, bytes(flags), behaviours, 10**6,
                                      30)


def test_product_columns_multiply_componentwise(quotient_kernel):
    base = array("i", [0, 1, 2, 1, 1, 2, 2, 2, 2])  # {1, a, z}: a a = a, z absorbing
    tails = [0, 2, 3]  # g^2 = 1; h^4 = h^2; k^5 = k^3
    widths = [2, 4, 5]

    def digits(x):
        out = []
        for w in reversed(widths):
            out.append(x % w)
            x //= w
        return [x, *reversed(out)]

    def times(x, y):
        a, b = digits(x), digits(y)
        z = base[a[0] * 3 + b[0]]
        for tail, w, i, j in zip(tails, widths, a[1:], b[1:]):
            s = i + j
            while s >= tail + 2:
                s -= 2
            z = z * w + s
        return z

    size = 3 * 2 * 4 * 5
    needed = [0, 1, 7, 20, 59, 119]
    out = quotient_kernel.product_columns(base, 3, 3, [digits(e)[0] for e in needed], tails,
                                          needed)
    assert len(out) == size * len(needed)
    for y in range(size):
        for k, e in enumerate(needed):
            assert out[y * len(needed) + k] == times(y, e), (y, e)


def test_games_with_no_move_give_the_trivial_quotient():
    q = quotient(get_game("grundy"), 2)  # heaps 1 and 2 cannot be split
    assert (q.order, q.presentation(), q.p_words(), q.tame()) == (1, "<>", [], "T0")


def test_beyond_the_search_is_an_error_never_a_guess(quotient_kernel):
    with pytest.raises(ValueError, match="beyond this search .*more than 10 states"):
        quotient(get_game("kayles"), 40, 10, kernel=quotient_kernel)
    # A walk's states (36 bytes each and 4 an element of their sets) within the bound:
    with pytest.raises(ValueError, match=r"heaps up to 25 is beyond this search \(a walk's "
                       r"states would pass the memory bound, 200.0 KB \(--memory\); raise "
                       r"--memory or try a smaller --to\)"):
        quotient(get_game("0.07"), 30, kernel=quotient_kernel, memory=200 << 10)
    q = quotient(get_game("0.07"), 40, kernel=quotient_kernel, memory=50 << 10,
                 as_far_as_it_goes=True)
    assert (q.max_heap, q.order, q.beyond[0]) == (18, 24, 19)
    assert "memory bound, 50.0 KB" in q.beyond[1]


def test_cli_quotient():
    result = kayles_said("quotient", "--game", "0.75", "--max-heap", "6")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "0.75, heaps up to 6: misère quotient of order 8",
        "presentation: <a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>",
        "generators: a = heap 1, b = heap 2, c = heap 5",
        "P-portion (2): {a, b^2}",
        "heaps 0..6: 1 a b a b c b",
    ]
    result = kayles_said("quotient", "--game", "0.75", "--max-heap", "100")
    lines = result.stdout.splitlines()
    assert lines[4].startswith("solved at heap ") and lines[4].endswith(
        ": period 2, preperiod 8 (the quotient of every heap size)")
    assert lines[5:] == ["heaps 0..7: 1 a b a b c b c", "heaps 8.. repeat every 2: b ab^2"]
    result = kayles_said("quotient", "--game", "kayles", "--max-heap", "3", "--json")
    found = json.loads(result.stdout)
    assert {k: found[k] for k in ("game", "max_heap", "order", "p_size", "presentation",
                                  "p_portion", "heaps", "solved", "tame")} == {
        "game": "kayles", "max_heap": 3, "order": 6, "p_size": 2,
        "presentation": "<a, b | a^2 = 1, b^3 = b>", "p_portion": ["a", "b^2"],
        "heaps": ["1", "a", "b", "ab"], "solved": None, "tame": "T2"}
    said = kayles_said("quotient", "--game", "0.75", "--max-heap", "30", "--json")
    found = json.loads(said.stdout)
    assert found["solved"]["period"] == 2 and found["solved"]["preperiod"] == 8
    assert len(found["heaps"]) == 31
    for args in (["--max-heap", "x"], ["--max-heap", "5", "--budget", "0"], ["--to", "-1"],
                 ["--to", "5", "--states", "0"]):
        assert_usage_error(kayles_said("quotient", "--game", "kayles", *args))


def test_a_large_presentation_is_wrapped_after_its_commas():
    """Kayles to heap 200 (order 40): its presentation, generators and P-portion are lines of
    at most 88 characters, cut after commas only (a relation is never cut), the text
    the JSON has, whole, once the lines are joined again."""
    text = kayles_said("quotient", "--game", "kayles").stdout
    found = json.loads(kayles_said("quotient", "--game", "kayles", "--json").stdout)
    lines = text.splitlines()
    wrapped = [line for line in lines if not line.startswith("heaps ")]  # heaps: one a line
    assert max(map(len, wrapped)) <= 88 and len(wrapped) > 6
    start = next(i for i, line in enumerate(lines) if line.startswith("presentation: "))
    block = [lines[start]]
    while lines[start + len(block)].startswith("    "):
        block.append(lines[start + len(block)])
    assert len(block) > 1 and all(line.endswith(",") for line in block[:-1])
    assert " ".join(line.strip() for line in block) == "presentation: " + found["presentation"]


def oracle_heap_move(code: str, heaps: tuple[int, ...]) -> str:
    """The misère tie-break's move (leftmost heap, then the oracle's order of options)
    by brute force, written as `kayles move` writes it; LOSS or WIN when none wins."""
    if not misere_lost(code, heaps):
        for i, size in enumerate(heaps):
            for parts in oracle.octal_splits(code, size):
                if misere_lost(code, heaps[:i] + parts + heaps[i + 1:]):
                    shown = " + ".join(map(str, parts)) or "nothing"
                    return f"heap {i + 1}: {size} -> {shown}"
    return "LOSS" if misere_lost(code, heaps) else "WIN"


@pytest.mark.parametrize("code, heaps", [
    ("0.77", (1, 4, 2, 3, 5, 1, 2, 6, 3, 4, 2, 7)),
    ("0.77", (2, 2, 3, 3, 1, 1, 4, 4, 2, 2, 3, 3)),
    ("0.75", (1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 2)),
    ("0.07", (2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6)),
])
def test_many_heaps_are_answered_by_the_quotient(code, heaps):
    result = kayles_said("move", *map(str, heaps), "--game", code, "--misere")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == oracle_heap_move(code, heaps) + "\n"


def test_a_row_of_many_runs_is_answered_by_the_quotient():
    row = "x.xx.xxx.x.xx.xxxx.x.xxx.xx.x.xxxxx"
    rules = oracle.octal_row_game("0.77")
    expected = oracle.misere_row_move(rules, row)
    result = kayles_said("move", row, "--game", "kayles", "--misere")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (expected or "LOSS") + "\n"


def test_a_thousand_kayles_heaps():
    # Far past the exhaustive search: the solved quotient answers; the move it gives must
    # leave a P-position by the quotient, and its heap must have been a real heap.
    heaps = [h % 37 + 1 for h in range(1000)]
    result = kayles_said("move", *map(str, heaps), "--game", "kayles", "--misere", "--json")
    found = json.loads(result.stdout)
    assert found["outcome"] in ("N", "P")
    q = quotient(get_game("kayles"), 400)
    assert found["outcome"] == q.outcome(heaps)
    if found["move"] is not None:
        move = found["move"]
        assert heaps[move["heap"] - 1] == move["size"]
        assert q.outcome(move["position"]) == "P"


def test_without_max_heap_the_command_goes_till_solved():
    """kayles quotient --game kayles: no --max-heap needed for a quotient that is solved
    (Kayles: order 40, |P| 9, period 12 from heap 71, as Plambeck and Siegel found)."""
    result = subprocess.run([sys.executable, "-m", "kayles", "quotient", "--game", "kayles",
                             "--json"], capture_output=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert (found["order"], found["p_size"], found["beyond"]) == (40, 9, None)
    assert found["solved"] == {"at_heap": 166, "period": 12, "preperiod": 71}


def test_as_far_as_it_goes_stops_before_the_heap_beyond_the_search():
    game = get_game("0.07")
    with pytest.raises(ValueError, match="beyond this search") as refused:
        quotient(game, 30, budget=40)
    reached = quotient(game, 30, budget=40, as_far_as_it_goes=True)
    heap, why = reached.beyond
    assert heap == reached.max_heap + 1 and why == str(refused.value)
    again = quotient(game, reached.max_heap, budget=40)
    assert (again.order, again.p_size, again.heaps) == (reached.order, reached.p_size,
                                                         reached.heaps)


def test_one_misere_answer_for_every_front_end():
    """misere_answer (what move --misere, play and the web page call) agrees with the literal
    rules on rows and heaps, and past the search's budget answers by the quotient."""
    from kayles.analysis.misere import Solver
    from kayles.analysis.quotient import misere_answer

    kayles = get_game("kayles")
    rules = oracle.octal_row_game("0.77")
    for n in range(8):
        for row in map("".join, itertools.product("x.", repeat=n)):
            after, outcome = misere_answer(Solver(kayles), row)
            wins = oracle.misere_row_wins(rules, row)
            assert outcome == ("N" if wins else "P"), row
            assert after == oracle.misere_row_move(rules, row), row
    for heaps in itertools.combinations_with_replacement(range(1, 9), 3):
        move, outcome = misere_answer(Solver(kayles), list(heaps))
        assert outcome == ("P" if misere_lost("0.77", heaps) else "N"), heaps
        assert (move is None) == (outcome == "P")
    many = [5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27]  # the search alone stops: the quotient
    with pytest.raises(ValueError):
        Solver(kayles, budget=50).outcome(many)
    move, outcome = misere_answer(Solver(kayles, budget=50_000), many)
    assert outcome in ("P", "N") and (move is None) == (outcome == "P")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.data())
def test_collapse_and_columns_rebuild_a_monoid_from_its_automaton(orders, data):
    """A product of cyclic groups read as an automaton (a state per element, a letter per
    factor), labelled at random and minimized: its blocks form a commutative monoid (the
    syntactic one), so collapse's transition table must send block(s) to block(s + e_a),
    its tree must spell each element from a smaller one, and columns must give
    block(s) block(t) = block(s + t); both twins alike."""
    count = math.prod(orders)
    width = len(orders)

    def digits(s):
        out = []
        for o in reversed(orders):
            out.append(s % o)
            s //= o
        return out[::-1]

    def number(ds):
        s = 0
        for o, d in zip(orders, ds):
            s = s * o + d % o
        return s

    moves = array("i", [number([d + (j == a) for j, d in enumerate(digits(s))])
                        for s in range(count) for a in range(width)])
    labels = data.draw(st.lists(st.integers(0, 1), min_size=count, max_size=count))
    picks = data.draw(st.lists(st.integers(0, 200), max_size=6))
    results = []
    for name in ("cython", "python"):
        kernel = load_kernel(name, "quotient")
        block = kernel.minimize(count, width, moves, labels)
        trans, parent, letter, rank, first = kernel.collapse(count, width, moves, block)
        n = len(parent)
        element = [rank[block[s]] for s in range(count)]
        assert sorted(set(element)) == list(range(n)) and element[0] == 0
        for s in range(count):
            for a in range(width):
                assert trans[element[s] * width + a] == element[moves[s * width + a]]
        for y in range(1, n):
            assert parent[y] < y and trans[parent[y] * width + letter[y]] == y
        assert all(element[first[x]] == x for x in range(n))
        full = kernel.columns(trans, width, parent, letter, range(n))
        for s in range(count):
            for t in range(count):
                both = number([i + j for i, j in zip(digits(s), digits(t))])
                assert full[element[s] * n + element[t]] == element[both]
        needed = [pick % n for pick in picks]
        some = kernel.columns(trans, width, parent, letter, needed)
        assert list(some) == [full[x * n + e] for x in range(n) for e in needed]
        results.append((list(block), [list(a) for a in (trans, parent, letter, rank, first)],
                        list(some)))
    assert results[0] == results[1]


def test_a_quotient_keeps_transitions_not_its_table():
    """Products are read from the transition table on the generators; the full table (for
    small orders) agrees with them, is a commutative monoid, and is not built past
    FULL_TABLE."""
    q = quotient(get_game("0.07"), 25)
    assert len(q.trans) == q.order * len(q.letters)
    assert q.bytes_per_element() == 4 * len(q.letters) + 9
    table = q.table
    for x in range(q.order):
        for y in range(q.order):
            assert table[x][y] == q.times(x, y) == table[y][x]
    for x, y, z in itertools.product(range(0, q.order, 7), repeat=3):
        assert table[table[x][y]][z] == table[x][table[y][z]]
    small = quotient(get_game("0.07"), 25)
    small.words = small.words * 100  # an order past FULL_TABLE, as far as `table` can tell
    with pytest.raises(ValueError, match="is not built"):
        _ = small.table
