"""The octal census's third pass (to 2**24), committed as it goes (docs/census/census-4-pass3.csv):
its rows are the second pass's open codes taken further, .376 has its published solution,
and the codes it solved that no published table lists are derived again, their values'
prefix by a second method (the plain scan of every option, and the pure twin)."""

from __future__ import annotations

import json
from array import array

import pytest
from test_hex_census import read as rows_of

from kayles.analysis.census import census_codes
from kayles.engine.checksum import fletcher32
from kayles.engine.codes import get_game
from kayles.engine.rules import encode
from kayles.engine.sequence import Sequence

from conftest import ROOT, load_kernel

PASS3 = ROOT / "docs" / "census" / "census-4-pass3.csv"
FIRST = ROOT / "docs" / "census" / "census-4.csv"
CZAJKA = json.loads((ROOT / "tests" / "data" / "czajka_octal_tables.json").read_text())


@pytest.fixture(scope="module")
def pass3():
    return rows_of(PASS3)


def test_the_pass_says_what_made_it_and_takes_open_codes_further(pass3):
    comments, rows = pass3
    assert comments[0].startswith("# the third pass of kayles census --digits 4 --to 16777216")
    assert " UTC " in comments[1] and "cores" in comments[1]
    _, first = rows_of(FIRST)
    order = census_codes(4)
    assert list(rows) == [code for code in order if code in rows]  # the census's order
    for code, row in rows.items():
        assert first[code]["status"] == "open" and first[code]["computed"] == str(1 << 20), code
        assert row["computed"] == str(1 << 24)
        if row["status"] == "open":
            assert row["values"] == str(1 << 24) and row["settled"] == "open, computed to 16777216"
        else:
            assert int(row["values"]) <= 1 << 24
            assert row["settled"] == f"proved at {row['values']} values"


def test_376_is_solved_as_published(pass3):
    """.376: preperiod 2,268,248, period 4 (Gangolli and Plambeck 1989; Czajka's tables)."""
    _, rows = pass3
    row = rows["0.376"]
    assert row["status"] == "solved"
    assert [int(row["preperiod"]), int(row["period"])] == CZAJKA["solved"]["0.376"]
    solved_here = {code for code, row in rows.items() if row["status"] == "solved"}
    assert not solved_here & set(CZAJKA["unsolved"]), "a published open code solved: check it"


def new_solutions(rows: dict) -> list[str]:
    """The solved codes no published table lists, one a preperiod and period."""
    seen, codes = set(), []
    for code, row in rows.items():
        key = (row["preperiod"], row["period"], row["checksum"])
        if row["status"] == "solved" and code not in CZAJKA["solved"] and key not in seen:
            seen.add(key)
            codes.append(code)
    return codes


def test_new_solutions_are_derived_again(pass3):
    """Each new solution (one code a preperiod and period) computed again from the rules by
    the compiled core (millions of values, in either twin's mode): the same proof, values
    and checksum; then its first 2**15 values by the plain scan (every option of every heap,
    no rare heaps) equal the sparse method's."""
    compiled = load_kernel("cython")
    _, rows = pass3
    codes = new_solutions(rows)
    assert codes, "the pass has new solutions to check"
    for code in codes:
        row = rows[code]
        sequence = Sequence(get_game(code), kernel=compiled)
        period = sequence.prove(1 << 24)
        values = sequence.table(period.values)
        assert (period.preperiod, period.period, period.values) == \
            (int(row["preperiod"]), int(row["period"]), int(row["values"])), code
        assert (max(values), f"{fletcher32(values):08x}") == \
            (int(row["largest"]), row["checksum"]), code
        plain = array("H", bytes(2 << 15))
        compiled.extend_plain(plain, 0, 1 << 15, encode(get_game(code).kinds))
        assert plain.tobytes() == values[:1 << 15].tobytes(), code


def test_new_solutions_prefix_by_the_pure_twin(pass3):
    _, rows = pass3
    for code in new_solutions(rows):
        kinds = encode(get_game(code).kinds)
        pure = array("H", bytes(2 << 11))
        load_kernel("python").extend_plain(pure, 0, 1 << 11, kinds)
        assert list(pure) == Sequence(get_game(code)).table(1 << 11).tolist(), code
