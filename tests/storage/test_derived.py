"""Values read from files checked against the rules (kayles.storage.derived): true tables
pass, each kind of edit is found, and a derived heap's value is written back."""

from __future__ import annotations

from array import array

import pytest

from kayles.engine.codes import get_game
from kayles.engine.sequence import Sequence
from kayles.kernels.chooser import IMPLEMENTATION
from kayles.storage import derived

import oracle

GAMES = ("0.161", "0.77", "0.3F", "grundy", "kayles-xox")
COUNT = 6000


def table(name: str, count: int = COUNT) -> array:
    return array("H", Sequence(get_game(name)).table(count))


def count_for(name: str) -> int:
    """The pure twin's three-part splits are cubic: 0.3F to 1,000 there."""
    return 1000 if name == "0.3F" and IMPLEMENTATION != "cython" else COUNT


@pytest.mark.parametrize("name", GAMES)
def test_true_tables_pass(name):
    values = table(name, count_for(name))
    assert derived.too_large(values) is None
    assert derived.sample_differs(get_game(name), values, seed=7) == ""
    assert values == table(name, count_for(name))  # the sampled heaps were written back


def test_the_growth_bound_holds_where_values_pass_powers_of_two():
    """A table growing as an arithmetic-periodic game's does (G(n) = n // 3, past 2**10 and
    across blocks) meets the bound at every heap; one value past it is found, at block
    boundaries too."""
    values = array("H", (n // 3 for n in range(COUNT)))
    assert derived.too_large(values) is None
    for n in (1, derived.BLOCK, derived.BLOCK + 1, COUNT - 1):
        edited = array("H", values)
        edited[n] = 2 * (1 << max(values[:n]).bit_length()) + 1
        assert derived.too_large(edited) == n
    edited = array("H", values)
    edited[7] = 1 << max(values[:7]).bit_length()  # the bound itself is allowed
    assert derived.too_large(edited) is None


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_an_edit_is_found(where):
    game = get_game("0.161")
    values = table("0.161")
    n = {"first": 3, "middle": COUNT // 2, "last": COUNT - 2}[where]
    values[n] ^= 1
    if where == "middle":  # drawn at random: the scan given that one heap to draw from
        assert "by the rules" in derived._scan_differs(game, values, n, n + 1, seed=0)
        assert values[n] == oracle.octal_nimbers("0.161", n)[n] ^ 1  # written back
    else:
        assert derived.sample_differs(game, values, seed=0) != ""
