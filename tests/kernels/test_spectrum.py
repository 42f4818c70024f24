"""kayles.kernels.spectrum: parity, the Walsh-Hadamard transform and the fewest-rare mask, against
their definitions (the kernels' cost-based masks are in test_masks.py)."""

from __future__ import annotations

import random
from array import array

from hypothesis import given, settings
from hypothesis import strategies as st

from kayles.kernels.spectrum import allowed_mask, fewest_rare, is_rare, parity, walsh_hadamard

import oracle


@given(st.integers(0, 1 << 70))
def test_parity_is_the_popcount_mod_2(x):
    assert parity(x) == sum(int(bit) for bit in bin(x)[2:]) % 2


@given(st.integers(0, 6).flatmap(
    lambda bits: st.lists(st.integers(-50, 50), min_size=1 << bits, max_size=1 << bits)))
def test_walsh_hadamard_is_its_definition(counts):
    assert walsh_hadamard(counts) == [
        sum(c * (-1) ** bin(v & m).count("1") for v, c in enumerate(counts))
        for m in range(len(counts))]


def test_walsh_hadamard_needs_a_power_of_two():
    try:
        walsh_hadamard([1, 2, 3])
    except ValueError as exc:
        assert "not a power of two" in str(exc)
    else:
        raise AssertionError("a length of 3 was accepted")


@given(st.lists(st.integers(0, 70), min_size=1, max_size=200),
       st.lists(st.integers(0, 70), max_size=3))
@settings(max_examples=300, deadline=None)
def test_fewest_rare_is_the_brute_force_minimum(values, constants):
    counts = [values.count(v) for v in range(max(values) + 1)]
    assert fewest_rare(counts, constants) == oracle.fewest_rare_by_trial(values, constants)


def test_the_kayles_xox_constant_keeps_bit_zero_clear():
    # Kayles-xox's pattern 'xox' keeps one pin: constant G(1) = 1, so the mask must be even.
    mask, rare = fewest_rare([5, 5, 1, 1], {1})
    assert mask % 2 == 0 and not allowed_mask(1, {1}) and allowed_mask(2, {1})
    assert (mask, rare) == oracle.fewest_rare_by_trial([0] * 5 + [1] * 5 + [2, 3], [1])


def test_the_last_rare_heap_is_the_definitions(monkeypatch):
    """last_rare looks at blocks of heaps from the end; the definition looks at every heap
    from the end (is_rare): the same heap, with and without the heap's parity, on tables
    whose rare heaps are scarce, end a block early or late, or are none.  300 tables with
    the block cut to 64 heaps (the same loop; at its real 2**16 heaps, tables of up to
    196,613 values drawn one by one took 5 s), then 12 at the real size."""
    from kayles.kernels import spectrum
    from kayles.kernels.spectrum import HEAP_PARITY, last_rare

    rng = random.Random(46)

    def check(rounds: int) -> None:
        BLOCK = spectrum.BLOCK
        odd = 1 - max(0.001, 1 / BLOCK)   # a scarce table: about one even value a block or more
        for _ in range(rounds):
            count = rng.choice([0, 1, 7, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 5])
            top = rng.choice([1, 5, 40])
            scarce = rng.random() < 0.7
            values = array("H", ((rng.randrange(top + 1) | (1 if scarce and rng.random() < odd
                                                           else 0)) for _ in range(count)))
            mask = rng.randrange(1, 64) | (HEAP_PARITY if rng.random() < 0.5 else 0)
            splits = rng.choice([0, 1]) if mask & HEAP_PARITY else rng.choice([-1, 0, 1])
            expected = next((n for n in reversed(range(count))
                             if is_rare(mask, splits, n, values[n])), None)
            assert last_rare(values, mask, splits, max(values, default=0)) == expected
            assert last_rare(memoryview(values), mask, splits, top) == expected

    with monkeypatch.context() as patch:
        patch.setattr(spectrum, "BLOCK", 64)
        check(300)
    assert spectrum.BLOCK == 1 << 16
    check(12)
