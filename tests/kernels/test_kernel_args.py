"""Bad arguments to the misère and quotient kernels: the same error from both twins.

The compiled kernels index C arrays with what they are given; each of their Python-
callable entries checks its arguments first (kayles/kernels/checks.py), and the pure
twins call the same checks.  Every case here crashed the compiled twin, read out of
its bounds or was refused by one twin only before; now both raise the same exception
with the same words, and no case reaches the C loops.
"""

from __future__ import annotations

from array import array

import pytest

from kayles.engine.codes import get_game
from kayles.engine.rules import encode
from kayles.kernels import checks as _kernel_args

from conftest import load_kernel


def ints(*values: int) -> array:
    return array("i", values)


SQUARE = ints(0, 1, 1, 0)  # the product table of {0, 1} with 1 * 1 = 0
FLAGS = bytes([0, 1])
KINDS = encode(get_game("kayles").kinds)

QUOTIENT_CASES = {
    "columns order zero": ("columns", ints(), 0, ints(), ints(), [0]),
    "columns parent": ("columns", ints(1, 0), 1, ints(0, 5), ints(0, 0), [0]),
    "columns letter": ("columns", ints(1, 0), 1, ints(0, 0), ints(0, 3), [1]),
    "columns trans": ("columns", ints(1, 9), 1, ints(0, 0), ints(0, 0), [1]),
    "columns short": ("columns", ints(1, 0), 2, ints(0, 0), ints(0, 0), [1]),
    "columns needed": ("columns", ints(1, 0), 1, ints(0, 0), ints(0, 0), [2]),
    "columns huge": ("columns", ints(1, 0), 1, ints(0, 0), ints(0, 0), range(2**30)),
    "collapse block": ("collapse", 2, 1, ints(1, 0), ints(0, 2)),
    "collapse move": ("collapse", 2, 1, ints(1, 2), ints(0, 1)),
    "collapse short": ("collapse", 2, 1, ints(1), ints(0, 1)),
    "candidates option": ("candidates", ints(1, 0), 1, ints(0, 0), ints(0, 0), FLAGS, SQUARE,
                          2, [5], False),
    "candidates flags": ("candidates", ints(1, 0), 1, ints(0, 0), ints(0, 0), bytes([0]),
                         SQUARE, 2, [1], False),
    "candidates bad product": ("candidates", ints(1, 0), 1, ints(0, 0), ints(0, 0), FLAGS,
                               ints(0, 1, 1, -3), 2, [1], False),
    "candidates bad tree": ("candidates", ints(1, 0), 1, ints(0, 1), ints(0, 0), FLAGS,
                            SQUARE, 2, [1], False),
    "grow behaviour": ("grow", SQUARE, 2, 2, FLAGS, [(1, [4])], ints(), ints(), 0, 100, 99),
    "grow states": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(3), ints(0), 0, 100, 99),
    "grow sets": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(0), ints(2, 0), 0, 100, 99),
    "grow set element": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(0), ints(1, 5), 0, 100,
                         99),
    "grow set order": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(0), ints(2, 1, 0), 0,
                       100, 99),
    "grow set left over": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(0), ints(0, 0), 0,
                           100, 99),
    "grow first": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(), ints(), 2, 100, 99),
    "grow limit": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(), ints(), 0, 0, 99),
    "grow stride": ("grow", SQUARE, 2, 3, FLAGS, [(1, [0])], ints(), ints(), 0, 100, 99),
    "grow room": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(), ints(), 0, 100, 0),
    "least_failure behaviour": ("least_failure", SQUARE, 2, 2, FLAGS, [(9, [])], 100, 99),
    "least_failure column": ("least_failure", SQUARE, 4, 1, bytes(4), [(1, [])], 100, 99),
    "least_failure room": ("least_failure", SQUARE, 2, 2, FLAGS, [(1, [])], 100, -1),
    "mark flag": ("mark", SQUARE, 2, 2, bytearray([0, 3]), [(1, [0])], 100),
    "mark flag and product": ("mark", ints(0, 1, 1, -3), 2, 2, bytearray([0, 3]), [(1, [0])],
                              100),  # both wrong: the products are checked first
    "grow flag": ("grow", SQUARE, 2, 2, bytes([0, 2]), [(1, [0])], ints(), ints(), 0, 100, 99),
    "least_failure flag": ("least_failure", SQUARE, 2, 2, bytes([2, 0]), [(1, [])], 100, 99),
    "candidates flag": ("candidates", ints(1, 0), 1, ints(0, 0), ints(0, 0), bytes([0, 2]),
                        SQUARE, 2, [1], False),
    "mark stride": ("mark", SQUARE, 2, 3, bytearray([2, 2]), [(1, [0])], 100),
    "reach generator": ("reach", SQUARE, 2, 2, [2]),
    "minimize move": ("minimize", 2, 1, ints(0, 2), [0, 1]),
    "minimize labels": ("minimize", 2, 1, ints(0, 1), [0]),
    "product_columns needed": ("product_columns", ints(0), 1, 1, [0], [0], [2]),
    "product_columns huge": ("product_columns", ints(0), 1, 1, [0], [2**20, 2**20], [0]),
    "product_columns tails": ("product_columns", ints(0), 1, 1, [0], [0] * 65, [0]),
    "product_columns base column": ("product_columns", SQUARE, 2, 2, [2], [0], [1]),
    "product_columns bases": ("product_columns", SQUARE, 2, 2, [0, 1], [0], [1]),
    "collapse move past 32 bits": ("collapse", 1, 1, [2**31], [0]),
    "collapse block past 32 bits": ("collapse", 1, 1, [0], [-2**40]),
    "minimize move past 32 bits": ("minimize", 1, 1, [2**33], [0]),
    "grow set past 32 bits": ("grow", SQUARE, 2, 2, FLAGS, [(1, [0])], ints(0), [1, 2**32],
                              0, 100, 99),
}

