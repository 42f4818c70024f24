"""The picture of a nim-sequence: G(n) against n, rare values marked, the proved period drawn.

matplotlib (the optional extra ``kayles[plot]``) is imported only inside the
drawing functions, with the Agg canvas (no display, no pyplot state).

Readable at any length: up to one point per pixel column every (n, G(n)) is a
dot; past that, heaps are binned by pixel column and each column shows every
value that occurs in it (no averaging, no blur), drawn as a rasterised
scatter so SVG and PDF files stay small.

Rare values: with a mask M, G(n) is *rare* when popcount(G(n) & M) is even.
The mask drawn is the allowed one (every option constant rare) with the fewest
rare positions among 0..N, found from the value histogram by a Walsh-Hadamard
transform (``kayles.kernels.spectrum.rare_mask``, the mask a survey reports).
"""

from __future__ import annotations

from .._numbers import brief
from ..engine.codes import get_game
from ..engine.sequence import Sequence, rare_mask
from ..errors import InputError, SetupError, shown
from ..kernels.spectrum import mask_text, parity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..engine.rules import Game

__all__ = [
    "DEFAULT_LAST",
    "FORMATS",
    "MAX_LAST",
    "census_figure",
    "figure",
    "last_heap",
    "parse_size",
    "repr_png",
    "save_format",
]

FORMATS = ("png", "svg", "pdf")
DEFAULT_LAST = (1 << 14) - 1  # heaps drawn when no period is proved and no N is given
PROOF_SEARCH = 1 << 16  # values a plot spends looking for a proof of the period
MAX_LAST = 1 << 24  # the longest table a plot computes (32 MB of values)
DPI = 100  # pixels per inch: a size in pixels is figsize * DPI
MIN_SIDE, MAX_SIDE = 200, 10000  # pixels
MAX_PIXELS = 16_000_000  # a canvas of at most this many pixels (64 MB of RGBA), e.g. 4000x4000
CHUNK = 1 << 20  # heaps binned at a time: temporaries stay at a few MB whatever --max


def _matplotlib():
    try:
        import matplotlib  # noqa: F401  (the extra itself, before any of its modules)
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise SetupError("plotting needs matplotlib: pip install 'kayles[plot]' (in a "
                         "checkout: make extras)") from None
    return Figure, FigureCanvasAgg


def save_format(path: str) -> str:
    """'png', 'svg' or 'pdf' from the file name, or ValueError."""
    stem, dot, ext = path.rpartition(".")
    if not (dot and stem) or ext.lower() not in FORMATS:
        raise InputError(f"{shown(path)}: the picture's name must end in .png, .svg or .pdf")
    return ext.lower()


def parse_size(text: str) -> tuple[int, int]:
    """'1600x800' -> (1600, 800): width and height in pixels."""
    width, x, height = text.lower().partition("x")
    if not (x and width.isascii() and width.isdigit() and height.isascii() and height.isdigit()):
        raise InputError(f"a size is WIDTHxHEIGHT in pixels, like 1600x800, not {shown(text)}")
    size = int(width), int(height)
    if not all(MIN_SIDE <= side <= MAX_SIDE for side in size):
        raise InputError(f"each side of the picture must be {MIN_SIDE} to {MAX_SIDE} pixels, "
                         f"not {text}")
    if size[0] * size[1] > MAX_PIXELS:
        raise InputError(f"a picture has at most {MAX_PIXELS:,} pixels (4000x4000), "
                         f"not {size[0] * size[1]:,} ({text})")
    return size


def last_heap(sequence: Sequence, last: int | None = None) -> int:
    """The last heap drawn: ``last``, else the proof's length (at least 100 heaps), else
    DEFAULT_LAST."""
    if last is not None:
        if last < 0:
            raise InputError(f"the last heap drawn must be >= 0, not {last}")
        if last > MAX_LAST:
            raise InputError(f"a plot draws at most {MAX_LAST} heaps, not {brief(last)}")
        return last
    found = sequence.prove(_search(sequence))
    return max(found.values, 100) - 1 if found else DEFAULT_LAST


def _search(sequence: Sequence) -> int:
    """The values a plot spends looking for a proof: PROOF_SEARCH, fewer for a game the
    octal kernels do not take (its values cost more)."""
    from ..engine.sequence import proof_limit

    return min(PROOF_SEARCH, proof_limit(sequence.game))


