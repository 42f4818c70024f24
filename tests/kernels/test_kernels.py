"""The kernels, each test on both twins, against the brute-force oracle."""

from __future__ import annotations

import itertools
import random

import pytest

from kayles import heaps
from kayles.engine.rules import (
    GAMES,
    MAX_KEPT,
    MAX_KINDS,
    MAX_SPAN,
    Game,
    MoveKind,
    encode,
    parse_octal,
)
from kayles.engine.sequence import Sequence

import oracle
from conftest import is_compiled, new_table

CODES = ["0.77", "0.07", "0.137", "0.007", "4.07", "0.4", "0.04", "0.6", "0.51", "4.7", "0.3"]



def computed(kernel, method: str, kinds, n: int, pieces: int = 1) -> list[int]:
    """G(0..n-1) by one kernel function, in ``pieces`` calls."""
    table = new_table(n)
    extend = getattr(kernel, f"extend_{method}")
    cuts = sorted({0, n, *random.Random(n).sample(range(n), pieces - 1)})
    for start, stop in zip(cuts, cuts[1:]):
        extend(table, start, stop, encode(kinds))
    return table.tolist()


def random_codes(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    codes = []
    for _ in range(count):
        digits = "".join(rng.choice("01234567") for _ in range(rng.randint(1, 4)))
        codes.append(rng.choice(["0.", "4."]) + digits)
    return codes


@pytest.mark.parametrize("method", ["plain", "sparse"])
@pytest.mark.parametrize("code", CODES + random_codes(25, seed=1))
def test_octal_nimbers_match_the_definition(kernel, method, code):
    expected = oracle.octal_nimbers(code, 150)
    assert computed(kernel, method, parse_octal(code).kinds, 151) == expected


@pytest.mark.parametrize("method", ["plain", "sparse"])
def test_kayles_xox_nimbers_match_literal_play(kernel, method):
    expected = oracle.KAYLES_XOX.nimbers(30)
    assert computed(kernel, method, GAMES["kayles-xox"].kinds, 31) == expected


@pytest.mark.parametrize("method", ["plain", "sparse"])
def test_grundys_game_matches_the_definition(kernel, method):
    expected = oracle.grundys_game_nimbers(400)
    assert computed(kernel, method, GAMES["grundy"].kinds, 401) == expected


@pytest.mark.parametrize("name", ["kayles-xox", "kayles", "dawsons-kayles", "grundy"])
def test_sparse_equals_plain_on_long_tables_and_in_pieces(kernel, name):
    n = 3000 if is_compiled(kernel) else 600
    kinds = GAMES[name].kinds
    plain = computed(kernel, "plain", kinds, n)
    assert computed(kernel, "sparse", kinds, n) == plain
    assert computed(kernel, "sparse", kinds, n, pieces=7) == plain


@pytest.mark.parametrize("name", ["dawsons-kayles", "0.150"])
def test_the_one_hot_path_gives_the_plain_values(kernel, name):
    """With values below 64 and ONE_HOT_MIN (1024) rare positions or more, the compiled
    core ORs one-hot words instead of flagging: on from 8,192 or 16,384 heaps here."""
    compiled = is_compiled(kernel)
    n = 20000 if compiled else 600
    kinds = GAMES[name].kinds if name in GAMES else parse_octal(name).kinds
    plain = computed(kernel, "plain", kinds, n)
    table = new_table(n)
    scratch = kernel.Scratch()
    for start, stop in ((0, n // 4), (n // 4, n // 4 + 1), (n // 4 + 1, n)):
        kernel.extend_sparse(table, start, stop, encode(kinds), scratch)
    assert table.tolist() == plain
    assert scratch.one_hot == compiled


def computed_with(kernel, vector: str, kinds, prefix: list[int], n: int) -> list[int]:
    """G(len(prefix)..n-1) after a given prefix, by extend_sparse on one vector path."""
    table = new_table(n)
    for i, v in enumerate(prefix):
        table[i] = v
    scratch = kernel.Scratch(vector=vector)
    for start, stop in ((len(prefix), (len(prefix) + n) // 2), ((len(prefix) + n) // 2, n)):
        kernel.extend_sparse(table, start, stop, encode(kinds), scratch)
    return table.tolist()


def plain_after(kernel, kinds, prefix: list[int], n: int) -> list[int]:
    table = new_table(n)
    for i, v in enumerate(prefix):
        table[i] = v
    kernel.extend_plain(table, len(prefix), n, encode(kinds))
    return table.tolist()


@pytest.mark.parametrize("name", ["grundy", "0.376", "0.04"])
def test_every_vector_path_gives_the_plain_values(kernel, name):
    """Grundy's game and .376 reach the searches' last stage thousands of times
    by 20,000 heaps (.04 later): each instruction set this CPU has must agree."""
    n = 20000 if is_compiled(kernel) else 600
    kinds = GAMES[name].kinds if name in GAMES else parse_octal(name).kinds
    plain = computed(kernel, "plain", kinds, n)
    for vector in kernel.VECTORS:
        assert computed_with(kernel, vector, kinds, [], n) == plain, vector


@pytest.mark.parametrize("top", [1 << 10, 1 << 11])
def test_every_vector_path_agrees_on_long_lonely_searches(kernel, top):
    """A prefix of odd values in (top, 2 top): every option of a new heap is even,
    so 0 needs two equal parts and is often never found, and the search sweeps to
    the end: the set path below 2048, the compare path from 2048 on."""
    size, n = (3000, 3400) if is_compiled(kernel) else (300, 340)
    rng = random.Random(top)
    prefix = [rng.randrange(top + 1, 2 * top, 2) for _ in range(size)]
    kinds = parse_octal("0.04").kinds
    plain = plain_after(kernel, kinds, prefix, n)
    assert 0 in plain[size:]  # some new heaps are 0: their searches swept every pair
    for vector in kernel.VECTORS:
        assert computed_with(kernel, vector, kinds, prefix, n) == plain, vector


CHECKED_SHARE_GAMES = {
    ".04": (parse_octal("0.04").kinds, 40000),
    "xx+xoooooxx": ([MoveKind("xx", {2}), MoveKind("xoooooxx", {2})], 20000),
}


@pytest.mark.parametrize("name", CHECKED_SHARE_GAMES)
def test_every_vector_path_agrees_where_rare_pairs_are_checked(kernel, name):
    """From CHECK_MIN rare positions on, the AVX-512 rare pass flags the older
    rare parts only and checks the newest against each remainder's candidates,
    flagging them after all for a value past its candidates.  .04 gets there
    by 40,000 heaps; the second game does thousands of times by 20,000 and
    reads its candidates through a constant (its kept run of 5 has G = 1)."""
    kinds, n = CHECKED_SHARE_GAMES[name]
    n = n if is_compiled(kernel) else 600
    plain = computed(kernel, "plain", kinds, n)
    assert len(kinds) == 1 or plain[5] == 1
    for vector in kernel.VECTORS:
        assert computed_with(kernel, vector, kinds, [], n) == plain, vector


def test_a_scratch_names_only_vectors_it_has(kernel):
    assert kernel.VECTORS and all(isinstance(v, str) for v in kernel.VECTORS)
    with pytest.raises(ValueError, match="vector must be one of"):
        kernel.Scratch(vector="mmx")


@pytest.mark.parametrize(
    "kinds",
    [
        [MoveKind("xox", {0, 1, 2})],
        [MoveKind("xoox", {1, 2}), MoveKind("x", {0})],
        [MoveKind("xoxox", {0, 2}), MoveKind("", {2})],
        [MoveKind("xx", {2}, unequal=True), MoveKind("x", {1, 2})],
    ],
    ids=repr,
)
def test_pattern_moves_match_a_literal_definition(kernel, kinds):
    """Options G(a) ^ G(b) ^ G(kept runs), by brute force over every placement."""
    expected = oracle.heap_game_nimbers([(k.pattern, set(k.leave), k.unequal) for k in kinds], 119)
    assert mex_over_options(Game("patterns", kinds), 120) == expected
    for method in ("plain", "sparse"):
        assert computed(kernel, method, kinds, 120) == expected


# -- the kernels, specified against Game.options ------------------------------------------------


def mex_over_options(game: Game, n: int) -> list[int]:
    """G(0..n-1) as the mex of every option's value (rules.Game.options)."""
    g: list[int] = []
    for size in range(n):
        g.append(oracle.mex(option.value(g.__getitem__) for option in game.options(size)))
    return g


def random_kinds(rng: random.Random) -> list[MoveKind]:
    kinds = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.2:
            kinds.append(MoveKind("", {2}, unequal=rng.random() < 0.5))
            continue
        inner = "".join(rng.choice("xo") for _ in range(rng.randint(0, 4)))
        pattern = "x" + inner + "x" if rng.random() < 0.6 else "x" * rng.randint(1, 3)
        leave = {i for i in range(3) if rng.random() < 0.6} or {rng.randint(0, 2)}
        kinds.append(MoveKind(pattern, leave, unequal=rng.random() < 0.3))
    return kinds


RANDOM_GAMES = [parse_octal(code) for code in random_codes(12, seed=7)] + [
    Game(f"random {i}", random_kinds(random.Random(i))) for i in range(16)
]


@pytest.mark.parametrize("game", RANDOM_GAMES, ids=repr)
def test_nimbers_are_the_mex_over_game_options(kernel, game):
    expected = mex_over_options(game, 90)
    for method in ("plain", "sparse"):
        assert computed(kernel, method, game.kinds, 90) == expected
        assert computed(kernel, method, game.kinds, 90, pieces=4) == expected


def first_option_move(game: Game, row: str, g: list[int]) -> tuple[int, int] | None:
    """The leftmost run that can be lowered, and in it the first option (Game.options
    order) whose value reaches G(run) ^ X: (first covered index, kind index)."""
    found = oracle.runs(row)
    total = 0
    for _, size in found:
        total ^= g[size]
    if not total:
        return None
    first, size = next((f, s) for f, s in found if g[s] ^ total < g[s])
    option = next(o for o in game.options(size) if o.value(g.__getitem__) == g[size] ^ total)
    return first + option.a, option.kind


@pytest.mark.parametrize("game", [g for g in RANDOM_GAMES if g.on_rows], ids=repr)
def test_row_move_is_the_first_option_that_reaches_the_target(kernel, game):
    rng = random.Random(game.name)
    g = mex_over_options(game, 41)
    table = new_table(41)
    kernel.extend_plain(table, 0, 41, encode(game.kinds))
    sequence = Sequence(game, kernel=kernel)
    for _ in range(60):
        row = "".join(rng.choice("xxx.") for _ in range(rng.randint(0, 40)))
        expected = first_option_move(game, row, g)
        assert kernel.row_move(row.encode(), table, encode(game.kinds)) == expected, row
        # heaps.winning_move makes the same choice on the row's runs
        runs = oracle.runs(row)
        move = heaps.winning_move([size for _, size in runs], sequence)
        if expected is None:
            assert move is None
        else:
            start, size = runs[move.index]
            option = next(o for o in game.options(size) if start + o.a == expected[0]
                          and o.kind == expected[1])
            assert move.parts == option.parts


def test_the_kernels_hold_exactly_the_shared_limits(kernel):
    """ext/_core.pyx's cdef enum agrees with kayles/kernels/constants.py: MAX_KINDS kinds,
    MAX_KEPT kept runs and moves of MAX_SPAN tokens fit, one more does not."""
    widest = Game("widest", [MoveKind("x" + "ox" * MAX_KEPT, {0, 1, 2})] +
                  [MoveKind("x" * MAX_SPAN, {0, 1, 2})] + [MoveKind("x", {2})] * (MAX_KINDS - 2))
    expected = mex_over_options(widest, 140)
    for method in ("plain", "sparse"):
        assert computed(kernel, method, widest.kinds, 140) == expected
    row = "x" * 40
    table = new_table(41)
    kernel.extend_plain(table, 0, 41, encode(widest.kinds))
    assert kernel.row_move(row.encode(), table, encode(widest.kinds)) == first_option_move(
        widest, row, table.tolist())
    too_many = encode([MoveKind("x", {0})] * (MAX_KINDS + 1))
    too_wide = ((2 * MAX_KEPT + 3, (1,) * (MAX_KEPT + 1), 7, False),)
    too_long = ((MAX_SPAN + 1, (), 7, False),)
    for kinds, message in [(too_many, f"at most {MAX_KINDS} move kinds"),
                           (too_wide, f"at most {MAX_KEPT} kept runs"),
                           (too_long, f"spans at most {MAX_SPAN} tokens")]:
        for call in (kernel.extend_plain, kernel.extend_sparse):
            with pytest.raises(ValueError, match=message):
                call(new_table(4), 0, 4, kinds)
        with pytest.raises(ValueError, match=message):
            kernel.row_move(b"x", new_table(4), kinds)


def test_extend_rejects_a_range_outside_the_table(kernel):
    kinds = encode(GAMES["kayles"].kinds)
    for extend in (kernel.extend_plain, kernel.extend_sparse):
        for start, stop in [(0, 11), (5, 4), (-1, 3)]:
            message = f"range {start}:{stop} does not fit a table of 10"
            with pytest.raises(ValueError, match=message):
                extend(new_table(10), start, stop, kinds)


def test_kernels_refuse_more_kinds_than_they_hold(kernel):
    many = ((1, (), 7, False),) * 65
    with pytest.raises(ValueError, match="at most 64 move kinds"):
        kernel.extend_plain(new_table(4), 0, 4, many)
    with pytest.raises(ValueError, match="at most 8 kept runs"):
        kernel.extend_sparse(new_table(4), 0, 4, ((19, (1,) * 9, 7, False),))


# -- periods -----------------------------------------------------------------------------------


def least_proof(values: list[int], span: int):
    """(p, n0, needed) with the fewest needed values (ties: smaller p), or None, by brute force.

    Candidates are the periods p <= length / 2 with needed < 2 * length.
    """
    length = len(values)
    best = None
    for p in range(1, length // 2 + 1):
        n0 = length - p
        while n0 > 0 and values[n0 - 1] == values[n0 - 1 + p]:
            n0 -= 1
        needed = max(2 * max(n0, 1) + 2 * p + span - 1, p + span + 1)
        if needed < 2 * length and (best is None or needed < best[2]):
            best = (p, n0, needed)
    return best


def eventually_periodic(rng: random.Random, length: int) -> list[int]:
    p = rng.randint(1, 12)
    block = [rng.randint(0, 3) for _ in range(p)]
    head = [rng.randint(0, 3) for _ in range(rng.randint(0, 30))]
    values = head + block * (length // p + 1)
    return values[:length]


def test_find_period_finds_the_least_proof(kernel):
    rng = random.Random(7)
    for _ in range(300):
        values = eventually_periodic(rng, rng.randint(1, 120))
        span = rng.randint(0, 4)
        table = new_table(len(values) + 5)  # room past the length must be ignored
        for i, v in enumerate(values):
            table[i] = v
        assert kernel.find_period(table, len(values), span) == least_proof(values, span)


def test_find_period_guards_the_start_of_the_table(kernel):
    """0.004 starts 0, 0, 0, 0, 0, 1: five zeros prove nothing (the max(n0, 1) guard)."""
    zeros = new_table(5)
    assert kernel.find_period(zeros, 5, 3) == (1, 0, 6)
    assert kernel.find_period(zeros, 2, 3) is None


def test_find_period_rejects_a_length_past_the_table(kernel):
    with pytest.raises(ValueError, match="length 6 does not fit a table of 5"):
        kernel.find_period(new_table(5), 6, 1)


# -- rows --------------------------------------------------------------------------------------

ALL_ROWS_12 = ["".join(r) for n in range(13) for r in itertools.product(".x", repeat=n)]


def row_answer(kernel, game, row: str) -> str | None:
    """The kernel's winning move applied to the row (the same steps as kayles.analysis.row)."""
    table = new_table(len(row) + 1)
    kernel.extend_plain(table, 0, len(table), encode(game.kinds))
    found = kernel.row_move(row.encode(), table, encode(game.kinds))
    if found is None:
        return None
    start, kind = found
    out = list(row)
    for offset, token in enumerate(game.kinds[kind].pattern):
        if token == "x":
            out[start + offset] = "."
    return "".join(out)


def test_every_kayles_xox_row_up_to_12_pins_matches_literal_play(kernel):
    game = GAMES["kayles-xox"]
    table = new_table(13)
    kernel.extend_sparse(table, 0, 13, encode(game.kinds))
    for row in ALL_ROWS_12:
        assert kernel.row_nim_sum(row.encode(), table) == oracle.KAYLES_XOX.grundy(row), row
        assert row_answer(kernel, game, row) == oracle.KAYLES_XOX.winning_move(row), row


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "0.6", "0.35"])
def test_octal_rows_up_to_10_pins_match_literal_play(kernel, code):
    literal = oracle.octal_row_game(code)
    game = parse_octal(code)
    for row in ALL_ROWS_12:
        if len(row) <= 10:
            assert row_answer(kernel, game, row) == literal.winning_move(row), row


def test_random_longer_rows_match_literal_play(kernel):
    rng = random.Random(3)
    game = GAMES["kayles-xox"]
    for _ in range(150):
        row = "".join(rng.choice("xxx.") for _ in range(rng.randint(13, 24)))
        assert row_answer(kernel, game, row) == oracle.KAYLES_XOX.winning_move(row), row


def test_rows_need_a_table_as_long_as_their_longest_run(kernel):
    table = new_table(4)
    with pytest.raises(ValueError, match="a run of 5 pins needs a table longer than 4"):
        kernel.row_nim_sum(b"xx.xxxxx.xxxxxx", table)


def test_row_move_reports_a_wrong_table(kernel):
    """A table that is not the game's nim-sequence can leave no option to reach."""
    table = new_table(3)
    table[1], table[2] = 1, 3  # G(2) is 0: two pins have only the option G(1) = 1, never 0
    with pytest.raises(RuntimeError, match="the table is wrong"):
        kernel.row_move(b"xx", table, encode(GAMES["kayles-xox"].kinds))
