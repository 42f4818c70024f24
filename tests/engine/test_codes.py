"""The take-and-break code language: parsing, normal forms, and every code's values.

The values are measured against tests/oracle.py's TakeBreak, which enumerates every
multiset of parts from the digits' meaning alone (it reads no code): Hypothesis draws
games digit by digit (hexadecimal and larger digits, &N;, marks, braces with '+', a
digit before the point, a repeating tail), writes each as a code in one of the ways the
language allows, and the package's parser, Sequence and both twins of the take-and-break
kernel must give the oracle's values.  CGSuite's own expectations (its test suite, and
values printed by its code) are tests/data/cgsuite_codes.json.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kayles.engine.codes import B32, code_of, get_game, parse_code
from kayles.engine.rules import GAMES, describe_moves, encode, encode_takebreak
from kayles.engine.sequence import Sequence
from kayles.errors import InputError

import oracle
from conftest import ROOT

CGSUITE = json.loads((ROOT / "tests" / "data" / "cgsuite_codes.json").read_text())


def values_of(code: str, n: int, kernel=None) -> list[int]:
    """G(0..n-1) of a code by a take-and-break kernel twin, or by Sequence."""
    game = parse_code(code)
    if kernel is None:
        return Sequence(game).table(n).tolist()
    table = memoryview(bytearray(2 * n)).cast("H")
    kernel.extend(table, 0, n, encode_takebreak(game), kernel.Scratch())
    return table.tolist()


# -- CGSuite's expectations ---------------------------------------------------------------------


@pytest.mark.parametrize("row", CGSUITE["normal_forms"], ids=lambda row: row["code"])
def test_cgsuite_normal_forms(row):
    """CGSuite's normal form, or kayles' where it differs on purpose (the reason given)."""
    assert parse_code(row["code"]).name == row.get("kayles", row["cgsuite"])
    assert ("kayles" in row) == ("why" in row)


@pytest.mark.parametrize("row", CGSUITE["refused"], ids=lambda row: row["code"])
def test_codes_kayles_refuses_on_purpose(row):
    with pytest.raises(InputError, match=r"at character \d+"):
        parse_code(row["code"])


@pytest.mark.parametrize("row", CGSUITE["values"], ids=lambda row: f"{row['code']}-{row['source']}")
def test_cgsuite_values(row):
    """CGSuite's values, but where kayles reads a mark otherwise (a '?' on one heap)."""
    n = row["from"] + len(row["values"])
    ours = values_of(row["code"], n)[row["from"]:]
    if row.get("why") == "mark":  # the oracle explains both: '?' on one heap read two ways
        assert ours == _oracle_of(row["code"]).nimbers(n - 1)[row["from"]:] != row["values"]
        assert _oracle_of(row["code"], cgsuite=True).nimbers(n - 1)[row["from"]:] == \
            row["values"]
    else:
        assert ours == row["values"]


def _oracle_of(code: str, cgsuite: bool = False) -> oracle.TakeBreak:
    """The oracle's game of a simple code (one-character digits, maybe a mark each; the
    marks of a digit on all its counts, as CGSuite's normal form puts them)."""
    head, _, body = code.partition(".")
    digits = {}
    digit = r"([0-9A-V])([!?=]?)"
    written = [*re.findall(digit, head)[-1:], *re.findall(digit, body)]
    start = 0 if re.findall(r"([0-9A-V])", head) else 1
    for k, (digit, mark) in enumerate(written, start=start):
        value = B32.index(digit)
        digits[k] = {j: mark for j in range(5) if value >> j & 1}
    return oracle.TakeBreak(digits, cgsuite=cgsuite)


@pytest.mark.parametrize("row", CGSUITE["options"], ids=lambda row: f"{row['code']}@{row['heap']}")
def test_cgsuite_options(row):
    """The heaps each move leaves: the same multisets (a game of at most two parts lists
    each also mirrored, as placements on a row); for more parts, CGSuite's order too."""
    if row.get("why") == "refused":
        with pytest.raises(InputError):
            parse_code(row["code"])
        return
    game = parse_code(row["code"])
    ours = [list(option.parts) for option in game.options(row["heap"])]
    if row.get("why") == "mark":  # CGSuite's '?' forbids one heap of one token
        assert {tuple(sorted(o)) for o in ours} == {(1,), *map(tuple, row["options"])}
    elif game.two_parts:
        assert {tuple(sorted(o)) for o in ours} == {tuple(o) for o in row["options"]}
    else:
        assert ours == row["options"]


