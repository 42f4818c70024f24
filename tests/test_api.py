"""The Python API: kayles.xox, rules, heap positions, the kernel selector and packaging."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys

import pytest

from kayles import heaps, xox
from kayles.engine.codes import get_game
from kayles.engine.rules import GAMES, MoveKind, parse_octal
from kayles.engine.sequence import Sequence

import oracle
from conftest import ROOT

SEED_ROWS = [
    (".x", ".."),
    ("xxxxxxx.xxxxxxxx..xxxxxxxx.", "xxx.xxx.xxxxxxxx..xxxxxxxx."),
    ("xxx.x.xxxx", None),
    ("xx.x", "xx.."),
    ("", None),
]


def test_the_seed_examples_through_the_api():
    assert xox.nimbers(6) == [0, 1, 0, 2, 3, 2, 1]
    for row, after in SEED_ROWS:
        assert xox.winning_move(row) == after


def test_the_seeds_own_list_of_moves():
    """The seed lists every move from x.xxxx; the oracle's literal moves must be exactly these."""
    listed = {"..xxxx", "x..xxx", "x.x.xx", "x.xx.x", "x.xxx.", "x..x.x", "x.x.x."}
    assert set(oracle.xox_moves("x.xxxx")) == listed
    assert {after for *_, after in oracle.KAYLES_XOX.moves("x.xxxx")} == listed


def test_nimber_and_nim_sum_for_any_size():
    found = xox.period()
    big = 10**100
    assert xox.nimber(big) == xox.nimber(big - found.period)
    assert xox.nimber(found.preperiod + 5) == xox.nimbers(found.preperiod + 5)[-1]
    assert xox.nim_sum("xxx.x.xxxx") == 0
    assert xox.nim_sum("x" * 30 + "." + "x" * 7) == oracle.KAYLES_XOX.nimbers(30)[30] ^ 4


def test_winning_move_leaves_a_loss_on_long_rows():
    """Past the oracle's reach: the answer is one legal move and leaves nim-sum 0."""
    row = "x" * 1000 + "." + "x" * 777 + ".." + "x" * 31
    after = xox.winning_move(row)
    removed = [i for i, (a, b) in enumerate(zip(row, after)) if a != b]
    assert len(after) == len(row) and all(after[i] == "." for i in removed)
    assert len(removed) == 1 or (len(removed) == 2 and removed[1] == removed[0] + 2
                                 and row[removed[0] + 1] == "x")
    assert xox.nim_sum(after) == 0


@pytest.mark.parametrize("row", ["xo", "X", "x x", "é"])
def test_bad_rows_are_value_errors(row):
    with pytest.raises(ValueError, match="a position holds only"):
        xox.winning_move(row)


def test_the_implementation_is_named(monkeypatch):
    import kayles

    assert kayles.IMPLEMENTATION in ("cython", "python")
    assert kayles.__version__
    assert "xox" in dir(kayles)
    assert "TYPE_CHECKING" not in dir(kayles) and not hasattr(kayles, "TYPE_CHECKING")
    with pytest.raises(AttributeError):
        kayles.no_such_name  # noqa: B018


def run_python(code: str, env: dict[str, str], path: str = str(ROOT)):
    """A fresh interpreter that sees the package only at ``path`` (-S: no site-packages,
    so not the editable install either)."""
    return subprocess.run([sys.executable, "-S", "-c", code], env={"PYTHONPATH": path, **env},
                          cwd=path, capture_output=True, text=True, timeout=60)


def test_environment_chooses_the_kernel():
    code = "import kayles; print(kayles.IMPLEMENTATION)"
    assert run_python(code, {"KAYLES_PURE": "1"}).stdout == "python\n"
    both = run_python(code, {"KAYLES_PURE": "1", "KAYLES_REQUIRE_NATIVE": "1"})
    assert both.returncode != 0 and "both set" in both.stderr


