"""Treblecross (seed 002): the gap nimbers, and every short row against the literal game."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
from functools import cache

import pytest

from kayles.analysis.games import treblecross
from kayles.engine.rules import GAMES
from kayles.engine.sequence import Sequence

from conftest import in_process

LONGEST = 16  # every row of up to this many cells is checked against the literal game


def kayles(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return in_process("kayles", args, stdin, text=True)


def three(mask: int) -> bool:
    return bool(mask & (mask >> 1) & (mask >> 2))


def free(mask: int, n: int) -> list[int]:
    return [c for c in range(n) if not mask >> c & 1]


@cache
def can_win(mask: int, n: int) -> bool:
    """The player to move can force a win: three at once, or leave a lost board."""
    return any(wins_by(mask, n, c) for c in free(mask, n))


@cache
def must_lose(mask: int, n: int) -> bool:
    """Every move of the player to move lets the opponent force a win.

    A full board with no three in a row is a draw (only when n < 3), not a loss.
    """
    cells = free(mask, n)
    return bool(cells) and all(
        not three(mask | 1 << c) and can_win(mask | 1 << c, n) for c in cells
    )


def wins_by(mask: int, n: int, cell: int) -> bool:
    """Marking ``cell`` forces a win."""
    after = mask | 1 << cell
    return three(after) or must_lose(after, n)


def literal_cells(row: str) -> list[int]:
    n = len(row)
    mask = sum(1 << i for i, ch in enumerate(row) if ch == "X")
    return [c + 1 for c in range(n) if row[c] == "." and wins_by(mask, n, c)]


def test_every_short_row_against_the_literal_game():
    checked = 0
    for n in range(LONGEST + 1):
        for cells in itertools.product(".X", repeat=n):
            row = "".join(cells)
            if "XXX" in row:
                continue
            assert treblecross.winning_cells(row) == literal_cells(row), row
            checked += 1
    assert checked > 5000


def test_seed_example():
    # initial .....X. ; player 1 marks cell 3 (..X..X.) and wins
    assert 3 in treblecross.winning_cells(".....X.")
    assert treblecross.winning_cells("..X.XX.") == [4, 7]  # player 1's final move (cell 7)


def test_gap_to_heap_mapping():
    assert treblecross.gaps("." * 10) == [(0, 12)]  # n free cells, no X: heap n + 2
    assert treblecross.gaps("X" + "." * 7 + "X") == [(3, 5)]  # k between X's: heap k - 2
    assert treblecross.gaps("...X..") == [(0, 3), (6, 2)]  # edge run of m cells: heap m
    with pytest.raises(ValueError, match="immediate"):
        treblecross.gaps(".XX..")


def seed_nimbers(count: int) -> list[int]:
    """The seed's table: nimber[L] of X.{L}X, safe cells i in 2..L-3."""
    nimber: list[int] = []
    for length in range(count):
        reachable = {nimber[i] ^ nimber[length - i - 1] for i in range(2, length - 2)}
        val = 0
        while val in reachable:
            val += 1
        nimber.append(val)
    return nimber


def test_seed_nimber_table_is_0007_shifted_by_two():
    engine = Sequence(GAMES["treblecross"]).nimbers(300)
    seed = seed_nimbers(303)
    assert seed[:2] == [0, 0]
    assert all(seed[k] == engine[k - 2] for k in range(2, 303))


def test_long_rows_move_to_losing_rows():
    rng = random.Random(7)
    row = "".join(rng.choice("......X") for _ in range(10_000))
    while "XX" in row or "X.X" in row:
        row = row.replace("XX", "X.").replace("X.X", "X..")
    cells = treblecross.winning_cells(row)
    assert cells and cells == sorted(set(cells))
    for cell in cells[:3] + cells[-3:]:
        after = row[: cell - 1] + "X" + row[cell:]
        assert treblecross.winning_cells(after) == []  # the opponent is left losing
    empty = treblecross.winning_cells("." * 10_000)
    assert empty == [10_001 - c for c in reversed(empty)]  # symmetric


def test_row_errors():
    with pytest.raises(ValueError, match="'x'"):
        treblecross.parse_row("..x")
    with pytest.raises(ValueError, match="three X in a row"):
        treblecross.winning_cells(".XXX.")


SEED_CASES = "3\n.....X.\nX.X\n...X...X...\n"


def test_cli_output_format(tmp_path):
    expect = "".join(
        "WINNING\n" + " ".join(map(str, cells)) + "\n" if cells else "LOSING\n"
        for cells in map(literal_cells, SEED_CASES.split()[1:])
    )
    path = tmp_path / "cases.txt"
    path.write_text(SEED_CASES)
    done = kayles("treblecross", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (0, expect, "")
    assert done.stdout == "WINNING\n1 2 3\nWINNING\n2\nLOSING\n"


def test_cli_json():
    done = kayles("treblecross", "--json", "-", stdin=SEED_CASES)
    assert json.loads(done.stdout) == [
        {"line": 2, "row": ".....X.", "winning": True, "cells": [1, 2, 3]},
        {"line": 3, "row": "X.X", "winning": True, "cells": [2]},
        {"line": 4, "row": "...X...X...", "winning": False, "cells": []},
    ]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "line 1"),
        ("2\n....\n", "line 2"),
        ("1\n....\n...\n", "line 3"),
        ("1\n..o.\n", "line 2"),
        ("2\n...\n.XXX\n", "line 3"),
        ("one\n...\n", "line 1"),
    ],
)
def test_cli_errors(text, where):
    done = kayles("treblecross", "-", stdin=text)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"kayles treblecross: {where}:")


def test_a_gap_past_the_longest_is_one_line_and_long_rows_are_answered(tmp_path):
    """Gaps of up to MAX_GAP free cells are answered (the nimbers of 0.007 take time
    quadratic in the longest gap, the rest is linear in the row); a longer one is refused
    before any work, naming its line."""
    from kayles.analysis.games.treblecross import MAX_GAP

    path = tmp_path / "rows.txt"
    long_row = ("X" + "." * 9) * 100_000  # a million cells, gaps of nine: answered
    path.write_text(f"3\n{'.' * 10}\n{long_row}\n{'.' * (MAX_GAP + 3)}\n")
    result = kayles("treblecross", str(path))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and "line 4" in result.stderr, result.stderr
    assert "run of free cells is too long" in result.stderr
    assert f"at most {MAX_GAP:,}" in result.stderr
    path.write_text(f"1\n{long_row}\n")
    assert kayles("treblecross", str(path)).returncode == 0


@pytest.mark.parametrize("shape", ["X.", "X..."], ids=["every-free-cell-wins", "short-gaps"])
def test_a_long_row_holds_at_most_10_times_its_file(tmp_path, shape):
    """The docs' bound (reliability.md) on the worst shapes of a 4 MB row: every other cell
    a winning one (2 million cells to print), and 1 million gaps of 0.007 heaps; over what
    the command holds for a tiny row."""
    from test_games_digraph import peak_kib

    path = tmp_path / "row.txt"
    path.write_text("1\n" + shape * (4_000_000 // len(shape)) + "\n")
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("1\nX..\n")
    grown = peak_kib("treblecross", str(path)) - peak_kib("treblecross", str(tiny))
    assert grown * 1024 <= 10 * path.stat().st_size, (grown, path.stat().st_size)
