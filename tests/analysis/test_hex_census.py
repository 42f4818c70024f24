"""The committed census of the hexadecimal codes of up to three digits (docs/census/hex-3.csv):
what made it, its octal rows against the octal census, a drawn sample derived again, and
every proved regularity in a drawn sample checked on values a brute-force oracle enumerates
from the rules."""

from __future__ import annotations

import csv
import io
import random

import pytest

from kayles.analysis.census import census_codes, census_rows, hex_passes, is_octal
from kayles.analysis.survey import summarise
from kayles.kernels.chooser import IMPLEMENTATION

import oracle
from conftest import ROOT

HEX = ROOT / "docs" / "census" / "hex-3.csv"
OCTAL = ROOT / "docs" / "census" / "census-4.csv"


def read(path) -> tuple[list[str], dict[str, dict]]:
    """(the '#' lines, the rows by code, as the CSV has them: strings)."""
    text = path.read_text()
    comments = [line for line in text.splitlines() if line.startswith("#")]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return comments, {row["code"]: row for row in csv.DictReader(io.StringIO(body))}


@pytest.fixture(scope="module")
def hex_census():
    return read(HEX)


def test_the_hex_census_says_what_made_it(hex_census):
    comments, rows = hex_census
    assert comments[0].startswith("# kayles census --hex --digits 3 --to ")
    assert comments[1].startswith("# kayles ") and " UTC, " in comments[1]
    assert list(rows) == census_codes(3, hexadecimal=True)
    assert {row["status"] for row in rows.values()} == {"solved", "open"}


def test_its_octal_rows_are_the_octal_census_rows(hex_census):
    """Codes whose digits are all octal: the same row in both censuses (classes aside: the
    hex census groups codes by fewer first values), unless the octal census took the code
    further (its third pass, a named longer run) than the hex census's last pass: then the
    hex row is open, computed less far."""
    _, rows = hex_census
    _, octal = read(OCTAL)
    compared = further = 0
    for code, row in rows.items():
        if is_octal(code):
            theirs = octal[code]
            if int(theirs["computed"]) > int(row["computed"]):
                assert row["status"] == "open", code
                further += 1
                continue
            assert {k: row[k] for k in theirs if k != "class"} == \
                {k: v for k, v in theirs.items() if k != "class"}, code
            compared += 1
    assert compared + further == 511


def derived_again(row: dict) -> None:
    """The row computed again from the rules: the same, the regularity an open code shows
    included (its class aside: that needs every code)."""
    again = census_rows([summarise(row["code"], int(row["computed"]))], hexadecimal=True)[0]
    for key, value in again.items():
        if key != "class":
            assert ("" if value is None else str(value)) == row[key], (row["code"], key)


@pytest.mark.slow  # make test-slow (CI runs it)
def test_a_drawn_sample_is_derived_again(hex_census):
    """Rows of codes with a digit past 7 computed again: eight solved and four open
    three-digit rows drawn with a fixed seed (the open ones computed to 2**14, the last
    pass), and every row that the last pass solved (the pure twin's three-part splits are
    cubic: there, solved rows settled within 512 values alone)."""
    _, rows = hex_census
    draw = random.Random(2026)
    if IMPLEMENTATION != "cython":
        cheap = [row for code, row in rows.items() if not is_octal(code)
                 and row["status"] == "solved" and int(row["values"]) <= 512]
        for row in draw.sample(cheap, 8):
            derived_again(row)
        return
    three = [row for code, row in rows.items() if len(code) == 5 and not is_octal(code)]
    settled = [row for row in three if row["status"] == "solved"
               and int(row["computed"]) == 1 << 12]
    newly = [row for row in three if row["status"] == "solved"
             and int(row["computed"]) == 1 << 14]
    opened = [row for row in three if row["status"] == "open"]
    assert newly
    for row in draw.sample(settled, 8) + newly + draw.sample(opened, 4):
        derived_again(row)


def test_no_open_row_stops_below_2_to_the_14(hex_census):
    """Every code still open was computed to 2**14 values at least (three digits: the pass
    to 2**14 after the first to 2**12)."""
    _, rows = hex_census
    short = [code for code, row in rows.items()
             if row["status"] == "open" and int(row["computed"]) < 1 << 14]
    assert not short, short[:10]


def test_open_codes_of_one_and_two_digits_reach_2_to_the_16(hex_census):
    """The pass to 2**16 (--hex-to 65536): every open code of one or two digits with a digit
    past 7 was computed to 2**16 values at least."""
    _, rows = hex_census
    short = [code for code, row in rows.items() if len(code) <= 4 and not is_octal(code)
             and row["status"] == "open" and int(row["computed"]) < 1 << 16]
    assert not short, short[:10]


