"""Argument checks of the misère, quotient and nimber kernels, shared by both twins.

The compiled kernels (ext/_misere.pyx, ext/_quotient.pyx) index C arrays with
what they are given, so every Python-callable entry checks its arguments before
any work, and the pure twins call the same checks: the same exception, with the
same words, for the same bad argument (tests/kernels/test_kernel_args.py).  The checks of
small things (lists of options, generators, elements) run here for both; a
large table's entries are checked by the compiled twin in a C loop that raises
``out_of_range`` below, and by the pure twin with ``check_entries``.

A sequence argument is read once: ``copied`` puts its entries into an array of C ints
(one iteration, or the buffer of an exact ``array("i")``), the checks run on that copy,
and the kernel then uses the copy alone.  A hostile sequence (a ``list`` subclass whose
indexing answers otherwise than its iteration, or that changes between two reads)
cannot make the kernel read what the checks did not see.
"""

from __future__ import annotations

from array import array

from .constants import HACKENBUSH_EDGES, MAX_BUDGET, NIMBER_BITS

__all__ = ["MAX_CELLS", "bad_sets", "copied", "check_at_least", "check_count", "check_entries",
           "check_vertices",
           "check_heaps", "check_memo", "check_room", "check_sets", "check_sized",
           "check_word", "check_words",
           "for_candidates", "for_collapse", "for_columns", "for_grow", "for_minimize",
           "for_parse", "for_product_columns", "for_reach", "for_search", "for_walk",
           "for_weights", "out_of_range"]

MAX_CELLS = (1 << 31) - 1  # entries of a table a kernel makes or reads (int32 indices)


def check_memo(memo, kind: type) -> None:
    """TypeError unless ``memo`` is a ``kind`` (a MisereMemo of the same twin)."""
    if not isinstance(memo, kind):
        raise TypeError(f"memo must be a {kind.__name__}, not {type(memo).__name__}")


def check_count(value, what: str, low: int = 0, high: int = MAX_BUDGET) -> int:
    """``value`` when it is an int from ``low`` to ``high``; else TypeError or ValueError."""
    if type(value) is not int and not hasattr(value, "__index__"):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    value = value.__index__()
    if not low <= value <= high:
        raise ValueError(f"{what} must be {low} to {high}, not {value}")
    return value


def check_at_least(value, what: str, low: int) -> int:
    """``value`` when it is an int of at least ``low`` (of any size); else TypeError or
    ValueError."""
    if type(value) is not int and not hasattr(value, "__index__"):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    value = value.__index__()
    if value < low:
        raise ValueError(f"{what} must be at least {low}, not {value}")
    return value


def check_heaps(heaps) -> tuple[int, ...]:
    """The heap sizes as a tuple, each 0 to MAX_BUDGET (so they fit 32 bits)."""
    heaps = tuple(heaps)
    for h in heaps:
        check_count(h, "a heap size")
    return heaps


def check_word(value, what: str) -> int:
    """``value`` when it is an int 0 to 2**NIMBER_BITS - 1 (the nimber kernel's operands);
    else TypeError or ValueError."""
    if type(value) is not int:
        if isinstance(value, bool) or not hasattr(type(value), "__index__"):
            raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
        value = value.__index__()
    if not 0 <= value >> NIMBER_BITS <= 0:  # negative, or past the word
        raise ValueError(f"{what} must be 0 to 2**{NIMBER_BITS} - 1")
    return value


def check_words(buffer, what: str, writable: bool = False) -> memoryview:
    """``buffer`` as a 1-D memoryview of unsigned 64-bit words (format 'Q': an
    ``array("Q")``, or bytes cast so), read-write where ``writable``; else TypeError."""
    try:
        view = memoryview(buffer)
    except TypeError:
        raise TypeError(f"{what} must be a buffer of unsigned 64-bit words (array('Q')), "
                        f"not {type(buffer).__name__}") from None
    if view.format != "Q" or view.ndim != 1 or not view.c_contiguous:
        raise TypeError(f"{what} must be a contiguous buffer of format 'Q' (array('Q')), "
                        f"not format {view.format!r}")
    if writable and view.readonly:
        raise TypeError(f"{what} must be writable")
    return view


def out_of_range(what: str, limit: int) -> ValueError:
    return ValueError(f"{what} must be 0 to {limit - 1}")


