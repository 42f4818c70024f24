"""The dense path: games that no mask makes sparse give the plain scan's values.

With no mask (Scratch.rare() gives mask 0) every heap takes the dense path of
ext/core/dense.pxi: with AVX-512, a share of its pairs marked and windows of
candidates swept (from splits of DENSE_MIN = 4,096 pairs on: heaps from about 8,200),
else every pair marked; on one thread or a crew.  The codes are four-digit ones that
the census left open because no mask makes them sparse (docs/census/census-4.csv):
values that keep growing (0.7267 reaches 10,907 by heap 65,535), with many pairs a
value (0.1607, 0.0644: the share shrinks, many windows) or few (0.7267: the share
grows to most pairs).  The pure twin runs the plain scan for these games.
"""

from __future__ import annotations

import pytest
from test_threads import new_table, plain

from kayles.engine.rules import encode, parse_octal

from conftest import is_compiled

DENSE_CODES = ["0.1607", "0.0644", "0.7267", "0.6252"]


@pytest.mark.parametrize("code", DENSE_CODES)
def test_a_dense_game_has_the_plain_values_on_every_path(kernel, code):
    """Each instruction set, one thread and a crew of 2, the table filled in pieces cut
    inside the windowed heaps (a scratch keeps its shares between calls)."""
    compiled = is_compiled(kernel)
    n = 20000 if compiled else 400
    kinds = encode(parse_octal(code).kinds)
    expected = plain(kernel, kinds, n)
    cuts = [0, 9000, 9001, 14000, n] if compiled else [0, 150, n]
    for vector in kernel.VECTORS:
        for threads in (1, 2):
            table = new_table(n)
            scratch = kernel.Scratch(vector=vector, threads=threads, cores=threads,
                                     waited_only=True)
            for start, stop in zip(cuts, cuts[1:]):
                kernel.extend_sparse(table, start, stop, kinds, scratch)
            assert table.tolist() == expected, (vector, threads)
            assert scratch.rare()[0] == 0, "no mask: the dense path"
            assert scratch.threads_used == (threads if compiled else 1)


def test_dense_crews_from_the_first_heap(kernel):
    """A crew from heap 0 on: heaps solved before the values they lack are in the table,
    checked when settled (left_out) and solved again where a left-out option has the
    value found; with waited_only the same heaps on every run."""
    compiled = is_compiled(kernel)
    n = 12000 if compiled else 300
    kinds = encode(parse_octal("0.1607").kinds)
    expected = plain(kernel, kinds, n)
    for threads in (2, 3):
        table = new_table(n)
        scratch = kernel.Scratch(threads=threads, cores=threads, crew_from=0, crew_rare=0,
                                 waited_only=True)
        kernel.extend_sparse(table, 0, n, kinds, scratch)
        assert table.tolist() == expected, threads
        assert scratch.threads_used == (threads if compiled else 1)
        assert (scratch.solved_again > 0) == compiled
