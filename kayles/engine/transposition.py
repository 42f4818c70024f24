"""A transposition table bounded in bytes: past its cap the oldest entries go, not the process.

How it works.  Two generations of plain dicts, ``young`` and ``old``.  Every entry goes
into ``young``; a look-up that finds its key in ``old`` moves it back into ``young``
(so what the search keeps using survives, as with a least-recently-used cache, at the
cost of one dict operation and only once the table has been full).  When ``young``
would take more than half the cap, ``old`` is dropped whole (its entries counted in
``evicted``) and ``young`` becomes ``old``: the table holds at most about the cap, and
until it first fills a look-up is a single dict look-up.

Bytes are measured, not guessed: every so many stores the table adds up
``sys.getsizeof`` of both dicts (their hash tables and entries) and the entries' keys
and values at the size measured on a sample (the key just stored, walked through its
tuples, frozensets, strings and ints by ``deep_size``, averaged over the samples).  The
next measurement comes after an eighth of the entries that would still fit (at most
``CHECK_EVERY``), so a tiny cap is held to within a few entries and a big one costs a
measurement every few thousand stores.

Values are ints chosen by the caller (the search stores a nimber as itself and the
values known not to be the nimber as a negative mask, ``~mask``); a table never
changes what it is given.
"""

from __future__ import annotations

from sys import getsizeof

__all__ = ["CHECK_EVERY", "Table", "deep_size"]

CHECK_EVERY = 4096  # stores between two measurements of the table, at most
SAMPLE_WEIGHT = 1 / 16  # how much the newest sampled key weighs in the average key size
WALKED = 256  # objects deep_size walks in one key before it extrapolates
_SHARED_INTS = range(-5, 257)  # CPython's cached small ints: an entry holding one owns nothing


def deep_size(item: object) -> int:
    """About how many bytes ``item`` holds: its own size, and that of what its tuples,
    lists, sets, frozensets and dicts hold (an object's ``__dict__`` or slots too), each
    object counted once; past WALKED objects, the rest at the average size of those
    walked below ``item`` itself."""
    total, walked, pending, seen = 0, 0, [item], set()
    length = 1  # objects found so far, walked or pending
    while pending:
        thing = pending.pop()
        if id(thing) in seen or (type(thing) is int and thing in _SHARED_INTS):
            continue
        seen.add(id(thing))
        total += getsizeof(thing)
        walked += 1
        if walked == 1:
            first = total
        elif walked >= WALKED:
            return total + (total - first) // (walked - 1) * (length - walked)
        kind = type(thing)
        if kind in (tuple, list, frozenset, set):
            pending.extend(thing)
            length += len(thing)
        elif kind is dict:
            pending.extend(thing.keys())
            pending.extend(thing.values())
            length += 2 * len(thing)
        elif kind not in (int, str, bytes, float, bool):
            inner = getattr(thing, "__dict__", None)
            if inner is not None:
                pending.append(inner)
                length += 1
            for name in getattr(kind, "__slots__", ()):
                if hasattr(thing, name):
                    pending.append(getattr(thing, name))
                    length += 1
    return total


class Table:
    """key -> int, held to about ``cap`` bytes (the module header says how)."""

    __slots__ = ("cap", "countdown", "evicted", "old", "young", "_entry_bytes")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.young: dict = {}
        self.old: dict = {}
        self.evicted = 0
        self._entry_bytes = 0.0  # a key's and a value's bytes, as measured on samples
        self.countdown = 1  # stores before the next measurement (a hot loop may store as
                            # put does: young[key] = value, countdown -= 1, measure at 0)

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def get(self, key):
        """The value stored for ``key``, or None."""
        value = self.young.get(key)
        if value is None and self.old:
            value = self.promote(key)
        return value

    def promote(self, key):
        """The value ``old`` holds for ``key`` (None if none), moved into ``young``."""
        value = self.old.pop(key, None)
        if value is not None:
            self.put(key, value)
        return value

    def put(self, key, value: int) -> None:
        self.young[key] = value
        self.countdown -= 1
        if self.countdown <= 0:
            self.measure(key, value)

    def items(self):
        """Every (key, value) held, the older generation first."""
        yield from self.old.items()
        yield from self.young.items()

    def clear(self) -> None:
        self.young, self.old = {}, {}

    def size(self) -> int:
        """The bytes the table holds, as last measured on samples (the module header)."""
        return (getsizeof(self.young) + getsizeof(self.old)
                + int(len(self) * self._entry_bytes))

    def measure(self, key, value: int) -> None:
        """Measure the table, ``key`` and ``value`` (just stored) as the sample; turn it over
        when the young generation passes half the cap."""
        sample = deep_size(key) + (0 if value in _SHARED_INTS else getsizeof(value))
        if self._entry_bytes:
            self._entry_bytes += (sample - self._entry_bytes) * SAMPLE_WEIGHT
        else:
            self._entry_bytes = float(sample)
        young = getsizeof(self.young) + len(self.young) * self._entry_bytes
        if young > self.cap / 2 and self.young:
            self.evicted += len(self.old)
            self.old, self.young = self.young, {}
            young = 0
        per_entry = self._entry_bytes + 40  # and a dict slot's share, about
        room = max(self.cap / 2 - young, 0) / per_entry
        self.countdown = max(1, min(CHECK_EVERY, int(room / 8)))
