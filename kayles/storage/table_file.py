"""Saved tables: a nim-sequence written to a file as it grows, so a long run can resume.

The format (version 2; every integer little-endian)::

    header
      8 bytes   magic b"KAYLESTB"
      u16       format version (2)
      u16       value width in bytes (2: each G(n) is an unsigned 16-bit integer)
      u32       length D of the game description, then D bytes of it (ASCII)
      u32       CRC-32 of every header byte before it
      32 bytes  signature of every byte of the file before it
    chunks, one after another, nothing else
      4 bytes   b"VALS"
      u64       index of the chunk's first value (the count of values before it)
      u32       count C of values in the chunk (at least 1)
      u32       CRC-32 of the 16 bytes above
      u32       CRC-32 of the C values
      C values  G(index), ..., G(index + C - 1), each ``width`` bytes
      32 bytes  signature of every byte of the file before it

A signature is HMAC-SHA256 keyed by this user's secret (``kayles.storage.signing``):
the last whole chunk's vouches for the header and every value before it, and is
checked in the one pass that reads them.  A file whose signature does not match
(a value edited with its CRCs made again, a file copied from another user or
machine) or that has none (version 1, written by an older kayles) is refused as
a whole, with the command that starts it afresh; none of its values is used.

CRC-32 is zlib's (the one of PNG and gzip).  The game description is the game's
move kinds as the kernels see them, sorted (``kayles.engine.rules.describe_moves``), so
that '0.77' and 'kayles' describe the same game: one ``span,kept,leave,unequal``
per kind, ``;`` between kinds, e.g. ``1,-,7,0;3,1,7,0`` for Kayles-xox (kept:
the lengths of the pattern's 'o' runs joined by '+', or '-'; leave: the bit mask
of allowed non-empty outer parts; unequal: 1 or 0).

A run holds an exclusive advisory lock (flock) on the file while it writes;
another run asked to write the same file refuses.  Chunks are only ever
appended, each one written whole and flushed to the disk
(fsync) before the next value is computed, so a crash (kill -9, power loss)
can cost at most the chunk being computed or written (``kayles`` lets chunks
grow to about ``SECONDS`` of computing each).  Reading: a file that ends inside its
last chunk (its signature included) is a write cut short: that chunk is dropped (and
truncated away when the run resumes).  Any other damage -- a bad magic, version,
width, checksum or signature,
a file that ends inside its header, a chunk that does not start where the
previous one ended -- makes the file unusable: ``TableFileError`` (a ValueError).
The header's checksum is checked before its fields are believed: a version or a
width that no kayles writes, under a checksum that fails, is a damaged byte (the
message names the field and what it holds), not a format of another kayles.
A chunk's header has its own checksum, so a damaged count cannot pass for a
chunk cut short: any one damaged byte of a file is refused.
"""

from __future__ import annotations

import os
import struct
import sys
import time
import zlib
from array import array

