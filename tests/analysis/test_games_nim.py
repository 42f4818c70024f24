"""Nim and misère Nim (seed 004): the seed's example verbatim, brute force, the CLI."""

from __future__ import annotations

import itertools
import json
import subprocess
from functools import cache

import pytest

from kayles.analysis.games import nim

from conftest import in_process

SEED_FILE = """4
3 4 5
8 13 5
123 675 296 864 917 532
9 7 4 12
"""
SEED_OUTPUT = """Remove 2 counters from Heap 1
Lose Game
Remove 239 counters from Heap 3
Remove 6 counters from Heap 2
"""


def kayles(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return in_process("kayles", args, stdin, text=True)


def moves(heaps: tuple[int, ...]):
    for i, size in enumerate(heaps):
        for keep in range(size):
            yield heaps[:i] + (keep,) + heaps[i + 1 :]


@cache
def wins(heaps: tuple[int, ...], misere: bool) -> bool:
    """The player to move wins (literal game tree)."""
    options = list(moves(heaps))
    if not options:
        return misere  # misère: the opponent took the last counter
    return any(not wins(after, misere) for after in options)


SMALL = [h for n in (2, 3) for h in itertools.product(range(6), repeat=n)]


def test_seed_example_api():
    answers = [nim.seed_answer(heaps) for _, heaps in nim.parse_file(SEED_FILE)]
    assert "\n".join(answers) + "\n" == SEED_OUTPUT


def test_seed_worked_numbers():
    assert nim.nim_sum([8, 13, 5]) == 0
    assert nim.nim_sum([9, 7, 12]) == 2
    assert nim.winning_move([9, 7, 12]) == (1, 2)  # "remove 2 counters from heap B"


@pytest.mark.parametrize("misere", [False, True])
def test_brute_force(misere):
    for heaps in SMALL:
        win = wins(heaps, misere)
        assert nim.outcome(list(heaps), misere) == ("N" if win else "P"), heaps
        move = nim.winning_move(list(heaps), misere)
        if move is None:
            assert not win or not any(heaps), heaps  # misère all-empty: won, no move
            continue
        assert win and 0 < move.remove <= heaps[move.index]
        after = list(heaps)
        after[move.index] -= move.remove
        assert not wins(tuple(after), misere), (heaps, move)


def test_normal_move_is_first_lowerable_heap():
    for heaps in SMALL:
        x = nim.nim_sum(list(heaps))
        move = nim.winning_move(list(heaps))
        if x:
            first = next(i for i, h in enumerate(heaps) if h ^ x < h)
            assert move == (first, heaps[first] - (heaps[first] ^ x))


def test_misere_endgame_answers():
    assert nim.seed_answer([1, 1], misere=True) == "Remove 1 counters from Heap 1"
    assert nim.seed_answer([1, 1, 1], misere=True) == "Lose Game"
    assert nim.seed_answer([0, 1, 0], misere=True) == "Lose Game"
    assert nim.seed_answer([1, 5], misere=True) == "Remove 5 counters from Heap 2"
    assert nim.seed_answer([1, 1, 5], misere=True) == "Remove 4 counters from Heap 3"
    assert nim.seed_answer([0, 0], misere=True) == "Win Game"
    assert nim.seed_answer([0, 0]) == "Lose Game"
    assert nim.seed_answer([2, 2], misere=True) == "Lose Game"


def test_cli_seed_example_file_and_stdin(tmp_path):
    path = tmp_path / "nim.txt"
    path.write_text(SEED_FILE)
    done = kayles("nim", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (0, SEED_OUTPUT, "")
    done = kayles("nim", "-", stdin=SEED_FILE)
    assert (done.returncode, done.stdout) == (0, SEED_OUTPUT)


def test_cli_any_spacing_and_misere():
    done = kayles("nim", "--misere", "-", stdin="  2\n\n 1   1 \n\t3\t1  1\n\n")
    assert done.stdout == "Remove 1 counters from Heap 1\nRemove 2 counters from Heap 1\n"


def test_cli_json():
    done = kayles("nim", "--json", "-", stdin="2\n3 4 5\n8 13 5\n")
    report = json.loads(done.stdout)
    assert report[0] == {"line": 2, "heaps": [3, 4, 5], "nim_sum": 2, "outcome": "N",
                         "move": {"heap": 1, "remove": 2},
                         "answer": "Remove 2 counters from Heap 1"}
    assert report[1]["move"] is None and report[1]["answer"] == "Lose Game"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "line 1"),
        ("\n\n", "line 1"),
        ("x\n1 2\n", "line 1"),
        ("2\n1 2\n", "line 2"),  # fewer lines than the count
        ("1\n1 2\n3 4\n", "line 3"),  # more
        ("1\n1 two\n", "line 2"),
        ("2\n1 2\n3 -4\n", "line 3"),
        ("1\n7\n", "line 2"),  # fewer than 2 heaps
        ("1\n1.5 2\n", "line 2"),
    ],
)
def test_cli_malformed(text, where):
    done = kayles("nim", "-", stdin=text)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"kayles nim: {where}:")


def test_cli_missing_file_and_usage():
    done = kayles("nim", "/nonexistent/nim.txt")  # the system refused it: an I/O failure
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "No such file" in done.stderr
    done = kayles("nim")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert kayles("nim", "--help").stdout.startswith("usage: kayles nim")
