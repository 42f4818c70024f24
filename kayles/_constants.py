"""The kernels' fixed sizes and row bytes, in one place.

rules.py refuses a game that does not fit, the pure twin (kayles/_pure.py) checks
the same numbers, and ext/_core.pyx repeats them in a ``cdef enum`` (C arrays need
them at compile time); tests/test_kernels.py checks that both twins accept
exactly these sizes.
"""

__all__ = ["GAP", "MAX_KEPT", "MAX_KINDS", "PIN"]

MAX_KINDS = 64  # move kinds in one game (an octal code of 63 digits after '4.')
MAX_KEPT = 8  # kept 'o' runs in one pattern
PIN = ord("x")  # a standing pin in a row (bytes)
GAP = ord(".")  # a removed pin
