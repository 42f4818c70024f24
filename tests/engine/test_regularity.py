"""Regularity beyond the octal games: what theorems P and A prove (kayles.engine.regularity).

Every claim is checked far past the values its proof used, against the take-and-break
oracle (tests/oracle.py, every multiset of parts) where it is cheap and the take-and-break
kernel's plain table (no period copied) beyond: a proof read off too few values, or a
bound left unchecked, would claim what the values later deny.  The codes that repeat for
a while and break later were found by search (0.04: the octal form of the bound at n0 = 0;
0.08 and 0.209: the two-part bound on games of three parts).
"""

from __future__ import annotations

import random

import pytest
from test_codes import _oracle_of

from kayles.engine.codes import get_game
from kayles.engine.regularity import (
    ARITHMETIC,
    PERIODIC,
    certified,
    find_arithmetic,
    observe,
    parts_bound,
    prove,
    theorem_for,
    unprovable,
)
from kayles.engine.rules import encode_takebreak
from kayles.engine.sequence import Sequence
from kayles.kernels.pure import _core as _core_pure

import oracle
from conftest import load_kernel


def values(code: str, count: int) -> list[int]:
    """G(0..count-1) computed heap by heap (the kernel alone: no proof copies a period)."""
    table = memoryview(bytearray(2 * count)).cast("H")
    kernel = load_kernel("cython", "takebreak")
    kernel.extend(table, 0, count, encode_takebreak(get_game(code)), kernel.Scratch())
    return table.tolist()


def holds(g: list[int], n0: int, p: int, s: int) -> bool:
    return all(g[n + p] == g[n] + s for n in range(n0, len(g) - p))


# Proved regularities of the 1- and 2-digit hexadecimal codes: each is derived again from
# four times the values its proof used, or more.
@pytest.mark.parametrize("code", ["0.8", "0.A", "0.C", "0.0F", "0.28", "0.4A", "0.AF", "0.E8",
                                  "0.FF", "0.B", "0.D", "0.F", "0.88", "0.C2"])
def test_a_proved_regularity_holds_far_past_its_proof(code):
    found = Sequence(get_game(code)).prove(4096)
    assert found is not None, code
    far = values(code, max(4 * found.values, 4096))
    assert holds(far, found.preperiod, found.period, found.saltus), (code, found)
    assert _oracle_of(code).nimbers(99) == far[:100]  # and the oracle's, from the rules alone


def test_the_published_shape_of_the_saltus_examples():
    """Each with the theorem named: 0.8 arithmetic-periodic from 1 with period 3, saltus 1;
    0.28 period 53, saltus 16; 0.A periodic (theorem P)."""
    cases = {"0.8": (1, 3, 1, ARITHMETIC), "0.28": (1, 53, 16, ARITHMETIC),
             "0.A": (1, 2, 0, PERIODIC)}
    for code, (n0, p, s, theorem) in cases.items():
        found = Sequence(get_game(code)).prove(4096)
        assert (found.preperiod, found.period, found.saltus, found.theorem) == (n0, p, s, theorem)


@pytest.mark.parametrize("code", ["0.04", "0.08", "0.209"])
def test_codes_that_repeat_and_break_are_never_claimed_too_early(code):
    """These repeat over a short stretch and break later; a proof at any table length must
    hold far past it, and the bound (K max(n0, 1) + K p + t - K + 1) must be what stops the
    too-short claims: K = 2 at n0 = 0, or the two-part bound on three parts, would not."""
    far = values(code, 2400)
    game = get_game(code)
    for length in range(4, 300):
        found, _ = prove(game, far, length, _core_pure)
        if found is not None:
            n0, p, s, _ = found
            assert holds(far, n0, p, s), (code, length, found)
    weaker = {"0.04": (0, 1), "0.08": (1, 1), "0.209": (1, 3)}  # (n0, p) a weak bound passes
    n0, p = weaker[code]
    assert not holds(far, n0, p, 0)
    short = 2 * max(n0, 1) + p + game.span - 1 if code != "0.04" else 2 * n0 + p + game.span
    assert holds(far[:short + p], n0, p, 0), "the weaker bound would have claimed it"


def test_drawn_hexadecimal_codes_claim_nothing_false():
    """Codes drawn with a fixed seed: every proof, at every table length tried, holds to
    2400 values."""
    rng = random.Random(20261127)
    digits = "0123456789ABCDEF"
    for _ in range(40):
        code = "0." + "".join(rng.choice(digits) for _ in range(rng.randint(1, 2)))
        code += rng.choice(digits[1:])
        game = get_game(code)
        if game.octal:
            continue
        far = values(code, 2400)
        for length in (64, 128, 256, 512):
            found, _ = prove(game, far, length, _core_pure)
            if found is not None:
                assert holds(far, found[0], found[1], found[2]), (code, length, found)


