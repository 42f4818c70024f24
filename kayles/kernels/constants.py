"""The kernels' fixed sizes, marks and row bytes: their one home in Python.

rules.py refuses a game that does not fit, the pure twins and the cost model read these
names, and nothing else in Python restates them.  C needs some at compile time: they
are defined once in C (ext/src/kernels.h, ext/_common.pxd, ext/_takebreak.pyx,
ext/src/hackenbush.h), each
compiled module exports the values it was built with as ``CONSTANTS``, and
tests/kernels/test_constants.py pins that every one equals the value here.
"""

__all__ = ["ACCUMULATORS", "AHEAD", "ALL_DIFFERENT", "ALL_SAME", "BOARD_CELLS",
           "CANON_VERTICES", "CHOMP_SQUARES", "DEFAULT_BUDGET", "GAP", "GRAPH_LEAVES",
           "GRAPH_VERTICES", "HACKENBUSH_EDGES", "MARK_CODES", "MAX_BUDGET", "MAX_KEPT",
           "MAX_KINDS", "MAX_SPAN", "MAX_THREADS", "MIN_ROOM", "NIMBER_BITS", "NOT_ALL_SAME",
           "NO_MARK", "PIN", "QUOTIENT_STATES", "SEARCH_CLUSTER", "SEARCH_EXCLUDED",
           "SEARCH_EXCLUDE_VALUES", "SEARCH_FIRST_CLUSTERS",
           "SEARCH_MAX_WIDTH", "SEARCH_STORED_MAX", "SEARCH_VALUE_BITS", "STATE_ENTRIES",
           "VALUE_LIMIT", "WORDS_PER_POSITION", "WORDS_SLACK"]

VALUE_LIMIT = 1 << 16  # nimbers are stored as unsigned 16-bit integers

MAX_KINDS = 64  # move kinds in one game (an octal code of 63 digits after '4.')
MAX_KEPT = 8  # kept 'o' runs in one pattern
MAX_SPAN = 64  # tokens one move covers (the sparse kernel keeps MAX_SPAN + 1 rows of pairs)
MAX_THREADS = 64  # threads on one nim-sequence (Scratch(threads=...); ext/src/kernels.h)
PIN = ord("x")  # a standing pin in a row (bytes)
GAP = ord(".")  # a removed pin
QUOTIENT_STATES = 1 << 21  # misère quotients: the states one walk may visit (--budget default)
STATE_ENTRIES = 9  # ... and a stored state's room besides its set, in 4-byte entries
DEFAULT_BUDGET = 1_000_000  # misère search: stored positions (about 90 MB compiled, 175 MB pure)
WORDS_PER_POSITION = 16  # ... and budget * this many 32-bit words of positions (stored and open)
WORDS_SLACK = 1 << 16  # ... plus this many, so that small budgets count positions alone
MAX_BUDGET = 100_000_000  # ~9 GB compiled; heaps never exceed it, so they fit 32 bits

# The take-and-break kernel (ext/_takebreak.pyx): a move's mark on its parts, as coded
NO_MARK, ALL_DIFFERENT, NOT_ALL_SAME, ALL_SAME = range(4)
MARK_CODES = {"": NO_MARK, "!": ALL_DIFFERENT, "?": NOT_ALL_SAME, "=": ALL_SAME}
MIN_ROOM = 64  # a row set's first room, in heaps (it doubles from there)
AHEAD = 64  # heaps whose unions one pass makes ahead (KAYLES_AHEAD, ext/src/kernels.h)
ACCUMULATORS = 8  # accumulators a heap made ahead: one a value of a part's bits 0-2
                  # (KAYLES_CLASSES)

# The nimber kernel (ext/_nimber.pyx): its operands are words of this many bits (ext/src/nimber.h)
NIMBER_BITS = 64
# Green Hackenbush (ext/_hackenbush.pyx): the edges one picture may have (its search holds
# some 150 bytes an edge in the pure twin; every value then stays below 2**23)
HACKENBUSH_EDGES = 1 << 22
# The pruned search of sums (ext/src/search.h, games.h; kayles/kernels/pure/_search.py)
SEARCH_VALUE_BITS = 12  # bits of an entry's value field
SEARCH_STORED_MAX = (1 << 11) - 1  # a larger value is searched each time, never stored
SEARCH_EXCLUDED = 1 << 11  # a field of this bit: an exclusion, the values ruled out below it
SEARCH_EXCLUDE_VALUES = 11  # the values an exclusion can rule out: 0 to 10
SEARCH_CLUSTER = 8  # entries a cluster of the table
SEARCH_MAX_WIDTH = 40  # words of the longest key the table stores
SEARCH_FIRST_CLUSTERS = 64  # a table's first size, in clusters
BOARD_CELLS = 64  # cells of a board (Cram, Node Kayles on boards): one 64-bit word
GRAPH_VERTICES = 256  # vertices of a graph (Node and Arc Kayles)
CANON_VERTICES = 64  # components up to this size are labelled canonically
CHOMP_SQUARES = 4096  # squares of a Chomp diagram (the search's depth: its C stack)
GRAPH_LEAVES = 1024  # labellings a canonical labelling tries before it takes the least so far