@pytest.mark.parametrize("row", CGSUITE["option_counts"], ids=lambda row: row["code"])
def test_cgsuite_option_counts(row):
    game = parse_code(row["code"])
    if row["heap"] > 1000:  # Grundy's game at 92679: unequal splits, counted
        assert (row["heap"] - 1) // 2 == row["count"]
        return
    found = {(option.kind, tuple(sorted(option.parts))) for option in game.options(row["heap"])}
    assert len(found) == row["count"]


@pytest.mark.parametrize("row", CGSUITE["periods"], ids=lambda row: row["code"])
def test_cgsuite_periods(row):
    """CGSuite's checker reports no saltus: where it reports a period, kayles proves the
    same one; where it reports none, kayles proves none with a saltus of 0 either."""
    sequence = Sequence(parse_code(row["code"]))
    found = sequence.prove(2048)
    if row["cgsuite"] is None:
        assert found is None or found.saltus
    else:
        assert (found.preperiod, found.period, found.saltus) == (
            row["cgsuite"]["preperiod"], row["cgsuite"]["period"], 0)


def test_the_golden_periods_of_the_issue():
    """Kayles period 12 from 71 and 0.07 period 34 from 53, whatever the code's spelling."""
    for code, expected in (("0.77", (71, 12)), ("0.07", (53, 34)), (".07", (53, 34)),
                           ("0.{0,1,2}{0,1,2}", (71, 12)), ("0.&7;&7;", (71, 12))):
        found = Sequence(parse_code(code)).prove()
        assert (found.preperiod, found.period) == expected, code


def test_grundys_game_is_a_code():
    assert parse_code("4!.0").name == "4!.0"
    assert describe_moves(parse_code("4!.0")) == describe_moves(GAMES["grundy"])
    assert Sequence(parse_code("4!.0")).table(3000).tolist() == \
        Sequence(GAMES["grundy"]).table(3000).tolist()


def test_octal_codes_are_the_octal_games():
    """An octal code read by the code language is the game parse_octal makes: the same
    kinds, kernels and name (trailing zeros dropped)."""
    from kayles.engine.rules import parse_octal

    for code in ("0.77", "4.07", "0.137", "0.0044", ".6", "4"):
        game, octal = parse_code(code), parse_octal(code)
        assert game.kinds == octal.kinds and game.octal and game.name == octal.name
        assert encode(game.kinds) == encode(octal.kinds)
    assert parse_code("0.070").name == "0.07"


# -- bad codes ----------------------------------------------------------------------------------

BAD = {
    "0.3W": "not a digit",            # past V
    "0.3Z": "not a digit",
    "0.&12": "'&' opens",             # unclosed
    "0.&;": "&N;",
    "0.&-1;": "&N;",
    "0.&18446744073709551616;": "2**64",
    "0.{1,2": "'{' opens",            # unclosed
    "0.{}": "lists no count",         # empty braces
    "0.{64}": "0 to 63",
    "0.{1+,3}": "'+' may only end",
    "0.{2!}!": "marks of their own",
    "0.!": "no digit before it",      # a mark with nothing to mark
    "0.7!!": "one mark",
    "!0.7": "no digit before it",
    "0.[3": "no ']' closes",
    "0.[3]3": "nothing may follow",
    "0.3]": "closes no '['",
    "[3].0": "after the point",
    "0..7": "one point",
    "077": "needs a point",
    ".": "needs a digit",
    "0. 7": "not a digit",
    "2.0": "pass",
    "80.0": "one digit goes before",
    "0." + "7" * 65: "at most 64 digits",
    "0.\u017f": "ASCII characters only",  # 'ſ'.upper() is 'S': never Unicode's case rules
    "0.\u0131": "ASCII characters only",  # 'ı'.upper() is 'I'
    "0.\ufb06": "ASCII characters only",  # 'ﬆ'.upper() is 'ST'
    "0.\uff17\uff17": "ASCII characters only",  # full-width digits
    "O.77": "did you mean 0.77?",        # the letter O (24) for the digit 0
    "o.77": "did you mean 0.77?",
    "0.O7": "did you mean 0.07?",
    "0.[]": "repeats nothing",           # CGSuite reads it as 0.0: here a slip
    "0.3[]": "repeats nothing",
}


@pytest.mark.parametrize("code", BAD)
def test_a_bad_code_is_one_line_naming_the_place(code):
    with pytest.raises(InputError) as error:
        parse_code(code)
    message = str(error.value)
    assert BAD[code] in message and "\n" not in message
    assert re.search(r"\((at character \d+, '.'|at its end); see kayles codes\)$", message)