from ..engine.rules import Game, describe_moves
from ..errors import InputError, WriteError
from ..kernels.limits import SAVE_CHUNK, SAVE_CHUNK_SECONDS
from . import signing
from ._files import (
    check_target,
    display,
    open_regular,
    refused_here,
    remove_quietly,
    remove_stale,
    sync_folder,
    temporary_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.sequence import Sequence

__all__ = [
    "CHUNK",
    "FORMAT_VERSION",
    "MAGIC",
    "SECONDS",
    "SavedTable",
    "TableFileError",
    "TableWriter",
    "check_game",
    "check_values",
    "read_table",
]

MAGIC = b"KAYLESTB"
FORMAT_VERSION = 2
UNSIGNED_VERSION = 1  # the format before signatures: refused, its values derived afresh
WIDTH = 2  # bytes per value: nimbers are 16-bit in the kernels
CHUNK = SAVE_CHUNK  # values per chunk unless told otherwise (the first and the smallest)
SECONDS = SAVE_CHUNK_SECONDS  # the computing time a chunk aims at, when chunks adapt (attach)
CHUNK_MAGIC = b"VALS"
_HEAD = struct.Struct("<8sHHI")  # magic, version, width, description length
_CRC = struct.Struct("<I")
_CHUNK = struct.Struct("<4sQI")  # chunk magic, first index, count
_CRCS = struct.Struct("<II")  # a chunk's CRC-32s: of the three fields above, of its values
SIGNATURE = signing.SIZE  # bytes of a signature (after the header, after each chunk)
DESCRIPTION_MOST = 1 << 20  # bytes of a game description: past it, a damaged length
AFRESH = ("the same command with --save FILE --force in place of --resume FILE starts it "
          "afresh")


class TableFileError(InputError):
    """A table file that cannot be used: another format, another game, damage."""


def _header(description: str) -> bytes:
    """The header without its signature."""
    text = description.encode("ascii")
    head = _HEAD.pack(MAGIC, FORMAT_VERSION, WIDTH, len(text)) + text
    return head + _CRC.pack(zlib.crc32(head))


def _signed(signer: signing.Signer, data: bytes) -> tuple[bytes, signing.Signer]:
    """``data`` followed by the signature of the file up to its end, and the signer's state
    past both (a copy: the caller keeps its own until the bytes are written)."""
    signer = signer.copy()
    signer.update(data)
    signature = signer.digest()
    signer.update(signature)
    return data + signature, signer


def _to_little_endian(values) -> bytes:
    data = array("H", values)
    if sys.byteorder == "big":
        data.byteswap()
    return data.tobytes()


def _chunk(start: int, values) -> bytes:
    payload = _to_little_endian(values)
    head = _CHUNK.pack(CHUNK_MAGIC, start, len(payload) // WIDTH)
    return head + _CRCS.pack(zlib.crc32(head), zlib.crc32(payload)) + payload


class SavedTable:
    """What a table file holds: the game description, the values, where they end."""

    __slots__ = ("description", "values", "end", "dropped", "signer")

    def __init__(self, description: str, values: array, end: int, dropped: int,
                 signer: signing.Signer) -> None:
        self.description = description
        self.values = values  # array('H') of G(0), G(1), ...
        self.end = end  # the byte offset just past the last whole chunk
        self.dropped = dropped  # bytes of a last chunk cut short (0 if none)
        self.signer = signer  # the signature's state over the bytes up to ``end``


def _damaged_header(version: int, width: int) -> str:
    """What a header whose checksum fails says: the fields that hold what no kayles writes
    (a damaged byte, not another format: that one's checksum would hold)."""
    fields = [f"its {field} holds {found:,}, where kayles writes {wrote}"
              for field, found, wrote, known in (
                  ("format version", version, f"{UNSIGNED_VERSION} or {FORMAT_VERSION}",
                   (UNSIGNED_VERSION, FORMAT_VERSION)),
                  ("value width", width, WIDTH, (WIDTH,)))
              if found not in known]
    return f"its header is damaged: {'; '.join([*fields, 'its checksum does not match'])}"


def read_table(path: str) -> SavedTable:
    """Read and check a table file (see the module header for what is refused), its
    signature in the same pass.

    Only a regular file is read, and no more than its size said when it was opened.
    """
    with os.fdopen(open_regular(path), "rb") as handle:
        data = handle.read(os.fstat(handle.fileno()).st_size)
    name = display(path)

    def bad(why: str) -> TableFileError:
        return TableFileError(f"{name}: not a usable kayles table file ({why})")

    def unsigned(why: str, key: str = "") -> TableFileError:
        return TableFileError(f"{name}: not a table kayles wrote for this user ({why}): none "
                              f"of it is used; {AFRESH}{f'; {key}' if key else ''}")

    if data[:8] != MAGIC[: len(data)]:
        raise bad("no kayles table header")
    if len(data) < _HEAD.size:
        raise bad("the file ends inside its header")
    _, version, width, size = _HEAD.unpack_from(data)
    body = _HEAD.size + size
    if len(data) < body + _CRC.size:
        raise bad("the file ends inside its header" if size <= DESCRIPTION_MOST else
                  f"its header is damaged: its game description's length holds {size:,}, "
                  f"past the file's end")
    if _CRC.unpack_from(data, body)[0] != zlib.crc32(data[:body]):
        raise bad(_damaged_header(version, width))
    # the header is as a kayles wrote it: another format is another kayles's
    if version == UNSIGNED_VERSION:
        raise unsigned("format 1, written by an older kayles, without a signature")
    if version != FORMAT_VERSION:
        raise bad(f"format version {version}; this program reads version {FORMAT_VERSION}")
    if width != WIDTH:
        raise bad(f"values of {width} bytes; this program reads {WIDTH}-byte values")
    if len(data) < body + _CRC.size + SIGNATURE:
        raise bad("the file ends inside its header")
    try:
        description = data[_HEAD.size : body].decode("ascii")
    except UnicodeDecodeError:
        raise bad("the game description is not ASCII") from None
    signer = signing.Signer(signing.key())
    at = body + _CRC.size
    signer.update(data[:at])
    if not signer.matches(data[at : at + SIGNATURE]):
        raise unsigned("the signature of its header does not match: edited, copied from "
                       "another user or machine, or signed with a key since deleted",
                       signing.another_key())
    signer.update(data[at : at + SIGNATURE])
    values = array("H")
    at += SIGNATURE
    while at < len(data):
        values_at = at + _CHUNK.size + _CRCS.size
        if values_at > len(data):
            break  # a chunk header cut short: the last write did not finish
        head_crc, values_crc = _CRCS.unpack_from(data, at + _CHUNK.size)
        if zlib.crc32(data[at : at + _CHUNK.size]) != head_crc:
            raise bad(f"the checksum of the chunk header at byte {at} does not match")
        tag, start, count = _CHUNK.unpack_from(data, at)
        if tag != CHUNK_MAGIC or count == 0:
            raise bad(f"no chunk at byte {at}")
        if start != len(values):
            raise bad(f"the chunk at byte {at} starts at value {start}, not {len(values)}")
        stop = values_at + WIDTH * count
        if stop + SIGNATURE > len(data):
            break  # the last chunk cut short
        if zlib.crc32(data[values_at:stop]) != values_crc:
            raise bad(f"the checksum of the values of the chunk at byte {at} does not match")
        signer.update(data[at:stop])
        signature = data[stop : stop + SIGNATURE]
        if not signer.matches(signature):
            raise unsigned(f"the signature of the chunk at byte {at} does not match: a value "
                           "edited, whatever its checksums say")
        signer.update(signature)
        chunk = array("H", data[values_at:stop])
        if sys.byteorder == "big":
            chunk.byteswap()
        values.extend(chunk)
        at = stop + SIGNATURE
    return SavedTable(description, values, at, len(data) - at, signer)


def check_game(saved: SavedTable, game: Game, path: str) -> None:
    """TableFileError unless the file holds a table of ``game``."""
    if saved.description != describe_moves(game):
        raise TableFileError(
            f"{os.fsdecode(path)}: holds the table of another game (moves {saved.description}), "
            f"not of {game.name} (moves {describe_moves(game)})"
        )


def check_values(saved: SavedTable, game: Game, path: str) -> None:
    """TableFileError unless a sample of the values agrees with ``game``'s rules
    (``kayles.storage.derived``): checksums made again after an edit do not pass."""
    from .derived import sample_differs

    why = sample_differs(game, saved.values)
    if why:
        raise TableFileError(f"{os.fsdecode(path)}: its values are not those of {game.name} "
                             f"({why}): edited or damaged, whatever its checksums say")


class TableWriter:
    """Appends a growing sequence's new values to a table file, one whole chunk at a time.

    ``TableWriter.create(path, game)`` starts a new file (written to a temporary
    file, flushed, then renamed over ``path``); ``TableWriter.reopen(path, saved)``
    continues a read file, first cutting away a last chunk left unfinished.  Use
    ``attach(sequence)`` so every growth step is saved, and ``finish(sequence)``
    when the run ends in any way (Ctrl-C included): it saves what is not yet saved.
    """

    def __init__(self, path: str, fd: int, end: int, saved: int,
                 signer: signing.Signer) -> None:
        self.path = path
        self._fd = fd
        self._end = end  # the file's length after the last whole chunk
        self.saved = saved  # how many values the file holds
        self._signer = signer  # the signature's state over the file's first _end bytes
        self._smallest = CHUNK
        self._seconds: float | None = None
        self._since = 0.0

    @classmethod
    def create(cls, path: str, game: Game, force: bool = False) -> TableWriter:
        """A new table file at ``path``; an existing file is refused unless ``force``
        (and is never replaced unless it is a regular file)."""
        header, signer = _signed(signing.Signer(signing.key()), _header(describe_moves(game)))
        _refuse_if_in_use(path)
        check_target(path, force, _hint(path, game))
        remove_stale(path)
        temporary = temporary_name(path)
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError as exc:
            raise refused_here(exc, path) from None
        try:
            _lock(fd, path)
            _write_all(fd, header, path)
            os.fsync(fd)
            check_target(path, force, _hint(path, game))  # nothing new in its place meanwhile
            os.replace(temporary, path)
        except BaseException:
            os.close(fd)
            remove_quietly(temporary)
            raise
        sync_folder(path)
        return cls(path, fd, len(header), 0, signer)

    @classmethod
    def reopen(cls, path: str, saved: SavedTable) -> TableWriter:
        fd = open_regular(path, os.O_WRONLY)
        try:
            _lock(fd, path)
            if saved.dropped:
                os.ftruncate(fd, saved.end)
                os.fsync(fd)
            os.lseek(fd, saved.end, os.SEEK_SET)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, saved.end, len(saved.values), saved.signer)

    def attach(self, sequence: Sequence, chunk: int = CHUNK, seconds: float | None = None) -> None:
        """Save the sequence as it grows: a chunk after every kernel call of ``chunk`` values.

        With ``seconds``, chunks adapt to take about that long to compute: a chunk
        computed in less than half of it doubles the next one, a slower one halves
        it (never below ``chunk``).  Each kernel call costs a little set-up, so
        small chunks on a long table would slow the run; a crash loses at most
        about ``seconds`` of work.
        """
        sequence.step = self._smallest = chunk
        self._seconds = seconds
        self._since = time.monotonic()
        sequence.listeners.append(self.save)

    def save(self, sequence: Sequence) -> None:
        """Append the values computed since the last save (a no-op if there are none)."""
        have = len(sequence)
        if have <= self.saved:
            return
        data, signer = _signed(self._signer,
                               _chunk(self.saved, sequence.table(have)[self.saved : have]))
        try:
            os.lseek(self._fd, self._end, os.SEEK_SET)  # over any half-written chunk
            _write_all(self._fd, data, self.path)
            os.fsync(self._fd)
        except OSError as exc:
            raise WriteError(exc.errno, exc.strerror, display(self.path)) from None
        self._end += len(data)
        self.saved = have
        self._signer = signer
        if self._seconds is not None and sequence.step is not None:
            now = time.monotonic()
            took, self._since = now - self._since, now
            if took < self._seconds / 2:
                sequence.step *= 2
            elif took > self._seconds:
                sequence.step = max(self._smallest, sequence.step // 2)

    def finish(self, sequence: Sequence) -> None:
        """Save what is left, cut away anything half-written, close the file."""
        try:
            if self.save in sequence.listeners:
                sequence.listeners.remove(self.save)
            try:
                os.ftruncate(self._fd, self._end)
            except OSError as exc:
                raise WriteError(exc.errno, exc.strerror, display(self.path)) from None
            self.save(sequence)
        finally:
            os.close(self._fd)


def _lock(fd: int, path: str) -> None:
    """Hold an exclusive lock on the open file, or refuse: another run is writing it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no advisory locks here (Windows)
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise TableFileError(f"{os.fsdecode(path)}: another run is writing this table") from None


def _hint(path: str, game: Game) -> str:
    """What to do about an existing ``path``, for the message that refuses it."""
    try:
        with os.fdopen(open_regular(path), "rb") as handle:
            head = handle.read(_HEAD.size + 4096)
        magic, _, _, size = _HEAD.unpack_from(head)
        same = magic == MAGIC and head[_HEAD.size : _HEAD.size + size] == (
            describe_moves(game).encode("ascii"))
    except (OSError, ValueError, struct.error):
        same = False
    if same:
        return f"it holds a saved table of {game.name}: --resume continues it, --force starts anew"
    return "--force replaces it"


def _refuse_if_in_use(path: str) -> None:
    try:
        fd = open_regular(path)
    except (OSError, ValueError):
        return
    try:
        _lock(fd, path)  # released by the close below: only a probe
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes, path: str) -> None:
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        raise WriteError(exc.errno, exc.strerror, display(path)) from None
