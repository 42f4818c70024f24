"""The compiled take-and-break kernel's cut rows and closed blocks (ext/_takebreak.pyx,
Scratch.triples; ext/src/takebreak.c, kayles_xor_union_ahead).

Three-part rows made ahead for 32 heaps hold only their values below the largest value so
far plus a margin; a mex that reaches past a row's cut makes that row whole and looks
again (Scratch.value).  With the margin 0 that second look happens many times on codes
whose values grow; the values must be those of whole rows (a margin past every value), on
every vector table, and the oracle's on the first heaps; so must those of the kernel's
own margin, which follows how fast the values rise.

While a row is made ahead, its blocks of words are closed once full (where the rows serve
the mex alone: once the union of the rows each heap that reads it reads is full there): no
further first part is ORed there.  Looking after every row closes blocks as early as can
be; never looking closes none; the values must be the same on every vector table.
"""

from __future__ import annotations

import pytest
from test_codes import _oracle_of

from kayles.engine.codes import get_game
from kayles.engine.rules import encode_takebreak

from conftest import load_kernel

HEAPS = 3000  # values past 1,024: rows of 32 words and more, which a cut shortens
WHOLE = 1 << 20  # a margin past every 16-bit value: no row is ever cut


NEVER = 1 << 40  # rows between looks for full blocks: no block is ever closed


def run(kernel, code: str, vector: str, margin: int | None = WHOLE, every: int = 0):
    """The scratch after G(0..HEAPS-1) and the values."""
    table = memoryview(bytearray(2 * HEAPS)).cast("H")
    scratch = kernel.Scratch(vector=vector, _margin=margin, _every=every)
    kernel.extend(table, 0, HEAPS, encode_takebreak(get_game(code)), scratch)
    return scratch, table.tolist()


def values(kernel, code: str, vector: str, margin: int | None) -> tuple[list[int], int]:
    """(G(0..HEAPS-1), how many rows the kernel made whole again)."""
    scratch, table = run(kernel, code, vector, margin)
    return table, scratch.made_whole


@pytest.mark.parametrize("code", ["0.CF", "0.BA", "0.FD", "0.E3"])
def test_cut_rows_give_the_values_of_whole_rows(code):
    kernel = load_kernel("cython", "takebreak")
    whole, remade = values(kernel, code, kernel.VECTORS[-1], WHOLE)
    assert remade == 0
    assert whole[:60] == _oracle_of(code).nimbers(59)  # the rules' values, enumerated
    for vector in kernel.VECTORS:
        cut, remade = values(kernel, code, vector, 0)
        assert cut == whole, (code, vector)
        assert remade > 0, (code, vector)  # the second look ran
        cut, remade = values(kernel, code, vector, None)  # the margin as the values rise
        assert cut == whole, (code, vector)


def test_a_negative_margin_is_refused():
    kernel = load_kernel("cython", "takebreak")
    with pytest.raises(ValueError, match="_margin must be at least 0"):
        kernel.Scratch(_margin=-1)


@pytest.mark.parametrize("code", ["0.CF", "0.4B", "0.9", "0.E3", "0.BB", "0.BBB", "0.BB?B"])
def test_closing_full_blocks_keeps_every_value(code):
    # 0.BB, 0.BBB: a three-part row alone is not full (0.BB's T(30000) misses 4), the union
    # of the rows a heap reads is: blocks close on the union.  0.BB?B: '?' reads its rows
    # whole, so a block closes only where its own row is full (on the union: wrong values).
    kernel = load_kernel("cython", "takebreak")
    never, expected = run(kernel, code, kernel.VECTORS[-1], every=NEVER)
    assert never.blocks_closed == 0
    assert expected[:60] == _oracle_of(code).nimbers(59)
    for vector in kernel.VECTORS:
        for every in (1, 2, 0):  # after each row, each second, the kernel's own
            scratch, got = run(kernel, code, vector, every=every)
            assert got == expected, (code, vector, every)
            if every:
                assert scratch.blocks_closed > 0, (code, vector, every)
        scratch, got = run(kernel, code, vector, margin=0, every=1)  # cut rows, remade
        assert got == expected, (code, vector)


def test_a_negative_interval_is_refused():
    kernel = load_kernel("cython", "takebreak")
    with pytest.raises(ValueError, match="_every must be at least 0"):
        kernel.Scratch(_every=-1)
