"""Hypothesis draws inputs and asserts compiled == pure, results and exceptions alike.

Tables here need not be any game's nim-sequence: the kernels must agree on
whatever they are given, including the plain and sparse scans with each other.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


small_values = st.integers(0, 15) | st.integers(0, 2000)


def table_of(values: list[int], size: int) -> memoryview:
    table = memoryview(bytearray(2 * max(size, len(values)))).cast("H")
    for i, v in enumerate(values):
        table[i] = v
    return table


def outcome(call, *args):
    """What a call did: ('ok', result) or ('raised', type, message)."""
    try:
        return ("ok", call(*args))
    except Exception as exc:  # noqa: BLE001 - the point is to compare any exception
        return ("raised", type(exc), str(exc))


@SETTINGS
@given(kinds=games, prefix=st.lists(small_values, max_size=40), data=st.data())
def test_extend_agrees(both_kernels, kinds, prefix, data):
    size = len(prefix) + data.draw(st.integers(0, 80), label="extra room")
    stop = data.draw(st.integers(len(prefix), size) | st.integers(-1, size + 2), label="stop")
    start = data.draw(st.just(len(prefix)) | st.integers(-1, size + 2), label="start")
    results = []
    for kernel in both_kernels:
        for method in ("extend_plain", "extend_sparse"):
            table = table_of(prefix, size)
            done = outcome(getattr(kernel, method), table, start, stop, kinds)
            results.append((done, table.tolist()))
    assert all(r == results[0] for r in results), results


@SETTINGS
@given(head=st.lists(st.integers(0, 3), max_size=30), block=st.lists(st.integers(0, 3),
       min_size=1, max_size=12), length=st.integers(0, 150), span=st.integers(0, 5),
       room=st.integers(-3, 5))
def test_find_period_agrees(both_kernels, head, block, length, span, room):
    values = (head + block * (length // len(block) + 1))[:length]
    table = table_of(values, max(length + room, 0))
    compiled, pure = (outcome(k.find_period, table, length, span) for k in both_kernels)
    assert compiled == pure


@SETTINGS
@given(kinds=games, row=st.text(".x", max_size=40) | st.text(".xxx", min_size=15, max_size=60),
       true_table=st.booleans(),
       values=st.lists(small_values, max_size=30))
def test_rows_agree(both_kernels, kinds, row, true_table, values):
    """On the game's own table (a move exists whenever the nim-sum is not 0) or any table."""
    if true_table:
        table = table_of([], len(row) + 1)
        both_kernels[1].extend_plain(table, 0, len(table), kinds)
    else:
        table = table_of(values, len(values))
    data = row.encode()
    for name in ("row_nim_sum", "row_move"):
        args = (data, table) if name == "row_nim_sum" else (data, table, kinds)
        compiled, pure = (outcome(getattr(k, name), *args) for k in both_kernels)
        assert compiled == pure, name
        if true_table:  # on the game's own nim-sequence the move always exists
            assert compiled[0] == "ok", compiled
