"""The sparse method's mask choice and its values on wide tables, on both twins.

choose_mask is checked against a brute force over every mask (the rare count
by counting, not by the Walsh-Hadamard transform); wide tables (values far
past 1024) are prefixes drawn by Hypothesis, extended by the sparse method and
by the plain scan, which must agree whatever the prefix.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kayles.engine.rules import GAMES, MoveKind, encode, parse_octal
from kayles.engine.sequence import Sequence
from kayles.kernels.spectrum import HEAP_PARITY, is_rare, split_parity

from conftest import is_compiled

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SAVING = 1  # ext/_core.pyx: the split must cost less than the plain scan's estimate


def parity(x: int) -> int:
    return bin(x).count("1") & 1


def brute_force_mask(counts: list[int], constants: list[int]) -> tuple[int, int]:
    """The documented choice, mask by mask: cost = 3 rare + 2 D bit_length(D), least wins."""
    top = max([0, *constants, *(v for v, k in enumerate(counts) if k)])
    total = sum(counts)
    best = None
    for mask in range(1, 1 << top.bit_length()):
        if any(parity(c & mask) for c in constants):
            continue
        rare = sum(k for v, k in enumerate(counts) if not parity(v & mask))
        distinct = sum(1 for v, k in enumerate(counts) if k and not parity(v & mask))
        cost = 3 * rare + 2 * distinct * distinct.bit_length()
        if best is None or cost < best[0]:
            best = (cost, mask, rare)
    if best is not None and SAVING * best[0] < total:
        return best[1], best[2]
    return 0, total


def brute_force_parity_mask(counts: list[int], odd: list[int], constants: list[int]):
    """The same choice among value masks M and masks M + HEAP_PARITY, heap classes counted
    one by one: under M + HEAP_PARITY, a heap of class q is rare when parity(v & M) == q;
    D counts the distinct rare (value, class) pairs (value masks: the distinct values)."""
    top = max([0, *constants, *(v for v, k in enumerate(counts) if k)])
    total = sum(counts)
    best = None
    for pair_mask in range(2, 2 << top.bit_length()):
        mask, with_parity = pair_mask >> 1, pair_mask & 1
        if any(parity(c & mask) for c in constants):
            continue
        by_class = [(v, q, k) for v, n in enumerate(counts)
                    for q, k in ((0, n - (odd[v] if v < len(odd) else 0)),
                                 (1, odd[v] if v < len(odd) else 0))]
        rare_pairs = [(v, q, k) for v, q, k in by_class
                      if parity(v & mask) == (q if with_parity else 0)]
        rare = sum(k for _, _, k in rare_pairs)
        distinct = (sum(1 for _, _, k in rare_pairs if k) if with_parity
                    else len({v for v, _, k in rare_pairs if k}))
        cost = 3 * rare + 2 * distinct * distinct.bit_length()
        if best is None or cost < best[0]:
            best = (cost, mask | with_parity * HEAP_PARITY, rare)
    if best is not None and SAVING * best[0] < total:
        return best[1], best[2]
    return 0, total


histograms = st.lists(st.integers(0, 50) | st.just(0), max_size=64)


@SETTINGS
@given(counts=histograms, data=st.data())
def test_choose_mask_is_the_brute_force_choice(kernel, counts, data):
    values = [v for v, k in enumerate(counts) if k] or [0]
    constants = data.draw(st.lists(st.sampled_from(values), max_size=3), label="constants")
    assert kernel.choose_mask(counts, constants) == brute_force_mask(counts, constants)


@SETTINGS
@given(counts=histograms, data=st.data())
def test_parity_masks_are_the_brute_force_choice(kernel, counts, data):
    odd = [data.draw(st.integers(0, k), label=f"odd[{v}]") for v, k in enumerate(counts)]
    values = [v for v, k in enumerate(counts) if k] or [0]
    constants = data.draw(st.lists(st.sampled_from(values), max_size=2), label="constants")
    assert kernel.choose_mask(counts, constants, odd) == brute_force_parity_mask(
        counts, odd, constants)


def test_a_game_sparse_only_by_parity_takes_a_parity_mask(kernel):
    """0.2171 has half its heaps rare under every value mask, and few under 16 + parity: its
    odd heaps hold the values of odd parity under 16, apart from a few."""
    values = Sequence(parse_octal("0.2171"), kernel=kernel).nimbers(4095)
    counts, odd = [0] * 128, [0] * 128
    for n, v in enumerate(values):
        counts[v] += 1
        odd[v] += n & 1   # its one split kind removes 3: s = 1, class 1 = the even heaps
    even = [c - o for c, o in zip(counts, odd)]
    assert kernel.choose_mask(counts, [])[1] > 1500     # value masks: half or so
    mask, rare = kernel.choose_mask(counts, [], even)
    assert mask & HEAP_PARITY and rare < 150
    assert rare == sum(1 for n, v in enumerate(values) if is_rare(mask, 1, n, v))


@st.composite
def sparse_histograms(draw, width: int = 1 << 12):
    """Histograms where few heaps are rare under some mask: a split must pay."""
    mask = draw(st.integers(1, width - 1), label="mask")
    common = [v for v in range(width) if parity(v & mask)]
    rare = [v for v in range(width) if not parity(v & mask)]
    counts = [0] * width
    for v in draw(st.lists(st.sampled_from(common), min_size=200, max_size=400)):
        counts[v] += 1
    for v in draw(st.lists(st.sampled_from(rare), max_size=8)):
        counts[v] += 1
    return counts


@SETTINGS
@given(counts=sparse_histograms())
def test_wide_masks_count_their_rare_heaps(both_kernels, counts):
    chosen = [kernel.choose_mask(counts, []) for kernel in both_kernels]
    assert chosen[0] == chosen[1]
    mask, rare = chosen[0]
    assert mask, "a split this lopsided must be used"
    assert rare == sum(k for v, k in enumerate(counts) if not parity(v & mask))


def test_choose_mask_keeps_every_constant_even(kernel):
    counts = [0] * 16
    counts[1] = 1000  # mask 1 would make almost everything common...
    counts[2] = 1
    mask, rare = kernel.choose_mask(counts, [3])  # ... but sees the constant 3 odd
    assert mask and parity(3 & mask) == 0
    assert rare == sum(k for v, k in enumerate(counts) if not parity(v & mask))
    assert kernel.choose_mask([5, 5], []) == (0, 10)  # nothing to save: the plain scan
    assert kernel.choose_mask([], []) == (0, 0)


@pytest.mark.parametrize(
    ("counts", "constants", "message"),
    [([0] * 65537, [], "at most 65536 counts"), ([1, -1], [], "counts must be >= 0"),
     ([1], [70000], "constants must be in [0, 65536)"), ([1], [0] * 65, "at most 64 move kinds")],
)
def test_choose_mask_refuses_bad_input(kernel, counts, constants, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        kernel.choose_mask(counts, constants)


WIDE_GAMES = {
    "0.04": encode(parse_octal("0.04").kinds),
    "0.354": encode(parse_octal("0.354").kinds),
    "grundy": encode(GAMES["grundy"].kinds),
    "kayles-xox": encode(GAMES["kayles-xox"].kinds),
    "xoox": encode([MoveKind("xoox", {0, 1, 2}), MoveKind("", {2})]),
}


WIDE = 1 << 12  # prefix values below this, past 1024


@st.composite
def wide_prefixes(draw):
    """A table prefix whose values pass 1024 and which a mask splits well."""
    mask = draw(st.integers(1024, WIDE - 1), label="mask")
    low = mask & -mask  # flipping this bit moves a value to the other class
    common = st.integers(0, WIDE - 1).map(lambda v: v if parity(v & mask) else v ^ low)
    values = draw(st.lists(common, min_size=100, max_size=200), label="common")
    for v in draw(st.lists(st.integers(0, WIDE - 1), max_size=4), label="rare"):
        values.insert(draw(st.integers(0, len(values)), label="at"), v)
    return values


def extended(kernel, method: str, prefix: list[int], extra: int, kinds, scratch=None):
    table = memoryview(bytearray(2 * (len(prefix) + extra))).cast("H")
    for i, v in enumerate(prefix):
        table[i] = v
    args = (table, len(prefix), len(table), kinds) + ((scratch,) if scratch else ())
    getattr(kernel, method)(*args)
    return table.tolist()


@settings(SETTINGS, max_examples=25)
@given(prefix=wide_prefixes(), name=st.sampled_from(sorted(WIDE_GAMES)))
def test_sparse_equals_plain_past_1024(both_kernels, prefix, name):
    assume(max(prefix) >= 1024)
    kinds = WIDE_GAMES[name]
    counts = [0] * WIDE
    for v in prefix:
        counts[v] += 1
    if not any(heaps for _, heaps, *_ in kinds):  # kept runs may veto every mask
        assert both_kernels[0].choose_mask(counts, [])[0], "the sparse method must split"
    results = [
        extended(kernel, method, prefix, 60, kinds)
        for kernel in both_kernels
        for method in ("extend_plain", "extend_sparse")
    ]
    assert all(values == results[0] for values in results)


@st.composite
def parity_prefixes(draw, split_parity: int):
    """A prefix sparse only under some mask + HEAP_PARITY: heap a's value is of parity
    1 - q(a) under the mask (q(a) = (a ^ split_parity) & 1), apart from a few."""
    mask = draw(st.integers(1024, WIDE - 1), label="mask")
    low = mask & -mask
    values = draw(st.lists(st.integers(0, WIDE - 1), min_size=100, max_size=200), label="values")
    values = [v ^ low if parity(v & mask) == (a ^ split_parity) & 1 else v
              for a, v in enumerate(values)]
    for v in draw(st.lists(st.integers(0, WIDE - 1), max_size=4), label="rare"):
        values[draw(st.integers(0, len(values) - 1), label="at")] = v
    return values


PARITY_GAMES = {"0.04": 0, "grundy": 0, "0.2171": 1, "kayles-xox": 1}  # and their split parity


@settings(SETTINGS, max_examples=25)
@given(data=st.data(), name=st.sampled_from(sorted(PARITY_GAMES)))
def test_sparse_equals_plain_under_parity_masks(both_kernels, data, name):
    game = GAMES[name] if name in GAMES else parse_octal(name)
    kinds = encode(game.kinds)
    assert split_parity(kinds) == PARITY_GAMES[name]
    prefix = data.draw(parity_prefixes(PARITY_GAMES[name]), label="prefix")
    results = [
        extended(kernel, method, prefix, 60, kinds)
        for kernel in both_kernels
        for method in ("extend_plain", "extend_sparse")
    ]
    assert all(values == results[0] for values in results)


@pytest.mark.parametrize("code", ["0.2171", "kayles-xox"])
def test_parity_masks_on_real_games(kernel, code):
    """Sparse (one thread, in pieces, and a crew of two on the compiled core) equals plain
    where the mask holds HEAP_PARITY, whose rare heaps are counted one by one."""
    compiled = is_compiled(kernel)
    n = 20000 if compiled else 1500
    kinds = encode((GAMES[code] if code in GAMES else parse_octal(code)).kinds)
    plain = memoryview(bytearray(2 * n)).cast("H")
    kernel.extend_plain(plain, 0, n, kinds)
    crews = [{}, {"threads": 2, "crew_from": 0, "crew_rare": 0}] if compiled else [{}]
    for options in crews:
        sparse = memoryview(bytearray(2 * n)).cast("H")
        scratch = kernel.Scratch(**options)
        for start, stop in ((0, n // 3), (n // 3, n // 3 + 1), (n // 3 + 1, n)):
            kernel.extend_sparse(sparse, start, stop, kinds, scratch)
        assert sparse.tolist() == plain.tolist()
        mask, rare, last = scratch.rare()
        listed = [a for a in range(n) if is_rare(mask, split_parity(kinds), a, plain[a])]
        assert mask & HEAP_PARITY and (rare, last) == (len(listed), listed[-1])


@pytest.mark.parametrize("code", ["0.04", "0.354", "0.376", "4.04"])
def test_sparse_equals_plain_on_real_games(kernel, code):
    n = 4000 if is_compiled(kernel) else 700
    kinds = encode(parse_octal(code).kinds)
    plain = memoryview(bytearray(2 * n)).cast("H")
    sparse = memoryview(bytearray(2 * n)).cast("H")
    kernel.extend_plain(plain, 0, n, kinds)
    scratch = kernel.Scratch()
    for start, stop in ((0, n // 3), (n // 3, n // 3 + 1), (n // 3 + 1, n)):
        kernel.extend_sparse(sparse, start, stop, kinds, scratch)
    assert sparse.tolist() == plain.tolist()


def test_one_scratch_serves_any_table_and_game(kernel):
    """A Scratch carries no values between calls: reuse gives what a fresh one gives."""
    scratch = kernel.Scratch()
    for name in ("grundy", "kayles-xox", "0.354", "grundy"):
        kinds = WIDE_GAMES[name]
        for method in ("extend_sparse", "extend_plain"):
            fresh = extended(kernel, method, [0, 0, 1], 300, kinds)
            assert extended(kernel, method, [0, 0, 1], 300, kinds, scratch) == fresh


def test_a_scratch_must_be_a_scratch(both_kernels):
    messages = set()
    for kernel in both_kernels:
        for method in (kernel.extend_sparse, kernel.extend_plain):
            with pytest.raises(TypeError) as caught:
                method(memoryview(bytearray(8)).cast("H"), 0, 4, WIDE_GAMES["grundy"], "scratch")
            messages.add(str(caught.value))
    assert messages == {"scratch must be a Scratch, not str"}
