"""``kayles play`` and ``kayles.analysis.play``: whole games scripted one move a line.

Every expected transcript is predicted from tests/oracle.py (literal moves on the
strings, the seed's tie-break), never from the package: the program's move is
the oracle's winning move, or, in a lost position, the documented fallback (the
legal move taking the fewest pins, leftmost).  Whole transcripts are compared
line by line.
"""

from __future__ import annotations

import io
import subprocess
import sys
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kayles.analysis.play import Match
from kayles.engine.codes import get_game
from kayles.engine.sequence import Sequence
from kayles.interface.kayles_cli import main

import oracle
from conftest import ROOT, assert_usage_error

TIMEOUT = 60
SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

ROW_GAMES = {  # name -> the oracle's game on rows
    "kayles-xox": oracle.KAYLES_XOX,
    "kayles": oracle.octal_row_game("0.77"),
    "dawsons-kayles": oracle.octal_row_game("0.07"),
    "dawsons-chess": oracle.octal_row_game("0.137"),
}


# -- the oracle's side of a game ---------------------------------------------------------------


def removed(before: str, after: str) -> tuple[int, ...]:
    return tuple(i + 1 for i, (a, b) in enumerate(zip(before, after)) if a != b)


def pins_said(before: str, after: str) -> str:
    """The documented wording: 'pin 4', 'pins 3-4' (adjacent), 'pins 3 5'."""
    pins = removed(before, after)
    if len(pins) == 1:
        return f"pin {pins[0]}"
    if list(pins) == list(range(pins[0], pins[-1] + 1)):
        return f"pins {pins[0]}-{pins[-1]}"
    return "pins " + " ".join(map(str, pins))


def row_moves(game: oracle.RowGame, row: str) -> list[str]:
    return [after for _, _, after in game.moves(row)]


def fewest_leftmost(before: str, options: list[str]) -> str:
    """The documented fallback: fewest pins taken, then the leftmost pins (first at a tie)."""
    return min(options, key=lambda after: (len(removed(before, after)), removed(before, after)))


def row_reply(game: oracle.RowGame, row: str) -> str:
    best = game.winning_move(row)
    return best if best is not None else fewest_leftmost(row, row_moves(game, row))


def end_line(user_to_move: bool, misere: bool = False) -> str:
    who = "you have no move" if user_to_move else "I have no move"
    you_win = user_to_move == misere
    tail = " (misere: the last move loses)" if misere else ""
    return f"{who}: {'you win' if you_win else 'I win'}.{tail}"


def start_line(position: str, game: str, first: str, misere: bool = False) -> str:
    rule = "misere play: the last move loses" if misere else "normal play: the last move wins"
    who = "you move first" if first == "you" else "I move first"
    return f"start: {position} ({game}, {rule}; {who})"


def predict_row_game(name, row, user, first="you", reply=None, misere=False, hint=None):
    """(lines typed, transcript expected) with ``user(row)`` choosing the user's moves."""
    game = ROW_GAMES[name]
    reply = reply or (lambda r: row_reply(game, r))
    typed, lines = [], [start_line(row, name, first, misere)]
    yours = first == "you"
    for turn in range(10_000):
        if not row_moves(game, row):
            lines.append(end_line(yours, misere))
            return typed, lines
        if yours:
            if hint is not None:
                best = hint(row)
                lines.append("hint: " + (f"{pins_said(row, best)} => {best}" if best else
                                         "no winning move here (every move loses against "
                                         "perfect play)"))
            after = user(row)
            # alternate the syntaxes: the whole row, then the pin numbers
            typed.append(after if turn % 4 == 0 else " ".join(map(str, removed(row, after))))
            lines.append(f"you: {pins_said(row, after)} => {after}")
        else:
            after = reply(row)
            lines.append(f"me: {pins_said(row, after)} => {after}")
        row, yours = after, not yours
    raise AssertionError("the game did not end")


def play(args: list[str], typed: list[str], monkeypatch, capsys) -> tuple[int, list[str]]:
    """Run ``kayles play ARGS`` in this process with ``typed`` on a non-terminal stdin."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in typed)))
    status = main(["play", *args])
    captured = capsys.readouterr()
    assert captured.err == ""
    return status, captured.out.splitlines()


# -- whole games on rows ---------------------------------------------------------------------------


def oracle_winner(game):
    """A perfect user: the oracle's winning move, else the fallback."""
    return lambda row: row_reply(game, row)


