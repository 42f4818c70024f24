"""The drawing of Green Hackenbush pictures (``kayles hackenbush --plot``), winning cuts in red.

matplotlib (the optional extra ``kayles[plot]``) is imported only inside ``figure``,
with the Agg canvas (no display, no pyplot state), as ``kayles.analysis.plot`` does.

The layout: the ground is a line at the bottom; every vertex stands at the height of
its distance from the ground (a breadth-first search), and across, the search's tree is
laid out leaves first, each parent centred over its children, so a tree looks like a
tree.  An edge to the ground ends at a foot of its own on the ground line (a vertex
with two such edges stands on two feet); parallel edges bow apart; a loop is a
petal above its vertex (on the ground: an arch).  Edges that do not reach the ground
are drawn grey and dashed to the right, off the ground: they are not part of the game.
Each winning cut is red, with a cross at its middle and its number.
"""

from __future__ import annotations

import math
from collections import defaultdict

from ...errors import InputError, SetupError
from .hackenbush import GROUND

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from matplotlib.figure import Figure

    from .hackenbush import Picture

__all__ = ["MAX_DRAWN", "check_drawable", "figure", "layout"]

MAX_DRAWN = 2000  # edges a drawing holds, all pictures together: past that it is a blur
LABELLED = 60  # up to this many edges, every vertex's name and every edge's number shown
DPI = 100  # pixels per inch
GREEN, RED, GREY, EARTH = "#2a9d3f", "#d62728", "#9a9a9a", "#8c6d46"
SHOWN_CUTS = 8  # cuts listed in a panel's title, the rest counted


def check_drawable(pictures: Sequence[Picture], names: Sequence[str]) -> None:
    """InputError when the pictures have more edges than a drawing holds."""
    total = sum(len(p) for p in pictures)
    if total > MAX_DRAWN:
        largest = max(range(len(pictures)), key=lambda i: len(pictures[i]))
        raise InputError(f"--plot draws at most {MAX_DRAWN:,} edges (more are a blur), not "
                         f"{total:,} ({names[largest]} has {len(pictures[largest]):,})")


def layout(picture: Picture) -> tuple[dict[str, tuple[float, float]], float]:
    """Each vertex's place (x, y), the ground's vertices at height 0 excluded (it is a
    line), and the width used.  Vertices off the ground stand to the right, lifted."""
    edges = picture.edges()
    neighbours: dict[str, list[str]] = defaultdict(list)
    for u, v in edges:
        if u != v:
            neighbours[u].append(v)
            neighbours[v].append(u)
    for u, _ in edges:
        neighbours[u]  # noqa: B018 - a vertex with only loops has a place too
    place: dict[str, tuple[float, float]] = {}
    slot = 0.0
    grounded = _tree(GROUND, neighbours)
    slot = _spread(grounded, GROUND, place, slot, 0.0, neighbours)
    if place:
        slot += 0.6
    for name in neighbours:  # what the ground does not reach: lifted, to the right
        if name != GROUND and name not in place:
            slot = _spread(_tree(name, neighbours), None, place, slot + 0.4, 1.0, neighbours)
    return place, max(slot, 1.0)


def _tree(root: str, neighbours: dict[str, list[str]]) -> tuple:
    """A breadth-first search from ``root``: the order met, each one's children, depth and
    parent."""
    depth = {root: 0}
    parent: dict[str, str] = {}
    children: dict[str, list[str]] = defaultdict(list)
    order = [root]
    for u in order:  # (the list grows as it is read: a queue)
        for w in neighbours.get(u, ()):
            if w not in depth:
                depth[w] = depth[u] + 1
                parent[w] = u
                children[u].append(w)
                order.append(w)
    return order, children, depth, parent


