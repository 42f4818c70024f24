"""The transposition table bounded in bytes (``kayles.engine.transposition``): it stays near its
cap however much is stored, counts what it evicts, keeps what is looked up, and measures
keys by what they hold."""

from __future__ import annotations

import sys

from kayles.engine.transposition import Table, deep_size


def real_bytes(table: Table) -> int:
    """What the table holds, measured here: both dicts and every key, walked in full."""
    return (sys.getsizeof(table.young) + sys.getsizeof(table.old)
            + sum(deep_size(key) for key, _ in table.items()))


def test_the_table_stays_near_its_cap_and_counts_evictions():
    for cap in (4_000, 100_000, 2_000_000):
        table = Table(cap)
        stored = 0
        for n in range(60_000):
            table.put((n, "position", n * 7), n & 15)
            stored += 1
            if n % 4999 == 0:
                assert real_bytes(table) <= 1.25 * cap + 2_000, (cap, n)
        assert table.evicted > 0
        assert table.evicted + len(table) == stored  # (each key stored once)
        assert table.size() <= 1.25 * cap + 2_000


def test_a_key_looked_up_survives_the_turnover():
    table = Table(50_000)
    table.put("kept", 3)
    for n in range(100_000):
        table.put(n, 1)
        if n % 100 == 0:
            assert table.get("kept") == 3
    assert table.evicted > 0


def test_values_are_given_back_as_stored():
    table = Table(1 << 20)
    for n in range(1000):
        table.put(("k", n), ~n if n % 2 else n)
    assert all(table.get(("k", n)) == (~n if n % 2 else n) for n in range(1000))
    assert table.get("absent") is None


def test_deep_size_walks_containers_once_each():
    shared = tuple(range(100, 200))
    assert deep_size((shared, shared)) == sys.getsizeof((shared, shared)) + deep_size(shared)
    assert deep_size(5) == 0  # CPython's cached small ints belong to nobody
    assert deep_size(frozenset({(1000, 2000)})) > sys.getsizeof(frozenset())
    long = tuple(range(1000, 11000))
    assert 0.9 < deep_size(long) / (sys.getsizeof(long) + 10_000 * sys.getsizeof(1000)) < 1.1
