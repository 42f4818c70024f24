"""Green Hackenbush (impartial Hackenbush) on any finite picture: its value and every
winning cut, in time about linear in the edges, with no recursion.

A picture is a multigraph with one special vertex, the ground ``g`` (every ``g`` is the
same vertex); loops and parallel edges are allowed.  A move cuts one edge, and every
edge that no longer reaches the ground is dropped; whoever cannot move loses.  Edges
that do not reach the ground to begin with are not part of the game: they add nothing
and are never a move.

The value comes from the fusion and colon principles (*Winning Ways*, ch. 7) and the cuts
from the classes of 2-edge cuts: the Hackenbush kernel does both, and reads edge lists
(kayles/kernels/pure/_hackenbush.py says how; ext/_hackenbush.pyx is its compiled twin,
kayles.kernels.chooser picks one).  Here: pictures from texts or pairs of names, the
messages for bad input, the bound on edges, and sums (the XOR of the values, the cuts
that leave a sum at 0).
"""

from __future__ import annotations

import re
from array import array

from ...errors import InputError, ResourceError, shown
from ...kernels.constants import HACKENBUSH_EDGES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = ["GROUND", "Picture", "chain_values", "parse_picture", "sum_cuts", "sum_value"]

GROUND = "g"  # the ground's name in an edge list: every 'g' is the one ground vertex
CHUNK = 1 << 20  # characters the kernel reads between looks at Ctrl-C (the pure twin splits
                 # that much at a time: a 32 MB line stays a few MB of lists)
MAX_EDGES = HACKENBUSH_EDGES  # edges a picture may have (the kernel's bound)
DIRECT_PER_LEVEL = 4  # the arms by direct evaluation while nonzero weights <= this x trie depth
_TOKEN = re.compile(r"\S+")


def _kernel():
    from ...kernels import chooser

    return chooser.hackenbush_kernel


# -- reading pictures ----------------------------------------------------------------------


def parse_picture(text: str) -> Picture:
    """The picture of an edge list: tokens ``u-v`` separated by whitespace (any lines),
    ``g`` the ground; a vertex name is any run of non-space characters other than '-'.
    An empty text is the empty picture (value 0).  A bad token is an ``InputError``
    naming its line, its place on the line and its edge number; more than MAX_EDGES
    edges a ``ResourceError``."""
    try:
        names, us, vs, bad = _kernel().parse(text, MAX_EDGES, CHUNK)
    except UnicodeEncodeError as exc:  # a lone surrogate, from a caller's str
        raise InputError(f"character {exc.start} of the text is not Unicode text "
                         f"({exc.reason})") from None
    if bad >= 0:
        raise InputError(_bad_token(text, bad, len(us)))
    if len(us) > MAX_EDGES:
        raise _too_many()
    return Picture._of(names, us, vs)


def _too_many() -> ResourceError:
    return ResourceError(f"a picture has at most {MAX_EDGES:,} edges (its search holds some "
                         "150 bytes an edge), and this one has more")


def _bad_token(text: str, at: int, edge: int) -> str:
    """The message for the bad token at ``at`` in ``text``, the edge ``edge`` in order."""
    token = _TOKEN.match(text, at).group()
    line_start = text.rfind("\n", 0, at) + 1
    line = text.count("\n", 0, at) + 1
    place = len(text[line_start:at].split()) + 1
    return (f"line {line}, token {place} (edge {edge}): {shown(token)} is not an edge "
            f"({_token_fault(token)}): an edge is two vertex names joined by one '-', like g-a")


def _token_fault(token: str) -> str:
    dashes = token.count("-")
    if dashes == 0:
        return "no '-'"
    if dashes > 1:
        return f"{dashes} '-'"
    return "a vertex name is empty"


# -- the picture ---------------------------------------------------------------------------