def _spread(tree, ground: str | None, place: dict, slot: float, lift: float,
            neighbours: dict[str, list[str]]) -> float:
    """Place a search tree's vertices: leaves at successive slots, parents over the middle
    of their children, rows by depth; then, from the ground up, a vertex with several
    neighbours in the row below moves over their middle (a roof's ridge over both walls),
    what stands on it with it.  Returns the next free slot."""
    order, children, depth, parent = tree
    x: dict[str, float] = {}  # leaves left to right, in a depth-first order of the tree
    stack = [(order[0], False)]
    while stack:
        u, done = stack.pop()
        kids = children.get(u, [])
        if done or not kids:
            if kids:
                x[u] = (x[kids[0]] + x[kids[-1]]) / 2
            else:
                x[u] = slot
                slot += 1.0
            continue
        stack.append((u, True))
        stack.extend((k, False) for k in reversed(kids))
    moved = {order[0]: 0.0}  # how far each vertex moved, and so what stands on it
    final = {order[0]: x[order[0]]}
    for u in order[1:]:
        below = {w for w in neighbours[u] if depth.get(w) == depth[u] - 1 and w != ground}
        final[u] = (sum(final[w] for w in below) / len(below) if len(below) > 1
                    else x[u] + moved[parent[u]])
        moved[u] = final[u] - x[u]
    for u in order:
        if u != ground:
            place[u] = (final[u], depth[u] + lift)
    return slot


def figure(pictures: Sequence[Picture], cuts: Sequence[Sequence[int]], names: Sequence[str],
           size: tuple[int, int] = (1200, 800), total: int | None = None) -> Figure:
    """The drawing of ``pictures`` side by side, each with its winning ``cuts`` in red,
    titled by ``names``; ``total``: the sum's value when there are several."""
    Figure, FigureCanvasAgg = _matplotlib()
    width, height = size
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    layouts = [layout(p) for p in pictures]
    axes = fig.subplots(1, len(pictures), squeeze=False,
                        gridspec_kw={"width_ratios": [w + 1.5 for _, w in layouts]})[0]
    top = max([y for place, _ in layouts for _, y in place.values()] + [0.5])
    for ax, picture, won, name, (place, used) in zip(axes, pictures, cuts, names, layouts):
        _draw(ax, picture, set(won), place, used, top)
        ax.set_title(_title(picture, won, name, total is not None), fontsize="medium")
    if total is not None:
        fig.suptitle(f"A sum of {len(pictures)} pictures: value {total} (the XOR of theirs)"
                     + ("" if total else ": no winning cut"), fontsize="large")
    handles = _legend_handles(pictures)
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False,
               fontsize="small")
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.08, top=0.86 if total is not None
                        else 0.9, wspace=0.08)
    return fig


def _matplotlib():
    try:
        import matplotlib  # noqa: F401  (the extra itself, before any of its modules)
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise SetupError("plotting needs matplotlib: pip install 'kayles[plot]' (in a "
                         "checkout: make extras)") from None
    return Figure, FigureCanvasAgg


def _title(picture: Picture, won: Sequence[int], name: str, in_sum: bool) -> str:
    shown = ", ".join(f"{i} ({picture.edge_text(i)})" for i in won[:SHOWN_CUTS])
    if len(won) > SHOWN_CUTS:
        shown += f", ... ({len(won):,} in all)"
    what = "winning cuts" if not in_sum else "cuts that make the sum 0"
    head = f"{name}: value {picture.value}" if name else f"value {picture.value}"
    if won:
        return f"{head}\n{what}: {shown}"
    return f"{head}\n" + ("no winning cut: a loss for the player to move" if not in_sum
                          else "no cut here makes the sum 0")