# Good calls of every quotient kernel, their sequence arguments plain lists.
GOOD_CALLS = {
    "reach": (SQUARE, 2, 2, [1]),
    "columns": (ints(1, 0), 1, ints(0, 0), ints(0, 0), [1, 0, 1]),
    "collapse": (2, 1, [1, 0], [0, 1]),
    "minimize": (2, 1, [1, 0], [0, 0]),
    "product_columns": (ints(0), 1, 1, [0, 0], [1], [1, 2]),
    "candidates": (ints(1, 0), 1, ints(0, 0), ints(0, 0), FLAGS, SQUARE, 2, [1], False),
    "grow": (SQUARE, 2, 2, FLAGS, [(1, [0])], [0], [0], 0, 100, 99),
    "least_failure": (SQUARE, 2, 2, FLAGS, [(1, [0])], 100, 99),
}


class Liar(list):
    """A list whose indexing answers what its iteration does not (10**8 at every index)."""

    def __getitem__(self, index):
        return 10**8


class Shifty(list):
    """A list whose second and later iterations give 10**8 for every entry."""

    def __init__(self, values):
        super().__init__(values)
        self.reads = 0

    def __iter__(self):
        self.reads += 1
        return iter(list.__iter__(self) if self.reads == 1 else [10**8] * len(self))


def hostile(value, kind):
    """``value`` with every list in it (behaviours' lists too) made a ``kind``."""
    if isinstance(value, list):
        return kind([hostile(v, kind) for v in value])
    if isinstance(value, tuple):
        return tuple(hostile(v, kind) for v in value)
    return value

MISERE_CASES = {
    "no memo": ("misere_value", None, [1], 0),
    "a heap of 2**40": ("misere_value", "memo", [2**40], 0),
    "a negative heap": ("misere_value", "memo", [3, -1], 0),
    "negative twos": ("misere_value", "memo", [3], -1),
    "twos of 2**40": ("misere_value", "memo", [3], 2**40),
    "layers of no memo": ("misere_layers_agree", [], 0, 2),
    "negative layer": ("misere_layers_agree", "memo", -1, 2),
}


def outcome(call, *args) -> tuple[str, str]:
    try:
        result = call(*args)
    except (TypeError, ValueError) as exc:
        return type(exc).__name__, str(exc)
    return "returned", repr(result)


