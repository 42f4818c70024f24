"""Chomp (kayles.kernels._chomp and its pure twin): published values, Brouwer's three-rowed
P-positions, a brute force from the rules, the L-shapes' closed form, the twins step for
step, a diagram and its transpose in one entry, a tiny table.

Expected values come from tests/oracle.py and tests/data/graph_games_oeis.json (Brouwer's
table as OEIS A147983 quotes it) and the notes' published values, never from the kernels.
"""

from __future__ import annotations

import json
import random

import pytest

import oracle
from conftest import ROOT

SEED = 20261203
BIG = 1 << 26
BROUWER = json.loads((ROOT / "tests" / "data" / "graph_games_oeis.json").read_text())[
    "A147983"]["brouwer"]


def compiled(kernel) -> bool:
    return ".pure." not in kernel.__name__


@pytest.mark.parametrize("rows, value", [((3, 3, 3), 5), ((5, 5, 5, 5), 13), ((7, 7, 7, 7), 19)])
def test_rectangles_have_their_published_values(chomp_kernel, rows, value):
    """igsolve and a brute force (the notes, section 5): 3 x 3, 4 x 5, 4 x 7."""
    if not compiled(chomp_kernel) and sum(rows) > 20:
        rows, value = (5, 5, 5, 5), 13
    assert chomp_kernel.Chomp(len(rows), rows[0], BIG).nimber(rows) == value


def test_three_rowed_p_positions_are_brouwers(chomp_kernel):
    top = 30 if compiled(chomp_kernel) else 14
    kernel = chomp_kernel.Chomp(3, top, BIG)
    for r in range(1, 6):
        found = [(p, q) for q in range(r, top + 1) for p in range(q, top + 1)
                 if kernel.nimber((p, q, r)) == 0]
        table = BROUWER[str(r)]
        if r == 2:
            expected = [(q + 2, q) for q in range(2, top - 1)]
        elif r == 5:
            expected = [(10, 5), (9, 6)] + [(a + 11, a + 7) for a in range(top - 10)]
        else:
            expected = [tuple(x) for x in table]
        assert sorted(found) == sorted(e for e in expected if e[0] <= top), r
    two_rows = chomp_kernel.Chomp(2, top, BIG)
    assert [(p, q) for q in range(1, top) for p in range(q, top + 1)
            if two_rows.nimber((p, q)) == 0] == [(q + 1, q) for q in range(1, top)]


def random_diagram(rng: random.Random, rows: int, cols: int) -> tuple[int, ...]:
    return tuple(sorted((rng.randint(1, cols) for _ in range(rng.randint(1, rows))),
                        reverse=True))


def test_values_match_a_brute_force(chomp_kernel):
    print("seed", SEED)
    rng = random.Random(SEED)
    for _ in range(120 if compiled(chomp_kernel) else 40):
        rows = random_diagram(rng, 5, 7 if compiled(chomp_kernel) else 5)
        frame = (len(rows) + rng.randint(0, 2), rows[0] + rng.randint(0, 2))
        assert chomp_kernel.Chomp(*frame, BIG).nimber(rows) == oracle.chomp_value(rows), rows


def test_has_value_answers_as_the_brute_force_does(chomp_kernel):
    """has_value(rows, v) for the brute force's value, its neighbours and one past any
    value, on a fresh kernel (nothing known before) and on one that holds the answers."""
    print("seed", SEED)
    rng = random.Random(SEED + 1)
    warm = chomp_kernel.Chomp(7, 9, BIG)
    for _ in range(60 if compiled(chomp_kernel) else 20):
        rows = random_diagram(rng, 5, 7 if compiled(chomp_kernel) else 5)
        value = oracle.chomp_value(rows)
        for asked in sorted({0, 1, value, value + 1, max(value - 1, 0), 1 << 30}):
            fresh = chomp_kernel.Chomp(len(rows), rows[0], BIG)
            assert fresh.has_value(rows, asked) == (asked == value), (rows, asked)
            assert warm.has_value(rows, asked) == (asked == value), (rows, asked)


def test_l_shapes_are_two_nim_heaps():
    """The closed form (ext/src/chomp.c proves it) against the brute force."""
    for arm in range(8):
        for leg in range(8):
            rows = (arm + 1,) + (1,) * leg
            assert oracle.chomp_value(rows) == arm ^ leg


def test_a_diagram_and_its_transpose_share_a_key(chomp_kernel):
    rng = random.Random(SEED + 1)
    kernel = chomp_kernel.Chomp(7, 7, BIG)
    for _ in range(50):
        rows = random_diagram(rng, 7, 7)
        transposed = tuple(sum(1 for x in rows if x > j) for j in range(rows[0]))
        assert kernel.key(rows) == kernel.key(transposed)


def test_the_twins_agree(both_chomp_kernels):
    compiled_twin, pure = both_chomp_kernels
    print("seed", SEED)
    rng = random.Random(SEED + 2)
    for _ in range(40):
        rows = random_diagram(rng, 4, 6)
        frame = (len(rows) + rng.randint(0, 2), rows[0] + rng.randint(0, 2))
        memory = rng.choice([2048, BIG])
        a, b = compiled_twin.Chomp(*frame, memory), pure.Chomp(*frame, memory)
        assert a.nimber(rows) == b.nimber(rows)
        assert a.stats() == b.stats() and a.moves(rows) == b.moves(rows)
        assert a.key(rows) == b.key(rows)


def test_a_tiny_table_gives_the_same_values(chomp_kernel):
    rows = (6, 5, 5, 3) if compiled(chomp_kernel) else (5, 4, 3)
    small = chomp_kernel.Chomp(len(rows), rows[0], 2048)
    assert small.nimber(rows) == oracle.chomp_value(rows)
    assert small.stats()["bytes"] <= 2048


@pytest.mark.parametrize("call, error", [
    (lambda k: k.Chomp(0, 3, 0), ValueError), (lambda k: k.Chomp(3, 5000, 0), ValueError),
    (lambda k: k.Chomp(3000, 4000, 0), ValueError),
    (lambda k: k.Chomp(3, 3, 10).nimber(()), ValueError),
    (lambda k: k.Chomp(3, 3, 10).nimber((1, 2)), ValueError),
    (lambda k: k.Chomp(3, 3, 10).nimber((4,)), ValueError),
    (lambda k: k.Chomp(3, 3, 10).nimber((3, 3, 3, 3)), ValueError),
    (lambda k: k.Chomp(3, 3, 10).nimber((3, 0)), ValueError),
    (lambda k: k.Chomp(3, 3, 10).key(("3",)), TypeError),
    (lambda k: k.Chomp(3, 3, 10).has_value((3, 2), -1), ValueError),
    (lambda k: k.Chomp(3, 3, 10).has_value((1, 2), 0), ValueError),
])
def test_bad_arguments_are_refused_alike(both_chomp_kernels, call, error):
    messages = []
    for kernel in both_chomp_kernels:
        with pytest.raises(error) as caught:
            call(kernel)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
