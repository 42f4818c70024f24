"""Brute force from the rules alone: the yardstick every kernel is measured against.

Nothing here imports the package.  Positions are strings ('x' pin, '.' gap) or
heap sizes; moves are enumerated literally, values are the mex over the options
of the whole position (no Sprague-Grundy sum theorem), and the seed's tie-break
is applied word by word.
"""

from __future__ import annotations

from functools import cache


def mex(values) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def runs(position: str) -> list[tuple[int, int]]:
    """(start, length) of every group of consecutive pins, left to right."""
    found, start = [], None
    for i, ch in enumerate(position + "."):
        if ch == "x" and start is None:
            start = i
        elif ch != "x" and start is not None:
            found.append((start, i - start))
            start = None
    return found


def canonical(position: str) -> tuple[int, ...]:
    """Positions with the same multiset of groups are the same game."""
    return tuple(sorted(length for _, length in runs(position)))


def _as_row(groups: tuple[int, ...]) -> str:
    return ".".join("x" * g for g in groups)


# -- row games: a move removes pins of one window and leaves some outer parts ----------------


class RowGame:
    """A game on rows of pins given by windows ('x' removed, 'o' stays) and part counts.

    ``windows`` is a list of (window, allowed counts of non-empty outer parts), in
    tie-break order: at the same leftmost pin, the earlier window is preferred.
    """

    def __init__(self, windows: list[tuple[str, set[int]]]) -> None:
        self.windows = windows
        self.value = cache(self._value)

    def moves(self, position: str):
        """(first pin, window index, position after) for every legal move, left to right."""
        for start, length in runs(position):
            stop = start + length
            for i in range(start, stop):
                for w, (window, parts) in enumerate(self.windows):
                    if i + len(window) > stop:
                        continue
                    outer = (i > start) + (i + len(window) < stop)
                    if outer not in parts:
                        continue
                    after = list(position)
                    for j, token in enumerate(window):
                        if token == "x":
                            after[i + j] = "."
                    yield i, w, "".join(after)

    def _value(self, groups: tuple[int, ...]) -> int:
        row = _as_row(groups)
        return mex(self.value(canonical(after)) for _, _, after in self.moves(row))

    def grundy(self, position: str) -> int:
        return self.value(canonical(position))

    def nimbers(self, n: int) -> list[int]:
        return [self.grundy("x" * k) for k in range(n + 1)]

    def winning_move(self, position: str) -> str | None:
        """The seed's choice: leftmost group holding a winning move that lowers the
        group's value; in it the leftmost winning move; at one pin, the earlier window."""
        if self.grundy(position) == 0:
            return None
        for start, length in runs(position):
            before = self.grundy("x" * length)
            for i, _, after in self.moves(position):
                if not start <= i < start + length:
                    continue
                group_after = after[start : start + length]
                if self.grundy(after) == 0 and self.grundy(group_after) < before:
                    return after
        raise AssertionError("a position of non-zero value has no winning move")


KAYLES_XOX = RowGame([("x", {0, 1, 2}), ("xox", {0, 1, 2})])


def xox_moves(position: str) -> list[str]:
    """The seed's own definition: take one pin, or the outer two of three in a row."""
    out = []
    for i, ch in enumerate(position):
        if ch == "x":
            out.append(position[:i] + "." + position[i + 1 :])
        if position[i : i + 3] == "xxx":
            out.append(position[:i] + ".x." + position[i + 3 :])
    return out


def xox_nimbers_by_sum(n: int) -> list[int]:
    """G(0..n) for one row of pins from the rules and the Sprague-Grundy sum theorem:
    taking pin i leaves rows i and k-1-i; taking the outer two of pins i..i+2 leaves
    rows i, 1 and k-3-i.  A second reference, checked against the literal one."""
    g: list[int] = []
    for k in range(n + 1):
        options = {g[i] ^ g[k - 1 - i] for i in range(k)}
        options |= {g[i] ^ g[1] ^ g[k - 3 - i] for i in range(k - 2)}
        g.append(mex(options))
    return g


def octal_row_game(code: str) -> RowGame:
    """The row game of an octal code without a leading '4.': digit d at place k takes
    k adjacent pins and may leave 0, 1, 2 outer parts as bits 1, 2, 4 of d allow."""
    digits = code.split(".")[1]
    return RowGame(
        [("x" * k, {i for i in range(3) if int(d) >> i & 1}) for k, d in enumerate(digits, 1)]
    )


# -- heap games ------------------------------------------------------------------------------