def test_a_bad_code_at_the_command_line_is_status_2(tmp_path):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "kayles", "grundy", "5", "--game", "0.3W"],
                            capture_output=True, text=True, cwd=ROOT)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and "at character 4, 'W'" in result.stderr


# -- every code against the oracle ---------------------------------------------------------------

MARKS = st.sampled_from(["", "", "", "!", "?", "="])


@st.composite
def digits(draw, before_point: bool = False):
    """(counts -> mark, more) of one digit; None: 0.  Before the point: two heaps or more."""
    if draw(st.integers(0, 4)) == 0:
        return None
    low = 2 if before_point else 0
    counts = draw(st.sets(st.integers(low, 5), min_size=1, max_size=4))
    marks = {c: draw(MARKS) if c >= 2 else "" for c in counts}
    if draw(st.booleans()):  # one mark on every count of two or more
        mark = draw(MARKS)
        marks = {c: mark if c >= 2 else "" for c in counts}
    more = draw(st.integers(0, 6)) == 0
    return marks, more


@st.composite
def games(draw):
    """(oracle game, a code that writes it)."""
    length = draw(st.integers(1, 4))
    body = [draw(digits()) for _ in range(length)]
    d0 = draw(digits(before_point=True)) if draw(st.integers(0, 5)) == 0 else None
    tail = []
    if draw(st.integers(0, 4)) == 0:
        tail = [draw(digits()) for _ in range(draw(st.integers(1, 2)))]
        if all(d is None for d in tail):
            tail[0] = ({1: ""}, False)
    if not tail:
        while body and body[-1] is None:
            body.pop()
    written = (_written(draw, d0) if d0 else draw(st.sampled_from(["0", "", "0"]))) + "."
    written += "".join(_written(draw, d) if d else "0" for d in body) or "0"
    if tail:
        written += "[" + "".join(_written(draw, d) if d else "0" for d in tail) + "]"
    game = oracle.TakeBreak({k: d[0] for k, d in enumerate([d0, *body]) if d},
                            more={k for k, d in enumerate([d0, *body]) if d and d[1]},
                            tail=[d if d else ({}, False) for d in tail],
                            tail_start=len(body) + 1)
    return game, written


def _written(draw, digit) -> str:
    """One digit in one of the spellings the language allows."""
    marks, more = digit
    counts = sorted(marks)
    high = {marks[c] for c in counts if c >= 2}
    one = high.pop() if len(high) == 1 else None
    value = sum(1 << c for c in counts)
    style = draw(st.integers(0, 3))
    if one is not None and not more and all(marks[c] in ("", one) for c in counts):
        if style == 0 and value < 32 and B32[value] != "O":  # 'O' is refused: &24; writes 24
            return draw(st.sampled_from([B32[value], B32[value].lower()])) + one
        if style == 1:
            return f"&{value};{one}"
        if style == 2 and one:
            return "{" + ",".join(map(str, counts)) + "}" + one
    if one is not None and more and style == 3 and counts == [0]:
        return "*" + one
    entries = [f"{c}{marks[c]}" for c in counts]
    return "{" + ",".join(entries) + ("+" if more else "") + "}"


def _cost(game: oracle.TakeBreak) -> int:
    """How far the oracle goes in a few seconds: not so far where parts are unbounded."""
    unbounded = game.more or any(more for _, more in game.tail)
    return 18 if unbounded else 30


ORACLE_SETTINGS = settings(max_examples=120, deadline=None, derandomize=True,
                           suppress_health_check=[HealthCheck.too_slow])


@ORACLE_SETTINGS
@given(drawn=games())
def test_every_code_has_the_oracles_values_in_both_twins(both_takebreak_kernels, drawn):
    game, code = drawn
    n = _cost(game)
    expected = game.nimbers(n)
    parsed = parse_code(code)
    assert Sequence(parsed).table(n + 1).tolist() == expected, code
    for kernel in both_takebreak_kernels:
        assert values_of(code, n + 1, kernel) == expected, (code, kernel.__name__)
    again = parse_code(parsed.name)  # the normal form is a code of the same game
    assert again.name == parsed.name and describe_moves(again) == describe_moves(parsed)
    assert code_of(again) == parsed.name


@settings(max_examples=60, deadline=None, derandomize=True)
@given(drawn=games(), start=st.integers(0, 20))
def test_the_twins_agree_when_a_call_goes_on(both_takebreak_kernels, drawn, start):
    """A call that goes on where the last ended keeps its rows: the same values as one call,
    in a new buffer holding the same values too."""
    _, code = drawn
    game = parse_code(code)
    rules = encode_takebreak(game)
    for kernel in both_takebreak_kernels:
        whole = values_of(code, 24, kernel)
        scratch = kernel.Scratch()
        first = memoryview(bytearray(48)).cast("H")
        kernel.extend(first, 0, min(start, 24), rules, scratch)
        second = memoryview(bytearray(48)).cast("H")
        second[:] = first
        kernel.extend(second, min(start, 24), 24, rules, scratch)
        assert second.tolist() == whole, (code, kernel.__name__)


