"""Nim-sequences and their proofs: published facts, the certificate checked past itself."""

from __future__ import annotations

import io

import pytest

from kayles import sequence as sequence_module
from kayles import xox
from kayles.engine.rules import GAMES, Game, MoveKind, encode, parse_octal
from kayles.engine.sequence import Period, Sequence, direct_limit
from kayles.interface._output import write_nimbers

import oracle
from conftest import is_compiled, load_kernel

# Published facts (Berlekamp, Conway & Guy, Winning Ways, ch. 4; OEIS), not computed here.
A002186_KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]
A002188_GRUNDY = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3]
PUBLISHED_PERIODS = [("kayles", 71, 12), ("dawsons-kayles", 53, 34), ("dawsons-chess", 52, 34)]


def test_oeis_prefixes(kernel):
    assert Sequence(GAMES["kayles"], kernel=kernel).nimbers(15) == A002186_KAYLES
    assert Sequence(GAMES["grundy"], kernel=kernel).nimbers(19) == A002188_GRUNDY


@pytest.mark.parametrize(("name", "preperiod", "period"), PUBLISHED_PERIODS)
@pytest.mark.parametrize("method", ["sparse", "plain"])
def test_published_periods_are_proved(kernel, name, preperiod, period, method):
    found = Sequence(GAMES[name], method=method, kernel=kernel).prove()
    assert (found.preperiod, found.period) == (preperiod, period)
    assert found.values >= 2 * preperiod + 2 * period + GAMES[name].span - 1  # the bound


def test_kayles_last_exception_is_at_70(kernel):
    sequence = Sequence(GAMES["kayles"], kernel=kernel)
    assert sequence.nimber(70) != sequence.nimber(70 + 12)
    assert all(sequence.nimber(n) == sequence.nimber(n + 12) for n in range(71, 2000))


def independent_table(kernel, game: Game, count: int, method: str) -> list[int]:
    table = memoryview(bytearray(2 * count)).cast("H")
    getattr(kernel, f"extend_{method}")(table, 0, count, encode(game.kinds))
    return table.tolist()


def assert_certificate_holds(found: Period, table: list[int]) -> None:
    n0, p = found.preperiod, found.period
    assert all(table[n] == table[n - p] for n in range(n0 + p, len(table)))
    if n0:  # and neither the preperiod nor the period can be smaller
        assert table[n0 - 1] != table[n0 - 1 + p]
    assert not any(all(table[n] == table[n - q] for n in range(n0 + q, len(table)))
                   for q in range(1, p))


CERTIFIED_CODES = [
    "0.77", "0.07", "0.137", "0.4", "4.7", "0.33", "0.52", "0.15", "0.45", "4.07", "0.35"
]


@pytest.mark.parametrize("code", CERTIFIED_CODES)
def test_the_certificate_holds_far_past_the_proof(kernel, code):
    """Whatever period the sparse proof claims, the plain scan confirms to 3x its length."""
    game = parse_octal(code)
    sequence = Sequence(game, kernel=kernel)
    found = sequence.prove(limit=4000)
    assert found is not None
    table = independent_table(kernel, game, 3 * found.values, "plain")
    assert_certificate_holds(found, table)
    assert sequence.nimbers(len(table) - 1) == table


def test_the_kayles_xox_certificate_holds_far_past_the_proof():
    """The plain scan's proof, confirmed by the sparse scan to 4x its length (compiled only:
    the pure twin needs about half a minute for this proof)."""
    kernel = load_kernel("cython")
    found = Sequence(GAMES["kayles-xox"], method="plain", kernel=kernel).prove()
    table = independent_table(kernel, GAMES["kayles-xox"], 4 * found.values, "sparse")
    assert_certificate_holds(found, table)
    assert xox.nimbers(len(table) - 1) == table
    assert xox.period() == found


@pytest.mark.parametrize("code", ["0.004", "0.04"])
def test_slow_starters_claim_no_period(kernel, code):
    """They start with zeros, then grow: the max(n0, 1) guard keeps them unproved."""
    sequence = Sequence(parse_octal(code), kernel=kernel)
    assert sequence.prove(limit=3000 if is_compiled(kernel) else 600) is None
    assert sequence.nimbers(100) == oracle.octal_nimbers(code, 100)


def test_a_proved_sequence_answers_any_heap(kernel):
    sequence = Sequence(GAMES["dawsons-kayles"], kernel=kernel)
    found = sequence.prove()
    n0, p = found.preperiod, found.period
    direct = oracle.octal_nimbers("0.07", n0 + 3 * p)
    for n in (n0, n0 + p - 1, 10**6 + 7, 10**100, 10**100 + 1):
        assert sequence.nimber(n) == direct[n0 + (n - n0) % p]
    assert len(sequence) == found.values  # nothing was computed for the huge heaps


def test_segments_stream_a_long_range_in_whole_periods(kernel):
    sequence = Sequence(GAMES["kayles"], kernel=kernel)
    count = 10**6 + 5
    pieces = list(sequence.segments(count))
    assert sum(len(values) * times for values, times in pieces) == count
    expanded = [v for values, times in pieces[:2] for v in list(values) * min(times, 20)]
    assert expanded[:300] == oracle.octal_nimbers("0.77", 299)
    assert max(len(values) for values, _ in pieces) <= 71 + 12


