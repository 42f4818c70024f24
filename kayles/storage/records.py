"""What long runs and surveys record: ``Record`` (a run, at each power of two: the figures
the published tables give) and ``Summary`` (one game of a survey).

At heap n = 2**k a ``Record`` holds, over the heaps 1..n (G(0) is not counted,
the convention of the published frequency tables of octal games):

* ``frequencies``: how many heaps have each value (counts[v]; zeros kept in
  the list, left out of the JSON object);
* ``largest`` and ``first``: the largest value and the first heap that has it;
* ``mask``, ``rare`` and ``last_rare``: the rare mask the run's sparse method
  used (it may hold HEAP_PARITY: ``kayles.kernels.spectrum``), how many heaps
  0..n are rare under it and the last of them (-1: none; mask 0 means the
  plain scan: every heap counts);
* ``fletcher32``: the checksum of G(0..n) (``kayles.engine.checksum``; what
  ``kayles grundy N --checksum`` prints for N = n);
* ``seconds``: the run's computing time from heap 0 to n (across resumes).

Records come from a run, a checkpoint or the survey database; the last two may
be hostile, so ``Record.from_fields`` checks every field before it makes one.
"""

from __future__ import annotations

import math
import struct
import zlib
from array import array

from ..engine.codes import get_game
from ..errors import InputError
from ..kernels.constants import VALUE_LIMIT
from ..kernels.spectrum import mask_text

__all__ = ["COLUMNS", "FIELDS", "Record", "Summary", "pack_counts", "unpack_counts"]

COUNT = struct.Struct("<Q")