def octal_nimbers(code: str, n: int) -> list[int]:
    """G(0..n) of an octal code, straight from the definition of the digits."""
    head, digits = code.split(".")
    places = {k: int(d) for k, d in enumerate(digits, 1)}
    if head == "4":
        places[0] = 4
    g: list[int] = []
    for heap in range(n + 1):
        options = set()
        for take, d in places.items():
            for left in range(heap - take + 1):
                right = heap - take - left
                parts = (left > 0) + (right > 0)
                if d >> parts & 1:
                    options.add(g[left] ^ g[right])
        g.append(mex(options))
    return g


def grundys_game_nimbers(n: int) -> list[int]:
    """Split one heap into two non-empty heaps of different sizes."""
    g: list[int] = []
    for heap in range(n + 1):
        g.append(mex(g[a] ^ g[heap - a] for a in range(1, (heap + 1) // 2) if 2 * a != heap))
    return g


def heap_moves(windows: list[tuple[str, set[int], bool]], n: int):
    """(first token, window index, groups left) of every move on one heap of n tokens.

    A window is laid literally over a row of n tokens ('x' tokens are removed, 'o'
    tokens stay); the empty window cuts the row between two tokens.  The tokens
    outside the window form the outer parts; ``parts`` holds the allowed counts
    of non-empty outer parts and ``unequal`` forbids two outer parts of the same
    size (two parts: both non-empty; a move that leaves no part splits nothing).
    Moves come in the seed's order: by first token, then by window.  The groups
    are the runs left behind, left to right.
    """
    row = "x" * n
    for i in range(n + 1):
        for w, (window, parts, unequal) in enumerate(windows):
            if i + len(window) > n:
                continue
            left, right = i, n - i - len(window)
            if (left > 0) + (right > 0) not in parts:
                continue
            if unequal and left > 0 and right > 0 and left == right:
                continue
            if window:
                after = list(row)
                for j, token in enumerate(window):
                    if token == "x":
                        after[i + j] = "."
                text = "".join(after)
            else:
                text = row[:i] + "." + row[i:]
            yield i, w, tuple(length for _, length in runs(text))


def heap_game_nimbers(windows: list[tuple[str, set[int], bool]], n: int) -> list[int]:
    """G(0..n) of one heap: mex over the moves of the XOR of G over the groups left."""
    g: list[int] = []
    for heap in range(n + 1):
        options = set()
        for _, _, groups in heap_moves(windows, heap):
            value = 0
            for size in groups:
                value ^= g[size]
            options.add(value)
        g.append(mex(options))
    return g


def split_game_nimbers(n: int) -> list[int]:
    """G(0..n) of 4.0 (split one heap into two non-empty heaps, nothing removed), as the
    mex over the literal options of whole positions (sorted tuples of heap sizes)."""

    @cache
    def value(position: tuple[int, ...]) -> int:
        options = set()
        for i, heap in enumerate(position):
            rest = position[:i] + position[i + 1 :]
            for a in range(1, heap):
                options.add(value(tuple(sorted(rest + (a, heap - a)))))
        return mex(options)

    return [value((k,) if k else ()) for k in range(n + 1)]


# -- misère play: whoever makes the last move loses --------------------------------------------


def misere_row_wins(game: RowGame, position: str) -> bool:
    """Whether the player to move wins a row under misère play: with no move at all, yes
    (the opponent moved last); otherwise when some move leaves a position the opponent loses.
    Rows with the same multiset of groups are the same game; nothing else is merged."""
    return _misere_groups(game, canonical(position))


@cache
def _misere_groups(game: RowGame, groups: tuple[int, ...]) -> bool:
    moves = [after for _, _, after in game.moves(_as_row(groups))]
    return not moves or any(not _misere_groups(game, canonical(after)) for after in moves)


def misere_row_move(game: RowGame, position: str) -> str | None:
    """The first winning move in the order of ``RowGame.moves`` (leftmost group, leftmost pin,
    earlier window), or None when every move loses or there is no move."""
    for _, _, after in game.moves(position):
        if not misere_row_wins(game, after):
            return after
    return None


def misere_value(game: RowGame, position: str, nim_heaps: tuple[int, ...] = ()) -> int:
    """The misère Grundy value of a row plus nim heaps: 1 with no move, else the mex of the
    options' values (a move is on the row, or takes counters from one nim heap)."""
    return _misere_value(game, canonical(position), tuple(sorted(nim_heaps)))


def _nim_moves(nims: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The nim heaps after every move on one of them (sorted), as misère options."""
    return [tuple(sorted(nims[:i] + (smaller,) + nims[i + 1 :]))
            for i, heap in enumerate(nims) for smaller in range(heap)]


@cache
def _misere_value(game: RowGame, groups: tuple[int, ...], nims: tuple[int, ...]) -> int:
    options = [(canonical(after), nims) for _, _, after in game.moves(_as_row(groups))]
    options += [(groups, smaller) for smaller in _nim_moves(nims)]
    if not options:
        return 1
    return mex(_misere_value(game, g, n) for g, n in options)


def grundys_game_moves(heaps: tuple[int, ...]):
    """(heap index, smaller part, heaps after) of every split, leftmost heap and smallest
    part first: one heap into two non-empty heaps of different sizes."""
    for i, heap in enumerate(heaps):
        for a in range(1, (heap + 1) // 2):
            if 2 * a != heap:
                yield i, a, heaps[:i] + (a, heap - a) + heaps[i + 1 :]


@cache
def grundys_game_misere_wins(heaps: tuple[int, ...]) -> bool:
    moves = [after for _, _, after in grundys_game_moves(heaps)]
    return not moves or any(not grundys_game_misere_wins(tuple(sorted(m))) for m in moves)


def octal_splits(code: str, heap: int) -> list[tuple[int, ...]]:
    """The heaps a move on one heap leaves in an octal game ('4.' may split without taking),
    smallest left part first, then the smaller number taken."""
    head, digits = code.split(".")
    places = {k: int(d) for k, d in enumerate(digits, 1)}
    if head == "4":
        places[0] = 4
    out = []
    for left in range(heap + 1):
        for take, d in sorted(places.items()):
            right = heap - take - left
            if right >= 0 and d >> ((left > 0) + (right > 0)) & 1:
                out.append(tuple(p for p in (left, right) if p))
    return out


def grundys_game_splits(heap: int) -> list[tuple[int, ...]]:
    return [(a, heap - a) for a in range(1, (heap + 1) // 2) if 2 * a != heap]


def heap_misere_value(splits, heaps: tuple[int, ...], nims: tuple[int, ...] = ()) -> int:
    """Misère Grundy value of heaps of a heap game (``splits(h)`` lists what a move on a heap
    of h leaves) plus nim heaps: 1 with no move at all, else the mex of the options."""
    return _heap_misere_value(splits, tuple(sorted(heaps)), tuple(sorted(nims)))


@cache
def _heap_misere_value(splits, heaps: tuple[int, ...], nims: tuple[int, ...]) -> int:
    options = []
    for i, heap in enumerate(heaps):
        for parts in splits(heap):
            options.append((tuple(sorted(heaps[:i] + parts + heaps[i + 1 :])), nims))
    options += [(heaps, smaller) for smaller in _nim_moves(nims)]
    if not options:
        return 1
    return mex(_heap_misere_value(splits, h, n) for h, n in options)


def fletcher32(values) -> int:
    """Fletcher-32 of 16-bit words as the textbook loop writes it (sums modulo 65535)."""
    s1 = s2 = 0
    for v in values:
        s1 = (s1 + v) % 65535
        s2 = (s2 + s1) % 65535
    return s2 << 16 | s1


def split_parity_of_code(code: str) -> int:
    """The parity of every number of tokens a move that may leave two heaps removes, from an
    octal code's digits (digit i: removing i; its bit 4 allows two heaps), or -1 (none or
    both parities)."""
    d0, _, rest = code.partition(".")
    spans = {i & 1 for i, digit in enumerate((d0 or "0")[-1] + rest) if int(digit) & 4}
    return spans.pop() if len(spans) == 1 else -1


def fewest_rare_by_trial(values: list[int], constants=(), split_parity: int = -1):
    """Every mask below the power of two above all values and constants tried: the one,
    among those giving every constant an even popcount, with the fewest heaps n whose
    value v has an even popcount(v & mask), the smallest mask on a tie; (0, len(values))
    when none qualifies.  With a split parity s of 0 or 1, each mask is also tried with
    the heap's parity (after the mask alone): heap n is then rare when popcount(v & mask)
    + ((n ^ s) & 1) is even, and the mask is reported plus 2**16."""
    def even(value: int, mask: int) -> bool:
        return bin(value & mask).count("1") % 2 == 0

    top = max([*values, *constants, 1])
    best = None
    for mask in range(1, 1 << top.bit_length()):
        if all(even(c, mask) for c in constants):
            rare = sum(even(v, mask) for v in values)
            if best is None or rare < best[1]:
                best = (mask, rare)
            if split_parity >= 0:
                rare = sum(even(v, mask) != ((n ^ split_parity) & 1)
                           for n, v in enumerate(values))
                if rare < best[1]:
                    best = (mask | 1 << 16, rare)
    return best or (0, len(values))


# -- take-and-break codes: every multiset of parts, literally ----------------------------------


class TakeBreak:
    """A take-and-break game written digit by digit, as a code's digits mean them.

    ``digits[k]`` (k = 0 for the digit before the point) maps each count of non-empty
    heaps a move that removes k tokens may leave to its mark ('' none, '!' all different,
    '?' not all the same size, '=' all the same size); ``more[k]``: every count above the
    largest listed one too, with its mark.  ``tail``: the digits of spans s, s + 1, ...
    (s = ``tail_start``) repeat for ever.  Nothing here reads a code: the tests write
    codes from these games and parse them with the package.
    """

    def __init__(self, digits: dict[int, dict[int, str]], more=frozenset(), tail=(),
                 tail_start: int = 0, cgsuite: bool = False) -> None:
        self.cgsuite = cgsuite  # read '?' on one heap as CGSuite does: not a heap of 1
        self.digits = digits
        self.more = set(more)  # the k whose largest count goes on for ever
        self.tail = list(tail)  # [(counts, more)]
        self.tail_start = tail_start

    def digit(self, k: int) -> tuple[dict[int, str], bool]:
        if self.tail and k >= self.tail_start:
            return self.tail[(k - self.tail_start) % len(self.tail)]
        return self.digits.get(k, {}), k in self.more

    def splits(self, n: int):
        """Every multiset of heaps a move on a heap of n leaves (ascending tuples)."""
        for k in range(n + 1):
            counts, more = self.digit(k)
            rest = n - k
            if not counts:
                continue
            top = max(counts)
            for count in range(rest + 1):
                if count in counts:
                    mark = counts[count]
                elif more and count > top:
                    mark = counts[top]
                else:
                    continue
                for parts in _partitions(rest, count):
                    if count >= 2 and not _marked(parts, mark):
                        continue
                    if self.cgsuite and parts == (1,) and counts.get(1) == "?":
                        continue
                    yield parts

    def nimbers(self, n: int) -> list[int]:
        g = [0]
        for heap in range(1, n + 1):
            values = set()
            for parts in self.splits(heap):
                value = 0
                for part in parts:
                    value ^= g[part]
                values.add(value)
            g.append(mex(values))
        return g


def _partitions(total: int, count: int, least: int = 1):
    """Every ascending tuple of ``count`` parts, each at least ``least``, summing to total."""
    if count == 0:
        if total == 0:
            yield ()
        return
    for first in range(least, total // count + 1):
        for rest in _partitions(total - first, count - 1, first):
            yield (first, *rest)


def _marked(parts: tuple[int, ...], mark: str) -> bool:
    distinct = len(set(parts))
    if mark == "!":
        return distinct == len(parts)
    if mark == "?":
        return distinct > 1
    if mark == "=":
        return distinct == 1
    return True


def nim_product_table(n: int) -> list[list[int]]:
    """a * b for a, b < n by the definition alone: a * b = mex{a'*b ^ a*b' ^ a'*b' : a' < a,
    b' < b} (Conway, On Numbers and Games, ch. 6)."""
    t = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            t[a][b] = mex(t[x][b] ^ t[a][y] ^ t[x][y] for x in range(a) for y in range(b))
    return t


def octal_options(code: str, heap: int) -> list[tuple[int, ...]]:
    """The options of a heap in an octal code (no leading '4.'): the non-empty heaps each move
    leaves, every placement, from the digits alone."""
    digits = code.split(".")[1]
    found = []
    for take, d in enumerate(map(int, digits), 1):
        for left in range(heap - take + 1):
            right = heap - take - left
            if d >> ((left > 0) + (right > 0)) & 1:
                found.append(tuple(p for p in (left, right) if p))
    return found


def sum_value(options, position: tuple) -> int:
    """The value of a sum of positions by the mex over the options of the whole sum (no
    Sprague-Grundy theorem): ``options(p)`` gives each component's options, each a tuple of
    the components it leaves; a position is a sorted tuple of components."""
    @cache
    def value(position: tuple) -> int:
        found = set()
        for i, p in enumerate(position):
            rest = position[:i] + position[i + 1:]
            for option in options(p):
                found.add(value(tuple(sorted(rest + tuple(option)))))
        return mex(found)

    return value(tuple(sorted(position)))


# -- coin-turning games -----------------------------------------------------------------


def turning_legal(coins: tuple[int, ...], rules) -> bool:
    """Whether turning these coins (1-based positions, ascending) is a move: ``rules`` lists
    (low, high or None, spacing '' 'C' 'E' 'S', leftmost coin of the strip required, within
    n adjacent coins or None), any of which may allow it."""
    k = len(coins)
    gaps = {b - a for a, b in zip(coins, coins[1:])}
    for low, high, spacing, first, within in rules:
        if k < low or high is not None and k > high:
            continue
        if spacing == "C" and gaps - {1} or spacing == "E" and len(gaps) > 1:
            continue
        if spacing == "S" and any(coins[i] + coins[-1 - i] != coins[0] + coins[-1]
                                  for i in range(k)):
            continue
        if first and coins[0] != 1 or within is not None and coins[-1] - coins[0] >= within:
            continue
        return True
    return False


def turning_values(rules, length: int) -> list[int]:
    """The value of every strip of ``length`` coins (index: the bit mask of heads, bit i the
    coin at position i + 1) by the mex over literal moves: every set of coins the rules allow
    whose rightmost coin is heads, turned over."""
    from itertools import combinations

    moves = [sum(1 << (c - 1) for c in coins) | 0 for k in range(1, length + 1)
             for coins in combinations(range(1, length + 1), k) if turning_legal(coins, rules)]
    tops = [1 << (m.bit_length() - 1) for m in moves]
    values = [0] * (1 << length)
    for state in range(1 << length):
        # every option turns the top coin from heads to tails, so it is a smaller state
        values[state] = mex(values[state ^ m] for m, top in zip(moves, tops) if state & top)
    return values


def tartan_values(rules1, rules2, rows: int, cols: int) -> list[int]:
    """The value of every rows x cols board of the product game (index: the bit mask of heads,
    bit (x - 1) * cols + (y - 1) the coin at row x, column y) by the mex over literal moves:
    S1 x S2 for moves S1 and S2 of the two games, the corner (max S1, max S2) heads."""
    from itertools import combinations

    def sets(rules, n):
        return [coins for k in range(1, n + 1) for coins in combinations(range(1, n + 1), k)
                if turning_legal(coins, rules)]

    moves = []
    for xs in sets(rules1, rows):
        for ys in sets(rules2, cols):
            mask = sum(1 << ((x - 1) * cols + y - 1) for x in xs for y in ys)
            moves.append((mask, 1 << ((xs[-1] - 1) * cols + ys[-1] - 1)))
    values = [0] * (1 << rows * cols)
    for state in range(1 << rows * cols):
        values[state] = mex(values[state ^ m] for m, corner in moves if state & corner)
    return values


# -- games on graphs and boards (the families of kayles.engine.families): whole positions,
# -- every move tried, no components, reductions or symmetries

def grid_graph(rows: int, cols: int) -> list[frozenset[int]]:
    """The neighbours of each cell r * cols + c of a rows x cols board."""
    return [frozenset(rr * cols + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                      if 0 <= rr < rows and 0 <= cc < cols)
            for r in range(rows) for c in range(cols)]


def kayles_on_graph(neighbours: list[frozenset[int]], alive: frozenset[int], node: bool) -> int:
    """Node Kayles (a move removes a vertex and its neighbours) or Arc Kayles (an edge and
    its two ends) on the subgraph of ``alive`` vertices: the mex over every move."""
    @cache
    def value(left: frozenset[int]) -> int:
        if node:
            return mex(value(left - {v} - neighbours[v]) for v in left)
        return mex(value(left - {u, v}) for u in left for v in neighbours[u] & left if u < v)

    return value(frozenset(alive))


def cram_value(rows: int, cols: int, free: int) -> int:
    """Cram on a board, its free cells the bits of ``free`` (bit r * cols + c)."""
    alive = frozenset(i for i in range(rows * cols) if free >> i & 1)
    return kayles_on_graph(grid_graph(rows, cols), alive, node=False)


def chomp_value(lengths: tuple[int, ...]) -> int:
    """Chomp on the Young diagram of these row lengths: a bite at (row i, column j) removes
    every square (i', j') with i' >= i and j' >= j; the square (0, 0) is never bitten (a
    position of that square alone has no move)."""
    @cache
    def value(rows: tuple[int, ...]) -> int:
        options = []
        for i, length in enumerate(rows):
            for j in range(length):
                if i == 0 and j == 0:
                    continue
                bitten = tuple(x if k < i else min(x, j) for k, x in enumerate(rows))
                options.append(value(tuple(x for x in bitten if x)))
        return mex(options)

    return value(tuple(x for x in lengths if x))
