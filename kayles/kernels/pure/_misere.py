"""The misère search in plain Python: same names, arguments, results and errors as
ext/_misere.pyx.

Misère Grundy values v of positions: a multiset of game heaps, plus ``twos`` nim heaps *2
and ``ones`` (0 or 1) nim heap *1; v(terminal) = 1, otherwise the mex over the options.
v == 0 exactly when the player to move loses (whoever moves last loses).

Sound reductions only, applied to every position before it is looked up:
- a heap with no move is the game 0 and vanishes;
- a heap whose every option leaves only such heaps is, as a game tree, the nim heap *1;
- *1 + *1 cancels: v(X + *1 + *1) = v(X) for every X (induction on X: the options of
  X + *1 + *1 are X' + *1 + *1, of value v(X') by induction, and X + *1, whose value is not
  v(X) because X is one of its options; so both mexes are v(X); X = 0 by hand: v(*1+*1) = 1).
Identical game heaps do not cancel.  Positions are memoised in a MisereMemo; the depth-first
search keeps its own stack (no recursion), and the memo never holds more than ``budget``
positions: past it, ValueError.

Memory is bounded too, by what the positions weigh: a position of k live heaps counts
k + 3 words (its key and its length), and the stored positions together with those the
search holds open (the options of every frame on its stack, and the root) may weigh at
most ``budget * WORDS_PER_POSITION + WORDS_SLACK`` words; past it, ValueError.  The compiled twin
counts the same words at the same moments (its arenas hold exactly these keys), in the
same order of search, so both raise the same error on the same input.
"""

from __future__ import annotations

from _thread import allocate_lock

from ...errors import ResourceError
from .. import checks as args
from ..constants import WORDS_PER_POSITION, WORDS_SLACK
from ..limits import interrupt
from ..parts import allowed
from ._common import check_kinds, mex

# words of work (keys written or looked up) between looks at the interrupt hook: the
# compiled twin's rule, with 2**16 words where it has 2**22 (Python is some 64 times slower)
LOOK_WORDS = 1 << 16

__all__ = ["MisereMemo", "misere_layers_agree", "misere_value"]

_LIVE, _DEAD, _STAR1 = 0, 1, 2


class MisereMemo:
    """The misère values found so far for one game (kinds as in rules.encode).

    One call at a time uses a memo: a call from another thread waits for the one under
    way to end (``lock``).
    """

    def __init__(self, kinds, budget: int) -> None:
        check_kinds(kinds)
        args.check_count(budget, "the budget")
        self.lock = allocate_lock()
        self.kinds = tuple(kinds)
        self.budget = budget
        self.values: dict[tuple[int, ...], int] = {}
        self.shapes: list[int] = []  # _LIVE, _DEAD or _STAR1 per heap size
        self.stored_words = 0  # the weight of the stored positions
        self.pending_words = 0  # ... and of those the search in progress holds open
        self.work = 0  # words written or looked up since the last look at the hook

    def __len__(self) -> int:
        return len(self.values)