class Record:
    """The figures of one run at one power of two (see the module header)."""

    __slots__ = ("game", "n", "counts", "largest", "first", "mask", "rare", "last_rare",
                 "fletcher32", "seconds")

    def __init__(self, game: str, n: int, counts: list[int], largest: int, first: int,
                 mask: int, rare: int, last_rare: int, fletcher32: int, seconds: float) -> None:
        self.game, self.n, self.counts = game, n, counts
        self.largest, self.first = largest, first
        self.mask, self.rare, self.last_rare = mask, rare, last_rare
        self.fletcher32, self.seconds = fletcher32, seconds

    @property
    def log2(self) -> int:
        return self.n.bit_length() - 1

    def same_figures(self, other: Record) -> bool:
        """Whether two records say the same of the same game (the time aside)."""
        return all(getattr(self, name) == getattr(other, name)
                   for name in self.__slots__ if name != "seconds")

    def as_json(self) -> dict:
        return {"game": self.game, "n": self.n, "log2": self.log2,
                "frequencies": {str(v): c for v, c in enumerate(self.counts) if c},
                "largest": self.largest, "first": self.first, "mask": self.mask,
                "rare": self.rare, "last_rare": self.last_rare,
                "fletcher32": f"{self.fletcher32:08x}", "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        """One line: 2**k, the largest value and where, the rare heaps, the checksum."""
        rare = (f"rare {self.rare:,} (last at {self.last_rare:,}, mask {mask_text(self.mask)})"
                if self.mask else "no rare mask")
        return (f"{self.game} 2**{self.log2}: {len(self.distinct())} values, largest "
                f"{self.largest} (first at {self.first:,}), {rare}, fletcher32 "
                f"{self.fletcher32:08x}")

    def distinct(self) -> list[int]:
        return [v for v, c in enumerate(self.counts) if c]

    @classmethod
    def from_fields(cls, fields: dict) -> Record:
        """A record from untrusted fields (a checkpoint's, the database's, as_json's
        names with counts a list); ValueError saying what is wrong."""
        why = _damage(fields)
        if why:
            raise InputError(why)
        return cls(**{name: fields[name] for name in cls.__slots__})


def _damage(fields: dict) -> str:
    """Why the fields cannot be a record ('' when they can)."""
    names = set(Record.__slots__)
    if not isinstance(fields, dict) or set(fields) != names:
        return "a record with other fields"
    ints = [fields[name] for name in names - {"game", "counts", "seconds"}]
    if (not isinstance(fields["game"], str) or not all(type(v) is int for v in ints)
            or type(fields["seconds"]) not in (int, float)):
        return "a record field of the wrong type"
    counts = fields["counts"]
    if not (isinstance(counts, list) and 0 < len(counts) <= VALUE_LIMIT
            and all(type(c) is int and c >= 0 for c in counts)):
        return "a record's frequencies are not counts"
    n = fields["n"]
    if n < 1 or n & (n - 1):
        return "a record not at a power of two"
    if sum(counts) != n or counts[-1] == 0:
        return "a record's frequencies do not count its heaps"
    if not (fields["largest"] == len(counts) - 1 and 1 <= fields["first"] <= n
            and 0 <= fields["mask"] < 2 * VALUE_LIMIT and 0 <= fields["rare"] <= n + 1
            and -1 <= fields["last_rare"] <= n and 0 <= fields["fletcher32"] < 1 << 32
            and 0 <= fields["seconds"] < math.inf):
        return "a record field out of range"
    return ""


def pack_counts(counts: list[int]) -> bytes:
    """The frequencies as the database keeps them: zlib of little-endian 64-bit counts."""
    return zlib.compress(b"".join(COUNT.pack(c) for c in counts))


def unpack_counts(blob) -> list[int] | None:
    """The counts of ``pack_counts``, or None when the blob is not such data (bounded)."""
    if not isinstance(blob, bytes):
        return None
    unpacker = zlib.decompressobj()
    try:
        data = unpacker.decompress(blob, COUNT.size * VALUE_LIMIT + 1)
    except zlib.error:
        return None
    if not unpacker.eof or not data or len(data) % COUNT.size or len(
            data) > COUNT.size * VALUE_LIMIT:
        return None
    return [c for (c,) in COUNT.iter_unpack(data)]


# What a ``Summary`` holds, one attribute per name (the database's words: ``max``, the most
# values asked for; ``proved``).
FIELDS = (
    "code", "max", "proved", "preperiod", "period", "values", "largest", "largest_heap",
    "mask", "rare", "last_rare", "checksum",
)
# A survey row as published (CSV, JSON, tables, the web page), in the census's words and
# order (kayles.analysis.census adds its columns after these): ``status`` solved or open
# for ``proved``, ``computed`` for ``max``.
COLUMNS = ("code", "status", "computed", *FIELDS[3:])


class Summary:
    """What the survey keeps of one game computed with at most ``max`` values.

    ``values``: how many values G(0..values-1) the summary describes (those the
    proof used, or ``max`` when no period was proved); ``largest`` and
    ``largest_heap``: the largest of them and where it first occurs; ``mask``,
    ``rare`` and ``last_rare``: the rare mask (module header), how many heaps
    n < values are rare under it and the last of them (0, 0 and None for a game the
    octal kernels do not take: no mask); ``checksum``: Fletcher-32 of G(0..values-1);
    ``saltus``: a proved regularity's (0: periodic; G(n + period) = G(n) + saltus).
    ``head`` is everything needed to continue the sequence: G(0..preperiod+period-1)
    when proved, else G(0..values-1).
    """

    __slots__ = (*FIELDS, "saltus", "seconds", "packed", "_head")

    def __init__(self, *, head: list[int] | None = None, packed: bytes | None = None,
                 saltus: int = 0, **fields) -> None:
        for name in (*FIELDS, "seconds"):
            setattr(self, name, fields[name])
        self.saltus = saltus
        if packed is None:
            packed = zlib.compress(array("H", head or ()).tobytes())
        self.packed = packed  # the head as stored and sent between processes
        self._head = head

    def __reduce__(self):
        fields = {name: getattr(self, name) for name in (*FIELDS, "saltus", "seconds")}
        return _rebuild, (fields, self.packed)

    @property
    def head(self) -> list[int]:
        if self._head is None:
            values = array("H")
            values.frombytes(zlib.decompress(self.packed))
            self._head = values.tolist()
        return self._head

    def row(self, saltus: bool = False) -> dict:
        """The published row (COLUMNS): ``checksum`` as 8 hex digits, ``mask`` and ``rare``
        None for a game with no rare mask (beyond the octal kernels); ``saltus`` too when
        asked, after ``period`` (None when open)."""
        out = {"code": self.code, "status": "solved" if self.proved else "open",
               "computed": self.max, **{name: getattr(self, name) for name in FIELDS[3:]},
               "checksum": f"{self.checksum:08x}"}
        if self.mask == 0 and not get_game(self.code).octal:
            out["mask"] = out["rare"] = None
        if saltus:
            out = {**{k: out[k] for k in COLUMNS[:5]}, "saltus": self.saltus if self.proved
                   else None, **{k: out[k] for k in COLUMNS[5:]}}
        return out

    def first(self, count: int) -> list[int]:
        """G(0..count-1); ValueError when an unproved game has fewer values.  The head is
        read from its packed bytes and not kept (a census compares thousands of heads of a
        million values: kept as lists, they would fill gigabytes)."""
        head = self._head
        if head is None:
            head = array("H")
            head.frombytes(zlib.decompress(self.packed))
        if count <= len(head):
            return list(head[:count])
        if not self.proved:
            raise InputError(f"{self.code}: only {len(head)} values are known "
                             f"(no period proved within --to {self.max}), {count} needed")
        if len(head) < self.preperiod + self.period:  # read with Store.summaries' keep
            raise InputError(f"{self.code}: only its first {len(head)} values were read, "
                             f"{count} needed")
        n0, p, s = self.preperiod, self.period, self.saltus
        return list(head) + [head[n0 + (n - n0) % p] + s * ((n - n0) // p)
                             for n in range(len(head), count)]


def _rebuild(fields: dict, packed: bytes) -> Summary:
    """Unpickle a Summary without unpacking its head (workers send it packed)."""
    return Summary(packed=packed, **fields)