@pytest.mark.slow  # make test-slow (CI runs it)
def test_the_pass_to_2_to_the_17_takes_every_code_whose_values_fit_16_bits(hex_census,
                                                                          monkeypatch):
    """--hex-to 131072: an open code of one or two digits with a digit past 7 is at 2**17,
    or stays at 2**16 with values that reached 2**15 there: growing by half a heap or more,
    they would pass 65,535 (the table's 16 bits) before 2**17, and the pass refused them at
    once.  The '#' lines count both, digit count by digit count, and the cheapest row at
    2**17 (0.F7: its values stay below 1,100) is derived again, checksum included."""
    import re

    comments, rows = hex_census
    lines = [re.fullmatch(r"# the pass to 131,072 values is not finished: (\d+) of its (\d+) "
                          r"codes? done, (\d+) failed \(all because their values would pass "
                          r"65,535, a 16-bit table's bound; .*", line)
             for line in comments if line.startswith("# the pass to 131,072 ")]
    assert len(lines) == 2 and all(lines), comments[:5]
    for digits, line in zip((1, 2), lines):
        done, codes, failed = map(int, line.groups())
        open_ = [row for code, row in rows.items() if len(code) == digits + 2
                 and not is_octal(code) and row["status"] == "open"]
        further = [row for row in open_ if row["computed"] == str(1 << 17)]
        stayed = [row for row in open_ if row["computed"] == str(1 << 16)]
        assert (len(further), len(stayed), len(open_)) == (done, failed, codes)
        assert all(int(row["largest"]) >= 1 << 15 for row in stayed)
        assert all(int(row["largest"]) < 1 << 16 for row in further)
    assert rows["0.F7"]["computed"] == str(1 << 17)
    # foreseen from its first 4,096 values (up to 517), 0.F7 would need some 1.3 GB, past
    # the tests' 768 MB; its values stop at 1,027, and the run peaks at some 85 MB
    monkeypatch.setenv("KAYLES_MEMORY", "2G")
    derived_again(rows["0.F7"])


def oracle_game(code: str) -> oracle.TakeBreak:
    """A code of hex digits read by the rules: digit k, bit j: take k, leave j heaps."""
    digits = {k: {j: "" for j in range(4) if int(d, 16) >> j & 1}
              for k, d in enumerate(code.split(".")[1], 1)}
    return oracle.TakeBreak(digits)


def test_proved_regularities_hold_on_the_oracles_values(hex_census):
    """Drawn solved rows with a digit past 7: G(n + period) = G(n) + saltus from the preperiod
    on, over four periods past the preperiod at least, on values enumerated from the rules."""
    _, rows = hex_census
    solved = [row for code, row in rows.items() if not is_octal(code)
              and row["status"] == "solved" and int(row["preperiod"]) + int(row["period"]) <= 20]
    drawn = random.Random(45).sample(solved, 16)
    assert any(row["saltus"] != "0" for row in drawn) and any(row["saltus"] == "0"
                                                              for row in drawn)
    for row in drawn:
        start, period, saltus = (int(row[k]) for k in ("preperiod", "period", "saltus"))
        g = oracle_game(row["code"]).nimbers(max(start + 5 * period, 48))
        assert all(g[n + period] == g[n] + saltus for n in range(start, len(g) - period)), \
            row["code"]


def test_the_published_cases(hex_census):
    """0.3F: G(n + 6) = G(n) + 3 from the start (CGSuite's tests list its first values); a
    saltus that is not a power of two, so no theorem here proves it: open, observed.  0.8 is
    the arithmetic-periodic example with period 3, saltus 1 (G(n) grows by one every 3)."""
    _, rows = hex_census
    row = rows["0.3F"]
    assert row["status"] == "open"
    assert (row["observed_preperiod"], row["observed_period"], row["observed_saltus"]) == \
        ("0", "6", "3")
    g = oracle_game("0.3F").nimbers(40)
    assert all(g[n + 6] == g[n] + 3 for n in range(35))
    assert (rows["0.8"]["status"], rows["0.8"]["preperiod"], rows["0.8"]["period"],
            rows["0.8"]["saltus"]) == ("solved", "1", "3", "1")


def test_the_census_page_shows_the_hex_summary():
    page = (ROOT / "docs" / "census.md").read_text()
    assert "census/hex-3.csv" in page and "| digits | codes | octal | periodic |" in page


