"""The octal census beyond its second pass, as committed (docs/census/census-4.csv): the
third pass (to 2**24) takes the second pass's open codes further, resumed from the same
database as it goes; .354 and 0.1777 are named longer runs (--further).  .376, .354 and
0.1777 have their published solutions, and the codes it solved that no published table
lists are derived again, their values' prefix by a second method (the plain scan of every
option, and the pure twin)."""

from __future__ import annotations

import json
import re
from array import array

import pytest
from test_hex_census import read as rows_of

from kayles.analysis.census import census_codes
from kayles.engine.checksum import fletcher32
from kayles.engine.codes import get_game
from kayles.engine.rules import encode
from kayles.engine.sequence import Sequence

from conftest import ROOT, load_kernel

CENSUS = ROOT / "docs" / "census" / "census-4.csv"
CZAJKA = json.loads((ROOT / "tests" / "data" / "czajka_octal_tables.json").read_text())
THIRD = 1 << 24
DENSE = 1 << 18  # --dense-to: the first pass's dense frontier taken on
# Published values beyond Czajka's tables (OEIS, citing Flammenkamp, Gangolli and Plambeck)
PUBLISHED = json.loads((ROOT / "tests" / "data" / "published_octal.json").read_text())


@pytest.fixture(scope="module")
def census():
    return rows_of(CENSUS)


def named_runs(command: str) -> dict[str, int]:
    """{code: N} of the --further CODE,CODE=N runs of the table's first line."""
    return {code: int(values) for codes, values in re.findall(r" --further ([\d.,]+)=(\d+)",
                                                              command)
            for code in codes.split(",")}


@pytest.fixture(scope="module")
def named(census):
    return named_runs(census[0][0])


@pytest.fixture(scope="module")
def pass3(census):
    """(the '#' lines, the rows computed to 2**24: the third pass's)."""
    comments, rows = census
    return comments, {code: row for code, row in rows.items() if row["computed"] == str(THIRD)}


def test_the_census_says_how_far_its_passes_went(census, named):
    comments, rows = census
    further = re.fullmatch(r"# kayles census --digits 4 --to 16777216 --dense-to 262144"
                           r"((?: --further [\d.,]+=\d+)+) --stored", comments[0])
    assert further, comments[0]
    assert named_runs(further.group(1)) == named and {
        "0.354": 1 << 25, "0.1777": 1 << 29, "0.454": 1 << 29}.items() <= named.items()
    for code, values in named.items():   # each named run's row shows how far it went
        assert rows[code]["computed"] == str(values), code
    assert list(rows) == census_codes(4)
    assert not [line for line in comments if "is not finished" in line]   # both ran to the end
    for limit, codes in {DENSE: 849, THIRD: 1419}.items():   # each pass's codes all shown
        shown = sum(row["computed"] == str(limit) for row in rows.values())
        assert shown <= codes <= shown + len(named), limit   # a named run's row shows further


def test_every_row_says_how_it_was_settled(census, named):
    _, rows = census
    for code, row in rows.items():
        computed = int(row["computed"])
        if row["status"] == "open":
            assert row["values"] == row["computed"], code
            assert row["settled"] == f"open, computed to {computed}", code
        else:
            assert int(row["values"]) <= computed, code
            assert row["settled"] == f"proved at {row['values']} values", code
        assert computed in (1 << 16, DENSE, 1 << 20, THIRD) or named.get(code) == computed, code


def test_376_354_and_1777_are_solved_as_published(census, pass3, named):
    """.376: preperiod 2,268,248, period 4 (Gangolli and Plambeck 1989); .354: 10,061,916
    and 1,180 (Flammenkamp 2002), as Czajka's tables give them; 0.1777: OEIS A071509."""
    _, rows = census
    for code in ("0.376", "0.354"):
        assert rows[code]["status"] == "solved", code
        assert [int(rows[code]["preperiod"]), int(rows[code]["period"])] == \
            CZAJKA["solved"][code], code
    row = rows["0.1777"]
    assert row["status"] == "solved" and row["computed"] == str(named["0.1777"])
    published = PUBLISHED["codes"]["0.1777"]
    assert (int(row["preperiod"]), int(row["period"])) == \
        (published["preperiod"], published["period"])