def copied(values, what: str, limit: int = MAX_CELLS + 1) -> array:
    """``values`` as an array of C ints, read once (see the module header): an exact
    ``array("i")`` as it is, anything else copied by one pass; an entry past 32 bits is
    ``out_of_range(what, limit)`` (the entries' own range is checked on the copy)."""
    if type(values) is array and values.typecode == "i":
        return values
    try:
        return array("i", values)
    except OverflowError:
        raise out_of_range(what, limit) from None


def check_entries(values, limit: int, what: str) -> None:
    """Every entry of ``values`` (ints) is 0 to limit - 1."""
    for value in values:
        if not 0 <= value < limit:
            raise out_of_range(what, limit)


def check_sized(values, size: int, what: str) -> None:
    """``values`` has exactly ``size`` entries."""
    if len(values) != size:
        raise ValueError(f"{what} must have {size} entries, not {len(values)}")


# -- the quotient kernels' entries, one check each ----------------------------------------------
# ``entries``: the check of a big table's entries (check_entries for the pure twin; None for
# the compiled one, which runs its own C loop after these, so the first error is the same).
# Each returns the copies (``copied``) of its sequence arguments that the kernel then uses.

def _table(table, n: int, stride: int) -> None:
    check_count(n, "n", 1, MAX_CELLS)
    check_count(stride, "the stride", 1, MAX_CELLS)
    if n * stride > MAX_CELLS:
        raise ValueError(f"a table of {n} rows of {stride} entries is too large")
    check_sized(table, n * stride, "the table")


def _small(values, limit: int, what: str) -> array:
    """A short sequence argument, copied, each entry 0 to limit - 1."""
    values = copied(values, what, limit)
    check_entries(values, limit, what)
    return values


def _behaviours(behaviours, columns: int) -> list[tuple[int, array]]:
    """The heaps' behaviours, copied: (column of the image, columns of the options)."""
    copies = []
    for g, options in behaviours:
        copies.append((_small((g,), columns, "a behaviour's column")[0],
                       _small(options, columns, "a behaviour's column")))
    return copies


def _automaton(count, width, cells: int, what: str, low: int = 0) -> None:
    """``count`` states (or elements) of ``width`` letters each, in ``cells`` entries."""
    check_count(count, "the order" if low else "count", low, MAX_CELLS)
    check_count(width, "width", 0, MAX_CELLS)
    if cells > MAX_CELLS:
        raise ValueError(f"{what} is too large")


def _tree(trans, width, parent, letter, entries) -> int:
    """A monoid's transition table and spanning tree (kayles/kernels/pure/_quotient.py);
    returns its order."""
    n = len(parent)
    _automaton(n, width, n * width, f"a transition table of {n} elements", low=1)
    check_sized(trans, n * width, "the transitions")
    check_sized(letter, n, "the letters")
    for y in range(1, n):
        if not 0 <= parent[y] < y:
            raise ValueError(f"element {y}'s parent must be 0 to {y - 1}")
    check_entries(letter[1:], width, "a letter")
    if entries:
        entries(trans, n, "a transition's element")
    return n


def for_candidates(trans, width, parent, letter, p, table, stride, options,
                   entries=check_entries) -> array:
    """The options, copied."""
    n = _tree(trans, width, parent, letter, entries)
    check_sized(p, n, "the flags")
    _table(table, n, stride)
    options = _small(options, stride, "an option's column")
    if entries:
        entries(table, n, "a product")
        entries(p, 2, "a flag")   # P-portion flags: 0 or 1
    return options


def for_walk(table, n, p, behaviours, limit, stride=None, flags=1,
             entries=check_entries) -> list[tuple[int, array]]:
    """grow, least_failure (flags 0 or 1) and mark (flags up to 2: not known yet); the
    behaviours, copied."""
    stride = n if stride is None else stride
    _table(table, n, stride)
    check_sized(p, n, "the flags")
    behaviours = _behaviours(behaviours, stride)
    check_count(limit, "the limit", 1, MAX_CELLS)
    if entries:
        entries(table, n, "a product")
        entries(p, flags + 1, "a flag")
    return behaviours


def check_room(room) -> None:
    """The most 4-byte entries a walk's stored states may take."""
    check_count(room, "the room", 1, 1 << 62)


