"""Any impartial game given by its moves: nimbers by a pruned search, misère outcomes, and
the graph of a game that turns out not to be short.

The protocol (``ImpartialGame`` documents it; any object with these methods will do):
``options(position)`` the positions one move reaches (required); ``components(position)``
the independent parts of a position, whose nimbers XOR; ``key(position)`` a canonical
form, so that equal positions share one entry; ``nimber(position)`` a direct solver for a
component (a compiled kernel), None where it has no answer.  ``parse`` and ``format`` are
for the command line.

How the search works.

* A position is split into components.  A component's nimber is read from the table
  (``kayles.engine.transposition``: bounded in bytes) under its key, or given by the
  game's ``nimber``, or searched; a position's nimber is the XOR of its components'.
* ``"lv"`` (the default for games with components): the search of Lemoine and Viennot
  ("Nimbers are inevitable", 2012) as Beling improved it (igs's LVB; Beling and
  Rogalski, "On pruning search trees of impartial games", 2020).  G(c) is the least j
  such that no option of c has the value j once one option of each value below j has
  been set aside, and "has the option m the value j?" (is m + *j a P-position?) is
  answered by computing all of m's components but one and asking of the last only
  whether its value is j ^ (their XOR): one option of it with that value says no,
  without its value.  Before any question each option whose components the table knows
  is folded in (enhanced transposition cut-off), so an option known to have the value j
  ends "has c the value j?" at once; each "no" is kept in the table as a mask of the
  values c does not have (``~mask``: all of 0..j once every value below j was found
  among the options), so it is not asked twice (``"lv-"``: not kept, as igs; nor by
  "lv" once the table is full and evicts, where they would push out exact values).  The
  options are asked easiest first (igs's order: the least sum of their unknown
  components' squared sizes, a key's length standing for its size), and in an option
  of several components the biggest is left for the yes/no question.
* ``"mex"`` (the default without components): every option's value, then their mex:
  with room in the table, each position expanded once, the least any search can do
  when every value is needed.
* Iterative: one explicit stack of small frames (a list each, no Python recursion), so
  a game 10**6 moves deep costs 10**6 frames of memory and nothing else.  A component
  met again on its own search path means the game is not short (a cycle, or positions
  without end): ``CycleFound``, which the analysis layer answers with the loopy solver
  on the graph ``explore`` builds.
* Misère play (``misere_wins``) has no nimbers to add: its own search over sums, a sum
  known by its components' keys sorted by hash, memoized in a table of its own.
* Every few milliseconds of work the search calls ``kayles.kernels.limits.interrupt`` and
  its ``progress`` callback: the stride between two looks (in positions expanded)
  adapts to the time the game's own methods take.
* Python's cyclic garbage collector is paused while a search runs (as ``LoopyGame``
  does): it would scan the table's millions of keys again and again (a quarter of the
  time).  What the search makes holds no reference cycle; cyclic garbage the game's own
  code makes is collected once the search ends.
"""

from __future__ import annotations

import gc
import os
from sys import getsizeof
from time import monotonic

from ..errors import GameError, InputError, ResourceError, shown
from ..kernels import limits
from ..kernels.limits import interrupt
from .game_protocol import CycleFound, Rules, brief_repr
from .transposition import Table, deep_size

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["ORDERS", "STRATEGIES", "Search", "game_failure"]

STRATEGIES = ("lv", "lv-", "mex")
ORDERS = ("easiest", "fewest", "given")  # how an "lv" frame orders its options: the least
                                         # sum of squared sizes first (igs's order), the
                                         # fewest unknown components first, or the game's
