"""The field of nimbers on Python ints of any size: the definition (the mex) on small values,
OEIS A051775/A051776, the field laws on big ints (Hypothesis), and the bad arguments."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kayles.engine import nimbers
from kayles.errors import InputError

import oracle
from conftest import ROOT

BIG = st.integers(0, (1 << 300) - 1) | st.integers(0, (1 << 64) - 1) | st.integers(0, 300)
OEIS = json.loads((ROOT / "tests" / "data" / "oeis_nim_products.json").read_text())


def antidiagonals(first: int, count: int) -> list[int]:
    """T(n, m) read by antidiagonals from n, m = first, the first ``count`` terms."""
    terms, d = [], 0
    while len(terms) < count:
        terms += [nimbers.nim_product(first + i, first + d - i) for i in range(d + 1)]
        d += 1
    return terms[:count]


def test_the_table_is_the_definition():
    assert nimbers.product_table(40) == oracle.nim_product_table(40)


def test_the_table_read_by_antidiagonals_is_oeis_a051775_and_a051776():
    assert antidiagonals(0, len(OEIS["A051775"])) == OEIS["A051775"]
    assert antidiagonals(1, len(OEIS["A051776"])) == OEIS["A051776"]


def test_fermat_powers_of_every_size():
    """F = 2**(2**k): F (x) F = 3F/2, F (x) G = F G for distinct Fermat powers, and 2**(2**k)
    generates a field with the ones below it."""
    fermat = [1 << (1 << k) for k in range(11)]  # up to 2**1024
    for i, f in enumerate(fermat):
        assert nimbers.nim_product(f, f) == 3 * f // 2
        assert nimbers.nim_square(f) == 3 * f // 2
        for g in fermat[i + 1:]:
            assert nimbers.nim_product(f, g) == f * g


@given(BIG, BIG, BIG)
def test_the_field_laws_hold_on_big_ints(a, b, c):
    mul = nimbers.nim_product
    assert mul(a, b) == mul(b, a)
    assert mul(mul(a, b), c) == mul(a, mul(b, c))
    assert mul(a, b ^ c) == mul(a, b) ^ mul(a, c)
    assert mul(a, b) < 1 << nimbers.field_bits(a, b)  # the field holds the product
    assert nimbers.nim_square(a) == mul(a, a)
    root = nimbers.nim_sqrt(a)
    assert mul(root, root) == a
    if a:
        inverse = nimbers.nim_inverse(a)
        assert mul(a, inverse) == 1
        assert nimbers.nim_divide(b, a) == mul(b, inverse)


@given(BIG, st.integers(-40, 40))
def test_powers_are_repeated_products(a, k):
    if a == 0 and k < 0:
        with pytest.raises(ZeroDivisionError):
            nimbers.nim_power(a, k)
        return
    base = a if k >= 0 else nimbers.nim_inverse(a)
    expected = 1
    for _ in range(abs(k)):
        expected = nimbers.nim_product(expected, base)
    assert nimbers.nim_power(a, k) == expected


@given(st.integers(1, (1 << 200) - 1))
def test_a_huge_exponent_is_reduced_by_the_order_of_the_group(a):
    bits = nimbers.field_bits(a)
    order = (1 << max(bits, 64)) - 1
    assert nimbers.nim_power(a, order) == 1
    assert nimbers.nim_power(a, 10 ** 100) == nimbers.nim_power(a, 10 ** 100 % order)


def test_field_bits_and_sums():
    assert [nimbers.field_bits(v) for v in (0, 1, 2, 3, 4, 15, 16, 255, 256, 1 << 64)] == [
        1, 1, 2, 2, 4, 4, 8, 8, 16, 128]
    assert nimbers.nim_sum() == 0
    assert nimbers.nim_sum(1, 2, 3) == 0
    assert nimbers.nim_sum(5, 1 << 100) == 5 | 1 << 100


def test_rows_of_big_nimbers_are_products():
    a = (1 << 100) + 7
    assert nimbers.product_row(a, 5) == [nimbers.nim_product(a, j) for j in range(5)]


@pytest.mark.parametrize("call, error", [
    (lambda: nimbers.nim_product(-1, 2), InputError),
    (lambda: nimbers.nim_product(2, 1.5), TypeError),
    (lambda: nimbers.nim_sum(1, "2"), TypeError),
    (lambda: nimbers.nim_inverse(0), ZeroDivisionError),
    (lambda: nimbers.nim_inverse(0), InputError),
    (lambda: nimbers.nim_divide(3, 0), ZeroDivisionError),
    (lambda: nimbers.nim_power(0, -1), ZeroDivisionError),
    (lambda: nimbers.nim_power(2, 0.5), TypeError),
    (lambda: nimbers.product_table(-1), InputError),
])
def test_bad_arguments_are_refused(call, error):
    with pytest.raises(error):
        call()
