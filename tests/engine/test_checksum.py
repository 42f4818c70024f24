"""The Fletcher-32 checksum against its textbook loop, including repeated pieces."""

from __future__ import annotations

from array import array

from hypothesis import given
from hypothesis import strategies as st

from kayles.engine.checksum import fletcher32, fletcher32_of_pieces

import oracle

words = st.lists(st.integers(0, 65535), max_size=40)


@given(words)
def test_matches_the_textbook_loop(values):
    assert fletcher32(values) == oracle.fletcher32(values)


@given(st.lists(st.tuples(words, st.integers(0, 20)), max_size=5))
def test_pieces_equal_the_concatenation(pieces):
    flat = [v for values, times in pieces for v in values * times]
    assert fletcher32_of_pieces(pieces) == oracle.fletcher32(flat)


@given(st.lists(st.tuples(st.lists(st.integers(0, 65535), max_size=9000), st.integers(0, 3)),
                max_size=3))
def test_sixteen_bit_blocks_are_summed_by_the_kernel_alike(pieces):
    """array('H') blocks go to the kernel's chunk_sums (both twins); long ones cross its
    reductions every 4,096 values."""
    typed = [(array("H", values), times) for values, times in pieces]
    flat = [v for values, times in pieces for v in values * times]
    assert fletcher32_of_pieces(typed) == oracle.fletcher32(flat)


def test_known_value():
    assert fletcher32([1, 2, 3]) == (1 * 3 + 2 * 2 + 3 * 1) << 16 | 6
