"""Cram and Node Kayles on boards (kayles.kernels._boards and its pure twin): published
values, a brute force from the rules on random boards, each reduction of ext/src/boards.c
met and checked, congruent shapes sharing a key, a tiny table, the interrupt hook, Ctrl-C.

Expected values come from tests/data/cram_values.json (igsolve's README table, the notes'
small boards) and from tests/oracle.py (every move tried on the whole position), never
from the kernels.  Random boards print their seed.
"""

from __future__ import annotations

import json
import random
import signal
import threading

import pytest

from kayles.kernels import limits

import oracle
from conftest import ROOT, load_kernel

SEED = 20261201
DATA = json.loads((ROOT / "tests" / "data" / "cram_values.json").read_text())
BIG = 1 << 26  # bytes of table: room for every board here


def compiled(kernel) -> bool:
    return ".pure." not in kernel.__name__


def full(rows: int, cols: int) -> int:
    return (1 << (rows * cols)) - 1


def published(limit: int) -> list[tuple[int, int, int]]:
    """(rows, cols, value) of the README table's boards of at most ``limit`` cells."""
    found = [(int(r), int(c), v) for r, row in DATA["rows"].items() for c, v in row.items()]
    small = DATA["small"]
    found += [(1, n, v) for n, v in enumerate(small["1xn"], start=1)]
    found += [(2, int(n), v) for n, v in small["2xn"].items()]
    found += [(3, int(n), v) for n, v in small["3xn"].items()]
    return sorted(b for b in found if b[0] * b[1] <= limit)


def test_full_boards_have_their_published_values_pure():
    kernel = load_kernel("python", "boards")
    for rows, cols, value in published(20):
        assert kernel.Board(rows, cols, "cram", BIG).nimber(full(rows, cols)) == value, (rows, cols)
        assert kernel.Board(cols, rows, "cram", BIG).nimber(full(rows, cols)) == value, (cols, rows)


def test_full_boards_have_their_published_values_compiled():
    kernel = load_kernel("cython", "boards")
    for rows, cols, value in published(36):
        assert kernel.Board(rows, cols, "cram", BIG).nimber(full(rows, cols)) == value, (rows, cols)
    assert kernel.Board(7, 5, "cram", BIG).nimber(full(7, 5)) == 1  # the README's 5 x 7


@pytest.mark.parametrize("rows, cols", [(2, 8), (4, 4), (4, 6), (6, 4), (2, 12)])
def test_even_by_even_boards_are_0(rows, cols):
    """The symmetry strategy (kayles/engine/families/cram.py says why), found by search."""
    kernel = load_kernel("cython", "boards")
    assert kernel.Board(rows, cols, "cram", BIG).nimber(full(rows, cols)) == 0


def random_board(rng: random.Random, cells: int) -> tuple[int, int, int]:
    while True:
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        if rows * cols <= cells:
            break
    density = rng.choice([0.55, 0.7, 0.85, 1.0])
    return rows, cols, sum(1 << i for i in range(rows * cols) if rng.random() < density)


def test_values_match_a_brute_force_on_random_boards(board_kernel):
    cells, trials = (18, 150) if compiled(board_kernel) else (14, 60)
    print("seed", SEED)
    rng = random.Random(SEED)
    for _ in range(trials):
        rows, cols, free = random_board(rng, cells)
        alive = frozenset(i for i in range(rows * cols) if free >> i & 1)
        graph = oracle.grid_graph(rows, cols)
        for rule in ("cram", "node"):
            expected = oracle.kayles_on_graph(graph, alive, node=rule == "node")
            got = board_kernel.Board(rows, cols, rule, BIG).nimber(free)
            assert got == expected, (rows, cols, bin(free), rule)


def test_has_value_answers_as_the_brute_force_does(board_kernel):
    """has_value(free, v) for v = the brute force's value, the values around it and one past
    any value, each on a fresh board (so nothing is known before it is asked) and on the
    board that already holds the answers; a board of separate parts included."""
    cells, trials = (16, 60) if compiled(board_kernel) else (12, 25)
    print("seed", SEED)
    rng = random.Random(SEED + 1)
    for _ in range(trials):
        rows, cols, free = random_board(rng, cells)
        alive = frozenset(i for i in range(rows * cols) if free >> i & 1)
        for rule in ("cram", "node"):
            value = oracle.kayles_on_graph(oracle.grid_graph(rows, cols), alive,
                                           node=rule == "node")
            warm = board_kernel.Board(rows, cols, rule, BIG)
            for asked in sorted({0, 1, value, value + 1, max(value - 1, 0), 1 << 30}):
                fresh = board_kernel.Board(rows, cols, rule, BIG)
                assert fresh.has_value(free, asked) == (asked == value), (rows, cols, bin(free))
                assert warm.has_value(free, asked) == (asked == value)
            assert warm.nimber(free) == value


