"""mex and the Sprague-Grundy values of a finite acyclic digraph (seeds 001 and 002).

G(v) = mex{G(w) : v -> w}: a sink has value 0, and v is a loss for the player
to move exactly when G(v) == 0.  ``sg_values`` works without recursion (the
seed's memoised ``SG(G, i)`` would overflow the stack on a long chain): it
walks depth-first with an explicit stack and finishes a vertex once all its
successors are finished.  Meeting a vertex that is still on the current path
closes a cycle, which the error names.

Text format (``parse_graph``), one vertex per line::

    # comments run from '#' to the end of the line; blank lines are ignored
    start: a b      # 'start' moves to 'a' or to 'b'
    a: b
    b:              # a sink: nothing after the colon

A name is any run of characters other than whitespace, ':' and '#'.  Every
vertex has exactly one line, and every successor must have a line of its own.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from itertools import chain

from ...errors import SHOWN_LONGEST, InputError, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Mapping, Sequence

__all__ = ["mex", "mex_bits", "parse_graph", "sg_values"]

CYCLE_SHOWN = 12  # how many vertices of a long cycle an error message names


@contextmanager
def _gc_paused():
    """Building millions of small lists makes the cyclic collector rescan them
    all, again and again; nothing built here holds a reference cycle."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not in ``values`` (the seed's ``mex(S)``)."""
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def mex_bits(mask: int) -> int:
    """The mex of a set given as a bit mask (bit v set when v is in the set)."""
    return (~mask & (mask + 1)).bit_length() - 1


def sg_values(graph: Mapping[Hashable, Iterable[Hashable]] | Sequence[Iterable[int]]) -> dict:
    """G(v) for every vertex of an acyclic digraph, in the graph's own vertex order.

    ``graph`` maps each vertex to its successors; a list (the seed's ``G[i]``,
    0-based here) stands for the mapping ``i -> graph[i]``.  A successor that is
    not a vertex, or a cycle, is a ValueError.
    """
    with _gc_paused():
        return _sg_values(graph)


def _sg_values(graph) -> dict:
    if hasattr(graph, "items"):
        names = list(graph)
        rows = list(graph.values())
    else:
        rows = list(graph)
        names = list(range(len(rows)))
    index = dict(zip(names, range(len(names))))
    try:  # tuples: a sink's is the one empty tuple (millions of sinks hold no list each)
        succ = [tuple([index[target] for target in targets]) if targets else ()
                for targets in rows]
    except KeyError:
        for name, targets in zip(names, rows):
            for target in targets:
                if target not in index:
                    message = f"vertex {_name(name)} moves to unknown vertex {_name(target)}"
                    raise InputError(message) from None
        raise
    return dict(zip(names, _solve(succ, names)))


_NEW, _OPEN = -1, -2  # value[v] before v is finished: never reached, or on the path


def _solve(succ: list[tuple[int, ...]], names: list) -> list[int]:
    """Depth-first, with an explicit stack of (vertex, iterator over its successors)."""
    value = [_NEW] * len(succ)
    for root in range(len(succ)):
        if value[root] != _NEW:
            continue
        value[root] = _OPEN
        path = [root]
        todo = [iter(succ[root])]
        while todo:
            for w in todo[-1]:
                state = value[w]
                if state == _NEW:
                    value[w] = _OPEN
                    path.append(w)
                    todo.append(iter(succ[w]))
                    break
                if state == _OPEN:
                    raise InputError(_cycle_message(path[path.index(w) :], names))
            else:
                todo.pop()
                v = path.pop()
                row = succ[v]
                if len(row) <= 1:
                    value[v] = 1 if row and value[row[0]] == 0 else 0
                else:  # mex, inlined: this loop runs once per vertex
                    seen = {value[w] for w in row}
                    m = 0
                    while m in seen:
                        m += 1
                    value[v] = m
    return value


def _name(vertex) -> str:
    """A vertex for a message: text quoted as typed, anything else as its repr."""
    return shown(vertex) if isinstance(vertex, str) else repr(vertex)


def _cycle_message(cycle: list[int], names: list) -> str:
    path = " -> ".join(_plain(names[u]) for u in cycle[:CYCLE_SHOWN])
    more = f" -> ... ({len(cycle)} vertices)" if len(cycle) > CYCLE_SHOWN else ""
    return f"the graph has a cycle: {path}{more} -> {_plain(names[cycle[0]])}"


def _plain(vertex) -> str:
    """A vertex name unquoted, as the file spells it (a long one cut)."""
    text = str(vertex)
    return text if len(text) <= SHOWN_LONGEST else text[:SHOWN_LONGEST] + "..."


def parse_graph(text: str) -> dict[str, tuple[str, ...]]:
    """The digraph written in the format of the module header, each vertex's successors a
    tuple (millions of sinks share the one empty tuple); errors name the line."""
    graph: dict[str, tuple[str, ...]] = {}
    with _gc_paused():
        for number, line in enumerate(text.splitlines(), start=1):
            if "#" in line:
                line = line[: line.index("#")]
            head, colon, tail = line.partition(":")
            if not colon:
                if line.strip():
                    got = shown(line.strip())
                    raise InputError(f"line {number}: expected 'vertex: successors...', got {got}")
                continue
            words = head.split()
            if len(words) != 1:
                raise InputError(
                    f"line {number}: expected one vertex name before ':', got {shown(head.strip())}"
                )
            name = words[0]
            if ":" in tail:
                raise InputError(f"line {number}: a vertex name cannot contain ':'")
            if name in graph:
                first = _line_of(text, name)
                raise InputError(
                    f"line {number}: vertex {shown(name)} is already defined on line {first}"
                )
            graph[name] = tuple(tail.split())  # a sink's: the one empty tuple (no list each)
    if not graph:
        raise InputError("line 1: the graph has no vertices")
    if not set(chain.from_iterable(graph.values())) <= graph.keys():
        for name, targets in graph.items():
            for target in targets:
                if target not in graph:
                    raise InputError(
                        f"line {_line_of(text, name)}: vertex {shown(name)} moves to "
                        f"unknown vertex {shown(target)}"
                    )
    return graph


def _line_of(text: str, name: str) -> int:
    """The number of the line that defines ``name`` (for error messages only)."""
    for number, line in enumerate(text.splitlines(), start=1):
        head, colon, _ = line.split("#", 1)[0].partition(":")
        if colon and head.strip() == name:
            return number
    raise RuntimeError(f"cannot happen: vertex {name!r} has no line")
