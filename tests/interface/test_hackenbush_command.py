"""``kayles hackenbush``: its text and JSON forms, sums, bad input, and its pictures.

Values and cuts expected here come from tests/hackenbush_oracle.py (brute force from
the rules) or are worked by hand from the rules, never from the package; pictures are
real PNG files, decoded by matplotlib and measured.
"""

from __future__ import annotations

import json
import random

import hackenbush_oracle as oracle
import pytest

from conftest import ROOT, assert_io_failure, assert_usage_error, in_process

TRIANGLE_AND_STALK = "g-a a-b b-g b-c c-d\n"  # *1 (3 loops at the ground) ^ *2 on b: 3


def kayles(*args, stdin: str | None = None):
    return in_process("kayles", ["hackenbush", *args], stdin=stdin)


def lines(result) -> list[str]:
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    return result.stdout.decode().splitlines()


def edges_of(text: str) -> list[tuple[str, str]]:
    return [tuple(token.split("-")) for token in text.split()]


@pytest.fixture
def triangle(tmp_path):
    path = tmp_path / "triangle.txt"
    path.write_text(TRIANGLE_AND_STALK)
    return str(path)


def test_one_picture_prints_its_value_and_its_winning_cuts_with_the_edges(triangle):
    edges = edges_of(TRIANGLE_AND_STALK)
    assert (oracle.value(edges), oracle.winning_cuts(edges)) == (3, [4])
    assert lines(kayles(triangle)) == ["value: 3", "cuts: 4:c-d"]
    assert json.loads(kayles(triangle, "--json").stdout) == {"value": 3, "cuts": [4]}


def test_a_lost_picture_says_none(tmp_path):
    path = tmp_path / "square.txt"
    path.write_text("g-a a-b b-c c-g")  # a circuit of 4 through the ground: 0
    assert oracle.value(edges_of(path.read_text())) == 0
    assert lines(kayles(str(path))) == ["value: 0", "cuts: none"]
    assert kayles(str(path), "--json").stdout == b'{"value": 0, "cuts": []}\n'


def test_standard_input_and_every_cut_in_input_order():
    text = "g-a\ng-b g-c\r\n"  # three stalks of 1: *1; cutting any leaves 0
    assert lines(kayles("-", stdin=text)) == ["value: 1", "cuts: 0:g-a 1:g-b 2:g-c"]


def test_a_sum_of_files_is_one_game_and_each_file_has_its_cuts(triangle, tmp_path):
    other = tmp_path / "pair.txt"
    other.write_text("g-x x-y g-z")  # a stalk of 2 and a stalk of 1: *3
    parts = [edges_of(TRIANGLE_AND_STALK), edges_of(other.read_text())]
    total, cuts = oracle.sum_winning_cuts(parts)
    assert total == 0 and cuts == [[], []]  # 3 ^ 3
    assert lines(kayles(triangle, str(other))) == [
        "value: 0", f"{triangle}: value 3, cuts: none", f"{other}: value 3, cuts: none"]
    third = tmp_path / "one.txt"
    third.write_text("g-q")
    parts.append([("g", "q")])
    total, cuts = oracle.sum_winning_cuts(parts)
    assert total == 1
    got = json.loads(kayles(triangle, str(other), str(third), "--json").stdout)
    assert got == {"value": total, "pictures": [
        {"file": triangle, "value": 3, "cuts": cuts[0]},
        {"file": str(other), "value": 3, "cuts": cuts[1]},
        {"file": str(third), "value": 1, "cuts": cuts[2]}]}
    pair = [parts[0], [("g", "q")]]  # 3 ^ 1: the triangle's picture must go to 1
    total, cuts = oracle.sum_winning_cuts(pair)
    assert total == 2 and cuts[0] and not cuts[1]
    assert lines(kayles(triangle, "-", stdin="g-q")) == [
        "value: 2", f"{triangle}: value 3, cuts: {shown(pair[0], cuts[0])}",
        "standard input: value 1, cuts: none"]


def shown(edges, cuts) -> str:
    return " ".join(f"{i}:{edges[i][0]}-{edges[i][1]}" for i in cuts)


def test_random_pictures_through_the_command_agree_with_the_brute_force():
    rng = random.Random(66)
    for _ in range(40):
        pool = ["g", *"abcd"]
        edges = [(rng.choice(pool), rng.choice(pool)) for _ in range(rng.randint(0, 8))]
        got = json.loads(kayles("-", "--json", stdin=" ".join(map("-".join, edges))).stdout)
        assert got == {"value": oracle.value(edges), "cuts": oracle.winning_cuts(edges)}, edges