def test_has_value_expands_fewer_positions_than_the_value_and_the_twins_alike(
        both_board_kernels):
    """Each option of the empty 3 x 5 board asked "is it 0?" on a fresh board, against its
    value found on another: an N-position needs one option of value 0, not its exact
    value (counted positions, the same in both twins: 370 against 716 measured)."""
    counts = []
    for kernel in both_board_kernels:
        asked = found = 0
        for option in kernel.Board(3, 5, "cram", BIG).moves(full(3, 5)):
            one, two = kernel.Board(3, 5, "cram", BIG), kernel.Board(3, 5, "cram", BIG)
            assert one.has_value(option, 0) == (two.nimber(option) == 0)
            asked += one.stats()["expanded"]
            found += two.stats()["expanded"]
        assert asked < found
        counts.append((asked, found))
    assert counts[0] == counts[1]


def test_an_answer_no_is_remembered_and_asked_again_costs_nothing(both_board_kernels):
    """in_set's "not in the set" goes into the table as an exclusion (search.c): the same
    question again expands no position, and the value is still found (both twins)."""
    value = oracle.kayles_on_graph(oracle.grid_graph(3, 5), frozenset(range(15)), node=False)
    wrong = 0 if value else 1
    counts = []
    for kernel in both_board_kernels:
        board = kernel.Board(3, 5, "cram", BIG)
        assert not board.has_value(full(3, 5), wrong)
        first = board.stats()["expanded"]
        assert first > 0 and not board.has_value(full(3, 5), wrong)
        assert board.stats()["expanded"] == first
        assert board.has_value(full(3, 5), value) and board.nimber(full(3, 5)) == value
        counts.append(board.stats())
    assert counts[0] == counts[1]


# -- each reduction, from its definition in ext/src/boards.c's header, on the whole board

def free_neighbours(rows: int, cols: int, free: int, i: int) -> list[int]:
    return [j for j in oracle.grid_graph(rows, cols)[i] if free >> j & 1]


def tufts_and_centres(rows, cols, free) -> tuple[set[int], set[int]]:
    tufts = {i for i in range(rows * cols) if free >> i & 1 and
             len(free_neighbours(rows, cols, free, i)) == 1}
    return tufts, {free_neighbours(rows, cols, free, t)[0] for t in tufts}


def has_twin_tufts(rows, cols, free) -> bool:
    tufts, centres = tufts_and_centres(rows, cols, free)
    return any(sum(t in tufts for t in free_neighbours(rows, cols, free, c)) > 1 for c in centres)


def has_bridge(rows, cols, free) -> bool:
    tufts, centres = tufts_and_centres(rows, cols, free)
    return any(free >> b & 1 and b not in tufts | centres and free_neighbours(rows, cols, free, b)
               and set(free_neighbours(rows, cols, free, b)) <= centres
               for b in range(rows * cols))


def has_cut(rows, cols, free) -> bool:
    def filled(r, c):
        return not (0 <= r < rows and 0 <= c < cols and free >> (r * cols + c) & 1)

    for r in range(rows - 1):
        for c in range(cols - 1):
            if any(filled(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)):
                continue
            if (filled(r, c - 1) and filled(r - 1, c) and filled(r + 1, c + 2) and
                    filled(r + 2, c + 1)) or (filled(r, c + 2) and filled(r - 1, c + 1) and
                                              filled(r + 1, c - 1) and filled(r + 2, c)):
                return True
    return False


@pytest.mark.parametrize("found", [has_twin_tufts, has_bridge, has_cut])
def test_each_reduction_keeps_the_value_where_it_applies(found):
    """Boards where the reduction applies to the board itself (it applies to every position
    the search meets too), against the brute force; the reduced split holds fewer cells."""
    kernel = load_kernel("cython", "boards")
    print("seed", SEED)
    rng = random.Random(SEED + 1)
    met = 0
    while met < 60:
        rows, cols, free = random_board(rng, 24)
        if not found(rows, cols, free):
            continue
        met += 1
        board = kernel.Board(rows, cols, "cram", BIG)
        alive = frozenset(i for i in range(rows * cols) if free >> i & 1)
        assert board.nimber(free) == oracle.kayles_on_graph(oracle.grid_graph(rows, cols), alive,
                                                             node=False), (rows, cols, bin(free))
        nim, keys = board.split(free)
        if found is not has_cut:
            assert sum(bin(k).count("1") for k in keys) < bin(free).count("1")


def test_the_twins_agree_on_random_boards(both_board_kernels):
    """Values, splits, moves and every count (the same positions visited, the same table)."""
    compiled, pure = both_board_kernels
    print("seed", SEED)
    rng = random.Random(SEED + 2)
    for _ in range(60):
        rows, cols, free = random_board(rng, 20)
        rule = rng.choice(["cram", "node"])
        memory = rng.choice([0, 300, 4096, BIG])
        a, b = compiled.Board(rows, cols, rule, memory), pure.Board(rows, cols, rule, memory)
        assert a.nimber(free) == b.nimber(free)
        assert a.stats() == b.stats()
        assert a.split(free) == b.split(free) and a.moves(free) == b.moves(free)