def test_written_nimbers_match_the_seed_format(kernel):
    out = io.StringIO()
    write_nimbers(Sequence(GAMES["kayles-xox"], kernel=kernel).segments(7), out)
    assert out.getvalue() == "[0, 1, 0, 2, 3, 2, 1]\n"
    out = io.StringIO()
    write_nimbers(Sequence(GAMES["kayles"], kernel=kernel).segments(1501), out)
    assert out.getvalue() == str(oracle.octal_nimbers("0.77", 1500)) + "\n"


def test_unprovable_games_compute_up_to_the_direct_limit(kernel):
    sequence = Sequence(GAMES["grundy"], kernel=kernel)
    assert sequence.prove() is None  # 'unequal' moves: no theorem, so no search
    assert len(sequence) == 0
    with pytest.raises(ValueError, match="past the direct limit"):
        sequence.nimber(direct_limit() + 1)


@pytest.mark.parametrize("game", ["grundy", "kayles"])
def test_a_table_asked_for_at_once_is_allocated_once(kernel, game, monkeypatch):
    """table(count) allocates its count values once: growing by doubling would hold
    the old and the new table at once (1.5 times the final bytes at the peak)."""
    sequence, sizes, count = Sequence(GAMES[game], kernel=kernel), [], 5000
    new_table = sequence_module._new_table
    monkeypatch.setattr(sequence_module, "_new_table", lambda size: sizes.append(size)
                        or new_table(size))
    assert len(sequence.table(count)) == count
    assert sizes == [count]


def test_progress_is_reported_while_computing(kernel):
    seen = []

    class Progress:
        def update(self, done, wanted):
            seen.append((done, wanted))

    sequence = Sequence(GAMES["grundy"], kernel=kernel, progress=Progress())
    sequence.nimbers(300)
    assert seen and all(wanted == 301 and done < 301 for done, wanted in seen)


def test_bad_requests_are_value_errors():
    sequence = Sequence(GAMES["kayles"])
    with pytest.raises(ValueError, match="heap size must be >= 0"):
        sequence.nimber(-1)
    with pytest.raises(ValueError, match="n must be >= 0"):
        sequence.nimbers(-1)
    with pytest.raises(ValueError, match="method must be"):
        Sequence(GAMES["kayles"], method="fast")


def test_split_moves_with_patterns_match_brute_force(kernel):
    game = Game("mixed", [MoveKind("", {2}), MoveKind("xox", {0, 1})])
    sequence = Sequence(game, kernel=kernel)
    g: list[int] = []
    for n in range(80):
        options = {g[a] ^ g[n - a] for a in range(1, n)}
        options |= {g[1] ^ g[n - 3]} if n >= 4 else ({g[1]} if n == 3 else set())
        g.append(oracle.mex(options))
    assert sequence.nimbers(79) == g


@pytest.mark.parametrize(("setting", "limit"), [("768M", 1 << 27), ("6144", 1024),
                                                ("6g", 1 << 30), ("64TB", (1 << 32) - 1)])
def test_the_direct_limit_follows_the_memory(monkeypatch, setting, limit):
    """KAYLES_MEMORY (else the memory Linux calls available) over 6 bytes a value, at most
    2**32 - 1 values; past it only a proof answers, and a refusal names the memory needed."""
    monkeypatch.setenv("KAYLES_MEMORY", setting)
    assert direct_limit() == limit
    if limit < 1 << 20:
        sequence = Sequence(GAMES["grundy"])
        with pytest.raises(ValueError, match=f"past the direct limit \\({limit - 1}: the table "
                                             "KAYLES_MEMORY holds\\)"):
            sequence.nimber(limit)
        assert sequence.nimber(limit - 1) == sequence.table(limit)[limit - 1]
    from kayles.kernels.limits import too_long

    assert too_long(limit) == ""
    assert ("need about" in too_long(limit + 1) if limit < (1 << 32) - 1
            else "a table holds" in too_long(limit + 1))


@pytest.mark.parametrize("setting", ["lots", "0", "8X", "-5G", "G"])
def test_a_bad_memory_setting_is_refused(monkeypatch, setting):
    from kayles.errors import SetupError

    monkeypatch.setenv("KAYLES_MEMORY", setting)
    with pytest.raises(SetupError, match="KAYLES_MEMORY must be a number of bytes"):
        direct_limit()


def test_without_a_setting_the_limit_is_the_available_memory(monkeypatch):
    monkeypatch.delenv("KAYLES_MEMORY")
    with open("/proc/meminfo") as info:
        available = next(int(line.split()[1]) for line in info if line.startswith("MemAvailable"))
    assert abs(direct_limit() - min(available * 1024 // 6, (1 << 32) - 1)) < 1 << 24


@pytest.mark.parametrize("bad", [0, -3, 2.5, "64", True])
def test_a_step_that_would_compute_nothing_is_refused(bad):
    """Sequence.step bounds the values one kernel call computes: 0 looped for ever before."""
    sequence = Sequence(GAMES["kayles"])
    with pytest.raises(ValueError, match="step must be None or an integer >= 1"):
        sequence.step = bad
    sequence.step = 7
    assert sequence.nimbers(20) == Sequence(GAMES["kayles"]).nimbers(20)
    sequence.step = None
    assert sequence.step is None
