"""``kayles plot`` and ``kayles.plot``: real image files, the right pixels, the right marks.

Expected values come from tests/oracle.py (nim-sequences from the rules, rare
masks by brute force over every mask) and from the literature (Kayles, 0.77:
period 12, last exceptional value G(70), Guy and Smith 1956), never from the
package.
"""

from __future__ import annotations

import struct
import subprocess
import sys

import numpy as np  # matplotlib's own dependency (the extra kayles[plot], which make test installs)
import pytest

from kayles.analysis.plot import figure, repr_png
from kayles.engine.codes import get_game
from kayles.engine.sequence import Sequence

import oracle
from conftest import ROOT, assert_io_failure, assert_usage_error, in_process

TIMEOUT = 120
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def kayles(*args) -> subprocess.CompletedProcess:
    return in_process("kayles", args)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the PNG header (signature, then the IHDR chunk)."""
    assert data[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR")
    return struct.unpack(">II", data[16:24])


# -- the files -------------------------------------------------------------------------------------


def test_png_is_a_real_image_of_the_right_size(tmp_path):
    target = tmp_path / "kayles.png"
    result = kayles("plot", "--game", "kayles", "--size", "640x360", "-o", str(target))
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout.decode() == f"{target}: kayles, G(n) for n = 0..166, 640x360 pixels\n"
    data = target.read_bytes()
    assert png_size(data) == (640, 360)
    import matplotlib.image

    pixels = matplotlib.image.imread(str(target))
    assert pixels.shape[:2] == (360, 640)
    rgb = pixels[..., :3].reshape(-1, 3)
    assert len(np.unique(rgb, axis=0)) > 10  # not blank, not one colour
    red = (rgb[:, 0] > 0.7) & (rgb[:, 1] < 0.4) & (rgb[:, 2] < 0.4)
    blue = (rgb[:, 2] > 0.6) & (rgb[:, 0] < 0.3)
    assert red.sum() > 20 and blue.sum() > 200  # rare and common values both drawn


@pytest.mark.parametrize("ext,head", [("svg", b"<?xml"), ("pdf", b"%PDF-")])
def test_svg_and_pdf_are_written(tmp_path, ext, head):
    target = tmp_path / f"dawson.{ext.upper()}"
    result = kayles("plot", "--game", "0.07", "-o", str(target))
    assert (result.returncode, result.stderr) == (0, b"")
    data = target.read_bytes()
    assert data.startswith(head)
    if ext == "svg":
        assert b"<svg" in data and b"0.07" in data
        assert b"<image" in data  # the dots are rasterised: one embedded image


@pytest.mark.parametrize("args", [
    ["plot", "-o", "picture.gif"],
    ["plot", "-o", ".png"],
    ["plot"],
    ["plot", "-o", "x.png", "--size", "big"],
    ["plot", "-o", "x.png", "--size", "199x400"],
    ["plot", "-o", "x.png", "--size", "400x10001"],
    ["plot", "-o", "x.png", "--max", "-3"],
    ["plot", "-o", "x.png", "--max", str(10**9)],
    ["plot", "-o", "x.png", "--game", "nonsense"],
])
def test_bad_plot_requests_are_usage_errors(args):
    assert_usage_error(kayles(*args))
    assert not (ROOT / "x.png").exists()


def test_a_picture_in_a_missing_folder_is_an_io_failure():
    missing = "/nonexistent-dir/x.png"
    assert_io_failure(kayles("plot", "-o", missing, "--game", "kayles"), missing)


def test_without_matplotlib_one_line_names_the_extra(tmp_path):
    target = tmp_path / "none.png"
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from kayles.interface.kayles_cli import main\n"
            f"sys.exit(main(['plot', '--game', 'kayles', '-o', {str(target)!r}]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            cwd=ROOT, timeout=TIMEOUT)
    assert_usage_error(result)
    assert result.stderr.decode() == (
        "kayles plot: plotting needs matplotlib: pip install 'kayles[plot]' (in a checkout: "
        "make extras)\n")
    assert not target.exists()


# -- what is drawn ---------------------------------------------------------------------------------


def dots(fig) -> tuple[set[tuple[float, int]], set[tuple[float, int]]]:
    """(common, rare) points of the scatter plots, by colour."""
    common, rare = set(), set()
    ax = fig.axes[0]
    for collection in ax.collections:
        colour = collection.get_facecolor()[0]
        points = {(float(x), int(round(y))) for x, y in collection.get_offsets()}
        (rare if colour[0] > colour[2] else common).update(points)
    return common, rare


def test_every_value_is_a_dot_and_rare_ones_are_marked(kernel):
    last = 150
    values = oracle.octal_nimbers("0.77", last)
    fig = figure(Sequence(get_game("kayles"), kernel=kernel), last, size=(800, 400))
    common, rare = dots(fig)
    mask, rare_count = oracle.fewest_rare_by_trial(values)  # 0.77: no kept runs
    assert {(float(n), v) for n, v in enumerate(values)} == common | rare
    assert rare == {(float(n), v) for n, v in enumerate(values)
                    if bin(v & mask).count("1") % 2 == 0}
    assert len(rare) == rare_count
    assert {v for _, v in rare} == {0, 3, 5, 6}  # Kayles' rare values (the evil numbers < 8)


def test_past_one_dot_per_pixel_each_column_shows_every_value_in_it(kernel):
    last, width = 700, 240
    values = oracle.octal_nimbers("0.07", last)
    fig = figure(Sequence(get_game("0.07"), kernel=kernel), last, size=(width, 200))
    common, rare = dots(fig)
    count = last + 1
    drawn = {(int(x * width / count), v) for x, v in common | rare}
    assert drawn == {(n * width // count, v) for n, v in enumerate(values)}
    assert len(common | rare) < count  # binned, not one dot per heap


def test_a_million_heaps_stay_few_rasterised_dots():
    fig = figure("kayles", 10**6, size=(800, 400))
    collections = fig.axes[0].collections
    assert all(c.get_rasterized() for c in collections)
    drawn = sum(len(c.get_offsets()) for c in collections)
    assert 800 <= drawn <= 800 * 9  # Kayles' values are 0..8: at most 9 per pixel column
    assert fig.axes[0].get_xlim()[1] == 10**6 + 0.5


def test_proved_period_is_drawn_and_named():
    import matplotlib.figure

    fig = figure("kayles")
    assert isinstance(fig, matplotlib.figure.Figure)
    ax = fig.axes[0]
    title = ax.get_title()
    assert title.startswith("kayles: nim-sequence G(n)")
    assert "period 12 from n = 71" in title
    assert any(list(line.get_xdata()) == [71, 71] for line in ax.lines)  # the preperiod ends
    spans = [p for p in ax.patches if p.get_label().startswith("one period")]
    assert len(spans) == 1 and spans[0].get_x() == 71 and spans[0].get_width() == 12


def test_no_period_is_said_so():
    title = figure("grundy", 300).axes[0].get_title()
    assert title.startswith("grundy:") and "no periodicity theorem" in title


def test_sequence_shows_itself_as_a_png(monkeypatch):
    data = repr_png(Sequence(get_game("kayles")))
    assert png_size(data) == (800, 400)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert repr_png(Sequence(get_game("kayles"))) is None


def test_ipython_shows_a_sequence_as_its_picture(monkeypatch):
    """Importing kayles inside IPython registers the PNG form of a Sequence (by name, so
    kayles.engine.sequence need not be imported yet); a stand-in shell records what it is told."""
    import importlib
    import types

    registered = {}

    class Formatter:
        def for_type_by_name(self, module, name, function):
            registered[module, name] = function

    shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(
        formatters={"image/png": Formatter()}))
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    importlib.reload(importlib.import_module("kayles"))
    show = registered["kayles.engine.sequence", "Sequence"]
    assert png_size(show(Sequence(get_game("kayles")))) == (800, 400)


def test_the_readme_picture_is_a_real_png():
    """docs/kayles-xox.png, made by `kayles plot -o docs/kayles-xox.png`."""
    data = (ROOT / "docs" / "kayles-xox.png").read_bytes()
    assert png_size(data) == (1600, 800)


@pytest.mark.parametrize(("name", "constants", "splits"), [
    ("kayles-xox", {1}, 1),  # 'xox' keeps a pin: G(1) = 1; both kinds' spans are odd
    ("0.07", set(), 0),
])
def test_one_rare_mask_everywhere(name, constants, splits):
    """The survey, the plot and the web page report the same mask for the same values: the
    brute-force oracle's (every mask tried, the heap's parity too), rare heaps and all."""
    from kayles.analysis.survey import summarise
    from kayles.interface.web.service import Service
    from kayles.kernels.spectrum import mask_text

    last = 399
    values = (oracle.xox_nimbers_by_sum(last) if name == "kayles-xox"
              else oracle.octal_nimbers(name, last))
    mask, rare_count = oracle.fewest_rare_by_trial(values, constants, splits)
    low, by_parity = mask & 0xFFFF, mask >> 16

    def rare_heap(n: int, v: int) -> bool:
        return (bin(v & low).count("1") + by_parity * ((n ^ splits) & 1)) % 2 == 0

    heaps = {n for n, v in enumerate(values) if rare_heap(n, v)}
    assert by_parity and len(heaps) == rare_count  # both games' masks read the parity
    summary = summarise(name, last + 1)  # to its proof where one comes first (0.07: 175)
    assert (summary.mask, summary.rare) == oracle.fewest_rare_by_trial(
        values[:summary.values], constants, splits)
    page = Service().sequence({"game": name, "count": str(last + 1)})
    assert (page["mask"], page["rare"], set(page["rare_heaps"])) == (mask_text(mask),
                                                                    rare_count, heaps)
    fig = figure(Sequence(get_game(name)), last, size=(800, 400))
    _, rare = dots(fig)
    assert rare == {(float(n), values[n]) for n in heaps}
    labels = [text.get_text() for text in fig.axes[0].get_legend().get_texts()]
    assert f"rare values, mask {mask_text(mask)} ({rare_count} heaps)" in labels