def test_the_published_values_beyond_czajkas_tables(census):
    """Every code of tests/data/published_octal.json is solved here with its published
    preperiod and period; of the 32 codes A071509 says have .1777's values shifted by one,
    those solved here have that solution, the others are open."""
    _, rows = census
    for code, published in PUBLISHED["codes"].items():
        row = rows[code]
        assert row["status"] == "solved", code
        assert (int(row["preperiod"]), int(row["period"])) == \
            (published["preperiod"], published["period"]), code
    family = PUBLISHED["shifted_family"]
    for code in family["codes"]:
        row = rows[code]
        if row["status"] == "solved":
            assert (int(row["preperiod"]), int(row["period"])) == \
                (family["preperiod"], family["period"]), code


def test_a_code_czajka_lists_as_unsolved_is_solved_here_only_as_published(census):
    """0.454 is open in Czajka's tables; OEIS A071509 (from Flammenkamp) gives its values,
    and those of every code .4RZj, as .1777's shifted by one heap, and the census's named
    runs prove that solution.  The second path, for each code of the family solved here:
    G(n) equals G(n - 1) of 0.1777 for every n below 2**20 (0.454) or 2**17 (the other
    31: to 2**20 they took 8 s), each computed from its own rules, its first 2**13 by the
    plain scan; and 0.1777's own proof is the published one."""
    _, rows = census
    solved_here = {code for code, row in rows.items() if row["status"] == "solved"}
    assert solved_here & set(CZAJKA["unsolved"]) == {"0.454"}
    family = [code for code in PUBLISHED["shifted_family"]["codes"] if code in solved_here]
    compiled = load_kernel("cython")
    count = 1 << 20
    values = Sequence(get_game("0.1777"), kernel=compiled).table(count)
    assert "0.454" in family
    for code in family:
        upto = count if code == "0.454" else 1 << 17
        shifted = Sequence(get_game(code), kernel=compiled).table(upto + 1)
        assert shifted[0] == 0 and shifted[1:].tobytes() == values[:upto].tobytes(), code
        plain = array("H", bytes(2 << 13))
        compiled.extend_plain(plain, 0, 1 << 13, encode(get_game(code).kinds))
        assert plain.tobytes() == shifted[:1 << 13].tobytes(), code


def new_solutions(rows: dict) -> list[str]:
    """The solved codes no published table lists, one a preperiod and period."""
    seen, codes = set(), []
    for code, row in rows.items():
        key = (row["preperiod"], row["period"], row["checksum"])
        if (row["status"] == "solved" and code not in CZAJKA["solved"]
                and code not in PUBLISHED["codes"] and key not in seen):
            seen.add(key)
            codes.append(code)
    return codes


@pytest.mark.slow  # make test-slow (CI runs it)
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


def test_every_code_czajka_solved_is_solved_here(census):
    """All 78 of his solved codes that are census codes (0.d1..dk), with his values."""
    _, rows = census
    ours = {code: published for code, published in CZAJKA["solved"].items()
            if code.startswith("0.")}
    assert len(ours) == 78
    for code, published in ours.items():
        assert rows[code]["status"] == "solved", code
        assert [int(rows[code]["preperiod"]), int(rows[code]["period"])] == published, code


def test_the_sources_table_of_the_census_page_is_the_census(census):
    """docs/census.md's table of published solutions: each line's preperiod, period and
    'proved at 2**k' are the committed row's."""
    _, rows = census
    text = (ROOT / "docs" / "census.md").read_text()
    table = text[text.index("## Published solutions and their sources"):]
    lines = re.findall(r"^\| (\.\d+) \| ([\d,]+) \| ([\d,]+) \| [^|]+ \| proved at 2\*\*(\d+)",
                       table, re.MULTILINE)
    assert len(lines) == 17
    for code, preperiod, period, log2 in lines:
        row = rows["0" + code]
        assert row["status"] == "solved", code
        assert (row["preperiod"], row["period"]) == \
            (preperiod.replace(",", ""), period.replace(",", "")), code
        assert row["computed"] == str(1 << int(log2)), code