def test_a_wrong_table_below_start_is_not_taken_for_the_last_call(takebreak_kernel):
    """The scratch goes on from the values it left, not from whatever a buffer holds."""
    kernel = takebreak_kernel
    rules = encode_takebreak(parse_code("0.3F"))
    scratch = kernel.Scratch()
    table = memoryview(bytearray(80)).cast("H")
    kernel.extend(table, 0, 20, rules, scratch)
    table[5] = 9  # edited: the next call starts over from these values
    kernel.extend(table, 20, 40, rules, scratch)
    fresh = memoryview(bytearray(80)).cast("H")
    fresh[:20] = table[:20]
    kernel.extend(fresh, 20, 40, rules, kernel.Scratch())
    assert table.tolist() == fresh.tolist()


def test_the_kernels_refuse_bad_rules_alike(both_takebreak_kernels):
    bad = [((), 1), (((0, (), ((1, 0),), 0),), 0), (((3, (), ((2, 5),), 0),), 0),
           (((3, (), ((2, 0), (1, 0)), 0),), 0), (((2, (), (), 1),), 0), "rules",
           (((3, (), ((1, 0),), 0), (1, (), ((1, 0),), 0)), 1)]
    for rules in bad:
        outcomes = []
        for kernel in both_takebreak_kernels:
            try:
                kernel.extend(memoryview(bytearray(20)).cast("H"), 0, 10, rules)
                outcomes.append("returned")
            except (TypeError, ValueError) as exc:
                outcomes.append((type(exc).__name__, str(exc)))
        assert outcomes[0] == outcomes[1] and outcomes[0] != "returned", rules


def test_get_game_takes_any_code_and_names_the_games():
    assert get_game("0.3f").name == "0.3F"
    assert get_game(" 0.{1,2!} ").name == "0.6!"
    assert get_game("kayles").name == "kayles"


def test_codes_are_read_in_ascii_only():
    """Issue 53: '0.\u017f' was 0.S, 'O.77' another game, '0.[]' 0.0, without a word."""
    for code in ("0.\u017f", "0.\u0131", "0.\ufb06", "0.7\u2003", "\u20030.7"):
        with pytest.raises(InputError, match="ASCII characters only"):
            get_game(code)
    with pytest.raises(InputError, match="ASCII only"):
        get_game("\u212aayles")  # the Kelvin sign: its lower() is 'k'
    assert get_game(" 0.77\t\n").name == "0.77"  # ASCII white space still surrounds a code


def test_the_value_24_is_written_and_read_as_a_number():
    """The letter O is refused as a slip for 0, so the normal form writes 24 as &24;."""
    game = parse_code("0.&24;")
    assert game.name == "0.&24;" and parse_code(game.name).kinds == game.kinds
    assert parse_code("0.{3,4}").name == "0.&24;"
    assert parse_code("0.&24;!").name == "0.&24;!"


def test_digits_before_the_point_have_cgsuite_s_meaning():
    """04.07 and 1.0 are read as CGSuite reads them: a zero before d0 adds nothing (its
    additive digit 0), and d0's bit 0 applies to the empty heap only, whose value CGSuite
    fixes at 0 (NimValueSequence), so 1.0 has the values and moves of 0.0."""
    assert parse_code("04.07").kinds == parse_code("4.07").kinds
    assert parse_code("04.07").name == "4.07"
    assert parse_code("1.0").kinds == parse_code("0.0").kinds
    assert values_of("5.07", 40) == values_of("4.07", 40)


@pytest.mark.parametrize("call", [get_game, parse_code])
@pytest.mark.parametrize("value", [None, 0.77, 77, b"0.77", ["0.77"]])
def test_a_code_that_is_not_a_str_is_a_type_error(call, value):
    with pytest.raises(TypeError, match="str") as error:
        call(value)
    if isinstance(value, float):
        assert "quote a code: '0.77'" in str(error.value)


def test_kayles_codes_counts_in_words(tmp_path):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "kayles", "codes", "0.[3]", "0.3[12]"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "removing 1 token or more, the one digit of the tail:" in result.stdout
    assert "removing 2 tokens or more, the 2 digits of the tail in turn:" in result.stdout
    assert "tokens or more" not in result.stdout.splitlines()[1]