def first_legal(game):
    """A careless user: the oracle's first legal move."""
    return lambda row: row_moves(game, row)[0]


GAMES_PLAYED = [
    ("kayles-xox", "xxxxxxx", "you"),
    ("kayles-xox", "xxxxxxxxxxx", "me"),
    ("kayles-xox", "xxx.x.xxxx", "you"),  # a loss for whoever moves (the README's LOSS)
    ("kayles-xox", "x.xxxx.xxxxx", "me"),
    ("kayles", "xxxxxxxx", "you"),
    ("dawsons-kayles", "xxxxxxxxx", "me"),
    ("dawsons-kayles", "x.xxxxx.x", "you"),  # lone pins: no move on them
    ("dawsons-chess", "xxxxxxxxx", "you"),
]


@pytest.mark.parametrize("name,row,first", GAMES_PLAYED)
@pytest.mark.parametrize("user_kind", ["perfect", "careless"])
def test_whole_game_matches_the_oracle(name, row, first, user_kind, monkeypatch, capsys):
    game = ROW_GAMES[name]
    user = oracle_winner(game) if user_kind == "perfect" else first_legal(game)
    typed, expected = predict_row_game(name, row, user, first)
    status, lines = play([row, "--game", name, "--first", first], typed, monkeypatch, capsys)
    assert status == 0
    assert lines == expected


def test_a_game_the_user_wins(monkeypatch, capsys):
    row = "xxxxxxx"
    assert oracle.KAYLES_XOX.grundy(row) != 0  # the user, moving first, can win
    typed, expected = predict_row_game("kayles-xox", row, oracle_winner(oracle.KAYLES_XOX))
    status, lines = play([row], typed, monkeypatch, capsys)
    assert (status, lines) == (0, expected)
    assert lines[-1] == "I have no move: you win."


def test_a_game_the_user_loses(monkeypatch, capsys):
    row = "xxx.x.xxxx"
    assert oracle.KAYLES_XOX.grundy(row) == 0  # whoever moves first loses
    typed, expected = predict_row_game("kayles-xox", row, first_legal(oracle.KAYLES_XOX))
    status, lines = play([row], typed, monkeypatch, capsys)
    assert (status, lines) == (0, expected)
    assert lines[-1] == "you have no move: I win."


def test_hints_are_the_oracles_winning_moves(monkeypatch, capsys):
    game = oracle.KAYLES_XOX
    typed, expected = predict_row_game("kayles-xox", "xxxxxxxxx", first_legal(game),
                                       hint=game.winning_move)
    status, lines = play(["xxxxxxxxx", "--hint"], typed, monkeypatch, capsys)
    assert (status, lines) == (0, expected)
    assert any(line.startswith("hint: no winning move") for line in lines)
    assert any(line.startswith("hint: pin") for line in lines)


def test_program_answers_are_the_engines_own(monkeypatch, capsys):
    """Each 'me:' line is kayles.row.winning_move of the position before it, when it wins."""
    from kayles import row as rows

    sequence = Sequence(get_game("kayles-xox"))
    status, lines = play(["xxxxxxxxxxxx.xxxxx", "--first", "me"], ["1"] * 20 + ["quit"],
                         monkeypatch, capsys)
    assert status == 0
    position = "xxxxxxxxxxxx.xxxxx"
    checked = 0
    for line in lines[1:]:
        if "=>" not in line:
            continue
        after = line.split("=> ")[1]
        if line.startswith("me:"):
            best = rows.winning_move(position, sequence)
            if best is not None:
                assert after == best
                checked += 1
        position = after
    assert checked


def test_default_position_is_ten_pins(monkeypatch, capsys):
    status, lines = play([], [], monkeypatch, capsys)
    assert status == 0
    assert lines[0] == start_line("x" * 10, "kayles-xox", "you")


# -- heaps -----------------------------------------------------------------------------------------