def _splits(kinds, h: int):
    """(a, b, kept run lengths) of every move on a heap of h, a <= b (mirror images agree):
    kind by kind, the smallest left part first (the compiled twin's order)."""
    for span, kept, leave, unequal in kinds:
        rest = h - span
        for a in range(rest // 2 + 1 if rest >= 0 else 0):
            if allowed(leave, unequal, a, rest - a):
                yield a, rest - a, kept


def _shape(memo: MisereMemo, h: int) -> int:
    shapes = memo.shapes
    while len(shapes) <= h:
        n = len(shapes)
        shape = _DEAD
        for a, b, heaps in _splits(memo.kinds, n):
            shape = _STAR1
            if any(shapes[p] != _DEAD for p in (a, b, *heaps)):
                shape = _LIVE
                break
        shapes.append(shape)
    return shapes[h]


def _key(memo: MisereMemo, heaps, twos: int, ones: int) -> tuple[int, ...]:
    """(twos, ones, live heaps ascending): the position after the reductions."""
    live = []
    for h in heaps:
        shape = _shape(memo, h)
        if shape == _STAR1:
            ones ^= 1
        elif shape == _LIVE:
            live.append(h)
    live.sort()
    return (twos, ones, *live)


def _weight(key: tuple[int, ...]) -> int:
    return len(key) + 1


def _word_limit(memo: MisereMemo) -> int:
    return memo.budget * WORDS_PER_POSITION + WORDS_SLACK


def _spend(memo: MisereMemo, words: int) -> None:
    """Count words of work; past LOOK_WORDS, look at the interrupt hook (it may raise to end
    the search), so one position of many large heaps is looked within too."""
    memo.work += words
    if memo.work >= LOOK_WORDS:
        memo.work = 0
        interrupt()


def _too_heavy(memo: MisereMemo) -> ResourceError:
    return ResourceError(f"the misère search needs more memory than its budget allows "
                      f"({memo.budget} positions of {WORDS_PER_POSITION} words on average)")


def _options(memo: MisereMemo, key: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The options of a position, each weighed as it is added (ValueError past the budget)."""
    twos, ones, *heaps = key
    out: list[tuple[int, ...]] = []
    limit = _word_limit(memo)

    def add(option: tuple[int, ...]) -> None:
        out.append(option)
        weight = _weight(option)
        memo.pending_words += weight
        if memo.stored_words + memo.pending_words > limit:
            raise _too_heavy(memo)
        _spend(memo, weight)

    for i, h in enumerate(heaps):
        if i and heaps[i - 1] == h:
            continue  # equal heaps have the same options
        rest = heaps[:i] + heaps[i + 1 :]
        for a, b, kept in _splits(memo.kinds, h):
            add(_key(memo, [*rest, a, b, *kept], twos, ones))
    if twos:
        add((twos - 1, ones ^ 1, *heaps))
        add((twos - 1, ones, *heaps))
    if ones:
        add((twos, 0, *heaps))
    return out


def misere_value(memo: MisereMemo, heaps, twos: int) -> int:
    """The misère Grundy value of the heaps plus ``twos`` nim heaps *2 (0: a loss to move)."""
    args.check_memo(memo, MisereMemo)
    heaps = args.check_heaps(heaps)
    args.check_count(twos, "the number of *2 heaps")
    with memo.lock:
        return _value(memo, heaps, twos)


def _value(memo: MisereMemo, heaps: tuple[int, ...], twos: int) -> int:
    values = memo.values
    root = _key(memo, heaps, twos, 0)
    if root in values:
        return values[root]
    memo.pending_words = _weight(root)
    memo.work = 0
    stack = [[root, _options(memo, root), 0, set()]]  # key, options, next option, values seen
    while stack:
        _spend(memo, 1)
        frame = stack[-1]
        key, options, position, seen = frame
        while position < len(options) and options[position] in values:
            seen.add(values[options[position]])
            _spend(memo, _weight(options[position]))
            position += 1
        frame[2] = position
        if position < len(options):
            child = options[position]
            stack.append([child, _options(memo, child), 0, set()])
            continue
        if len(values) >= memo.budget:
            raise ResourceError(
                f"the misère search needs more than {memo.budget} positions (its budget)"
            )
        if memo.stored_words + _weight(key) + memo.pending_words > _word_limit(memo):
            raise _too_heavy(memo)
        values[key] = mex(seen) if options else 1
        memo.stored_words += _weight(key)
        memo.pending_words -= sum(map(_weight, options))
        stack.pop()
    return values[root]


def misere_layers_agree(memo: MisereMemo, low: int, high: int) -> bool:
    """Whether every position stored with ``high`` nim heaps *2 has the value it has with ``low``.

    The values with k *2s are a function of those with k - 1 (the same for every k >= 1), so
    once the layers low and low + 2 agree on a set closed under moves, they alternate for ever.
    """
    args.check_memo(memo, MisereMemo)
    args.check_count(low, "low")
    args.check_count(high, "high")
    with memo.lock:
        return _layers_agree(memo, low, high)


def _layers_agree(memo: MisereMemo, low: int, high: int) -> bool:
    values = memo.values
    memo.work = 0
    for key, value in values.items():
        _spend(memo, 1)
        if key[0] != high:
            continue
        _spend(memo, 2 * len(key))
        if values.get((low, *key[1:])) != value:
            return False
    return True
