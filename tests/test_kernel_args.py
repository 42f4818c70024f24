"""Bad arguments to the misère and quotient kernels: the same error from both twins.

The compiled kernels index C arrays with what they are given; each of their Python-
callable entries checks its arguments first (kayles/engine/_kernel_args.py), and the pure
twins call the same checks.  Every case here crashed the compiled twin, read out of
its bounds or was refused by one twin only before; now both raise the same exception
with the same words, and no case reaches the C loops.
"""

from __future__ import annotations

from array import array

import pytest

from kayles.engine import _kernel_args
from kayles.engine.rules import encode, get_game

from conftest import load_kernel


def ints(*values: int) -> array:
    return array("i", values)


SQUARE = ints(0, 1, 1, 0)  # the product table of {0, 1} with 1 * 1 = 0
FLAGS = bytes([0, 1])
KINDS = encode(get_game("kayles").kinds)

QUOTIENT_CASES = {
    "restrict past n": ("restrict", SQUARE, 2, [0, 100_000_000]),
    "restrict not closed": ("restrict", ints(0, 1, 1, 1), 2, [0, 1, 1]),
    "restrict open": ("restrict", ints(0, 1, 2, 1, 2, 0, 2, 0, 1), 3, [0, 1]),
    "restrict n zero": ("restrict", ints(), 0, []),
    "restrict short table": ("restrict", ints(0, 1, 1), 2, [0]),
    "restrict bad product": ("restrict", ints(0, 1, 1, 7), 2, [0, 1]),
    "paths_table huge": ("paths_table", 2**40, 2, [], [], []),
    "paths_table parent": ("paths_table", 2, 1, ints(1, 0), [0, 5], [0, 0]),
    "paths_table letter": ("paths_table", 2, 1, ints(1, 0), [0, 0], [0, 3]),
    "paths_table trans": ("paths_table", 2, 1, ints(1, 9), [0, 0], [0, 0]),
    "paths_table short": ("paths_table", 2, 2, ints(1, 0), [0, 0], [0, 0]),
    "candidates option": ("candidates", SQUARE, 2, FLAGS, [5], False),
    "candidates flags": ("candidates", SQUARE, 2, bytes([0]), [1], False),
    "candidates bad product": ("candidates", ints(0, 1, 1, -3), 2, FLAGS, [1], False),
    "grow behaviour": ("grow", SQUARE, 2, FLAGS, [(1, [4])], ints(), b"", 0, 100),
    "grow states": ("grow", SQUARE, 2, FLAGS, [(1, [0])], ints(3), bytes(8), 0, 100),
    "grow sets": ("grow", SQUARE, 2, FLAGS, [(1, [0])], ints(0), bytes(3), 0, 100),
    "grow first": ("grow", SQUARE, 2, FLAGS, [(1, [0])], ints(), b"", 2, 100),
    "grow limit": ("grow", SQUARE, 2, FLAGS, [(1, [0])], ints(), b"", 0, 0),
    "least_failure behaviour": ("least_failure", SQUARE, 2, FLAGS, [(9, [])], 100),
    "mark flag": ("mark", SQUARE, 2, 2, bytearray([0, 3]), [(1, [0])], 100),
    "mark stride": ("mark", SQUARE, 2, 3, bytearray([2, 2]), [(1, [0])], 100),
    "reach generator": ("reach", SQUARE, 2, 2, [2]),
    "minimize move": ("minimize", 2, 1, ints(0, 2), [0, 1]),
    "minimize labels": ("minimize", 2, 1, ints(0, 1), [0]),
    "product_columns needed": ("product_columns", ints(0), 1, [0], [2]),
    "product_columns huge": ("product_columns", ints(0), 1, [2**20, 2**20], [0]),
    "product_columns tails": ("product_columns", ints(0), 1, [0] * 65, [0]),
}

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


def test_good_arguments_still_work_alike():
    compiled, pure = load_kernel("cython", "quotient"), load_kernel("python", "quotient")
    for name, args in [("restrict", (SQUARE, 2, [0, 1])), ("reach", (SQUARE, 2, 2, [1])),
                       ("paths_table", (2, 1, ints(1, 0), [0, 0], [0, 0])),
                       ("minimize", (2, 1, ints(1, 0), [0, 0])),
                       ("product_columns", (ints(0), 1, [1], [1, 2]))]:
        assert list(getattr(compiled, name)(*args)) == list(getattr(pure, name)(*args)), name
    assert _kernel_args.MAX_CELLS == 2**31 - 1


@pytest.mark.parametrize("bad", [0, 65, 10**30])
def test_one_range_for_threads_in_the_api_both_twins_and_the_command(bad, capsys):
    """THREADS (kayles.engine.limits) is the one statement of --threads' range: the API,
    each twin's Scratch and the command give its message."""
    from kayles.engine import limits
    from kayles.engine.sequence import Sequence
    from kayles.interface.kayles_cli import main

    message = f"threads must be 1 to {limits.THREADS.high}, not "
    for make in (load_kernel("cython", "core").Scratch, load_kernel("python", "core").Scratch,
                 lambda threads: Sequence(get_game("0.77"), threads=threads)):
        with pytest.raises(ValueError, match=f"^{message}"):
            make(threads=bad)
    assert main(["grundy", "5", "--threads", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"kayles grundy: --{message}")