def test_the_certificate_needs_every_hypothesis():
    """0.8 is proved with (1, 3, 1); a wrong saltus, a table that does not show it, or a
    code outside the theorem (marks, a digit before the point, an octal code) is not."""
    far = values("0.8", 600)
    assert certified(get_game("0.8"), far, 600, 1, 3, 1)
    assert not certified(get_game("0.8"), far, 600, 1, 3, 2)
    wrong = list(far)
    wrong[2] = 1  # G(0..n0+p-1) are what the certificate reads: another game's values
    assert not certified(get_game("0.8"), wrong, 600, 1, 3, 1)
    assert theorem_for(get_game("0.8!")) is None and parts_bound(get_game("0.8!")) is None
    assert theorem_for(get_game("8.0")) == PERIODIC  # a digit before the point: P only
    assert theorem_for(get_game("0.G")) == PERIODIC  # four parts: P only
    assert theorem_for(get_game("0.[3]")) is None
    assert not certified(get_game("0.77"), values("0.77", 600), 600, 71, 12, 0)


def test_octal_codes_report_no_saltus():
    """Finite octal games are never arithmetic-periodic: the octal path looks for none."""
    for code in ("0.77", "0.07", "0.6", "0.37", "4.07"):
        found = Sequence(get_game(code)).prove(1 << 14)
        assert found is None or found.saltus == 0


def test_0_2048_is_neither_periodic_nor_arithmetic_periodic():
    """Its ruler regularity (Grossman and Nowakowski): exceptional values keep coming, so
    no proof, and nothing observed, at any length the tests reach."""
    g = values("0.2048", 4096)
    for length in (512, 1024, 2048, 4096):
        assert observe(g, length) is None
        assert prove(get_game("0.2048"), g, length, _core_pure)[0] is None


def test_0_3F_is_observed_not_proved():
    """G(n + 6) = G(n) + 3 from the start (its saltus is no power of two: no certificate)."""
    g = values("0.3F", 4096)
    assert observe(g, 4096) == (0, 6, 3) == find_arithmetic(g, 4096)
    assert Sequence(get_game("0.3F")).prove(4096) is None


def test_why_no_theorem_here_proves_a_regularity_is_said():
    """Only where no table could help: a saltus with an odd factor (0.3F's 3), values of the
    first period at the saltus or above (0.C9: G(4) = 2 with saltus 2, so every stretch fails
    H0), a code outside theorem A (four parts); '' for a proved regularity, a periodic one
    and a table too short for the certificate."""
    g = values("0.3F", 4096)
    assert unprovable(get_game("0.3F"), g, 4096, 0, 6, 3).startswith(
        "theorem A needs a saltus that is a power of two, and 3 is not")
    g = values("0.C9", 1024)
    assert observe(g, 1024) == (3, 3, 2)
    assert "its H0), and G(4) = 2 is not below 2" in unprovable(get_game("0.C9"), g, 1024, 3, 3, 2)
    g = values("0.8", 600)
    assert unprovable(get_game("0.8"), g, 600, 1, 3, 1) == ""  # proved: nothing fails
    assert unprovable(get_game("0.8"), g, 6, 1, 3, 1) == ""  # too short: more may help
    assert unprovable(get_game("0.8"), g, 600, 1, 3, 0) == ""  # periodic: theorem P's
    assert unprovable(get_game("0.G"), values("0.G", 64), 64, 0, 2, 1).startswith(
        "theorem A covers finite hexadecimal codes")


def test_any_n_follows_the_proved_formula():
    sequence = Sequence(get_game("0.28"))
    found = sequence.prove(4096)
    far = values("0.28", 3000)
    for n in (0, 1, 52, 53, 54, 1000, 2999):
        assert sequence.nimber(n) == far[n]
    n = 10**30
    assert sequence.nimber(n) == far[1 + (n - 1) % 53] + 16 * ((n - 1) // 53)
    assert found.saltus == 16
    assert sequence.nimbers(2999) == far


def test_the_oracle_agrees_with_the_kernel_on_the_theorem_examples():
    for code in ("0.8", "0.C", "0.28", "0.209", "0.3F"):
        assert _oracle_of(code).nimbers(60) == values(code, 61)


def test_the_bound_of_theorem_p_in_both_twins(both_kernels):
    """find_period with K parts: the needed length, and the same answer from both twins."""
    g = values("0.A", 400)
    table = memoryview(bytearray(2 * 400)).cast("H")
    table[:] = memoryview(bytearray(__import__("array").array("H", g).tobytes())).cast("H")
    answers = [kernel.find_period(table, 400, 1, parts) for kernel in both_kernels
               for parts in (1, 2, 3)]
    assert answers[:3] == answers[3:]
    p, n0, needed = answers[2]
    assert (p, n0) == (2, 1) and needed == max(3 * 1 + 3 * 2 + 1 - 3 + 1, 2 + 1 + 1)
    with pytest.raises(ValueError, match="parts must be 1 to 64"):
        both_kernels[0].find_period(table, 400, 1, 0)
    with pytest.raises(ValueError, match="parts must be 1 to 64"):
        both_kernels[1].find_period(table, 400, 1, 0)


def test_oracle_module_is_used():
    assert oracle.TakeBreak({1: {3: ""}}).nimbers(10) == values("0.8", 11)
