"""Hypothesis strategies the tests share: games as the kernels take them.

A game is one to three move kinds (rules.encode's tuples): splits of a heap into two
(equal parts allowed or not), and patterns of one to six pins with kept 'o' inside that
leave 0, 1 or 2 parts; so constants, unequal kinds and one-part moves all turn up.
"""

from __future__ import annotations

from hypothesis import strategies as st

from kayles.engine.rules import MoveKind, encode

__all__ = ["games"]


@st.composite
def move_kinds(draw):
    split = draw(st.booleans())
    if split:
        return MoveKind("", {2}, unequal=draw(st.booleans()))
    inner = draw(st.text("xo", max_size=4))
    pattern = "x" + inner + "x" if draw(st.booleans()) else "x"
    leave = draw(st.sets(st.sampled_from([0, 1, 2]), min_size=1))
    return MoveKind(pattern, leave, unequal=draw(st.booleans()))


games = st.lists(move_kinds(), min_size=1, max_size=3).map(encode)