@pytest.mark.parametrize(("args", "stdin", "says"), [
    (["-"], "g-a a--b", "standard input: line 1, token 2 (edge 1): 'a--b' is not an edge"),
    (["-", "-"], "g-a", "standard input (-) can be read once"),
    (["-", "--size", "400x300"], "g-a", "--size goes with --plot"),
    (["-", "--force"], "g-a", "--force goes with --plot"),
    (["-"], "\xff", ""),
])
def test_bad_input_is_one_line_and_status_2(args, stdin, says):
    result = kayles(*args, stdin=stdin)
    assert_usage_error(result)
    assert says.encode() in result.stderr


def test_a_bad_token_names_its_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("g-a\ng-b b")
    result = kayles(str(path))
    assert_usage_error(result)
    assert result.stderr.decode() == (f"kayles hackenbush: {path}: line 2, token 2 (edge 2): "
                                      "'b' is not an edge (no '-'): an edge is two vertex "
                                      "names joined by one '-', like g-a\n")


def test_a_missing_file_and_a_directory(tmp_path):
    assert_io_failure(kayles(str(tmp_path / "missing.txt")), str(tmp_path / "missing.txt"))
    result = kayles(str(tmp_path))
    assert_usage_error(result)
    assert b"is a directory" in result.stderr


def test_the_documented_example_is_what_the_brute_force_says():
    """docs/commands/hackenbush.md works examples/hackenbush.txt by hand; the brute force
    agrees, and so does every cut's value the page states."""
    edges = edges_of((ROOT / "examples" / "hackenbush.txt").read_text())
    truth = oracle.Oracle(edges)
    assert (truth.value(), oracle.winning_cuts(edges)) == (1, [0, 1, 2, 5, 6])
    assert [truth.after_cut(i) for i in (3, 4, 7, 8, 9, 10)] == [2, 2, 3, 4, 3, 4]
    assert truth.cuts(2) == [3, 4]  # beside a stalk of two, the roof wins


def test_the_documented_picture_is_a_png_of_its_stated_size(image):
    assert image(str(ROOT / "docs" / "hackenbush-example.png")).shape[:2] == (600, 1000)


# -- pictures ------------------------------------------------------------------------------


@pytest.fixture
def image():
    mpimg = pytest.importorskip("matplotlib.image")
    return mpimg.imread


def test_plot_writes_a_png_of_the_size_asked_with_the_cut_in_red(triangle, tmp_path, image):
    out = tmp_path / "p.png"
    assert lines(kayles(triangle, "--plot", str(out))) == [
        "value: 3", "cuts: 4:c-d", f"picture: {out}, 1200x800 pixels"]
    pixels = image(str(out))
    assert pixels.shape[:2] == (800, 1200)
    red = (pixels[..., 0] > 0.75) & (pixels[..., 1] < 0.3) & (pixels[..., 2] < 0.3)
    green = (pixels[..., 1] > 0.5) & (pixels[..., 0] < 0.3) & (pixels[..., 2] < 0.4)
    assert red.sum() > 200 and green.sum() > 500  # the winning cut, and the other edges
    small = tmp_path / "small.png"
    assert kayles(triangle, "--plot", str(small), "--size", "400x300", "--json").stdout == \
        b'{"value": 3, "cuts": [4]}\n'  # --json still prints exactly one object
    assert image(str(small)).shape[:2] == (300, 400)


def test_plot_of_a_sum_and_of_loops_and_edges_off_the_ground(tmp_path, image):
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text("g-g g-a a-a a-b b-a x-y")
    two.write_text("g-c c-d d-g")
    out = tmp_path / "sum.svg"
    assert kayles(str(one), str(two), "--plot", str(out)).returncode == 0
    assert out.read_bytes().lstrip().startswith(b"<?xml")
    png = tmp_path / "sum.png"
    assert kayles(str(one), str(two), "--plot", str(png)).returncode == 0
    assert image(str(png)).shape[:2] == (800, 1200)


def test_plot_never_replaces_a_file_without_force(triangle, tmp_path):
    out = tmp_path / "kept.png"
    out.write_bytes(b"mine")
    result = kayles(triangle, "--plot", str(out))
    assert_usage_error(result)
    assert result.stderr.decode() == f"kayles hackenbush: {out}: exists; --force replaces it\n"
    assert out.read_bytes() == b"mine"
    assert kayles(triangle, "--plot", str(out), "--force").returncode == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(("name", "says"), [
    ("p.bmp", "must end in .png, .svg or .pdf"),
    ("p.png", "at most 2,000 edges"),
])
def test_plot_refusals_come_before_any_work(tmp_path, name, says):
    result = kayles("-", "--plot", str(tmp_path / name),
                    stdin=" ".join(f"g-v{i}" for i in range(2001)))
    assert_usage_error(result)
    assert says.encode() in result.stderr
    assert not (tmp_path / name).exists()


def test_plot_into_a_missing_folder_is_an_io_failure(triangle, tmp_path):
    assert_io_failure(kayles(triangle, "--plot", str(tmp_path / "no" / "p.png")),
                      str(tmp_path / "no" / "p.png"))
