"""Regularity of nim-sequences beyond the octal games: periodicity and arithmetic
periodicity, found in a table and proved by a theorem whose hypotheses the game meets.

A sequence is *arithmetic-periodic* (preperiod n0, period p, saltus s) when
G(n + p) = G(n) + s for every n >= n0 (ordinary addition; s = 0: periodic).  Every
claim here is checked against the theorem that proves it; where none applies, a
regularity is only *observed* (``observe``), and said so.

Theorem P (periodicity; moves that leave at most K parts).  Let a finite code have
its last digit at t, no marks, and moves that leave at most K non-empty parts.  If
G(x + p) = G(x) for n0 <= x < L - p, with

    L >= max(K * max(n0, 1) + K * p + t - K + 1, p + t + 1),

then G(x + p) = G(x) for every x >= n0.  Proof (by induction on x >= L - p): an option
of heap x + p leaves k <= K parts summing to x + p - j; the largest is at least
(x + p - j) / k >= max(n0, 1) + p, so it can be shortened by p, a part of x with the
same value; an option of x has a largest part of at least max(n0, 1), lengthened by p
(docs/how-it-works.md gives it in full).  K = 2 is the octal theorem; with K = 3 the
octal bound is not enough (0.08 and 0.209 repeat within it and break later).

Theorem A (arithmetic periodicity; the saltus certificate).  Let a finite hexadecimal
code (no marks, no digit before the point, moves that leave at most three parts, last
digit t) and n0, p and s = 2**m satisfy, with q(x) = (x - n0) // p and
b(x) = n0 + (x - n0) % p:

    H0  G(x) < s for every x < n0 + p;
    H1  G(N) = s q(N) + G(b(N)) for n0 + p <= N <= t;
    H2  for each base B in [n0, n0 + p), every R < G(B) is the value of a configuration
        of B with c = 0 and a large part (z <= 1); and for n0 = 0 none with c = 0 has the
        value G(B);
    H3  for each B and each d = 1 .. cmax + 2, the values of the configurations with
        c = d and a large part (z <= 1), or with three large parts and c < d, c = d mod 2,
        cover [0, s); and so do those with c = d and z = 0, or two or three large parts
        (z <= 2) and c < d, c = d mod 2.

Then G(x + p) = G(x) + s for every x >= n0.  A *configuration* of B is a move j with k
parts whose bases b_i (values in [1, n0 + p), or z parts of base 0 when n0 = 0) sum to
B - j + c p (c >= 0): an option of any heap N with b(N) = B, its large parts (base at
least n0) carrying q-values that sum to q(N) - c; its value is the XOR of the G(b_i).
The proof (docs/how-it-works.md) splits every option value into s * XOR(q) + XOR(G(b)),
shows that s q(N) + G(B) is not reached (H2's c = 0 configurations are options of B) and
that every smaller value is (H2 at the top level; H3 below it, with q-values (Q, 0, ..),
(x, x, Q) or (x, x) on the large parts).  Octal games have no configuration of three
large parts, so the certificate never holds for them; and finite octal games are never
arithmetic-periodic (Horrocks and Nowakowski, INTEGERS 3, 2003): kayles looks for no
saltus in them.

Both theorems were derived and proved for kayles (docs/how-it-works.md): the published
arithmetic-periodicity theorem of Howse and Nowakowski (TCS 313, 2004) could not be read
where this was written, so none of its claims is made here.
"""

from __future__ import annotations

import itertools

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .rules import Game

__all__ = ["ARITHMETIC", "PERIODIC", "certified", "find_arithmetic", "observe", "parts_bound",
           "prove", "theorem_for", "unprovable"]

PERIODIC = "theorem P"  # periodicity of moves that leave at most K parts
ARITHMETIC = "theorem A"  # the saltus certificate
MAX_BASE = 160  # n0 + p up to this: a certificate lists configurations of up to 3 bases
                # (160: some 700,000 triples, a second or so in Python)
STRETCHES = (1, 2, 4, 8, 16)  # (p, s) times these, for a saltus that is a power of two
LATER = 8  # ... and preperiods up to this much later
EVIDENCE = 3  # a regularity is observed over at least this many periods,
SHARE = 4  # ... and over the last 1/SHARE of the table at least
CANDIDATES = 3  # arithmetic regularities a proof tries, the shortest periods first