def grundy_splits(heaps: list[int]) -> list[tuple[int, int, int]]:
    """Grundy's game, literally: (heap index, a, b), a < b, a + b = the heap, a >= 1."""
    return [(i, a, h - a) for i, h in enumerate(heaps) for a in range(1, (h + 1) // 2)
            if 2 * a != h]


def test_grundys_game_on_heaps_matches_the_oracle(monkeypatch, capsys):
    G = oracle.grundys_game_nimbers(40)

    def nim_sum(heaps):
        total = 0
        for h in heaps:
            total ^= G[h]
        return total

    def apply(heaps, move):
        i, a, b = move
        return heaps[:i] + [a, b] + heaps[i + 1 :]

    def said(heaps, move):
        i, a, b = move
        return f"heap {i + 1}: {heaps[i]} -> {a} + {b}"

    def reply(heaps):
        """Leftmost heap whose value can be lowered, smallest first part; else the first
        legal split (all splits take nothing: leftmost heap, smallest part)."""
        total = nim_sum(heaps)
        moves = grundy_splits(heaps)
        if total:
            for move in moves:
                i = move[0]
                if G[heaps[i]] ^ total < G[heaps[i]] and nim_sum(apply(heaps, move)) == 0:
                    return move
        return moves[0]

    heaps = [7, 5, 3]
    lines = [start_line("7 5 3", "grundy", "you")]
    typed = []
    yours = True
    syntaxes = [lambda i, a, b, h: f"heap {i + 1} -> {a} + {b}",
                lambda i, a, b, h: f"{i + 1}: {b} {a}",
                lambda i, a, b, h: " ".join(map(str, h[:i] + [a, b] + h[i + 1 :]))]
    while grundy_splits(heaps):
        move = reply(heaps) if not yours else grundy_splits(heaps)[-1]
        if yours:
            typed.append(syntaxes[len(typed) % 3](*move, heaps))
            i, a, b = move
            if len(typed) % 3 == 2:  # typed as 'H: b a': the parts stand in that order
                lines.append(f"you: heap {i + 1}: {heaps[i]} -> {b} + {a} => "
                             + " ".join(map(str, heaps[:i] + [b, a] + heaps[i + 1 :])))
                heaps = heaps[:i] + [b, a] + heaps[i + 1 :]
                yours = False
                continue
        lines.append(f"{'you' if yours else 'me'}: {said(heaps, move)} => "
                     + " ".join(map(str, apply(heaps, move))))
        heaps, yours = apply(heaps, move), not yours
    lines.append(end_line(yours))
    status, out = play(["7", "5", "3", "--game", "grundy"], typed, monkeypatch, capsys)
    assert (status, out) == (0, lines)


def test_kayles_on_heaps_takes_the_program_s_own_wording(monkeypatch, capsys):
    """The program's move, typed back in its own words, is accepted ('heap 1: 4 -> 1 + 2')."""
    status, lines = play(["4", "--game", "kayles"], ["heap 1: 4 -> 1 + 2", "quit"],
                         monkeypatch, capsys)
    assert status == 0
    assert lines[1] == "you: heap 1: 4 -> 1 + 2 => 1 2"
    assert lines[-1] == "you resign: I win."


# -- bad input and the end of input ----------------------------------------------------------------


ILLEGAL = [  # typed at the row .xx.xxx
    ("foo", "a pin number is a whole number, not 'foo'"),
    ("0", "pins are numbered from 1"),
    ("12", "there is no pin 12: the row has pins 1 to 7"),
    ("5-6", "pins 5-6 is not one move of kayles-xox (take one pin, or the outer two of "
            "three consecutive pins)"),
    ("7-5", "the range 7-5 runs backwards: write 5-7"),
    ("xxx", "a whole row has 7 characters, like .xx.xxx, not 3"),
    ("xxx.xxx", "pin 1 is down already and cannot come back"),
    (".xx.xxx", "that is the row as it stands: take at least one pin"),
    ("4", "pin 4 is down already"),
    ("1", "pin 1 is down already"),
    ("3 5", "pins 3 5 needs pins 3 to 5 all standing"),
    ("pins 5 5", "pin 5 is named twice"),
]


def test_illegal_moves_are_explained_and_asked_again(monkeypatch, capsys):
    assert row_reply(oracle.KAYLES_XOX, "xxx.xxx") == ".xx.xxx"  # the program's answer
    typed = ["4"] + [text for text, _ in ILLEGAL] + ["", "help", "quit"]
    status, lines = play(["xxxxxxx"], typed, monkeypatch, capsys)
    assert status == 0
    assert lines[1:3] == ["you: pin 4 => xxx.xxx", "me: pin 1 => .xx.xxx"]
    expected = [f"illegal: {why}; try again, or type 'help'" for _, why in ILLEGAL]
    assert lines[3 : 3 + len(expected)] == expected
    assert lines[3 + len(expected)] == "illegal: type a move, or 'help'; try again, or type 'help'"
    assert lines[4 + len(expected)].startswith("Moves on a row of pins")
    assert lines[-1] == "you resign: I win."


HEAP_ILLEGAL = [
    ("heap 4 -> 1", "there is no heap 4: the heaps are 1 to 3"),
    ("2: 2 2", "heap 2 of 5 cannot become 2 + 2: split a heap, leaving 2 non-empty part(s) "
               "of unequal size"),
    ("heap 2: 6 -> 1 + 5", "heap 2 has 5, not 6"),
    ("7 5 3", "that is the position as it stands: change one heap"),
    ("7 5 1 1", "heap 3 of 3 cannot become 1 + 1: split a heap, leaving 2 non-empty part(s) "
                "of unequal size"),
    ("1 -> x", "a heap size is a whole number, not 'x'"),
]


def test_illegal_heap_moves(monkeypatch, capsys):
    status, lines = play(["7", "5", "3", "--game", "grundy"],
                         [text for text, _ in HEAP_ILLEGAL], monkeypatch, capsys)
    assert status == 0
    assert lines[1:] == [f"illegal: {why}; try again, or type 'help'" for _, why in HEAP_ILLEGAL] \
        + ["end of input: game abandoned"]


def kayles_play(*args, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kayles", "play", *args], input=stdin,
                          capture_output=True, cwd=ROOT,
                          timeout=TIMEOUT)


def test_end_of_input_mid_game_exits_cleanly():
    result = kayles_play("xxxxxxx", stdin=b"4\n")
    assert (result.returncode, result.stderr) == (0, b"")
    lines = result.stdout.decode().splitlines()
    assert lines[1] == "you: pin 4 => xxx.xxx"
    assert lines[-1] == "end of input: game abandoned"
    assert len(lines) == 4


def test_a_real_process_driven_turn_by_turn():
    """One line per turn: write a move, read the answer, choose the next move from it."""
    game = oracle.KAYLES_XOX
    with subprocess.Popen([sys.executable, "-m", "kayles", "play", "xxxxxxxxxx"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          cwd=ROOT, text=True) as proc:
        try:
            assert proc.stdout.readline().startswith("start: xxxxxxxxxx")
            row = "xxxxxxxxxx"
            while True:
                after = row_reply(game, row)
                proc.stdin.write(after + "\n")
                proc.stdin.flush()
                assert proc.stdout.readline() == f"you: {pins_said(row, after)} => {after}\n"
                answer = proc.stdout.readline()
                if not answer.startswith("me: "):
                    break
                row = answer.rstrip("\n").split("=> ")[1]
                assert oracle.KAYLES_XOX.grundy(row) != 0  # we play perfectly: it cannot
            assert answer == "I have no move: you win.\n"
            proc.stdin.close()
            assert proc.wait(timeout=TIMEOUT) == 0
            assert proc.stderr.read() == ""
        finally:
            if proc.poll() is None:
                proc.kill()


@pytest.mark.parametrize("args", [
    ["xxyx"],
    ["xx", "x"],
    ["xxxx", "--game", "grundy"],
    ["xxxx", "--first", "nobody"],
    ["xxxx", "--game", "nonsense"],
    ["x" * 10_001],
    ["5000", "5001", "--game", "grundy"],
])
def test_bad_start_is_a_usage_error(args):
    assert_usage_error(kayles_play(*args))


# -- misere play: kayles.misere's answers against a brute force of the literal rules ----------


@cache
def misere_row_wins(row: str) -> bool:
    """Kayles-xox, misere, by brute force: the player to move wins when they cannot move."""
    moves = row_moves(oracle.KAYLES_XOX, row)
    return not moves or any(not misere_row_wins(after) for after in moves)


@cache
def misere_heaps_wins(heaps: tuple[int, ...]) -> bool:
    moves = [heaps[:i] + (a, b) + heaps[i + 1 :] for i, a, b in grundy_splits(list(heaps))]
    return not moves or any(not misere_heaps_wins(after) for after in moves)


def misere_reply(row: str) -> str:
    """The program's expected answer: the first move (seed order) leaving a misere loss, or
    in a lost position the documented fallback."""
    moves = row_moves(oracle.KAYLES_XOX, row)
    best = next((after for after in moves if not misere_row_wins(after)), None)
    return best if best is not None else fewest_leftmost(row, moves)


@pytest.mark.parametrize("row,first", [("xxxxxxx", "you"), ("xxxxxx", "me"), ("x", "me"),
                                       ("xxx.xx", "me"), ("xxxxxxxxx", "me")])
def test_misere_play_follows_the_brute_force_and_flips_the_winner(row, first, monkeypatch,
                                                                   capsys):
    typed, expected = predict_row_game("kayles-xox", row, first_legal(oracle.KAYLES_XOX), first,
                                       reply=misere_reply, misere=True)
    status, lines = play([row, "--misere", "--first", first], typed, monkeypatch, capsys)
    assert (status, lines) == (0, expected)


def test_misere_last_move_loses(monkeypatch, capsys):
    """One pin, the user moves: the user takes the last pin and so loses."""
    status, lines = play(["x", "--misere"], ["1"], monkeypatch, capsys)
    assert (status, lines[1:]) == (0, ["you: pin 1 => .",
                                       "I have no move: I win. (misere: the last move loses)"])


@pytest.mark.parametrize("heap", [6, 7, 9, 10])
def test_misere_heaps_follow_the_brute_force(heap, monkeypatch, capsys):
    status, lines = play([str(heap), "--game", "grundy", "--misere", "--first", "me"], [],
                         monkeypatch, capsys)
    assert status == 0
    winning = [(a, heap - a) for _, a, _ in grundy_splits([heap])
               if not misere_heaps_wins((a, heap - a))]
    # The first winning split, or in a lost position the fallback: the smallest split.
    a, b = winning[0] if winning else (1, heap - 1)
    assert misere_heaps_wins((heap,)) == bool(winning)
    assert lines[1] == f"me: heap 1: {heap} -> {a} + {b} => {a} {b}"
    assert lines[-1] == "end of input: game abandoned"


# -- the parser: every legal move in every syntax, arbitrary text never crashes ------------------


rows = st.text("x.", min_size=1, max_size=12)


@SETTINGS
@given(row=rows, data=st.data())
def test_every_oracle_move_parses_in_every_syntax(kernel, row, data):
    name = data.draw(st.sampled_from(sorted(ROW_GAMES)))
    game = ROW_GAMES[name]
    moves = row_moves(game, row)
    if not moves:
        return
    after = data.draw(st.sampled_from(moves))
    match = Match(Sequence(get_game(name), kernel=kernel), row)
    pins = removed(row, after)
    for text in (after, " ".join(map(str, pins)), pins_said(row, after),
                 ", ".join(map(str, pins)), "take " + " and ".join(map(str, pins))):
        assert match.parse(text).after == after, text


@SETTINGS
@given(row=rows, text=st.text(max_size=12))
def test_arbitrary_text_is_a_legal_move_or_a_value_error(kernel, row, text):
    match = Match(Sequence(get_game("kayles-xox"), kernel=kernel), row)
    try:
        move = match.parse(text)
    except ValueError:
        return
    assert move.after in row_moves(oracle.KAYLES_XOX, row)


def octal_heap_moves(code: str, heaps: list[int]) -> list[list[int]]:
    """Positions after one move of an octal game on heaps, from the digits' definition."""
    digits = code.split(".")[1]
    out = []
    for i, h in enumerate(heaps):
        for take, d in enumerate(map(int, digits), 1):
            for a in range(h - take + 1):
                b = h - take - a
                if d >> ((a > 0) + (b > 0)) & 1:
                    out.append(heaps[:i] + [p for p in (a, b) if p] + heaps[i + 1 :])
    return out


@SETTINGS
@given(heaps=st.lists(st.integers(0, 9), min_size=1, max_size=4), data=st.data())
def test_every_heap_move_parses(kernel, heaps, data):
    code = data.draw(st.sampled_from(["0.77", "0.07", "0.137"]))
    moves = octal_heap_moves(code, heaps)
    match = Match(Sequence(get_game(code), kernel=kernel), heaps)
    assert sorted(map(tuple, (m.after for m in match.moves()))) == sorted(map(tuple, moves))
    if not moves:
        return
    after = data.draw(st.sampled_from(moves))
    assert match.parse(" ".join(map(str, after)) or "nothing").after == after
    # the same move said as 'H -> parts', found from the list
    for i in range(len(heaps)):
        keep = len(heaps) - i - 1
        parts = after[i : len(after) - keep]
        if after[:i] == heaps[:i] and after[len(after) - keep :] == heaps[i + 1 :]:
            try:
                said = match.parse(f"heap {i + 1} -> {' + '.join(map(str, parts)) or 'nothing'}")
            except ValueError:
                continue  # that heap cannot become these parts; another heap's move can
            assert said.after == after
            break
    else:
        raise AssertionError(f"no heap of {heaps} becomes {after}")


def test_moves_obey_unequal_on_rows_and_heaps():
    """A game whose single-pin move may not leave two equal parts: on 'xxx' the middle pin is
    no move (1 + 1), on a heap of 3 neither is the split into 1 and 1; the legal moves are
    exactly Game.options', and the user's move is refused by the same rule."""
    from kayles.engine.rules import Game, MoveKind

    game = Game("unequal single pins", [MoveKind("x", {0, 1, 2}, unequal=True)])
    sequence = Sequence(game)
    on_row = Match(sequence, "xxx")
    assert [move.removed for move in on_row.moves()] == [(0,), (2,)]
    with pytest.raises(ValueError, match="not allowed here"):
        on_row.parse("2")
    assert on_row.parse("3").after == "xx."
    on_heaps = Match(sequence, [3])
    assert [move.heap.parts for move in on_heaps.moves()] == [
        option.parts for option in game.options(3)] == [(2,), (2,)]
    with pytest.raises(ValueError, match="cannot become 1 \\+ 1"):
        on_heaps.parse("heap 1 -> 1 + 1")


@pytest.mark.parametrize("pins", [3, 9, 10, 23, 100, 101])
def test_numbers_put_each_pin_under_its_number(pins, monkeypatch, capsys):
    """With --numbers every position on a row comes again under its pins' numbers: read
    top to bottom, the digits above a pin's column spell its number (1-based)."""
    row = "x" * pins
    status, lines = play([row, "--numbers"], ["1", "quit"], monkeypatch, capsys)
    assert status == 0
    places = len(str(pins))
    shown = [i for i, line in enumerate(lines) if line.startswith(("start: ", "you: ", "me: "))]
    assert len(shown) == 3
    for at in shown:
        position = lines[at].split(" => ")[-1].split(" (")[0].removeprefix("start: ")
        rulers, drawn = lines[at + 1 : at + 1 + places], lines[at + 1 + places]
        assert drawn == "  " + position and len(position) == pins
        for column in range(pins):
            digits = "".join(ruler[2 + column] if 2 + column < len(ruler) else " "
                             for ruler in rulers)
            assert digits.strip() == str(column + 1), (column, rulers)


def test_numbers_are_off_for_scripts_and_heaps(monkeypatch, capsys):
    """Without --numbers and stdin not a terminal: one line a turn (the script contract);
    heaps are numbered by the moves' own words, so never drawn."""
    status, lines = play(["xxxxxxx"], ["4", "quit"], monkeypatch, capsys)
    assert lines[1:3] == ["you: pin 4 => xxx.xxx", "me: pin 1 => .xx.xxx"]
    status, lines = play(["7", "5", "--game", "kayles", "--numbers"], ["quit"], monkeypatch,
                         capsys)
    assert (status, len(lines)) == (0, 2)
