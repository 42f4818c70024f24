"""Argument checks of the board, graph and Chomp kernels and of their table, shared by
both twins (ext/_search.pyx, _boards.pyx, _graphs.pyx, _chomp.pyx and kayles/kernels/pure/):
the same exception, with the same words, for the same bad argument.  The compiled twins
index C arrays with what they are given, so every entry checks first."""

from __future__ import annotations

from .constants import BOARD_CELLS, CHOMP_SQUARES, GRAPH_VERTICES, SEARCH_MAX_WIDTH

__all__ = ["check_bits", "check_board", "check_cells", "check_frame", "check_graph", "check_key",
           "check_leaves", "check_memory", "check_rule", "check_rows", "check_value",
           "check_word"]

_WORD = 1 << 64
VALUE_BOUND = 1 << 24  # past every value of these games (fewer options than that), so
                       # has_value says no at once, and the C search's int never overflows
MAX_MEMORY = 1 << 62  # bytes: more than any machine has


def _int(value, what: str) -> int:
    if type(value) is not int and not hasattr(value, "__index__"):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    return value.__index__()


def check_word(value) -> int:
    value = _int(value, "a word")
    if not 0 <= value < _WORD:
        raise ValueError(f"a word must be 0 to 2**64 - 1, not {value}")
    return value


def check_bits(bits) -> int:
    bits = _int(bits, "bits")
    if not 1 <= bits <= 64:
        raise ValueError(f"bits must be 1 to 64, not {bits}")
    return bits


def check_key(key) -> tuple[int, ...]:
    """A key: a tuple of 1 to SEARCH_MAX_WIDTH words."""
    key = tuple(key)
    if not 1 <= len(key) <= SEARCH_MAX_WIDTH:
        raise ValueError(f"a key must have 1 to {SEARCH_MAX_WIDTH} words, not {len(key)}")
    return tuple(check_word(w) for w in key)


def check_value(value) -> int:
    value = _int(value, "a value")
    if value < 0:
        raise ValueError(f"a value must be at least 0, not {value}")
    return value


def check_memory(memory) -> int:
    memory = _int(memory, "the memory")
    if not 0 <= memory <= MAX_MEMORY:
        raise ValueError(f"the memory must be 0 to 2**62 bytes, not {memory}")
    return memory


def check_leaves(leaves) -> int:
    """How many labellings a canonical labelling may try: 1 to 2**30."""
    leaves = _int(leaves, "leaves")
    if not 1 <= leaves <= 1 << 30:
        raise ValueError(f"leaves must be 1 to 2**30, not {leaves}")
    return leaves


def check_rule(rule, rules: tuple[str, ...]) -> str:
    if rule not in rules:
        raise ValueError(f"the rule must be {' or '.join(map(repr, rules))}, not {rule!r}")
    return rule


def check_board(rows, cols) -> tuple[int, int]:
    rows, cols = _int(rows, "rows"), _int(cols, "columns")
    if rows < 1 or cols < 1 or rows * cols > BOARD_CELLS:
        raise ValueError(f"a board must have 1 to {BOARD_CELLS} cells in at least one row "
                         f"and column, not {rows} x {cols}")
    return rows, cols


def check_cells(cells, count: int) -> int:
    """A set of cells (or vertices) of a board of ``count``: an int below 2**count."""
    cells = _int(cells, "the cells")
    if not 0 <= cells < 1 << count:
        raise ValueError(f"the cells must be a set of {count} cells: 0 to 2**{count} - 1")
    return cells


def check_graph(adjacency) -> tuple[int, ...]:
    """A graph: each vertex's neighbours as a set (int), symmetric, no loops."""
    rows = tuple(_int(row, "a vertex's neighbours") for row in adjacency)
    n = len(rows)
    if n > GRAPH_VERTICES:
        raise ValueError(f"a graph must have at most {GRAPH_VERTICES} vertices, not {n}")
    for v, row in enumerate(rows):
        if not 0 <= row < 1 << n:
            raise ValueError(f"vertex {v}'s neighbours must be vertices 0 to {n - 1}")
        if row >> v & 1:
            raise ValueError(f"vertex {v} is its own neighbour")
        bits = row
        while bits:
            u = (bits & -bits).bit_length() - 1
            if not rows[u] >> v & 1:
                raise ValueError(f"vertex {v} has neighbour {u} but not {u} neighbour {v}")
            bits &= bits - 1
    return rows


CHOMP_KEY_BITS = 52 + 64 * (SEARCH_MAX_WIDTH - 1)  # a frame's rows * bits a row, at most


def check_frame(rows, cols) -> tuple[int, int]:
    """A Chomp frame: rows and columns at least 1, rows times the bits of a row length
    within a key of SEARCH_MAX_WIDTH words."""
    rows, cols = _int(rows, "rows"), _int(cols, "columns")
    if rows < 1 or cols < 1 or rows > CHOMP_SQUARES or cols > CHOMP_SQUARES:
        raise ValueError(f"a Chomp frame must have 1 to {CHOMP_SQUARES} rows and columns, "
                         f"not {rows} x {cols}")
    if rows * cols.bit_length() > CHOMP_KEY_BITS:
        raise ValueError(f"a Chomp frame of {rows} rows of {cols} squares has keys past "
                         f"{SEARCH_MAX_WIDTH} words")
    return rows, cols


def check_rows(lengths, frame: tuple[int, int] | None = None) -> tuple[int, ...]:
    """A Young diagram: row lengths, each at least 1, not increasing, at most
    CHOMP_SQUARES squares in all (and within ``frame``, rows and columns, where given)."""
    lengths = tuple(_int(x, "a row length") for x in lengths)
    if not lengths:
        raise ValueError("a diagram must have at least one row")
    if any(x < 1 for x in lengths):
        raise ValueError("a row length must be at least 1")
    if any(a < b for a, b in zip(lengths, lengths[1:])):
        raise ValueError("row lengths must not increase")
    if sum(lengths) > CHOMP_SQUARES:
        raise ValueError(f"a diagram must have at most {CHOMP_SQUARES} squares, not "
                         f"{sum(lengths)}")
    if frame is not None and (len(lengths) > frame[0] or lengths[0] > frame[1]):
        raise ValueError(f"the diagram must fit the frame of {frame[0]} rows and "
                         f"{frame[1]} columns")
    return lengths
