"""Coin-turning games (Winning Ways ch. 14; CGSuite's ``game.strip.Turning``): turning codes,
a strip's value and winning move through its heap representation, and 2-D products.

A strip of coins, heads (h) or tails (t), positions 1, 2, ... from the left (CGSuite's
convention).  A move turns over a set of coins whose rightmost goes from heads to tails;
the turning code says which sets.  A code is elements joined by commas, any of which may be
used: a range of how many coins are turned (``3``, ``1-3``, ``2+``) and modifiers: ``C``
the coins are consecutive, ``E`` equally spaced, ``S`` symmetric about their middle, ``F``
the leftmost coin of the strip (position 1) is among them, ``C(n)`` they lie within n
adjacent coins.  (Where CGSuite's enumeration differs from these words, ``docs`` say so: a
lone coin under ``F`` is allowed by CGSuite at any position, here only at position 1.)

The heap representation (Winning Ways; CGSuite's ``Spawning``): a heads coin at position n
is a heap n whose options are the sets of the other coins a move may turn with it, each
coin m of the set a heap m.  Two heads coins at one position would cancel, so the strip's
value is the XOR of G(n) over its heads coins, G the heap game's nim-sequence, and a move
lowering it turns coin n and the coins of an option.  G is a ``RuleSequence`` of
``kayles.engine.functional`` computed from the enumerated options, except where structure
gives the same values faster (exact, no theorem needed): a code of one consecutive element
(``C``, no ``F``; ``C(n)`` allowed) reads prefix XORs through a binary trie, O(log n) a heap;
codes turning at most two coins (no modifier) keep a running mex; and two closed forms that
Winning Ways proves: Mock Turtles (``1-3``), G(n) the n-th odious number (OEIS A000069), and
Ruler (``1+C``), G(n) the largest power of 2 dividing n (OEIS A006519).
No theorem proves a period for a turning code's heap game: values are computed up to the
strip's length.

2-D games are products: a move of G1 x G2 turns the coins of S1 x S2, S1 a move of G1 and
S2 of G2, the corner (max S1, max S2) from heads to tails; the tartan theorem gives the value
of a coin at (x, y) as G1(x) (x) G2(y), the nim product.  A board's value groups each row's
XOR first (distributivity): one product a row.
"""

from __future__ import annotations

import re
from itertools import accumulate, combinations
from operator import xor

from ...engine.functional import HeapRule, RuleSequence
from ...engine.nimbers import nim_product
from ...errors import InputError, ResourceError, shown

__all__ = ["NAMED", "PRODUCTS", "Element", "Turning", "Tartan", "get_turning", "parse_board",
           "parse_strip", "tartan"]

# Winning Ways' games with their codes (CGSuite's table of game.strip.Turning).
NAMED = {
    "turning-turtles": "1-2", "nim": "1-2", "mock-turtles": "1-3", "moebius": "1-5",
    "mogul": "1-7", "moidores": "1-9", "motley": "1+", "twins": "2", "triplets": "3",
    "ruler": "1+C", "mock-turtle-fives": "1-3C(5)", "triplet-fives": "3C(5)",
    "ruler-fives": "1-5C", "turnips": "3E", "grunt": "4FS", "sym": "1+S", "sympler": "1+FS",
}
# 2-D games named by Winning Ways, as products of two codes.
PRODUCTS = {"turning-corners": ("1-2", "1-2"), "rugs": ("1+C", "1+C"),
            "acrostic-twins": ("2", "2"), "acrostic-mock-turtles": ("1-3", "1-3")}
MAX_COINS = 1 << 24  # coins in a strip, positions in a board's row or column
OPTION_BUDGET = 50_000_000  # options the enumeration may read for one strip's values