TICK_SECONDS = 0.01  # between two looks at the interrupt hook and the progress, about
MAX_STRIDE = 1 << 12  # positions expanded between two looks, at most
BIG = 1 << 12  # options of one position past which its loops look at the hook as they go
GRAPH_CHECK = 1 << 10  # vertices of an explored graph between two measurements of it
FRAME_BYTES = {"mex": 300, "lv": 800, "lv-": 800}  # what a frame of the search path holds,
                   # about (measured on take-1-or-2 10**6 deep: 265 MB of "mex" frames, some
                   # 700 MB of "lv" frames and their options' records)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Search:
    """One game's search, its tables and its counts; the module header says how it works.

    ``memory``: the bytes its tables may hold (the misère table, once used, shares them);
    ``strategy``: one of STRATEGIES (default: "lv" for a game with components, else
    "mex"); ``order``: one of ORDERS (an option's size: its unknown components' keys'
    lengths); ``progress(search)`` is called every few milliseconds.  Counts: ``visited``
    (the game's ``options`` calls), ``evicted()``, ``entries()``, ``size()``.
    """

    def __init__(self, game, memory: int, strategy: str | None = None, order: str = "easiest",
                 progress: Callable[[Search], None] | None = None) -> None:
        self.rules = rules = game if isinstance(game, Rules) else Rules(game)
        if strategy is None:
            strategy = "mex" if rules.split is None else "lv"
        if strategy not in STRATEGIES:
            raise InputError(f"the strategy must be one of {', '.join(STRATEGIES)}, "
                             f"not {shown(str(strategy))}")
        if order not in ORDERS:
            raise InputError(f"the order must be one of {', '.join(ORDERS)}, "
                             f"not {shown(str(order))}")
        self.strategy, self.order = strategy, order
        self.memory = memory
        self.table = Table(memory)
        self.misere: Table | None = None  # made on first use; the two then share the cap
        self.progress = progress
        self.visited = 0
        self._keep_exclusions = strategy == "lv"
        self._below = True
        self._open: set = set()  # keys of the components (or sums) on the search path
        self._stack: list = []  # the search path's frames, while a search runs
        self._path_limit = max(memory, limits.memory()[0] // 2)  # bytes the path may hold
        self._stride = 1
        self._next = 1
        self._last = monotonic()

    # -- what the search counts ------------------------------------------------------------

    def evicted(self) -> int:
        return self.table.evicted + (self.misere.evicted if self.misere is not None else 0)

    def entries(self) -> int:
        return len(self.table) + (len(self.misere) if self.misere is not None else 0)

    def size(self) -> int:
        """The bytes the tables hold, as last measured."""
        return self.table.size() + (self.misere.size() if self.misere is not None else 0)

    def saved(self) -> tuple[list, list]:
        """The tables' entries [(key, int)], normal play's and misère play's (to save)."""
        return (list(self.table.items()),
                list(self.misere.items()) if self.misere is not None else [])

    def remember(self, key, value: int) -> None:
        """Store the nimber of the component of ``key``, found elsewhere (a worker's)."""
        self.table.put(key, value)

    def remember_misere(self, position, wins: bool) -> None:
        """Store the misère outcome of ``position``, found elsewhere (a worker's)."""
        self._misere_table().put(self.state_key(position), 1 if wins else 0)

    def restore(self, normal, misere) -> None:
        """Put entries ``saved`` gave back into the tables (past the cap, the oldest go)."""
        for key, value in normal:
            self.table.put(key, value)
        if misere:
            table = self._misere_table()
            for key, value in misere:
                table.put(key, value)

    def _tick(self) -> None:
        interrupt()
        if len(self._stack) * FRAME_BYTES[self.strategy] > self._path_limit:
            raise ResourceError(
                f"the search is {len(self._stack):,} moves deep: its path alone needs more "
                f"than {self._path_limit >> 20:,} MB (the tables' memory, or half the "
                "memory there is, whichever is more)")
        now = monotonic()
        spent = now - self._last
        if spent > 2 * TICK_SECONDS and self._stride > 1:
            self._stride //= 2
        elif spent < TICK_SECONDS / 2 and self._stride < MAX_STRIDE:
            self._stride *= 2
        self._last = now
        self._next = self.visited + self._stride
        if self.progress is not None:
            self.progress(self)

    # -- the public questions ----------------------------------------------------------------

    def parts(self, position) -> list[tuple]:
        """[(component, its key)] of ``position``."""
        return self._guarded(self._parts, position)

    def options(self, position) -> list:
        """The game's options of the whole ``position``, as a list."""
        return self._guarded(self._expand, position)

    def nimber(self, position) -> int:
        """G(position): the XOR of its components' nimbers.  CycleFound when it has none."""
        return self._guarded(self._nimber, position)

    def has_value(self, position, value: int) -> bool:
        """Whether G(position) == value (is position + *value a P-position?), found with
        no more of the nimbers than that needs.  CycleFound as for ``nimber``."""
        return self._guarded(self._has_value, position, value)

    def misere_wins(self, position) -> bool:
        """Whether the player to move wins ``position`` in misère play (whoever moves last
        loses).  CycleFound as for ``nimber``."""
        return self._guarded(self._misere_wins, position)

    def state_key(self, position) -> tuple:
        """The key of a whole position: its components' keys, sorted by hash (a vertex of
        the graph ``explore`` builds)."""
        return self._guarded(lambda p: _state([kc for _, kc in self._parts(p)]), position)

    def explore(self, position) -> tuple[dict, tuple]:
        """({vertex: [successor vertices]}, the vertex of ``position``): the graph of every
        whole position reachable from ``position``, each known by ``state_key``, a move one
        move in one component.  ResourceError when it would take more than the memory."""
        return self._guarded(self._explore, position)

    def _guarded(self, work, *args):
        """``work(*args)``, the game's own errors made GameErrors, the path cleared, the
        cyclic garbage collector paused (the module header)."""
        self._open.clear()
        collecting = gc.isenabled()
        gc.disable()
        try:
            return work(*args)
        except (InputError, ResourceError, CycleFound):
            raise
        except Exception as exc:
            failure = game_failure(exc)
            if failure is exc:
                raise
            raise failure from exc
        finally:
            self._open.clear()
            self._stack = []
            if collecting:
                gc.enable()

    # -- components and the table ------------------------------------------------------------

    def _parts(self, position) -> list[tuple]:
        rules = self.rules
        found = (rules.split(position) if rules.split is not None else (position,))
        key = rules.key
        return [(c, c if key is None else key(c)) for c in found]

    def _lookup(self, component, key) -> int | None:
        """The table's entry for ``key``, or the game's direct nimber (then stored)."""
        value = self.table.get(key)
        if value is None and self.rules.direct is not None:
            value = self._direct(component, key)
        return value

    def _direct(self, component, key) -> int | None:
        value = self.rules.direct(component)
        if value is None:
            return None
        if value.__class__ is not int:
            value = _as_nimber(value)
        elif value < 0:
            raise GameError(f"the game's nimber returned {value}, not a nimber (an int >= 0) "
                            "or None")
        self.table.put(key, value)
        return value

    def _exclude(self, key, mask: int) -> None:
        """Keep in the table that G is none of the values of ``mask`` (a bit each) for the
        component of ``key``: until the table first evicts (past that, room is kept for
        exact values: measured, docs/benchmarks.md)."""
        if self._keep_exclusions and not self.table.evicted:
            entry = self.table.get(key)
            if entry is None:
                self.table.put(key, ~mask)
            elif entry < 0:
                self.table.put(key, entry & ~mask)

    def _expand(self, component) -> list:
        """The component's options, as a list (counted in ``visited``)."""
        self.visited += 1
        if self.visited >= self._next:
            self._tick()
        found = self.rules.options(component)
        return found if found.__class__ is list else list(found)

    # -- normal play -------------------------------------------------------------------------

    def _nimber(self, position) -> int:
        x = 0
        for c, kc in self._parts(position):
            x ^= self._exact(c, kc)
        return x

    def _has_value(self, position, value: int) -> bool:
        parts = self._parts(position)
        if not parts:
            return value == 0
        x = 0
        for c, kc in parts[1:]:
            x ^= self._exact(c, kc)
        c, kc = parts[0]
        target = value ^ x
        entry = self.table.get(kc)
        if entry is None and self.rules.decide is not None:
            answer = self.rules.decide(c, target)
            if answer is not None:
                return bool(answer)
        if entry is None and self.rules.direct is not None:
            entry = self._direct(c, kc)
        if entry is not None and entry >= 0:
            return entry == target
        if entry is not None and ~entry >> target & 1:
            return False
        if self.strategy == "mex":
            return self._run_mex(self._mex_frame(c, kc)) == target
        frame, answer = self._lv_frame(c, kc, target, entry)
        return answer if frame is None else self._run_lv(frame)

    def _exact(self, c, kc) -> int:
        entry = self._lookup(c, kc)
        if entry is not None and entry >= 0:
            return entry
        if self.strategy == "mex":
            return self._run_mex(self._mex_frame(c, kc))
        frame, answer = self._lv_frame(c, kc, -1, entry)
        return answer if frame is None else self._run_lv(frame)

    # "mex": a frame is [key, options, seen, limit, pending, x]: an iterator over the
    # options, the values seen (a bit each, below limit = the number of options + 1), and
    # of the option being summed up (split into components) the components still to find
    # and the XOR of the others.

    def _mex_frame(self, c, kc) -> list:
        if kc in self._open:
            raise CycleFound(kc)
        found = self._expand(c)
        return [kc, iter(found) if len(found) <= BIG else _looking(found), 0, len(found) + 1,
                None, 0]

    def _missing(self, component, key) -> int | None:
        """The value of a component the young table lacks: from the old one, or the game's
        ``nimber``; None when the search must find it."""
        table = self.table
        value = table.promote(key) if table.old else None
        if value is None and self.rules.direct is not None:
            value = self._direct(component, key)
        return value if value is None or value >= 0 else None

    def _run_mex(self, top: list) -> int:
        stack = self._stack = [top]
        opened = self._open
        opened.add(top[0])
        table = self.table
        options, split, key = self.rules.options, self.rules.split, self.rules.key
        missing = self._missing
        back = None  # the value a finished frame hands to the one below it
        while True:
            frame = stack[-1]
            _, each, seen, limit, pending, x = frame
            get = table.young.get
            child = None
            if back is not None:
                if pending is None:  # the value of an option that is one component
                    if back < limit:
                        seen |= 1 << back
                else:
                    pending.pop()
                    x ^= back
                back = None
            if split is None:
                for option in each:
                    ko = option if key is None else key(option)
                    value = get(ko)
                    if value is None or value < 0:
                        value = missing(option, ko)
                        get = table.young.get  # (the table may have turned over)
                        if value is None:
                            child = ko
                            break
                    if value < limit:
                        seen |= 1 << value
                if child is not None:
                    frame[2] = seen
                    if ko in opened:
                        raise CycleFound(ko)
                    self.visited += 1
                    if self.visited >= self._next:
                        self._tick()
                    found = options(option)
                    if found.__class__ is not list:
                        found = list(found)
                    child = [ko, iter(found) if len(found) <= BIG else _looking(found), 0,
                             len(found) + 1, None, 0]
            else:
                while True:
                    if pending is not None:  # (a sibling's search may have found some)
                        while pending:
                            d, kd = pending[-1]
                            value = get(kd)
                            if value is None or value < 0:
                                value = missing(d, kd)
                                get = table.young.get
                                if value is None:
                                    break
                            pending.pop()
                            x ^= value
                        if pending:
                            frame[2], frame[4], frame[5] = seen, pending, x
                            child = self._mex_frame(d, kd)
                            break
                        pending = None
                        if x < limit:
                            seen |= 1 << x
                    for option in each:
                        x = 0
                        for d in split(option):
                            kd = d if key is None else key(d)
                            value = get(kd)
                            if value is None or value < 0:
                                value = missing(d, kd)
                                get = table.young.get
                                if value is None:
                                    if pending is None:
                                        pending = [(d, kd)]
                                    else:
                                        pending.append((d, kd))
                                    continue
                            x ^= value
                        if pending is not None:
                            break
                        if x < limit:
                            seen |= 1 << x
                    else:
                        break
            if child is not None:
                opened.add(child[0])
                stack.append(child)
                continue
            value = (~seen & (seen + 1)).bit_length() - 1
            kc = frame[0]
            table.young[kc] = value  # (Table.put, inlined)
            table.countdown -= 1
            if table.countdown <= 0:
                table.measure(kc, value)
            opened.discard(kc)
            stack.pop()
            if not stack:
                return value
            back = value

    # "lv": a frame is [key, options, taken, j, i, target, excluded, limit].  options: the
    # records [x, unknown, answer] of the options not yet known (x the XOR of the known
    # components, unknown [(component, key)] the others, answer a child's delivered
    # yes/no); taken: a bit for each value below limit that a known option has; j: the
    # value looked for now, i: the option being asked; target: the value asked about
    # ("G == target?"), -1 for G itself; excluded: the values G is known not to have.

    def _lv_frame(self, c, kc, target: int, entry: int | None):
        """(the frame that answers "G(c) == target?" (G(c) itself for -1), None), or (None,
        the answer) when c's options, as the table knows them, give it at once."""
        if kc in self._open:
            raise CycleFound(kc)
        found = self._expand(c)
        count = len(found)
        if target > count:  # G(c) is at most the number of options
            self._exclude(kc, 1 << target)
            return None, False
        limit = count + 1
        taken = 0
        records = []
        table = self.table
        split, key, direct = self.rules.split, self.rules.key, self.rules.direct
        for index, option in enumerate(found):
            if index & (BIG - 1) == BIG - 1:
                interrupt()
            x = 0
            unknown = None
            for d in (split(option) if split is not None else (option,)):
                kd = d if key is None else key(d)
                value = table.young.get(kd)
                if value is None:
                    if table.old:
                        value = table.promote(kd)
                    if value is None and direct is not None:
                        value = self._direct(d, kd)
                if value is not None and value >= 0:
                    x ^= value
                elif unknown is None:
                    unknown = [(d, kd)]
                else:
                    unknown.append((d, kd))
            if unknown is None:
                if x == target:
                    self._exclude(kc, 1 << target)
                    return None, False
                if x < limit:
                    taken |= 1 << x
            else:
                if len(unknown) > 1:  # the biggest is left for the yes/no question
                    unknown.sort(key=_weight, reverse=True)
                records.append([x, unknown, None])
        if not records:
            value = (~taken & (taken + 1)).bit_length() - 1
            table.put(kc, value)
            return None, (value == target if target >= 0 else value)
        if self.order == "fewest":
            records.sort(key=_unknown_count)
        elif self.order == "easiest":
            records.sort(key=_difficulty)
        excluded = ~entry if entry is not None and entry < 0 else 0
        return [kc, records, taken, 0, 0, target, excluded, limit], None

    def _ask(self, record: list, j: int):
        """Whether the option of ``record`` has the value j: True or False, or the frame of a
        child to run first (its answer is then delivered into the record)."""
        unknown = record[1]
        answer = record[2]
        if answer is not None:  # a child's yes or no for unknown[0]
            record[2] = None
            d, kd = unknown[0]
            value = self.table.get(kd)
            if value is not None and value >= 0:
                record[0] ^= value
                record[1] = None
            return answer
        while len(unknown) > 1:
            d, kd = unknown[-1]
            value = self._lookup(d, kd)
            if value is None or value < 0:
                frame, answer = self._lv_frame(d, kd, -1, value)
                if frame is not None:
                    return frame
                value = answer
            unknown.pop()
            record[0] ^= value
        d, kd = unknown[0]
        entry = self._lookup(d, kd)
        if entry is not None and entry >= 0:
            record[0] ^= entry
            record[1] = None
            return record[0] == j
        target = j ^ record[0]
        if entry is not None and ~entry >> target & 1:
            return False
        frame, answer = self._lv_frame(d, kd, target, entry)
        if frame is not None:
            return frame
        value = self.table.get(kd)
        if value is not None and value >= 0:
            record[0] ^= value
            record[1] = None
        return answer

    def _run_lv(self, top: list):
        stack = self._stack = [top]
        opened = self._open
        opened.add(top[0])
        ask = self._ask
        while True:
            frame = stack[-1]
            _, records, taken, j, i, target, excluded, limit = frame
            child = None
            while True:  # the value j: skip it when known taken or excluded
                if taken >> j & 1 or (j != target and excluded >> j & 1):
                    if j == target:  # a known option has the value asked about
                        answer = False
                        break
                    j += 1
                    i = 0
                    continue
                found = hit_target = False
                while i < len(records):  # an option of value j, from the i-th on
                    record = records[i]
                    said = ask(record, j)
                    if said.__class__ is list:
                        child = said
                        break
                    if record[1] is None:  # its value is known now
                        value = record[0]
                        del records[i]
                        if value == j:
                            found = True
                            break
                        if value == target:
                            hit_target = True
                            break
                        if value < limit:
                            taken |= 1 << value
                        continue
                    if said:
                        del records[i]
                        found = True
                        break
                    i += 1
                if child is not None:
                    break
                if hit_target or (found and j == target):
                    answer = False
                    break
                if found:
                    j += 1
                    i = 0
                    continue
                self.table.put(frame[0], j)  # no option has the value j: G = j
                answer = j == target if target >= 0 else j
                break
            if child is not None:
                frame[2], frame[3], frame[4] = taken, j, i
                opened.add(child[0])
                stack.append(child)
                continue
            if answer is False and target >= 0 and not self._known(frame[0]):
                # past every value below target (each an option's) to an option of value
                # target: G > target; else only G != target
                self._exclude(frame[0], (2 << target) - 1 if j == target and
                              self._below else 1 << target)
            opened.discard(frame[0])
            stack.pop()
            if not stack:
                return answer
            below = stack[-1]
            record = below[1][below[4]]
            if len(record[1]) > 1:  # an exact value, of its last unknown component
                record[1].pop()
                record[0] ^= answer
            else:
                record[2] = answer

    def _known(self, key) -> bool:
        value = self.table.get(key)
        return value is not None and value >= 0

    # -- misère play ---------------------------------------------------------------------------

    def _misere_table(self) -> Table:
        if self.misere is None:
            self.table.cap = self.memory // 2
            self.misere = Table(self.memory - self.table.cap)
        return self.misere

    def _misere_wins(self, position) -> bool:
        table = self._misere_table()
        parts = self._parts(position)
        state = _state([kc for _, kc in parts])
        known = table.get(state)
        if known is not None:
            return bool(known)
        return self._run_misere([state, parts, *self._distinct(parts), 0, None, 0, False])

    @staticmethod
    def _distinct(parts: list) -> tuple[list]:
        """([the index of the first component of each key], ) for a misère frame."""
        first: dict = {}
        for index, (_, kc) in enumerate(parts):
            first.setdefault(kc, index)
        return (list(first.values()),)

    # A misère frame is [state, parts, distinct, at, children, next, moved]: parts the
    # components [(c, key)], distinct the index of one of each key, at the one whose
    # options are being tried, children [(state, parts)] of its options whose outcome is
    # not known, next the one asked now, moved whether the sum has a move at all.

    def _run_misere(self, top: list) -> bool:
        table = self.misere
        assert table is not None
        opened = self._open
        opened.add(top[0])
        stack = self._stack = [top]
        back = None
        split, key = self.rules.split, self.rules.key
        while True:
            frame = stack[-1]
            state, parts, distinct, at, children, index, moved = frame
            child = None
            wins = None
            if back is not None:
                if not back:  # that child is lost for the player to move there: we win
                    wins = True
                index += 1
                back = None
            while wins is None:
                if children is None:
                    if at == len(distinct):
                        wins = not moved  # no move: the player to move has won (misère)
                        break
                    place = distinct[at]
                    c, _ = parts[place]
                    rest = parts[:place] + parts[place + 1:]
                    children = []
                    for made, option in enumerate(self._expand(c)):
                        if made & (BIG - 1) == BIG - 1:
                            interrupt()
                        moved = True
                        new = rest + [(d, d if key is None else key(d)) for d in
                                      (split(option) if split is not None else (option,))]
                        sk = _state([kd for _, kd in new])
                        known = table.get(sk)
                        if known is None:
                            children.append((sk, new))
                        elif not known:
                            wins = True
                            break
                    index = 0
                    if wins:
                        break
                if index < len(children):
                    sk, new = children[index]
                    known = table.get(sk)  # found meanwhile, by a sibling's search
                    if known is not None:
                        if not known:
                            wins = True
                            break
                        index += 1
                        continue
                    if sk in opened:
                        raise CycleFound(sk)
                    child = [sk, new, *self._distinct(new), 0, None, 0, False]
                    break
                at += 1
                children = None
            if child is not None:
                frame[3], frame[4], frame[5], frame[6] = at, children, index, moved
                opened.add(child[0])
                stack.append(child)
                continue
            table.put(state, 1 if wins else 0)
            opened.discard(state)
            stack.pop()
            if not stack:
                return wins
            back = wins

    # -- the graph of a game that is not short ----------------------------------------------------

    def _explore(self, position) -> tuple[dict, tuple]:
        split, key = self.rules.split, self.rules.key
        parts = self._parts(position)
        root = _state([kc for _, kc in parts])
        graph: dict = {}
        todo = [(root, parts)]
        weight = 0.0  # bytes a vertex takes, as measured on samples
        while todo:
            vertex, parts = todo.pop()
            if vertex in graph:
                continue
            successors = []
            for place in self._distinct(parts)[0]:
                c, _ = parts[place]
                rest = parts[:place] + parts[place + 1:]
                for made, option in enumerate(self._expand(c)):
                    if made & (BIG - 1) == BIG - 1:
                        interrupt()
                    new = rest + [(d, d if key is None else key(d)) for d in
                                  (split(option) if split is not None else (option,))]
                    sk = _state([kd for _, kd in new])
                    successors.append(sk)
                    if sk not in graph:
                        todo.append((sk, new))
            graph[vertex] = successors
            if len(graph) % GRAPH_CHECK == 1:
                sample = deep_size(vertex) + 8 * len(successors) + 120
                weight = sample if not weight else (weight + sample) / 2
                if len(graph) * weight * 3 > self.memory:  # and the loopy solver's arrays
                    raise ResourceError(
                        f"the game has a cycle (or positions without end), and its graph of "
                        f"positions from here passes {len(graph):,} positions: more than the "
                        "memory allowed holds (raise --memory)")
        return graph, root


_END = object()  # the end of an iterator of options


def _looking(found: list):
    """The options of a position that has many, the interrupt hook looked at as they go."""
    for start in range(0, len(found), BIG):
        interrupt()
        yield from found[start:start + BIG]


def _state(keys: list) -> tuple:
    """A sum's key: its components' keys, sorted by hash (equal sums, equal keys; two keys
    of equal hash in another order only make a second entry)."""
    return tuple(sorted(keys, key=hash)) if len(keys) > 1 else tuple(keys)


def _weight(part: tuple) -> int:
    """How big a component looks: its key's length (a tuple's, a frozenset's, a string's),
    else its size in bytes."""
    key = part[1]
    try:
        return len(key)
    except TypeError:
        return getsizeof(key)


def _difficulty(record: list) -> int:
    """How hard an option looks (igs's SmallerComponentsFirst): the sum of its unknown
    components' weights, squared."""
    return sum(_weight(part) ** 2 for part in record[1])


def _unknown_count(record: list) -> int:
    return len(record[1])


def _as_nimber(value) -> int:
    from operator import index

    try:
        number = index(value)
    except TypeError:
        number = -1
    if number < 0 or isinstance(value, bool):
        raise GameError(f"the game's nimber returned {brief_repr(value)}, not a nimber (an int "
                        ">= 0) or None")
    return number


def game_failure(exc: Exception, caller_file: str = __file__) -> Exception:
    """What an exception that escaped the search means: the game's own code failed (a
    GameError naming the method, the exception and where: the frames below a call that
    ``caller_file``, this module unless told, made into code outside the package); a
    position that cannot be a key (an InputError); else what it is (the interrupt hook's,
    a progress callback's, or a bug of ours)."""
    codes = []
    trace = exc.__traceback__
    while trace is not None:
        codes.append(trace.tb_frame.f_code)
        trace = trace.tb_next
    for caller, called in zip(codes, codes[1:]):
        if caller.co_filename == caller_file and caller.co_name != "_tick" and \
                not called.co_filename.startswith(_PACKAGE):  # (_tick: a caller's callback)
            where = [code for code in codes[codes.index(called):]
                     if not code.co_filename.startswith(_PACKAGE)][-1]
            return GameError(f"the game's {called.co_name} raised {type(exc).__name__}: "
                             f"{_cut(str(exc))} ({os.path.basename(where.co_filename)}, "
                             f"line {_last_line(exc, where)})")
    if isinstance(exc, TypeError) and "unhashable" in str(exc):
        return InputError(f"a position must be hashable (a tuple, not a list; a frozenset, "
                          f"not a set), or the game's key(position) must make it so: {exc}")
    return exc


def _last_line(exc: BaseException, code) -> int:
    trace, line = exc.__traceback__, 0
    while trace is not None:
        if trace.tb_frame.f_code is code:
            line = trace.tb_lineno
        trace = trace.tb_next
    return line


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:200] + "..."
