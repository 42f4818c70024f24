"""The nimber kernel, both twins: nim products of 64-bit words against the definition
(the mex of the options), the field laws, each other, and their argument checks."""

from __future__ import annotations

import random
from array import array

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kayles.kernels import limits

import oracle

WORDS = st.integers(0, (1 << 64) - 1)
SMALL = 48  # the definition's table: 48 x 48 products by the mex (2,304 values)


@pytest.fixture(scope="module")
def definition():
    return oracle.nim_product_table(SMALL)


def test_products_of_small_values_are_the_mex_of_their_options(nimber_kernel, definition):
    got = [[nimber_kernel.mul(a, b) for b in range(SMALL)] for a in range(SMALL)]
    assert got == definition


def test_every_row_of_the_buffer_functions_is_the_definition(nimber_kernel, definition):
    values = array("Q", range(SMALL))
    for a in range(SMALL):
        out = array("Q", bytes(8 * SMALL))
        nimber_kernel.scale(values, a, out)
        assert out.tolist() == definition[a]
        nimber_kernel.mul_many(values, array("Q", [a] * SMALL), out)
        assert out.tolist() == definition[a]
        total = 0
        for v in definition[a]:
            total ^= v
        assert nimber_kernel.dot(values, array("Q", [a] * SMALL)) == total


def test_fermat_powers_multiply_as_the_theory_says(nimber_kernel):
    """F = 2**(2**k): F (x) F = 3F/2, and distinct Fermat powers multiply as integers."""
    fermat = [1 << (1 << k) for k in range(6)]
    for f in fermat:
        assert nimber_kernel.mul(f, f) == 3 * f // 2
        assert nimber_kernel.square(f) == 3 * f // 2
    for i, f in enumerate(fermat):
        for g in fermat[i + 1:]:
            assert nimber_kernel.mul(f, g) == f * g


@given(WORDS, WORDS, WORDS)
def test_the_field_laws_hold_on_words(nimber_kernel, a, b, c):
    mul = nimber_kernel.mul
    assert mul(a, b) == mul(b, a)
    assert mul(mul(a, b), c) == mul(a, mul(b, c))
    assert mul(a, b ^ c) == mul(a, b) ^ mul(a, c)
    assert nimber_kernel.square(a) == mul(a, a)
    root = nimber_kernel.sqrt(a)
    assert mul(root, root) == a
    if a:
        assert mul(a, nimber_kernel.inverse(a)) == 1


@given(WORDS, st.integers(0, 200))
def test_powers_are_repeated_products(nimber_kernel, a, k):
    expected = 1
    for _ in range(k):
        expected = nimber_kernel.mul(expected, a)
    assert nimber_kernel.power(a, k) == expected


def test_the_multiplicative_group_of_the_word_has_order_2_to_the_64_minus_1(nimber_kernel):
    for a in (2, 3, 1 << 40 | 12345, (1 << 64) - 1):
        assert nimber_kernel.power(a, (1 << 64) - 1) == 1
    assert nimber_kernel.power(0, 0) == 1
    assert nimber_kernel.power(0, 5) == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_twins_agree_on_random_words(both_nimber_kernels, seed):
    compiled, pure = both_nimber_kernels
    rng = random.Random(seed)
    for _ in range(500):
        a, b = rng.getrandbits(rng.choice((1, 8, 16, 31, 32, 33, 63, 64))), rng.getrandbits(64)
        k = rng.getrandbits(64)
        assert compiled.mul(a, b) == pure.mul(a, b), (seed, a, b)
        assert compiled.square(a) == pure.square(a), (seed, a)
        assert compiled.sqrt(a) == pure.sqrt(a), (seed, a)
        assert compiled.power(a, k) == pure.power(a, k), (seed, a, k)
        if a:
            assert compiled.inverse(a) == pure.inverse(a), (seed, a)
    a = array("Q", [rng.getrandbits(64) for _ in range(300)])
    b = array("Q", [rng.getrandbits(64) for _ in range(300)])
    assert compiled.dot(a, b) == pure.dot(a, b), seed
    outs = [array("Q", bytes(8 * 300)) for _ in range(2)]
    for kernel, out in zip((compiled, pure), outs):
        kernel.mul_many(a, b, out)
    assert outs[0] == outs[1], seed


@given(st.one_of(st.integers(), st.floats(), st.text(max_size=3), st.booleans(), st.none()))
def test_the_twins_refuse_the_same_arguments_alike(both_nimber_kernels, value):
    outcomes = []
    for kernel in both_nimber_kernels:
        try:
            outcomes.append(("ok", kernel.mul(value, 3), kernel.inverse(value)))
        except (TypeError, ValueError, ZeroDivisionError) as exc:
            outcomes.append((type(exc), str(exc)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("call, error", [
    (lambda k: k.mul(-1, 2), ValueError),
    (lambda k: k.mul(1 << 64, 2), ValueError),
    (lambda k: k.mul(2, 2.0), TypeError),
    (lambda k: k.mul(True, 2), TypeError),
    (lambda k: k.inverse(0), ZeroDivisionError),
    (lambda k: k.power(2, -1), ValueError),
    (lambda k: k.dot([1], [2]), TypeError),
    (lambda k: k.dot(array("I", [1]), array("I", [2])), TypeError),
    (lambda k: k.dot(array("Q", [1]), array("Q", [1, 2])), ValueError),
    (lambda k: k.scale(array("Q", [1]), 2, bytes(8)), TypeError),
    (lambda k: k.mul_many(array("Q", [1]), array("Q", [1]), array("Q")), ValueError),
])
def test_bad_arguments_are_refused(nimber_kernel, call, error):
    with pytest.raises(error):
        call(nimber_kernel)


def test_the_buffer_loops_look_at_the_interrupt_hook(nimber_kernel):
    class Stop(Exception):
        pass

    def hook():
        raise Stop

    values = array("Q", range(1 << 17))
    limits.set_interrupt(hook)
    try:
        with pytest.raises(Stop):
            nimber_kernel.dot(values, values)
    finally:
        limits.set_interrupt(None)
