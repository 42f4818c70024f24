"""The compiled take-and-break kernel's cut rows (ext/_takebreak.pyx, Scratch.triples).

Three-part rows made ahead for 16 heaps hold only their values below the largest value so
far plus a margin; a mex that reaches past a row's cut makes that row whole and looks
again (Scratch.value).  With the margin 0 that second look happens many times on codes
whose values grow; the values must be those of whole rows (a margin past every value), on
every vector table, and the oracle's on the first heaps.
"""

from __future__ import annotations

import pytest
from test_codes import _oracle_of

from kayles.engine.codes import get_game
from kayles.engine.rules import encode_takebreak

from conftest import load_kernel

HEAPS = 3000  # values past 1,024: rows of 32 words and more, which a cut shortens
WHOLE = 1 << 20  # a margin past every 16-bit value: no row is ever cut


def values(kernel, code: str, vector: str, margin: int) -> tuple[list[int], int]:
    """(G(0..HEAPS-1), how many rows the kernel made whole again)."""
    table = memoryview(bytearray(2 * HEAPS)).cast("H")
    scratch = kernel.Scratch(vector=vector, _margin=margin)
    kernel.extend(table, 0, HEAPS, encode_takebreak(get_game(code)), scratch)
    return table.tolist(), scratch.made_whole


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


def test_a_negative_margin_is_refused():
    kernel = load_kernel("cython", "takebreak")
    with pytest.raises(ValueError, match="_margin must be at least 0"):
        kernel.Scratch(_margin=-1)