class Picture:
    """One Green Hackenbush picture: its edges in order, its value, its winning cuts.

    ``Picture(edges)`` takes ``(u, v)`` pairs of vertex names (``"g"``: the ground), or
    ``parse_picture`` a text.  ``value`` is computed on first use; ``cuts(target)`` lists
    the edges (0-based, input order) whose cut leaves the value ``target``.
    """

    def __init__(self, edges: Iterable[tuple[str, str]] = ()) -> None:
        ids: dict[str, int] = {GROUND: 0}
        names = [GROUND]
        us, vs = array("i"), array("i")
        for number, pair in enumerate(edges):
            if number == MAX_EDGES:
                raise _too_many()
            try:
                u, v = pair
            except (TypeError, ValueError):
                raise InputError(f"edge {number}: an edge is a pair of vertex names, not "
                                 f"{shown(repr(pair))}") from None
            for name in (u, v):
                if not isinstance(name, str) or not name or "-" in name or name != "".join(
                        name.split()):
                    raise InputError(f"edge {number}: a vertex name is a non-empty text of "
                                     f"non-space characters other than '-', not {shown(str(name))}")
                if name not in ids:
                    ids[name] = len(names)
                    names.append(name)
            us.append(ids[u])
            vs.append(ids[v])
        self._set(names, len(names), us, vs)

    @classmethod
    def _of(cls, names: str, us: array, vs: array) -> Picture:
        """A parsed picture: ``names`` the vertices' names joined by newlines (split on
        first use: most pictures are valued and never named)."""
        picture = cls.__new__(cls)
        picture._set(names, names.count("\n") + 1, us, vs)
        return picture

    def _set(self, names: list[str] | str, n: int, us: array, vs: array) -> None:
        self._names, self._n, self._us, self._vs = names, n, us, vs
        self._search = None

    def __len__(self) -> int:
        return len(self._us)

    def __repr__(self) -> str:
        return f"<Picture of {len(self)} edges, value {self.value}>"

    def edge(self, index: int) -> tuple[str, str]:
        """The edge ``index`` as its two vertex names, in the order given."""
        if isinstance(self._names, str):
            self._names = self._names.split("\n")
        return self._names[self._us[index]], self._names[self._vs[index]]

    def edges(self) -> list[tuple[str, str]]:
        return [self.edge(i) for i in range(len(self))]

    def edge_text(self, index: int) -> str:
        """The edge ``index`` as the input writes it: ``u-v``."""
        return "-".join(self.edge(index))

    @property
    def value(self) -> int:
        """The picture's nim-value (Sprague-Grundy value)."""
        return self._searched().value

    def grounded(self) -> list[bool]:
        """For each edge, whether it reaches the ground (is part of the game)."""
        return self._searched().grounded()

    def cuts(self, target: int = 0) -> list[int]:
        """Every edge, in input order, whose cut leaves the value ``target`` (a winning
        cut for ``target`` 0, which are none when the value is 0)."""
        if not isinstance(target, int) or target < 0:
            raise InputError(f"a target value is a non-negative integer, not {target!r}")
        return self._searched().cuts(target, DIRECT_PER_LEVEL)

    def _searched(self):
        if self._search is None:
            self._search = _kernel().Search(self._n, self._us, self._vs)
        return self._search


def sum_value(pictures: Iterable[Picture]) -> int:
    """The value of a sum of pictures: the XOR of theirs."""
    total = 0
    for picture in pictures:
        total ^= picture.value
    return total


def sum_cuts(pictures: Sequence[Picture]) -> list[list[int]]:
    """For each picture of a sum, its edges whose cut leaves the whole sum at value 0
    (none anywhere when the sum's value is 0)."""
    total = sum_value(pictures)
    return [picture.cuts(total ^ picture.value) if total else [] for picture in pictures]


# -- arms of a chain (the kernel's, with this module's choice of method) -------------------


def chain_values(weights: Sequence[int]) -> list[int]:
    """``[V(1), ..., V(m)]``: V(p) the value of the chain of pieces 1..p, hung from
    piece 1, piece i a vertex worth ``weights[i - 1]``, each joined to the next by one
    edge: V(p) = w1 ^ (1 + (w2 ^ (1 + ... wp))).  The kernel's ``chain_values``, by the
    method DIRECT_PER_LEVEL picks."""
    return _kernel().chain_values(weights, DIRECT_PER_LEVEL)


def chain_values_direct(weights: Sequence[int]) -> list[int]:
    """``chain_values`` by direct evaluation alone."""
    return _kernel().chain_values_direct(weights)


def chain_values_trie(weights: Sequence[int]) -> list[int]:
    """``chain_values`` on the trie alone."""
    return _kernel().chain_values_trie(weights)