def images(cells: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The eight images of a shape under the symmetries of the square."""
    found = []
    for turn in range(4):
        for mirror in (False, True):
            shape = cells
            for _ in range(turn):
                shape = [(c, -r) for r, c in shape]
            if mirror:
                shape = [(r, -c) for r, c in shape]
            found.append(shape)
    return found


def test_congruent_components_share_a_key(board_kernel):
    print("seed", SEED)
    rng = random.Random(SEED + 3)
    board = board_kernel.Board(7, 8, "cram", 0)
    for _ in range(40):
        cells = {(0, 0)}
        while len(cells) < rng.randint(3, 9):  # a random connected shape
            r, c = rng.choice(sorted(cells))
            cells.add(rng.choice([(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]))
        keys = set()
        for shape in images(sorted(cells)):
            r0, c0 = min(r for r, _ in shape), min(c for _, c in shape)
            h, w = max(r for r, _ in shape) - r0 + 1, max(c for _, c in shape) - c0 + 1
            if h > 7 or w > 8:
                continue
            dr, dc = rng.randint(0, 7 - h), rng.randint(0, 8 - w)
            keys.add(board.canonical(sum(1 << ((r - r0 + dr) * 8 + c - c0 + dc) for r, c in shape)))
        assert len(keys) == 1, sorted(cells)
    l_shape = board.canonical(0b111 | 1 << 8)
    s_shape = board.canonical(0b110 | 0b11 << 8)
    assert l_shape != s_shape


@pytest.mark.parametrize("memory", [0, 64, 2048])
def test_a_tiny_table_gives_the_same_values(board_kernel, memory):
    rows, cols = (4, 5) if compiled(board_kernel) else (3, 4)
    small = board_kernel.Board(rows, cols, "cram", memory)
    assert small.nimber(full(rows, cols)) == board_kernel.Board(rows, cols, "cram", BIG).nimber(
        full(rows, cols))
    stats = small.stats()
    assert stats["bytes"] <= memory
    if memory == 2048 and rows == 4:
        assert stats["evictions"] > 0


def test_the_interrupt_hook_stops_a_search_and_the_board_goes_on(board_kernel):
    class Stop(Exception):
        pass

    calls = []

    def hook():
        calls.append(1)
        raise Stop

    rows, cols = (4, 7) if compiled(board_kernel) else (4, 5)
    board = board_kernel.Board(rows, cols, "cram", BIG)
    limits.set_interrupt(hook)
    try:
        with pytest.raises(Stop):
            board.nimber(full(rows, cols))
    finally:
        limits.set_interrupt(None)
    assert calls == [1]
    assert board.nimber(full(rows, cols)) == {(4, 7): 3, (4, 5): 2}[rows, cols]


def test_ctrl_c_stops_a_long_search():
    kernel = load_kernel("cython", "boards")
    board = kernel.Board(6, 7, "cram", BIG)  # minutes of search

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupted)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            board.nimber(full(6, 7))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_one_board_from_several_threads():
    """A board's calls take turns (its lock); boards apart run side by side."""
    kernel = load_kernel("cython", "boards")
    shared = kernel.Board(3, 5, "cram", BIG)
    answers: list[tuple[str, int]] = []

    def work(name, board, free):
        answers.append((name, board.nimber(free)))

    threads = [threading.Thread(target=work, args=(f"shared{i}", shared, full(3, 5) >> i))
               for i in range(3)]
    threads.append(threading.Thread(target=work, args=("apart", kernel.Board(3, 7, "node", BIG),
                                                       full(3, 7))))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    graph = oracle.grid_graph(3, 5)
    expected = {f"shared{i}": oracle.kayles_on_graph(
        graph, frozenset(j for j in range(15) if (full(3, 5) >> i) >> j & 1), node=False)
        for i in range(3)}
    expected["apart"] = 2  # A316632's a(7): Node Kayles on the 3 x 7 grid
    assert dict(answers) == expected


@pytest.mark.parametrize("call, error", [
    (lambda k: k.Board(9, 8, "cram", 0), ValueError),
    (lambda k: k.Board(0, 3, "cram", 0), ValueError),
    (lambda k: k.Board(2, 2, "domino", 0), ValueError),
    (lambda k: k.Board(2, 2, "cram", -5), ValueError),
    (lambda k: k.Board(2, 2, "cram", 10).nimber(16), ValueError),
    (lambda k: k.Board(2, 2, "cram", 10).split(-1), ValueError),
    (lambda k: k.Board(2, 2, "cram", 10).canonical(0), ValueError),
    (lambda k: k.Board(2, 2, "cram", 10).moves("15"), TypeError),
    (lambda k: k.Board(2, 2, "cram", 10).has_value(15, -1), ValueError),
    (lambda k: k.Board(2, 2, "cram", 10).has_value(16, 0), ValueError),
    (lambda k: k.Board(2, 2, "cram", 10).has_value(15, "0"), TypeError),
])
def test_bad_arguments_are_refused_alike(both_board_kernels, call, error):
    messages = []
    for kernel in both_board_kernels:
        with pytest.raises(error) as caught:
            call(kernel)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
