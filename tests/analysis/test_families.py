"""The games ``kayles solve`` names (``kayles.analysis.games.families``): the families registry,
a user's file, positions read and shown as each game says."""

from __future__ import annotations

import pytest

from kayles import Solver
from kayles.analysis.games.families import (
    FAMILIES,
    GameSource,
    format_position,
    is_game_spec,
    parse_position,
)
from kayles.engine.codes import get_game
from kayles.engine.rules import GAMES
from kayles.engine.sequence import Sequence
from kayles.errors import GameError, InputError


def test_no_family_is_named_as_a_heap_game():
    """``kayles play --game NAME`` takes both: a name may mean one of them only."""
    assert not set(FAMILIES) & set(GAMES)
    assert all(is_game_spec(name) for name in FAMILIES)
    assert not any(is_game_spec(name) for name in GAMES)
    assert is_game_spec("mine.py:Game") and not is_game_spec("0.77")


def test_the_subtraction_family_is_the_heap_engines_octal_game():
    """Take 1, 2 or 3 is 0.333; take 2 or 5 is 0.03003."""
    for subtractions, code in (("1,2,3", "0.333"), ("2,5", "0.03003")):
        game = GameSource.parse(f"subtraction:{subtractions}").load()
        solver = Solver(game)
        assert [solver.nimber(n) for n in range(100)] == Sequence(get_game(code)).nimbers(99)
    with pytest.raises(InputError, match="at most 10,000,000"):
        parse_position(game, "10000001")


def test_a_file_is_read_once_and_named_by_its_text(tmp_path):
    path = tmp_path / "g.py"
    path.write_text("class G:\n    def options(self, n):\n        return [n - 1] if n else []\n")
    one, two = GameSource.parse(f"{path}:G"), GameSource.parse(f"{path}:G")
    assert one.load() is two.load()  # (made once a process)
    assert one.identity.startswith("file G sha256:") and one.spec == f"{path}:G"
    path.write_text(path.read_text() + "# changed\n")
    assert GameSource.parse(f"{path}:G").identity != one.identity
    assert GameSource.parse("subtraction:1,2").identity == "family subtraction:1,2"


def test_positions_are_read_and_shown_as_the_game_says():
    class Own:
        def options(self, p):
            return []

        def parse(self, text):
            if text == "bad":
                raise ValueError("not a board")
            if text == "bug":
                raise KeyError(text)
            return text.upper()

        def format(self, p):
            return f"<{p}>"

    assert parse_position(Own(), "ab") == "AB" and format_position(Own(), "AB") == "<AB>"
    with pytest.raises(InputError, match="position 'bad': not a board"):
        parse_position(Own(), "bad")
    with pytest.raises(GameError, match="the game's parse raised KeyError"):
        parse_position(Own(), "bug")

    class Plain:
        def options(self, p):
            return []

    assert parse_position(Plain(), "(3, 'x')") == (3, "x")
    assert format_position(Plain(), (3, "x")) == "(3, 'x')"
    with pytest.raises(InputError, match="not a Python literal"):
        parse_position(Plain(), "3 +")