@pytest.mark.parametrize("case", QUOTIENT_CASES)
def test_the_quotient_twins_refuse_alike(case):
    name, *args = QUOTIENT_CASES[case]
    compiled, pure = load_kernel("cython", "quotient"), load_kernel("python", "quotient")
    got = outcome(getattr(compiled, name), *args)
    assert got == outcome(getattr(pure, name), *args)
    assert got[0] == "ValueError", got


@pytest.mark.parametrize("case", MISERE_CASES)
def test_the_misere_twins_refuse_alike(case):
    name, *args = MISERE_CASES[case]
    outcomes = []
    for kernel in (load_kernel("cython", "misere"), load_kernel("python", "misere")):
        memo = kernel.MisereMemo(KINDS, 1000)
        outcomes.append(outcome(getattr(kernel, name),
                                *(memo if a == "memo" else a for a in args)))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] in ("TypeError", "ValueError"), outcomes


@pytest.mark.parametrize("budget", [-1, 2**40, "many"])
def test_a_memo_with_a_bad_budget_is_refused_alike(budget):
    outcomes = [outcome(kernel.MisereMemo, KINDS, budget)
                for kernel in (load_kernel("cython", "misere"), load_kernel("python", "misere"))]
    assert outcomes[0] == outcomes[1] and outcomes[0][0] in ("TypeError", "ValueError")


@pytest.mark.parametrize("name", GOOD_CALLS)
def test_a_lying_sequence_is_read_once_by_both_twins(name):
    """Indexing that answers otherwise than iteration: both twins refuse alike (the values
    one read gives are out of range), and none reads past a table (this crashed before)."""
    compiled, pure = load_kernel("cython", "quotient"), load_kernel("python", "quotient")
    args = [hostile(a, Liar) for a in GOOD_CALLS[name]]
    got = outcome(getattr(compiled, name), *args)
    assert got == outcome(getattr(pure, name), *args)
    assert got[0] == "ValueError", got


@pytest.mark.parametrize("name", GOOD_CALLS)
def test_a_sequence_that_changes_between_reads_is_used_as_first_read(name):
    """Iteration that answers otherwise the second time: the kernels check and use one copy,
    so each twin answers as with the plain lists."""
    for kernel in (load_kernel("cython", "quotient"), load_kernel("python", "quotient")):
        plain = outcome(getattr(kernel, name), *GOOD_CALLS[name])
        assert plain[0] == "returned"
        args = [hostile(a, Shifty) for a in GOOD_CALLS[name]]
        assert outcome(getattr(kernel, name), *args) == plain


def test_good_arguments_still_work_alike():
    compiled, pure = load_kernel("cython", "quotient"), load_kernel("python", "quotient")
    for name, args in [("reach", (SQUARE, 2, 2, [1])),
                       ("columns", (ints(1, 0), 1, ints(0, 0), ints(0, 0), [1, 0, 1])),
                       ("collapse", (2, 1, ints(1, 0), ints(0, 1))),
                       ("minimize", (2, 1, ints(1, 0), [0, 0])),
                       ("product_columns", (ints(0), 1, 1, [0, 0], [1], [1, 2]))]:
        assert repr(getattr(compiled, name)(*args)) == repr(getattr(pure, name)(*args)), name
    assert _kernel_args.MAX_CELLS == 2**31 - 1


@pytest.mark.parametrize("bad", [0, 65, 10**30])
def test_one_range_for_threads_in_the_api_both_twins_and_the_command(bad, capsys):
    """THREADS (kayles.kernels.limits) is the one statement of --threads' range: the API,
    each twin's Scratch and the command give its message."""
    from kayles.engine.sequence import Sequence
    from kayles.interface.kayles_cli import main
    from kayles.kernels import limits

    message = f"threads must be 1 to {limits.THREADS.high}, not "
    for make in (load_kernel("cython", "core").Scratch, load_kernel("python", "core").Scratch,
                 lambda threads: Sequence(get_game("0.77"), threads=threads)):
        with pytest.raises(ValueError, match=f"^{message}"):
            make(threads=bad)
    assert main(["grundy", "5", "--threads", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"kayles grundy: --{message}")
