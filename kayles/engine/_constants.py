"""The kernels' fixed sizes and row bytes, in one place.

rules.py refuses a game that does not fit, the pure twins check the same numbers
(kayles/engine/_common_pure.py), and ext/_common.pxd repeats them in a ``cdef enum`` (C
arrays need them at compile time); tests/test_kernels.py checks that both twins
accept exactly these sizes.
"""

__all__ = ["DEFAULT_BUDGET", "GAP", "MAX_BUDGET", "MAX_KEPT", "MAX_KINDS", "MAX_SPAN",
           "MAX_THREADS", "PIN", "QUOTIENT_STATES", "STATE_ENTRIES", "WORDS_PER_POSITION",
           "WORDS_SLACK"]

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