def test_a_missing_extension_falls_back_unless_native_is_required(tmp_path):
    shutil.copytree(ROOT / "kayles", tmp_path / "kayles",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    code = "import kayles; print(kayles.IMPLEMENTATION, kayles.xox.nimbers(6))"
    assert run_python(code, {}, str(tmp_path)).stdout == "python [0, 1, 0, 2, 3, 2, 1]\n"
    required = run_python(code, {"KAYLES_REQUIRE_NATIVE": "1"}, str(tmp_path))
    assert required.returncode != 0 and "KAYLES_REQUIRE_NATIVE is set" in required.stderr


def test_importing_the_package_loads_no_kernel():
    code = "import sys, kayles; print(sorted(m for m in sys.modules if m.startswith('kayles')))"
    assert run_python(code, {}).stdout == "['kayles', 'kayles._version']\n"


def test_the_package_is_typed():
    assert (ROOT / "kayles" / "py.typed").is_file()
    assert "py.typed" in (ROOT / "pyproject.toml").read_text()


# -- rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "name", "kinds"),
    [
        ("0.77", "0.77", [MoveKind("x", {0, 1, 2}), MoveKind("xx", {0, 1, 2})]),
        (".07", "0.07", [MoveKind("xx", {0, 1, 2})]),
        ("4.07", "4.07", [MoveKind("", {2}), MoveKind("xx", {0, 1, 2})]),
        ("0.137", "0.137", [MoveKind("x", {0}), MoveKind("xx", {0, 1}),
                            MoveKind("xxx", {0, 1, 2})]),
        ("0.007", "0.007", [MoveKind("xxx", {0, 1, 2})]),
        (" 0.6 ", "0.6", [MoveKind("x", {1, 2})]),
    ],
)
def test_octal_codes(code, name, kinds):
    game = parse_octal(code)
    assert (game.name, list(game.kinds)) == (name, kinds)


@pytest.mark.parametrize("code", ["0.8", "0..7", "1.07", ".", "", "07", "0.7a", "4.0.7",
                                  "0." + "7" * 65])
def test_bad_octal_codes_are_value_errors(code):
    with pytest.raises(ValueError, match="octal code|move kinds"):
        parse_octal(code)


def test_named_games():
    for name in ["kayles-xox", "kayles", "dawsons-kayles", "dawsons-chess", "treblecross",
                 "grundy"]:
        assert get_game(name) is GAMES[name] and GAMES[name].summary
    assert get_game("KAYLES").name == "kayles"
    assert get_game("0.77").kinds == GAMES["kayles"].kinds
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        get_game("chess")
    assert GAMES["grundy"].provable is False and GAMES["grundy"].on_rows is False
    assert GAMES["kayles-xox"].span == 3 and GAMES["kayles-xox"].on_rows


@pytest.mark.parametrize(
    ("pattern", "leave"), [("xa", {0}), ("ox", {0}), ("x", set()), ("x", {64}), ("x", {-1}),
                           ("xox", {3}), ("", {1}), ("", {0, 2}), ("x" + "ox" * 9, {0})],
)
def test_bad_move_kinds_are_value_errors(pattern, leave):
    """Counts of parts are 0 to 63; a pattern that keeps tokens leaves at most two outer
    parts; removing nothing, a move leaves two parts or more."""
    with pytest.raises(ValueError):
        MoveKind(pattern, leave)


# -- positions of heaps ------------------------------------------------------------------------


def grundy_heaps_value(position: tuple[int, ...], g: list[int]) -> int:
    value = 0
    for h in position:
        value ^= g[h]
    return value


def test_grundys_game_moves_on_heaps_are_legal_and_winning():
    g = oracle.grundys_game_nimbers(40)
    sequence = Sequence(GAMES["grundy"])
    for position in itertools.combinations_with_replacement(range(1, 25), 3):
        move = heaps.winning_move(list(position), sequence)
        if grundy_heaps_value(position, g) == 0:
            assert move is None
            continue
        a, b = move.parts
        assert a + b == position[move.index] == move.size and 0 < a < b
        assert grundy_heaps_value(tuple(move.apply(list(position))), g) == 0
        lower = [i for i, h in enumerate(position) if g[h] ^ grundy_heaps_value(position, g) < g[h]]
        assert move.index == lower[0]


@pytest.mark.parametrize("text", ["", " , ", "3 -1", "3 x", "1.5"])
def test_bad_heap_lists_are_value_errors(text):
    with pytest.raises(ValueError, match="heap"):
        heaps.parse_heaps(text)
    assert heaps.parse_heaps("7, 5 3") == [7, 5, 3]