class Element:
    """One element of a turning code: ``low`` to ``high`` coins (None: no bound), ``spacing``
    '' (none), 'C', 'E' or 'S', ``first`` (F) and ``within`` (C(n); None: no bound)."""

    __slots__ = ("first", "high", "low", "spacing", "within")

    def __init__(self, low: int, high: int | None, spacing: str, first: bool,
                 within: int | None) -> None:
        self.low, self.high, self.spacing, self.first, self.within = (
            low, high, spacing, first, within)

    def counts(self, n: int) -> range:
        """How many coins a move on heap n may turn: low .. min(high, within, n)."""
        top = n
        for bound in (self.high, self.within):
            if bound is not None:
                top = min(top, bound)
        return range(self.low, top + 1)

    def sets(self, n: int):
        """The other coins (ascending) of every move whose rightmost coin is n, by count, then
        in lexicographic order: the rules read literally."""
        lo = 1 if self.within is None else max(1, n - self.within + 1)
        window = range(lo, n)
        for k in self.counts(n):
            if self.spacing == "C":
                chosen = [tuple(range(n - k + 1, n))] if n - k + 1 >= lo else []
            elif self.spacing == "E":
                if k <= 2:
                    chosen = [()] if k == 1 else [(a,) for a in window]
                else:
                    chosen = [tuple(range(n - d * (k - 1), n, d))
                              for d in range((n - lo) // (k - 1), 0, -1)]
                    chosen.sort()
            else:
                chosen = combinations(window, k - 1)
            for other in chosen:
                if self.spacing == "S" and not _symmetric((*other, n)):
                    continue
                if self.first and (other[0] if other else n) != 1:
                    continue
                yield other

    def text(self) -> str:
        count = (f"{self.low}+" if self.high is None else
                 str(self.low) if self.high == self.low else f"{self.low}-{self.high}")
        within = "" if self.within is None else f"C({self.within})"
        return count + self.spacing + ("F" if self.first else "") + within


def _symmetric(coins: tuple[int, ...]) -> bool:
    total = coins[0] + coins[-1]
    return all(coins[i] + coins[-1 - i] == total for i in range(1, (len(coins) + 1) // 2))


_ELEMENT = re.compile(r"([0-9]{1,9})(?:(-)([0-9]{1,9})|(\+))?([A-Z()0-9]*)")


def parse_code(code: str) -> tuple[Element, ...]:
    """The elements of a turning code such as '1-3', '1+C', '4FS' or '2-3,6C' (case does not
    matter); InputError naming what is wrong."""
    if not isinstance(code, str):
        raise TypeError(f"a turning code is a str such as '1-3', not {type(code).__name__}")
    elements = []
    for part in code.upper().split(","):
        match = _ELEMENT.fullmatch(part.strip())
        if not match:
            raise InputError(f"turning code {shown(code)}: {shown(part)} is not a count "
                             "(3), a range (1-3, 2+) and modifiers C, E, S, F, C(n)")
        low = int(match.group(1))
        high = None if match.group(4) else int(match.group(3) or low)
        if low < 1 or high is not None and high < low:
            raise InputError(f"turning code {shown(code)}: a move turns at least one coin, "
                             f"from the low count to the high one ({shown(part)})")
        spacing, first, within, rest = "", False, None, match.group(5)
        while rest:
            letter = rest[0]
            bound = re.match(r"C\(([0-9]{1,9})\)", rest)
            if bound:
                within = int(bound.group(1))
                rest = rest[bound.end():]
                continue
            if letter in "CES":
                if spacing and spacing != letter:
                    raise InputError(f"turning code {shown(code)}: {shown(part)} has two "
                                     "spacings (C, E, S: one at most)")
                spacing = letter
            elif letter == "F":
                first = True
            else:
                raise InputError(f"turning code {shown(code)}: {shown(letter)} in "
                                 f"{shown(part)} is not a modifier (C, E, S, F, C(n))")
            rest = rest[1:]
        if within is not None and within < low:
            continue  # no move of this element fits within (CGSuite drops it too)
        elements.append(Element(low, high, spacing, first, within))
    return tuple(elements)


def parse_strip(text: str) -> list[int]:
    """The 1-based positions of the heads coins of a strip of 'h' and 't' (CGSuite's
    letters, either case)."""
    if not isinstance(text, str):
        raise TypeError(f"a strip is a str of 'h' and 't', not {type(text).__name__}")
    if len(text) > MAX_COINS:
        raise InputError(f"a strip of {len(text)} coins: at most {MAX_COINS} are taken")
    bad = next((i for i, ch in enumerate(text) if ch not in "hHtT"), None)
    if bad is not None:
        raise InputError(f"a strip is made of h (heads) and t (tails), not {shown(text[bad])} "
                         f"(coin {bad + 1})")
    return [i + 1 for i, ch in enumerate(text) if ch in "hH"]


def parse_board(text: str) -> list[list[int]]:
    """Each row's heads positions of a board written as strips joined by '/', top row
    first (row 1, column 1 the top-left coin); rows of one length."""
    rows = text.split("/")
    if len({len(row) for row in rows}) > 1:
        lengths = sorted({len(row) for row in rows})
        raise InputError(f"a board's rows must have one length, not {lengths}")
    if len(rows) > MAX_COINS:
        raise InputError(f"a board of {len(rows)} rows: at most {MAX_COINS} are taken")
    return [parse_strip(row) for row in rows]


class Turning:
    """A coin-turning game of one code (or a name of NAMED): its heap representation, values,
    a strip's value and winning move."""

    def __init__(self, code: str) -> None:
        if not isinstance(code, str):
            raise TypeError(f"a turning code is a str such as '1-3', not {type(code).__name__}")
        self.name = code.strip().lower()
        self.code = NAMED.get(self.name, code.strip())
        self.elements = parse_code(self.code)
        self.rule = HeapRule(self.heap_options, name=f"turning {self.code}")
        self.sequence = RuleSequence(self.rule)
        self._values = [0]  # G(0) = 0: no coin; G(n) for n < len
        self.method = self._method()

    def heap_options(self, n: int):
        """Every option of heap n: the other coins of each move whose rightmost coin is n
        (elements in the code's order; the heap representation)."""
        if n < 1:
            return
        for element in self.elements:
            yield from element.sets(n)

    def _method(self) -> str:
        elements = self.elements
        plain = self.code.upper().replace(" ", "")
        if plain == "1-3":
            return "odious"
        if plain == "1+C":
            return "ruler"
        if len(elements) == 1 and elements[0].spacing == "C" and not elements[0].first:
            return "prefix"
        if elements and all(not e.spacing and not e.first and e.within is None
                            and e.high is not None and e.high <= 2 for e in elements):
            return "seen"
        return "enumerate"

    @property
    def period_note(self) -> str:
        if self.method == "odious":
            return ("G(n) is the n-th odious number (Winning Ways' theorem on Mock Turtles, "
                    "OEIS A000069)")
        if self.method == "ruler":
            return ("G(n) is the largest power of 2 dividing n (Winning Ways' theorem on Ruler, "
                    "OEIS A006519)")
        return ("no theorem proves a period for a turning code's heap game: values are computed "
                "up to the strip's length")

    def values(self, count: int) -> list[int]:
        """[G(0), G(1), ..., G(count - 1)] (G(0) = 0: position 0 holds no coin)."""
        if count > MAX_COINS + 1:
            raise ResourceError(f"turning {self.code}: at most {MAX_COINS} coins")
        if count > len(self._values):
            getattr(self, f"_grow_{self.method}")(count)
        return self._values[:count]

    def _grow_odious(self, count: int) -> None:
        g = self._values
        for n in range(len(g), count):
            m = n - 1
            g.append(2 * m + 1 - (m.bit_count() & 1))

    def _grow_seen(self, count: int) -> None:
        """At most two coins: the options' values are 0 (one coin, where allowed) and G(m) for
        every m < n (two coins, where allowed): a running set and its mex."""
        one = any(1 in e.counts(2) for e in self.elements)
        two = any(2 in e.counts(2) for e in self.elements)
        g = self._values = [0]  # from the start: the set holds every value before n
        seen = {0} if one else set()
        mex = 0
        while mex in seen:
            mex += 1
        for n in range(1, count):
            if two and n > 1:
                seen.add(g[n - 1])
                while mex in seen:
                    mex += 1
            g.append(mex if (one or (two and n > 1)) else 0)

    def _grow_ruler(self, count: int) -> None:
        g = self._values
        g += [n & -n for n in range(len(g), count)]

    def _grow_prefix(self, count: int) -> None:
        """Consecutive coins, one element: the move turning coins n-k+1..n has option value
        P(n-1) ^ P(n-k), P the prefix XOR of G, so G(n) is the mex of P(n-1) ^ {P(j)} over
        the window of j = n - k; the window's P(j) live in a binary trie of counts whose full
        subtrees give that mex in one descent (G(n) <= n: log2(count) + 1 levels)."""
        (element,) = self.elements
        g = [0] * count
        trie = _Trie(count.bit_length() + 1)
        prefix = [0] * count
        for n in range(1, count):
            top = n - element.low
            if top >= 0:
                trie.add(prefix[top])
            if element.high is not None and n - element.high - 1 >= 0:
                trie.remove(prefix[n - element.high - 1])
            g[n] = trie.mex_xor(prefix[n - 1]) if top >= 0 else 0
            prefix[n] = prefix[n - 1] ^ g[n]
        self._values = g

    def _grow_enumerate(self, count: int) -> None:
        read = 0
        for n in range(len(self._values), count):
            read += self._count(n)
            if read > OPTION_BUDGET:
                raise ResourceError(f"turning {self.code}: the heap representation of "
                                    f"{count - 1} coins has more than {OPTION_BUDGET:,} options "
                                    "to read (a shorter strip, or a code with structure)")
        self._values = self.sequence.nimbers(count - 1)

    def _count(self, n: int) -> int:
        """An upper bound of the options the enumeration reads for heap n (it filters the
        window's subsets for S and F: binomials of the window), for the budget."""
        from math import comb

        total = 0
        for e in self.elements:
            w = n - 1 if e.within is None else min(n - 1, e.within - 1)
            for k in e.counts(n):
                total += 1 if e.spacing == "C" else (w if e.spacing == "E" else comb(w, k - 1))
                if total > OPTION_BUDGET:
                    return total
        return total

    def value(self, heads: list[int]) -> int:
        """The value of a strip with heads at these 1-based positions."""
        if not heads:
            return 0
        g = self.values(max(heads) + 1)
        total = 0
        for n in heads:
            total ^= g[n]
        return total

    def winning_move(self, heads: list[int]) -> list[int] | None:
        """The coins to turn (1-based, ascending) of the winning move, or None: the leftmost
        heads coin n whose value can be lowered, and its first move (the code's order)
        reaching G(n) ^ V.  A run of consecutive coins is valued from prefix XORs (one pass
        for all of them), other moves coin by coin."""
        total = self.value(heads)
        if not total:
            return None
        g = self._values
        n = next(n for n in heads if g[n] ^ total < g[n])
        target = g[n] ^ total
        prefix = None  # XORs of G(1..i), for the runs of consecutive coins: O(n) in all
        for element in self.elements:
            if element.spacing == "C" and not element.first:
                if prefix is None:
                    prefix = list(accumulate(g[:n], xor))  # prefix[i]: G(1) ^ ... ^ G(i)
                lo = 1 if element.within is None else max(1, n - element.within + 1)
                for k in element.counts(n):  # the run n - k + 1 .. n, k ascending
                    if n - k + 1 >= lo and prefix[n - 1] ^ prefix[n - k] == target:
                        return [*range(n - k + 1, n), n]
                continue
            for other in element.sets(n):
                value = 0
                for m in other:
                    value ^= g[m]
                if value == target:
                    return [*other, n]
        raise RuntimeError(f"cannot happen: no move of coin {n} reaches {target}")


class _Trie:
    """A set of values below 2**bits (with multiplicities) as a binary trie of counts: level d
    counts the distinct values under each d-bit prefix, so ``mex_xor(c)``, the least x with
    x ^ c not held, is one descent: go to x's bit 1 wherever the subtree of bit 0 is full."""

    def __init__(self, bits: int) -> None:
        from array import array

        self.bits = bits
        self.levels = [array("i", bytes(4 << d)) for d in range(bits + 1)]
        self.times: dict[int, int] = {}

    def _step(self, value: int, step: int) -> None:
        for d in range(self.bits + 1):
            self.levels[d][value >> (self.bits - d)] += step

    def add(self, value: int) -> None:
        held = self.times.get(value, 0)
        self.times[value] = held + 1
        if not held:
            self._step(value, 1)

    def remove(self, value: int) -> None:
        held = self.times[value] - 1
        if held:
            self.times[value] = held
        else:
            del self.times[value]
            self._step(value, -1)

    def mex_xor(self, c: int) -> int:
        x = prefix = 0
        for d in range(1, self.bits + 1):
            b = self.bits - d
            child = prefix << 1 | (c >> b & 1)  # x's bit b = 0
            if self.levels[d][child] == 1 << b:
                x |= 1 << b
                child ^= 1
            prefix = child
        return x


def get_turning(code: str) -> Turning:
    """The game of a turning code or a name of NAMED."""
    return Turning(code)


class Tartan:
    """The product G1 x G2 of two coin-turning games: a board's value by the tartan theorem
    and its winning move."""

    def __init__(self, rows: Turning, cols: Turning) -> None:
        self.rows, self.cols = rows, cols
        self.name = f"{rows.code}x{cols.code}"

    def value(self, board: list[list[int]]) -> int:
        """The XOR over heads coins (x, y) of G1(x) (x) G2(y): row x's G2 XOR first."""
        if not board:
            return 0
        g1 = self.rows.values(len(board) + 1)
        width = max((max(row) for row in board if row), default=0)
        g2 = self.cols.values(width + 1)
        total = 0
        for x, row in enumerate(board, 1):
            across = 0
            for y in row:
                across ^= g2[y]
            if across and g1[x]:
                total ^= nim_product(g1[x], across)
        return total

    def winning_move(self, board: list[list[int]]) -> list[tuple[int, int]] | None:
        """The coins (row, column), 1-based, of a winning move, or None: the first heads coin
        (row by row) whose value can be lowered, and the first pair of moves (rows' game's
        sets, then the columns') whose product of options reaches the target."""
        total = self.value(board)
        if not total:
            return None
        g1 = self.rows.values(len(board) + 1)
        g2 = self.cols.values(max((max(r) for r in board if r), default=0) + 1)
        for x, row in enumerate(board, 1):
            for y in row:
                here = nim_product(g1[x], g2[y])
                target = here ^ total
                if target >= here:
                    continue
                for sx in self.rows.heap_options(x):
                    xs = (*sx, x)
                    for sy in self.cols.heap_options(y):
                        ys = (*sy, y)
                        value = 0
                        for i in xs:
                            for j in ys:
                                if (i, j) != (x, y):
                                    value ^= nim_product(g1[i], g2[j])
                        if value == target:
                            return [(i, j) for i in xs for j in ys]
        raise RuntimeError("cannot happen: no product move reaches the target")


def tartan(code: str) -> Tartan:
    """The product game of 'CODE1xCODE2' (or a name of PRODUCTS)."""
    name = code.strip().lower()
    if name in PRODUCTS:
        first, second = PRODUCTS[name]
    else:
        first, sep, second = code.partition("x")
        if not sep:
            raise InputError(f"a 2-D game is CODE1xCODE2 (1-2x1-2) or one of "
                             f"{', '.join(PRODUCTS)}, not {shown(code)}")
    return Tartan(Turning(first), Turning(second))