def _draw(ax, picture: Picture, won: set[int], place: dict, used: float, top: float) -> None:
    edges = picture.edges()
    grounded = picture.grounded()
    labelled = len(edges) <= LABELLED
    feet: dict[str, list[int]] = defaultdict(list)  # a vertex's edges to the ground
    pairs: dict[tuple[str, str], list[int]] = defaultdict(list)  # parallel edges together
    loops: dict[str, list[int]] = defaultdict(list)
    for i, (u, v) in enumerate(edges):
        if u == v:
            loops[u].append(i)
        elif GROUND in (u, v):
            feet[v if u == GROUND else u].append(i)
        else:
            pairs[(u, v) if u < v else (v, u)].append(i)
    ground_loops = loops.pop(GROUND, [])
    left = -0.8 - 0.7 * len(ground_loops)
    ax.fill_between([left, used + 0.3], [0, 0], [-0.22, -0.22], color=EARTH, alpha=0.25,
                    linewidth=0)
    ax.plot([left, used + 0.3], [0, 0], color=EARTH, linewidth=3, solid_capstyle="butt")
    curves: list[tuple[int, list[float], list[float]]] = []
    for vertex, numbers in feet.items():
        x, y = place[vertex]
        for k, i in enumerate(numbers):
            foot = x + (k - (len(numbers) - 1) / 2) * 0.35
            curves.append((i, *_bowed((foot, 0.0), (x, y), 0.0)))
    for (u, v), numbers in pairs.items():
        for k, i in enumerate(numbers):
            bend = (k - (len(numbers) - 1) / 2) * 0.35
            curves.append((i, *_bowed(place[u], place[v], bend)))
    for vertex, numbers in loops.items():  # petals in the widest gap between its edges
        ways = sorted(_leaving(place[vertex], xs, ys) for _, xs, ys in curves
                      if place[vertex] in ((xs[0], ys[0]), (xs[-1], ys[-1])))
        start, gap = -math.pi / 2, 2 * math.pi  # no edge: the petals stand up
        if len(ways) > 1:
            start, gap = max(((a, (ways[(j + 1) % len(ways)] - a) % (2 * math.pi))
                              for j, a in enumerate(ways)), key=lambda pair: pair[1])
        elif ways:
            start = ways[0]
        for k, i in enumerate(numbers):
            curves.append((i, *_petal(place[vertex], start + gap * (k + 1) / (len(numbers) + 1))))
    for k, i in enumerate(ground_loops):
        centre = -0.6 - 0.7 * k
        ts = [j / 24 * math.pi for j in range(25)]
        curves.append((i, [centre + 0.28 * math.cos(t) for t in ts],
                       [0.45 * math.sin(t) for t in ts]))
    for i, xs, ys in curves:
        mid = len(xs) // 2
        if not grounded[i]:
            ax.plot(xs, ys, color=GREY, linewidth=1.5, linestyle="--", zorder=1)
        elif i in won:
            ax.plot(xs, ys, color=RED, linewidth=3.5, zorder=3, solid_capstyle="round")
            ax.plot([xs[mid]], [ys[mid]], marker="X", markersize=11, color=RED,
                    markeredgecolor="white", zorder=4)
        else:
            ax.plot(xs, ys, color=GREEN, linewidth=2.2, zorder=2, solid_capstyle="round")
        if labelled or i in won:
            ax.annotate(str(i), (xs[mid], ys[mid]), xytext=(7, 4), textcoords="offset points",
                        fontsize="small", color=RED if i in won else "#333333", zorder=5)
    if place:
        xs, ys = zip(*place.values())
        ax.scatter(xs, ys, s=22, color="#222222", zorder=6)
        if labelled:
            for name, (x, y) in place.items():
                ax.annotate(name, (x, y), xytext=(-9, 5), textcoords="offset points",
                            fontsize="small", ha="right", color="#1f3b73", zorder=7)
    ax.set_xlim(left - 0.3, used + 0.5)
    ax.set_ylim(-0.35, top + 0.75)
    ax.set_aspect("equal", adjustable="box", anchor="S")
    ax.axis("off")


def _leaving(at: tuple[float, float], xs: list[float], ys: list[float]) -> float:
    """The angle at which a drawn edge leaves its end ``at``."""
    if (xs[0], ys[0]) == at:
        return math.atan2(ys[2] - ys[0], xs[2] - xs[0])
    return math.atan2(ys[-3] - ys[-1], xs[-3] - xs[-1])


def _bowed(a: tuple[float, float], b: tuple[float, float], bend: float):
    """Points along the edge from a to b, bowed sideways by ``bend`` at its middle."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    xs, ys = [], []
    for j in range(21):
        t = j / 20
        lift = 4 * t * (1 - t) * bend
        xs.append(x0 + (x1 - x0) * t + nx * lift)
        ys.append(y0 + (y1 - y0) * t + ny * lift)
    return xs, ys


def _petal(at: tuple[float, float], angle: float, radius: float = 0.22):
    """A loop: a circle touching its vertex, its centre away from the vertex by ``angle``."""
    cx, cy = at[0] + radius * math.cos(angle), at[1] + radius * math.sin(angle)
    start = angle + math.pi
    ts = [start + j / 24 * 2 * math.pi for j in range(25)]
    return [cx + radius * math.cos(t) for t in ts], [cy + radius * math.sin(t) for t in ts]


def _legend_handles(pictures: Sequence[Picture]) -> list:
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=GREEN, linewidth=2.2, label="edge (either player may cut it)"),
               Line2D([], [], color=RED, linewidth=3.5, marker="X", markersize=9,
                      markeredgecolor="white", label="winning cut")]
    if any(not all(p.grounded()) for p in pictures):
        handles.append(Line2D([], [], color=GREY, linestyle="--",
                              label="not on the ground: not in the game"))
    return handles