def test_the_documented_modules_are_reached_from_import_kayles():
    """In a fresh interpreter: import kayles, then kayles.row, kayles.heaps, ... (loaded on
    first use, so the import itself stays light)."""
    code = ("import kayles, sys; assert 'kayles.analysis.row' not in sys.modules; "
            "print(kayles.row.winning_move('xxxx', kayles.get_game('kayles')), "
            "kayles.heaps.winning_move([7, 5, 3], kayles.get_game('grundy')).parts, "
            "'row' in dir(kayles))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert (result.returncode, result.stdout) == (0, "x..x (2, 3) True\n"), result.stderr


def test_positions_take_a_game_or_a_sequence():
    from kayles import row
    from kayles.storage.proof_cache import shared

    kayles_game = get_game("kayles")
    for text in ("xxxx", "xxx.x.xxxx", "x.x"):
        assert row.winning_move(text, kayles_game) == row.winning_move(text, shared("kayles"))
        assert row.nim_sum(text, kayles_game) == row.nim_sum(text, shared("kayles"))
    grundy = get_game("grundy")
    assert heaps.nim_sum([7, 5, 3], grundy) == heaps.nim_sum([7, 5, 3], shared("grundy"))
    with pytest.raises(TypeError, match="give a Sequence or a Game, not str"):
        row.winning_move("xxxx", "kayles")


def test_the_documented_modules_keep_their_short_names():
    """``from kayles.row import ...`` and ``import kayles.games.nim`` still work now that the
    house keeps its modules in layer folders: the same module object under both names."""
    code = ("import importlib, sys, kayles\n"
            "from kayles.sequence import Sequence\n"
            "import kayles.games.nim\n"
            "assert Sequence.__module__ == 'kayles.engine.sequence'\n"
            "assert sys.modules['kayles.games.nim'] is sys.modules['kayles.analysis.games.nim']\n"
            "for short, home in kayles._MODULES.items():\n"
            "    module = importlib.import_module('kayles.' + short)\n"
            "    assert module is importlib.import_module('kayles.' + home), short\n"
            "    assert module is getattr(kayles, short)\n"
            "    assert module.__spec__.name == module.__name__\n"
            "try:\n"
            "    import kayles.no_such_module\n"
            "except ModuleNotFoundError:\n"
            "    print('ok')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert (result.returncode, result.stdout) == (0, "ok\n"), result.stderr


# -- a value of the wrong type is a TypeError that says what was wanted (issue 53) ------------

WRONG_TYPES = {
    "get_game(None)": (lambda: get_game(None), "a game is named by a str"),
    "get_game(0.77)": (lambda: get_game(0.77), "quote a code: '0.77'"),
    "get_game(b'0.77')": (lambda: get_game(b"0.77"), "not bytes"),
    "parse_octal(None)": (lambda: parse_octal(None), "an octal code is a str"),
    "parse_octal(0.77)": (lambda: parse_octal(0.77), "not float"),
    "Sequence('0.77')": (lambda: Sequence("0.77"), r"kayles.get_game\('0.77'\)"),
    "Sequence(None)": (lambda: Sequence(None), "Sequence takes a Game, not NoneType"),
    "nimber(None)": (lambda: xox.nimber(None), "heap size must be a whole number"),
    "nimber(3.0)": (lambda: xox.nimber(3.0), "not float"),
    "nimber('3')": (lambda: xox.nimber("3"), "not str"),
    "nimbers(5.0)": (lambda: xox.nimbers(5.0), "n must be a whole number"),
    "table(None)": (lambda: xox.sequence().table(None), "count must be a whole number"),
    "prove('x')": (lambda: xox.sequence().prove("x"), "limit must be a whole number"),
    "winning_move(None)": (lambda: xox.winning_move(None), "a position is a str"),
    "nim_sum(b'xx')": (lambda: xox.nim_sum(b"xx"), "not bytes"),
    "heaps.nim_sum('7 5')": (lambda: heaps.nim_sum("7 5", GAMES["grundy"]), "list of heap sizes"),
    "heaps.winning_move([7, '5'])": (lambda: heaps.winning_move([7, "5"], GAMES["grundy"]),
                                     "a heap size must be a whole number"),
    "MoveKind(None, {1})": (lambda: MoveKind(None, {1}), "pattern must be a str"),
    "MoveKind('x', 3)": (lambda: MoveKind("x", 3), "leave must be a set of counts"),
    "Game(None, ...)": (lambda: __import__("kayles").Game(None, []), "name is a str"),
    "Game('a', [1])": (lambda: __import__("kayles").Game("a", [1]), "kinds are MoveKinds"),
}


@pytest.mark.parametrize("call", list(WRONG_TYPES), ids=list(WRONG_TYPES))
def test_a_value_of_the_wrong_type_is_a_type_error(call):
    """get_game(None) and get_game(0.77) raised AttributeError ('has no attribute strip')."""
    function, message = WRONG_TYPES[call]
    with pytest.raises(TypeError, match=message):
        function()


def test_whole_numbers_of_other_types_are_taken():
    """Anything with __index__ is a count (numpy's integers too); bool is not."""

    class Index:
        def __index__(self) -> int:
            return 6

    assert xox.nimbers(Index()) == [0, 1, 0, 2, 3, 2, 1]
    assert xox.nimber(Index()) == 1
    with pytest.raises(TypeError, match="not bool"):
        xox.nimber(True)

