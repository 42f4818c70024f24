"""The pruned search's table (kayles.kernels._search and its pure twin): exact, bounded,
the same entries and evictions in both twins.

Exact: a key is stored as its mixed first word's cluster and remainder, so a lookup never
answers for another key.  The tests store many keys in small tables and check every
lookup against a dict of what was put; a wrong value would be a false positive.
"""

from __future__ import annotations

import random

import pytest

from kayles.kernels.constants import SEARCH_EXCLUDE_VALUES, SEARCH_STORED_MAX

SEED = 20261201


def test_mix_is_a_bijection_and_unmix_its_inverse(search_kernel):
    rng = random.Random(SEED)
    for bits in (1, 2, 7, 30, 52, 53, 63, 64):
        words = {rng.getrandbits(bits) for _ in range(300)}
        mixed = {search_kernel.mix(w, bits) for w in words}
        assert len(mixed) == len(words) and max(mixed) < 1 << bits
        for w in words:
            assert search_kernel.unmix(search_kernel.mix(w, bits), bits) == w
    assert sorted(search_kernel.mix(w, 4) for w in range(16)) == list(range(16))


def test_the_twins_mix_alike(both_search_kernels):
    compiled, pure = both_search_kernels
    rng = random.Random(SEED)
    for _ in range(200):
        bits, w = rng.randint(1, 64), rng.getrandbits(64)
        assert compiled.mix(w, bits) == pure.mix(w, bits)
        assert compiled.unmix(w, bits) == pure.unmix(w, bits)


@pytest.mark.parametrize("memory", [0, 64, 700, 4096, 1 << 16, 1 << 22])
def test_a_table_answers_only_what_was_put_and_stays_in_its_cap(search_kernel, memory):
    print("seed", SEED)
    rng = random.Random(SEED + memory)
    table = search_kernel.Table(memory)
    put: dict[tuple, int] = {}
    for step in range(3000):
        width = rng.choice([1, 1, 1, 2, 3, 5])
        key = tuple(rng.getrandbits(rng.choice([8, 20, 64])) for _ in range(width))
        if rng.random() < 0.6:
            value = rng.randint(0, SEARCH_STORED_MAX)
            table.put(key, value)
            put[key] = value
        got = table.get(key)
        assert got is None or got == put.get(key), (step, key)
    stats = table.stats()
    assert stats["bytes"] <= memory and stats["cap"] == memory
    held = sum(table.get(k) == v for k, v in put.items())
    assert held == len(table) == stats["entries"]
    assert all(table.get(k) in (None, v) for k, v in put.items())
    if memory == 0:
        assert len(table) == 0 and stats["unstored"] > 0
    if memory >= 1 << 22:  # room for all: only first words past a small table's domain
        assert stats["evictions"] == 0  # (52 bits and its clusters' bits) go unstored
        assert all(table.get(k) == v for k, v in put.items() if k[0] < 1 << 52)


def test_a_full_table_evicts_and_counts_it(search_kernel):
    table = search_kernel.Table(4096)  # 64 clusters of 8 one-word entries at most
    for k in range(5000):
        table.put((k,), k % 7)
    stats = table.stats()
    assert stats["evictions"] > 0 and stats["entries"] + stats["evictions"] == 5000
    assert stats["bytes"] == 4096


def test_values_past_the_stored_range_are_refused(search_kernel):
    table = search_kernel.Table(1 << 16)
    table.put((5,), SEARCH_STORED_MAX)
    table.put((6,), SEARCH_STORED_MAX + 1)
    assert table.get((5,)) == SEARCH_STORED_MAX and table.get((6,)) is None
    assert table.stats()["unstored"] == 1


def test_exclusions_gather_until_a_value_replaces_them(search_kernel):
    table = search_kernel.Table(1 << 16)
    table.exclude((9,), 0b101)
    table.exclude((9,), 0b10)
    assert table.get((9,)) is None and table.excluded((9,)) == 0b111 and len(table) == 1
    table.exclude((9,), 1 << SEARCH_EXCLUDE_VALUES)  # past the values an exclusion holds
    assert table.excluded((9,)) == 0b111
    table.put((9,), 4)
    assert table.get((9,)) == 4 and table.excluded((9,)) == 0 and len(table) == 1
    table.exclude((9,), 0b1)  # a stored value stays
    assert table.get((9,)) == 4 and table.excluded((9,)) == 0
    every = (1 << SEARCH_EXCLUDE_VALUES) - 1  # all of 0 to 10: the field cannot say so
    table.exclude((10,), every)
    table.exclude((11,), every >> 1)
    table.exclude((11,), every)
    assert table.excluded((10,)) == 0 and table.excluded((11,)) == every >> 1


def test_a_full_cluster_gives_up_exclusions_before_values(search_kernel):
    table = search_kernel.Table(64)  # one cluster of 8 one-word entries
    for k in range(1, 5):
        table.put((k,), k)
    for k in range(5, 9):
        table.exclude((k,), 1)
    table.put((9,), 9)  # full: the oldest exclusion (5) goes
    assert table.excluded((5,)) == 0 and all(table.excluded((k,)) == 1 for k in (6, 7, 8))
    for k in (10, 11, 12):  # and the next ones
        table.put((k,), k)
    assert all(table.excluded((k,)) == 0 for k in range(5, 9))
    table.exclude((13,), 1)  # a cluster of values: the exclusion is dropped
    assert table.excluded((13,)) == 0
    assert [table.get((k,)) for k in (1, 2, 3, 4, 9, 10, 11, 12)] == [1, 2, 3, 4, 9, 10, 11, 12]
    table.put((14,), 14)  # a value pushes the oldest value out
    assert table.get((1,)) is None and table.get((14,)) == 14
    assert table.stats()["evictions"] == 5 and len(table) == 8


def test_the_twins_hold_the_same_entries(both_search_kernels):
    rng = random.Random(SEED)
    for memory in (300, 2048, 1 << 20):
        tables = [kernel.Table(memory) for kernel in both_search_kernels]
        for _ in range(4000):
            key = tuple(rng.getrandbits(12) for _ in range(rng.choice([1, 2])))
            value, values, probe = rng.randint(0, 20), rng.getrandbits(12), rng.getrandbits(12)
            exclusion = rng.random() < 0.5
            answers = []
            for table in tables:
                if exclusion:
                    table.exclude(key, values)
                else:
                    table.put(key, value)
                answers.append((table.get((probe,)), table.excluded((probe,))))
            assert answers[0] == answers[1]
        assert tables[0].stats() == tables[1].stats()


@pytest.mark.parametrize("call, error", [
    (lambda k: k.Table(-1), ValueError), (lambda k: k.Table("8G"), TypeError),
    (lambda k: k.Table(10).get(()), ValueError),
    (lambda k: k.Table(10).get((1 << 64,)), ValueError),
    (lambda k: k.Table(10).get((1,) * 41), ValueError),
    (lambda k: k.Table(10).put((1,), -1), ValueError),
    (lambda k: k.mix(1, 0), ValueError), (lambda k: k.mix(-1, 8), ValueError),
])
def test_bad_arguments_are_refused_alike(both_search_kernels, call, error):
    messages = []
    for kernel in both_search_kernels:
        with pytest.raises(error) as caught:
            call(kernel)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