def check_sets(us, count: int, n: int) -> None:
    """``count`` sets of elements 0..n-1 in ``us``: each its size, then its elements in
    increasing order, and nothing after the last."""
    at = 0
    for _ in range(count):
        if at >= len(us) or not 0 <= us[at] <= n or at + 1 + us[at] > len(us):
            raise bad_sets()
        elements = us[at + 1 : at + 1 + us[at]]
        check_entries(elements, n, "a known state's element")
        if any(a >= b for a, b in zip(elements, elements[1:])):
            raise ValueError("a known state's elements must increase")
        at += 1 + us[at]
    if at != len(us):
        raise bad_sets()


def bad_sets() -> ValueError:
    return ValueError("the known states' sets are not one size and its elements each")


def for_grow(n, behaviours, xs, us, first, room, sets=check_sets) -> tuple[array, array]:
    """grow's own arguments, past for_walk's: the known states, the first behaviour, the
    room.  ``sets``: the check of the known sets (check_sets; None for the compiled twin,
    which runs its own C loop after these).  The known states, copied."""
    xs = _small(xs, n, "a known state's image")
    check_count(first, "first", 0, len(behaviours))
    check_room(room)
    us = copied(us, "a known state's element", n)
    if sets:
        sets(us, len(xs), n)
    return xs, us


def for_reach(table, n, stride, gens, entries=check_entries) -> array:
    """The generators, copied."""
    _table(table, n, stride)
    gens = _small(gens, stride, "a generator's column")
    if entries:
        entries(table, n, "a product")
    return gens


def for_minimize(count, width, moves, labels, entries=check_entries) -> tuple[array, list]:
    """The moves and labels, copied."""
    _automaton(count, width, count * (width + 1),
               f"an automaton of {count} states and {width} letters")
    moves = copied(moves, "a move's state", count)
    labels = list(labels)
    check_sized(moves, count * width, "the moves")
    check_sized(labels, count, "the labels")
    for label in labels:
        check_count(label, "a label", -(1 << 31), (1 << 31) - 1)
    if entries:
        entries(moves, count, "a move's state")
    return moves, [label.__index__() for label in labels]


def for_product_columns(base, nb, stride, bases, tails, needed,
                        entries=check_entries) -> tuple[int, array, list[int], array]:
    """The product's size, and the base columns, tails and needed elements, copied."""
    _table(base, nb, stride)
    if len(needed) > MAX_CELLS:
        raise ValueError("the product monoid's columns are too large")
    needed = copied(needed, "a needed element")
    bases = copied(bases, "a base column", stride)
    check_sized(bases, len(needed), "the needed elements' base columns")
    check_entries(bases, stride, "a base column")
    tails = list(tails)
    if len(tails) > 64:
        raise ValueError("at most 64 cyclic factors")
    size = nb
    for k, tail in enumerate(tails):
        tails[k] = check_count(tail, "a tail", 0, MAX_CELLS)
        size *= tails[k] + 2
        if size > MAX_CELLS:
            raise ValueError("the product monoid is too large")
    if size * len(needed) > MAX_CELLS:
        raise ValueError("the product monoid's columns are too large")
    check_entries(needed, size, "a needed element")
    if entries:
        entries(base, nb, "a product")
    return size, bases, tails, needed


def for_collapse(count, width, moves, block, entries=check_entries) -> tuple[array, array]:
    """The moves and blocks, copied."""
    _automaton(count, width, count * width,
               f"an automaton of {count} states and {width} letters")
    moves = copied(moves, "a move's state", count)
    block = copied(block, "a block", count)
    check_sized(moves, count * width, "the moves")
    check_sized(block, count, "the blocks")
    check_entries(block, count, "a block")
    if entries:
        entries(moves, count, "a move's state")
    return moves, block


def for_columns(trans, width, parent, letter, needed, entries=check_entries) -> array:
    """The needed elements, copied."""
    n = _tree(trans, width, parent, letter, entries)
    for _ in range(2):  # the size said, before a copy is made, and the copy's
        if n * len(needed) > MAX_CELLS:
            raise ValueError(f"{len(needed)} columns of {n} elements are too large")
        needed = copied(needed, "a needed element", n)
    check_entries(needed, n, "a needed element")
    return needed


# -- the take-and-break kernel ------------------------------------------------------------------

