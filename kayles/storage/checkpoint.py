"""The checkpoint file of a long run: a header and the values it needs, checksummed and
signed.

Layout:

    kayles run checkpoint 2\\n
    {JSON header, one line, at most HEADER_LIMIT bytes}\\n
    signature XX...XX\\n    (64 lowercase hex digits: the signature of the two lines above)
    the values of each range of header["ranges"] ([start, stop] pairs, ascending,
    disjoint), as little-endian unsigned 16-bit words
    crc32 XXXXXXXX\\n        (8 lowercase hex digits: the CRC-32 of everything above)
    signature XX...XX\\n    (the signature of everything above)

A signature is HMAC-SHA256 keyed by this user's secret (``kayles.storage.signing``).
The header's is checked before its JSON is parsed, the whole file's in the pass
that reads the values, before the run uses any of them: a checkpoint edited with
its CRC made again, copied from another user, or written by an older kayles
(version 1, unsigned) is refused, with how to start the run again.

The file is written through ``_files.write_atomically`` (a temporary beside it,
fsync, rename, fsync of the folder), so a run killed at any moment (SIGKILL, a
power cut) leaves the previous checkpoint or the new one, whole.  Reading
treats the file as hostile: only a regular file, the header bounded, the size
exactly what the header says, the values streamed into the caller's table (no
second copy in memory) and the CRC checked before the caller uses any of it.
What the header's fields mean is the run's business (``kayles.analysis.long_run``).
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from array import array

from ..errors import InputError
from . import signing
from ._files import display, open_regular, write_atomically

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

__all__ = ["MAGIC", "Checkpoint", "write"]

MAGIC = b"kayles run checkpoint 2\n"
UNSIGNED = b"kayles run checkpoint 1\n"  # an older kayles's: no signatures
HEADER_LIMIT = 1 << 24  # bytes of the JSON line (records with their frequency tables)
HEADER_DIGITS = 24  # characters of one of its integers (below 2**64: at most 20 digits)
BLOCK = 1 << 20  # values a read or write moves at once
_TRAILER = len(b"crc32 00000000\n")
_SIGNATURE = len(b"signature \n") + 2 * signing.SIZE


def _signature_line(signer: signing.Signer) -> bytes:
    return f"signature {signer.hexdigest()}\n".encode()


def write(path: str | os.PathLike, header: dict, table: memoryview,
          ranges: list[tuple[int, int]]) -> None:
    """Write a checkpoint of ``table``'s values over ``ranges`` with ``header`` (which
    gains the "ranges" key), replacing the old one atomically."""
    line = json.dumps({**header, "ranges": [list(r) for r in ranges]},
                      separators=(",", ":")).encode() + b"\n"
    if len(line) > HEADER_LIMIT:
        raise InputError(f"a checkpoint header of {len(line)} bytes is past the limit")

    secret = signing.key()

    def put(handle: BinaryIO) -> None:
        head = MAGIC + line
        head += _signature_line(signing.Signer(secret, head))
        handle.write(head)
        crc, signer = zlib.crc32(head), signing.Signer(secret, head)
        for start, stop in ranges:
            for at in range(start, stop, BLOCK):
                with table[at:min(at + BLOCK, stop)] as part:
                    block = _little_endian(part)
                handle.write(block)
                crc = zlib.crc32(block, crc)
                signer.update(block)
        trailer = f"crc32 {crc:08x}\n".encode()
        signer.update(trailer)
        handle.write(trailer + _signature_line(signer))

    write_atomically(path, put, force=True)


class Checkpoint:
    """A checkpoint file opened for reading: ``header`` (a dict, the format checked) now,
    the values into a table by ``read_values``; use it as a context manager."""

    def __init__(self, path: str | os.PathLike, max_values: int) -> None:
        self.path = path
        self._handle = os.fdopen(open_regular(path), "rb")
        try:
            self.header = self._read_header(max_values)
        except BaseException:
            self._handle.close()
            raise

    def _damaged(self, why: str) -> ValueError:
        return InputError(f"{display(self.path)}: not a checkpoint kayles can use ({why}); "
                          "a damaged run cannot be resumed: start it again in a new folder")

    def _unsigned(self, why: str, key: str = "") -> ValueError:
        """Refused for its signature (``key``: what a key copied from another home keeps)."""
        return InputError(f"{display(self.path)}: not a checkpoint kayles can use ({why}); "
                          "none of it is used: start the run again in a new folder"
                          f"{f'; {key}' if key else ''}")

    def _read_header(self, max_values: int) -> dict:
        magic = self._handle.read(len(MAGIC))
        if magic == UNSIGNED:
            raise self._unsigned("written by an older kayles, without a signature")
        if magic != MAGIC:
            raise self._damaged("it does not begin as one")
        line = self._handle.readline(HEADER_LIMIT + 1)
        if not line.endswith(b"\n"):
            raise self._damaged("its header is cut or too long")
        signed = self._handle.read(_SIGNATURE)
        self._signer = signing.Signer(signing.key(), MAGIC + line)
        if signed != _signature_line(self._signer):
            raise self._unsigned("its signature does not match: edited, copied from another "
                                 "user or machine, or signed with a key since deleted",
                                 signing.another_key())
        self._signer.update(signed)
        try:
            header = json.loads(line, parse_constant=_no_constant, parse_int=_header_int,
                                parse_float=_header_float)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise self._damaged("its header is not JSON (of plain numbers, not deeply nested)")\
                from None
        if not isinstance(header, dict):
            raise self._damaged("its header is not a JSON object")
        ranges = header.get("ranges")
        if not isinstance(ranges, list) or not all(
                isinstance(r, list) and len(r) == 2 and all(type(x) is int for x in r)
                for r in ranges):
            raise self._damaged("its ranges are not pairs of integers")
        end = 0
        for start, stop in ranges:
            if not end <= start <= stop:
                raise self._damaged("its ranges are not ascending")
            end = stop
        count = sum(stop - start for start, stop in ranges)
        if count > max_values:
            raise self._damaged(f"it claims {count:,} values, more than the {max_values:,} "
                                "of its run")
        size = os.fstat(self._handle.fileno()).st_size
        if size != len(MAGIC) + len(line) + 2 * count + _TRAILER + 2 * _SIGNATURE:
            raise self._damaged(f"it is {size:,} bytes, not what its header says: cut short")
        self._crc = zlib.crc32(signed, zlib.crc32(line, zlib.crc32(MAGIC)))
        header["ranges"] = [tuple(r) for r in ranges]
        return header

    def read_values(self, table: memoryview) -> None:
        """Read the values into ``table`` (each range at its place) and check the CRC and the
        signature; ValueError (naming the file) when either does not match."""
        crc, signer = self._crc, self._signer
        for start, stop in self.header["ranges"]:
            if stop > len(table):
                raise self._damaged("a range lies past its run's table")
            for at in range(start, stop, BLOCK):
                with table[at:min(at + BLOCK, stop)] as part, part.cast("B") as raw:
                    if self._handle.readinto(raw) != len(raw):
                        raise self._damaged("it is cut short")
                    crc = zlib.crc32(raw, crc)
                    signer.update(raw)
                    if sys.byteorder == "big":
                        swapped = array("H", part)
                        swapped.byteswap()
                        part[:] = swapped
        trailer = self._handle.read(_TRAILER)
        if trailer != f"crc32 {crc:08x}\n".encode():
            raise self._damaged("its checksum does not match: damaged or edited")
        signer.update(trailer)
        if self._handle.read(_SIGNATURE + 1) != _signature_line(signer):
            raise self._unsigned("its signature does not match: edited, whatever its "
                                 "checksum says")

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _header_int(text: str) -> int:
    """A header's integer: counts, sums and heaps below 2**64 (at most 20 digits); a longer
    one (a million digits would take seconds to read, and fill an error line) is refused
    as it is met."""
    if len(text) > HEADER_DIGITS:
        raise InputError(f"a number of {len(text):,} digits is not one a checkpoint holds")
    return int(text)


def _header_float(text: str) -> float:
    if len(text) > HEADER_DIGITS + 8:  # seconds: digits, a point, an exponent
        raise InputError(f"a number of {len(text):,} characters is not one a checkpoint holds")
    return float(text)


def _no_constant(name: str):
    raise InputError(f"{name} is not a number a checkpoint holds")


def _little_endian(values: memoryview) -> bytes:
    if sys.byteorder == "little":
        return values.tobytes()
    swapped = array("H", values)
    swapped.byteswap()
    return swapped.tobytes()