def parts_bound(game: Game) -> int | None:
    """K of theorem P: the most parts a move of the game leaves, where the theorem applies;
    None where it does not (a tail, marks, 'or more', kept tokens: ``Game.plain``)."""
    if not game.plain:
        return None
    return max((max(k.leave) for k in game.kinds), default=1) or 1


def theorem_for(game: Game) -> str | None:
    """Which theorem can prove a regularity of the game (None: neither, only observed)."""
    if parts_bound(game) is None:
        return None
    if parts_bound(game) <= 3 and not any(k.span == 0 for k in game.kinds):
        return ARITHMETIC  # (theorem P applies too)
    return PERIODIC


def _seen(table, length: int, arithmetic: bool):
    """Each (n0, p, s), the shortest periods first, with G(n + p) - G(n) = s for every n
    from n0 to the table's end (n0 the least such), over at least EVIDENCE periods and
    the last 1/SHARE of the table: s > 0 with ``arithmetic``, else s = 0."""
    g = table
    for p in range(1, length // EVIDENCE + 1):
        s = g[length - 1] - g[length - 1 - p]
        if (s > 0) != arithmetic:
            continue
        k = length - 1 - p
        while k >= 0 and g[k + p] - g[k] == s:
            k -= 1
        if length - (k + 1) >= max(EVIDENCE * p, length // SHARE):
            yield k + 1, p, s


def find_arithmetic(table, length: int) -> tuple[int, int, int] | None:
    """(n0, p, s) of the least period p over which G(n + p) - G(n) = s > 0 holds from n0 on
    (``_seen``), or None."""
    return next(_seen(table, length, True), None)


def observe(table, length: int) -> tuple[int, int, int] | None:
    """The regularity the table shows, proved or not: (n0, p, 0) (the least period seen)
    or (n0, p, s) with s > 0 (``find_arithmetic``); or None."""
    return next(_seen(table, length, False), None) or find_arithmetic(table, length)


Proved = tuple  # (preperiod, period, saltus, theorem)


def prove(game: Game, table, length: int, kernel) -> tuple[Proved | None, int]:
    """A regularity of the game proved from table[:length], and the length worth checking
    next: ((preperiod, period, saltus, theorem), length) or (None, next length)."""
    theorem = theorem_for(game)
    if theorem is None:
        return None, 2 * length
    span = game.span
    found = kernel.find_period(table, length, span, parts_bound(game))
    checkpoint = 2 * length
    if found is not None:
        p, n0, needed = found
        if needed <= length:
            return _smallest(table, length, p, n0, PERIODIC), length
        checkpoint = min(checkpoint, needed)
    if theorem == ARITHMETIC:
        for n0, p, s in itertools.islice(_seen(table, length, True), CANDIDATES):
            if certified(game, table, length, n0, p, s):
                return (n0, p, s, ARITHMETIC), length
    return None, checkpoint


def _smallest(table, length: int, p: int, n0: int, theorem: str) -> Proved:
    """The least period (a divisor of p) and its least preperiod."""
    for q in range(1, p + 1):
        if p % q == 0 and all(table[k] == table[k + q] for k in range(n0, length - q)):
            break
    start = n0
    while start > 0 and table[start - 1] == table[start - 1 + q]:
        start -= 1
    return (start, q, 0, theorem)


def certified(game: Game, table, length: int, n0: int, p: int, s: int) -> bool:
    """Whether theorem A proves G(n + p) = G(n) + s for every n >= n0, the table's values
    from n0 on showing it: some (n0', p', s') with p' = k p, s' = k s a power of two and
    n0 <= n0' < n0 + LATER meets H0 to H3, and the table holds a period past n0' + p'
    (so its k periods of p, and the values before n0', are those of the claim)."""
    if theorem_for(game) != ARITHMETIC:
        return False
    t = game.span
    for k in STRETCHES:
        big_p, big_s = k * p, k * s
        if big_s & (big_s - 1):
            continue  # not a power of two
        for start in range(n0, n0 + LATER):
            if start + big_p > MAX_BASE or start + big_p + p > length or t >= length:
                break
            if not _certificate(game, table, start, big_p, big_s):
                return True
    return False


def unprovable(game: Game, table, length: int, n0: int, p: int, s: int) -> str:
    """Why theorem A proves the arithmetic regularity (n0, p, s) that table[:length] shows
    from no table, however long, in words; '' where a longer table may (a periodic
    regularity, or a certificate not tried for want of values).  ``certified`` tries the
    stretches (k p, k s), k in STRETCHES, from n0 to n0 + LATER: a stretch keeps an odd
    factor of s, and where the period's values reach s, those of k periods reach k s (the
    regularity as observed), so H0 fails for every one, later preperiods included."""
    if not s:
        return ""
    if theorem_for(game) != ARITHMETIC:
        return ("theorem A covers finite hexadecimal codes whose moves take a token and "
                "leave at most three parts")
    if s & (s - 1):
        return (f"theorem A needs a saltus that is a power of two, and {s} is not (nor is "
                f"{s} times any power of two)")
    period_top = max(range(n0, n0 + p), key=lambda x: table[x])
    if table[period_top] >= s:
        return (f"theorem A needs the values before the second period below the saltus (its "
                f"H0), and G({period_top}) = {table[period_top]} is not below {s} (nor, k "
                f"periods on, below {s}k)")
    failed, short = set(), False
    for k in STRETCHES:
        for start in range(n0, n0 + LATER):
            if start + k * p > MAX_BASE:
                break
            if start + k * p + p > length or game.span >= length:
                short = True
                break
            failed.add(_certificate(game, table, start, k * p, k * s))
    if short or "" in failed:
        return ""
    if not failed:
        return (f"theorem A's certificate lists bases below {MAX_BASE}, and n0 + p = "
                f"{n0 + p}")
    return f"theorem A's certificate fails ({', '.join(sorted(failed))}) for every stretch"


def _certificate(game: Game, g, n0: int, p: int, s: int) -> str:
    """H0 to H3 of theorem A for (n0, p, s) (the module header): '' when they hold, else the
    first that fails ('H0' .. 'H3')."""
    top = n0 + p  # bases lie in [1, top)
    if any(g[x] >= s for x in range(top)):
        return "H0"
    t = game.span
    for big in range(top, t + 1):  # H1
        if g[big] != s * ((big - n0) // p) + g[n0 + (big - n0) % p]:
            return "H1"
    digits: dict[int, set[int]] = {}  # the counts of each span (two kinds of one span: both)
    for kind in game.kinds:
        digits.setdefault(kind.span, set()).update(kind.leave)
    # values[(r, total, large)]: the XORs of r bases (ascending) summing to total, large of
    # them at least n0
    values: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    bases = range(1, top)
    for b1 in bases:
        _put(values, (1, b1, int(b1 >= n0)), g[b1])
        for b2 in range(b1, top):
            v2 = g[b1] ^ g[b2]
            _put(values, (2, b1 + b2, int(b1 >= n0) + int(b2 >= n0)), v2)
            for b3 in range(b2, top):
                _put(values, (3, b1 + b2 + b3,
                              int(b1 >= n0) + int(b2 >= n0) + int(b3 >= n0)), v2 ^ g[b3])
    full = (1 << s) - 1
    for base in range(n0, top):
        configs = []  # (c, large, z, values as a bit set)
        for j, counts in digits.items():
            for k in counts:
                if k == 0:
                    continue
                for z in range(k + 1 if n0 == 0 else 1):
                    for (r, total, large), bits in values.items():
                        if r != k - z or (total - base + j) % p or total < base - j:
                            continue
                        configs.append(((total - base + j) // p, large + z, z, bits))
        reach = 0
        for c, large, z, bits in configs:
            if c == 0 and large >= 1 and z <= 1:
                reach |= bits
        if reach & ((1 << g[base]) - 1) != (1 << g[base]) - 1:
            return "H2"  # a value below G(B) at the top level
        if n0 == 0 and any(c == 0 and bits >> g[base] & 1 for c, _, _, bits in configs):
            return "H2"  # G(B) itself
        cmax = max((c for c, *_ in configs), default=0)
        for d in range(1, cmax + 3):
            one = zero = 0
            for c, large, z, bits in configs:
                below = c < d and (d - c) % 2 == 0
                if (c == d and large >= 1 and z <= 1) or (large == 3 and below):
                    one |= bits
                if (c == d and z == 0) or (large in (2, 3) and z <= 2 and below):
                    zero |= bits
            if one & full != full or zero & full != full:
                return "H3"
    return ""


def _put(values: dict, key: tuple[int, int, int], value: int) -> None:
    values[key] = values.get(key, 0) | 1 << value