def for_takebreak(rules) -> tuple[tuple, int]:
    """A take-and-break game as ``rules.encode_takebreak`` gives it, read once and checked
    (the kernel then uses this copy alone): ``(kinds, tail)``."""
    from .constants import MAX_KEPT, MAX_KINDS, MAX_SPAN

    try:
        kinds, tail = rules
        kinds = [tuple(kind) for kind in kinds]
    except (TypeError, ValueError):
        raise ValueError("rules must be (kinds, tail), as rules.encode_takebreak gives "
                         "them") from None
    if len(kinds) > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    tail = check_count(tail, "the tail", 0, len(kinds))
    copies = []
    for at, kind in enumerate(kinds):
        if len(kind) != 4:
            raise ValueError("a kind is (span, kept, counts, more)")
        span = check_count(kind[0], "a span", 0, MAX_SPAN)
        kept = tuple(check_count(h, "a kept run", 1, MAX_SPAN) for h in kind[1])
        counts = tuple((check_count(c, "a count", 0, 63), check_count(m, "a mark", 0, 3))
                       for c, m in kind[2])
        more = check_count(kind[3], "more", 0, 1)
        top = counts[-1][0] if counts else -1
        if any(a[0] >= b[0] for a, b in zip(counts, counts[1:])):
            raise ValueError("a kind's counts must increase")
        if len(kept) > MAX_KEPT or sum(kept) >= max(span, 1) or (kept and (more or top > 2)):
            raise ValueError("kept runs lie inside a span and leave at most two outer parts")
        if more and not counts:
            raise ValueError("more extends a kind's largest count: it needs one")
        if span == 0 and counts and (counts[0][0] <= 1 or (more and top < 1)):
            raise ValueError("a kind of span 0 must leave two parts or more")
        if at >= len(kinds) - tail and (kept or span != kinds[len(kinds) - tail][0]
                                        + at - (len(kinds) - tail)):
            raise ValueError("the tail's kinds remove consecutive numbers of tokens")
        copies.append((span, kept, counts, more))
    if tail:
        first = copies[len(copies) - tail][0]
        if first < 1 or any(kind[0] >= first for kind in copies[: len(copies) - tail]):
            raise ValueError("the tail's spans come after every other kind's, from 1 on")
    return tuple(copies), tail


# -- the Hackenbush kernel -----------------------------------------------------------------------

def for_parse(text, most, chunk) -> None:
    """parse's arguments: a text, at most HACKENBUSH_EDGES edges, a chunk of a character
    or more."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    check_count(most, "most", 0, HACKENBUSH_EDGES)
    check_count(chunk, "chunk", 1, MAX_CELLS)


def for_search(n, us, vs, entries=None) -> tuple[int, array, array]:
    """A picture's vertices and edges (edge i joins us[i] and vs[i]), copied: at most
    HACKENBUSH_EDGES edges on vertices 0 to n - 1.  ``entries``: the check of the ends
    (check_vertices for the pure twin; None for the compiled one, which runs its own C loop
    after these, so the first error is the same)."""
    n = check_count(n, "n", 1, 2 * HACKENBUSH_EDGES + 1)
    us, vs = copied(us, "a vertex", n), copied(vs, "a vertex", n)
    check_sized(vs, len(us), "the edges' second ends")
    if len(us) > HACKENBUSH_EDGES:
        raise ValueError(f"a picture has at most {HACKENBUSH_EDGES} edges, not {len(us)}")
    if entries:
        entries(us, vs, n)
    return n, us, vs


def check_vertices(us, vs, n: int) -> None:
    """Every end is a vertex 0 to n - 1 (min and max: one pass each, in C)."""
    for ends in (us, vs):
        if ends and not (0 <= min(ends) and max(ends) < n):
            raise out_of_range("a vertex", n)


def for_weights(weights) -> array:
    """A chain's weights, copied: at most HACKENBUSH_EDGES of them, none negative, and
    with their count summing to at most MAX_CELLS (every arm's value then fits 31 bits)."""
    weights = copied(weights, "a weight")
    if len(weights) > HACKENBUSH_EDGES:
        raise ValueError(f"a chain has at most {HACKENBUSH_EDGES} weights, not {len(weights)}")
    if weights and min(weights) < 0:
        raise out_of_range("a weight", MAX_CELLS + 1)
    if sum(weights) + len(weights) > MAX_CELLS:
        raise ValueError(f"the weights and their count must sum to at most {MAX_CELLS}")
    return weights