def test_hex_passes_grow_fourfold_and_end_at_the_limit():
    """The passes of an open hexadecimal code: the first (2**14 values for one or two
    digits, 2**12 for three), four times more each while below --hex-to, and --hex-to
    itself last, so 2**17 is a pass of its own; a limit within the first pass adds none."""
    assert hex_passes(2, None) == hex_passes(2, 4096) == hex_passes(2, 16384) == [16384]
    assert hex_passes(1, 65536) == [16384, 65536]
    assert hex_passes(2, 131072) == [16384, 65536, 131072]
    assert hex_passes(2, 262144) == [16384, 65536, 262144]
    assert hex_passes(3, 16384) == [4096, 16384]
    assert hex_passes(3, 20000) == [4096, 16384, 20000]


def test_hex_to_sets_each_digit_count_its_own_limit(tmp_path):
    """--hex-to K=N limits the codes of K digits alone (the last one given for K counts), a
    bare N every other count: after a census of the one-digit codes to their first pass,
    --stored says a pass of theirs to 2**16 is not finished exactly when their limit
    reaches it; a K that is no digit count is one line, exit 2."""
    import subprocess
    import sys

    db = tmp_path / "hex.sqlite"

    def census(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kayles", "census", "--hex", "--digits",
                               "1", "--to", "65536", "--db", str(db), "--jobs", "1", "--csv",
                               *extra], capture_output=True, text=True, timeout=300)

    assert census().returncode == 0
    unfinished = "# the pass to 65,536 values is not finished: 0 of its 2 codes done"
    for limits, waits in ((["--hex-to", "2**16"], True),
                          (["--hex-to", "2**16", "--hex-to", "1=16384"], False),
                          (["--hex-to", "2=2**16"], False),
                          (["--hex-to", "1=2**16", "--hex-to", "2**12"], True),
                          (["--hex-to", "1=2**16", "--hex-to", "1=2**14"], False)):
        done = census(*limits, "--stored")
        assert done.returncode == 0, done.stderr
        header = done.stdout.splitlines()[:3]
        assert header[0].endswith(" ".join(limits).replace("2**16", "65536").replace(
            "2**14", "16384").replace("2**12", "4096") + " --stored"), header
        assert header[2].startswith(unfinished) == waits, (limits, header)
    refused = census("--hex-to", "4=2**16", "--stored")
    assert refused.returncode == 2 and refused.stdout == ""
    assert len(refused.stderr.splitlines()) == 1 and "1, 2 or 3" in refused.stderr


def test_a_pass_whose_codes_failed_says_so(tmp_path):
    """A pass some of whose codes failed (a 16-bit table's bound, say) is not finished, and
    its '#' line and --stored's message count the failures apart from the codes not yet
    done, and those past 16 bits apart from the rest (the errors stored are classified,
    never shown): the census without --stored tries them again."""
    import subprocess
    import sys

    from kayles.kernels.cost import PAST_16_BITS
    from kayles.storage.store import Store

    db = tmp_path / "hex.sqlite"

    def census(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kayles", "census", "--hex", "--digits",
                               "1", "--to", "65536", "--db", str(db), "--jobs", "1", "--csv",
                               "--hex-to", "2**16", *extra], capture_output=True, text=True,
                              timeout=300)

    with Store(db, make_parents=True) as store:  # 0.9 failed at 2**16, as a survey marks it
        assert store.claim("0.9", 1 << 16) == "claimed"
        store.fail("0.9", 1 << 16, f"65536 values of 0.9: {PAST_16_BITS} near heap 60000")
    first = subprocess.run([sys.executable, "-m", "kayles", "census", "--hex", "--digits", "1",
                            "--to", "65536", "--db", str(db), "--jobs", "1", "--csv"],
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    shown = census("--stored")
    assert shown.returncode == 0, shown.stderr
    line = ("# the pass to 65,536 values is not finished: 0 of its 2 codes done, 1 failed "
            "(all because their values would pass 65,535, a 16-bit table's bound; the census "
            "without --stored tries failed codes again and says why); each code's row is the "
            "furthest the database holds")
    assert line in shown.stdout.splitlines()[:4], shown.stdout[:800]
    assert "0 of its 2 codes done, 1 failed (all because" in shown.stderr
    with Store(db) as store:  # another failure: counted, not shown
        assert store.claim("0.E", 1 << 16) == "claimed"
        store.fail("0.E", 1 << 16, "a worker was lost\n# forged line")
    shown = census("--stored")
    assert ("0 of its 2 codes done, 2 failed (1 because their values would pass 65,535, "
            "a 16-bit table's bound; the census") in shown.stdout
    assert "forged" not in shown.stdout + shown.stderr