def figure(source: Sequence | Game | str, last: int | None = None, *,
           size: tuple[int, int] = (1600, 800)) -> Figure:
    """The picture of G(0..last) of a game (a Sequence, a Game or a name), as a Figure."""
    Figure, FigureCanvasAgg = _matplotlib()
    import warnings

    import numpy as np
    from matplotlib.ticker import MaxNLocator

    sequence = source if isinstance(source, Sequence) else Sequence(
        get_game(source) if isinstance(source, str) else source)
    last = last_heap(sequence, last)
    sequence.prove(_search(sequence))  # the period drawn and named in the title, when cheap
    values = np.array(sequence.table(last + 1), dtype=np.uint16)
    count = last + 1
    counts = np.bincount(values).tolist()
    found = None
    if len(counts) > 1 and sequence.game.octal:
        mask, rare_count, _ = rare_mask(sequence.game, values.tolist(), sequence.nimber)
        found = (mask, rare_count) if mask else None

    width, height = size
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    heaps_rare = (np.zeros(count, dtype=bool) if found is None
                  else _rare_heaps(sequence, found[0], values))
    if count > width:  # one column per pixel: every value that occurs in it, rare or not
        keys = np.zeros(0, dtype=np.int64)  # (column * len(counts) + value) * 2 + rare, once
        for start in range(0, count, CHUNK):  # a chunk of heaps at a time: bounded temporaries
            stop = min(start + CHUNK, count)
            column = np.arange(start, stop, dtype=np.int64) * width // count
            keys = np.union1d(keys, (column * len(counts) + values[start:stop]) * 2
                              + heaps_rare[start:stop])
        pairs, rare = keys // 2, (keys % 2).astype(bool)
        xs = (pairs // len(counts) + 0.5) * count / width
        ys = pairs % len(counts)
        dot = 1.5
    else:
        xs = np.arange(count)
        ys = values
        rare = heaps_rare
        dot = min(6.0, max(1.5, 0.9 * width / count))
    marker = {"s": (dot * 72 / DPI) ** 2, "linewidths": 0, "rasterized": True}
    if found is None:
        every = "all 0" if len(counts) == 1 else "no rare mask"
        ax.scatter(xs, ys, color="tab:blue", label=f"G(n) ({every}: {count} heaps)", **marker)
    else:
        mask, rare_count = found
        ax.scatter(xs[~rare], ys[~rare], color="tab:blue",
                   label=f"common values ({count - rare_count} heaps)", **marker)
        ax.scatter(xs[rare], ys[rare], color="tab:red",
                   label=f"rare values, mask {mask_text(mask)} ({rare_count} heaps)", **marker)
    _draw_period(ax, sequence, last)
    ax.set_xlim(-0.5, last + 0.5)
    ax.set_ylim(-0.5, len(counts) - 0.5)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("n (heap size)")
    ax.set_ylabel("G(n)")
    ax.grid(alpha=0.3)
    ax.set_title(f"{sequence.game.name}: nim-sequence G(n), n = 0..{last}\n"
                 f"{_proof_text(sequence)}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize="small",
              markerscale=max(1.0, 4 / dot), frameon=False)
    with warnings.catch_warnings():  # a small picture cannot fit every label: draw anyway
        warnings.simplefilter("ignore")
        fig.tight_layout()
    return fig


def _rare_heaps(sequence: Sequence, mask: int, values):
    """Which heaps are rare under the mask (numpy booleans; the heap's parity counts where
    the mask holds it: kayles.kernels.spectrum.is_rare)."""
    import numpy as np

    from ..engine.rules import encode
    from ..kernels.spectrum import PARITY_SHIFT, split_parity

    odd = np.array([parity(v & mask) for v in range(int(values.max()) + 1)], dtype=np.int64)
    heap_class = (mask >> PARITY_SHIFT) & (
        (np.arange(len(values)) ^ split_parity(encode(sequence.game.kinds))) & 1)
    return odd[values] == heap_class


def _draw_period(ax, sequence: Sequence, last: int) -> None:
    period = sequence.period
    if period is None or period.preperiod > last:
        return
    n0, p, s = period.preperiod, period.period, period.saltus
    kind = f"G(n + {p}) = G(n) + {s}" if s else "periodic"
    ax.axvline(n0, color="black", linestyle="--", linewidth=1,
               label=f"preperiod ends: {kind} from n = {n0}")
    if n0 + p <= last:
        ax.axvspan(n0, n0 + p, color="tab:green", alpha=0.25, linewidth=0,
                   label=f"one period: {p} heaps" + (f", then each {s} higher" if s else ""))


def _proof_text(sequence: Sequence) -> str:
    period = sequence.period
    if period is not None and period.saltus:
        return (f"period {period.period}, saltus {period.saltus} from n = {period.preperiod}, "
                f"proved with {period.values} values")
    if period is not None:
        return (f"period {period.period} from n = {period.preperiod}, "
                f"proved with {period.values} values")
    if not sequence.game.provable:
        return ("no periodicity theorem for unequal splits" if sequence.game.octal
                else "no theorem for marks, tails or 'or more'")
    return f"no period proved within {len(sequence)} values"


def repr_png(sequence: Sequence) -> bytes | None:
    """The PNG of ``figure(sequence)``, or None without matplotlib: how Jupyter shows a
    Sequence (``kayles`` registers it with IPython, see ``kayles/__init__.py``)."""
    from io import BytesIO

    try:
        drawn = figure(sequence, size=(800, 400))
    except SetupError:
        return None
    data = BytesIO()
    drawn.savefig(data, format="png")
    return data.getvalue()


def census_figure(rows: list[dict], size: tuple[int, int] = (1600, 700), *,
                  hexadecimal: bool = False) -> Figure:
    """The census's picture (kayles census --plot): the share of codes solved and open by
    digits (with ``hexadecimal``: periodic, arithmetic-periodic and open), and each solved
    code's period against its preperiod (log scales, by digits; arithmetic-periodic ones
    marked apart)."""
    Figure, FigureCanvasAgg = _matplotlib()
    fig = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    bars, scatter = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 2]})
    digits = sorted({len(row["code"]) - 2 for row in rows})

    def share(kind) -> list[float]:
        return [100 * sum(kind(r) for r in rows if len(r["code"]) - 2 == d)
                / max(1, sum(len(r["code"]) - 2 == d for r in rows)) for d in digits]

    kinds = [("periodic", "tab:green", lambda r: r["status"] == "solved" and not r.get("saltus")),
             ("arithmetic-periodic", "tab:orange", lambda r: r["status"] == "solved"
              and bool(r.get("saltus"))), ("open", "tab:gray", lambda r: r["status"] != "solved")]
    if not hexadecimal:
        kinds = [("solved (period proved)", "tab:green", lambda r: r["status"] == "solved"),
                 ("open", "tab:gray", lambda r: r["status"] != "solved")]
    bottom = [0.0] * len(digits)
    for label, color, kind in kinds:
        heights = share(kind)
        bars.bar(digits, heights, bottom=bottom, color=color, label=label)
        for d, h, b0 in zip(digits, heights, bottom):
            count = sum(kind(r) for r in rows if len(r["code"]) - 2 == d)
            if h >= 6:
                bars.text(d, b0 + h / 2, f"{count:,}", ha="center", va="center",
                          fontsize="small", color="white")
        bottom = [b0 + h for b0, h in zip(bottom, heights)]
    bars.set_xticks(digits)
    bars.set_xlabel("digits of the code 0.d1..dk")
    bars.set_ylabel("% of the codes")
    bars.set_ylim(0, 130)  # the legend above the bars, hiding none
    bars.legend(fontsize="small", loc="upper center", ncol=1 if hexadecimal else 2)
    for d in digits:
        some = [r for r in rows if r["status"] == "solved" and len(r["code"]) - 2 == d]
        label = f"{d} digit{'s' if d > 1 else ''} ({len(some):,} solved)"
        scatter.scatter([r["preperiod"] + 1 for r in some], [r["period"] for r in some], s=10,
                        alpha=0.6, label=label)
    saltus = [r for r in rows if r["status"] == "solved" and r.get("saltus")]
    if saltus:
        scatter.scatter([r["preperiod"] + 1 for r in saltus], [r["period"] for r in saltus],
                        s=40, facecolors="none", edgecolors="black",
                        label=f"with a saltus ({len(saltus):,})")
    scatter.set_xscale("log")
    scatter.set_yscale("log")
    scatter.set_xlabel("preperiod + 1")
    scatter.set_ylabel("period")
    scatter.grid(alpha=0.3)
    scatter.legend(fontsize="small")
    solved = sum(r["status"] == "solved" for r in rows)
    family = "hexadecimal" if hexadecimal else "octal"
    fig.suptitle(f"The census of {len(rows):,} {family} codes: {solved:,} solved")
    fig.tight_layout()
    return fig
