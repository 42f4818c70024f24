"""A nim-sequence table as long as a record run, holding memory only where it is read.

A bounded run (``kayles.analysis.long_run``) reads G(0..prefix-1) and the last few million
values, never the middle.  So the table is one address range of 2 bytes a heap
(2 TiB for 2**40 heaps: address space, not memory) and the run gives back the
middle as it falls behind (``release``): the kernels index it like any table,
and the memory the process holds stays flat.

* In memory (the default): an anonymous private mapping, reserved without
  backing (MAP_NORESERVE); released pages read as zeros again.
* On disk (``path``, the run's --keep-table): a file of 2 bytes a heap, mapped
  shared.  Released pages leave the process but stay in the file (the kernel
  writes them back), so every value can be read again; ``flush`` makes the
  values so far durable before a checkpoint names them.  The file is sparse, and
  a page written where the disk has no room would kill the process (SIGBUS): so
  ``reserve`` allocates the disk blocks ahead of the values, a step at a time,
  and a full disk is a WriteError naming the file instead.

A table on disk is signed a stretch at a time (``sign``: HMAC-SHA256 with this user's
secret, ``kayles.storage.signing``, of the stretch's bounds and values): the run keeps
each stretch's signature in its checkpoint as it writes it, and a resume checks them
all (``signed``, one pass over the file) before it reads any value, so a value edited
in the middle of the file, which the checkpoint does not hold, is refused too.

Linux and other POSIX systems with mmap; the mapping needs the address space,
which a strict overcommit policy (vm.overcommit_memory=2) may refuse: then
``ValueError`` says so.
"""

from __future__ import annotations

import errno
import mmap
import os
import sys
from array import array

from ..errors import InputError, WriteError
from . import signing
from ._files import display, open_regular

__all__ = ["LongTable"]

PAGE = mmap.PAGESIZE
RESERVE_STEP = 64 << 20  # bytes of a table file allocated at a time (reserve)
SIGNED_BLOCK = 1 << 22  # values a signature reads at a time (8 MB)
# Not in Python's mmap module before 3.13; the value of Linux (x86 and ARM alike).
MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)


class LongTable:
    """At least ``length`` 16-bit values in one mapping (see the module header): ``values``
    (``length`` of them) is the table the kernels fill."""

    def __init__(self, length: int, path: str | os.PathLike | None = None,
                 saved_length: int | None = None) -> None:
        """A table in memory, or in the file ``path``: made anew (``saved_length`` None),
        or one made for ``saved_length`` values, grown to ``length`` if need be."""
        self.path = path
        self._fd = -1   # on disk: the file, kept open to allocate its blocks (reserve)
        self._reserved = 0   # ... bytes allocated from the start
        size = _size(length)
        try:
            if path is None:
                self._map = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | MAP_NORESERVE,
                                      prot=mmap.PROT_READ | mmap.PROT_WRITE)
            else:
                self._fd = _table_file(path, size, saved_length)
                self._map = mmap.mmap(self._fd, max(size, os.fstat(self._fd).st_size),
                                      flags=mmap.MAP_SHARED)
        except OverflowError:
            raise InputError(f"a table of {length:,} values does not fit this system's "
                             "address space") from None
        except OSError as exc:
            if path is not None:
                raise
            raise InputError(f"cannot reserve address space for {length:,} values ({exc}); "
                             "a strict overcommit policy refuses it: use --keep-table") from None
        self.values = memoryview(self._map).cast("H")
        self.length = len(self.values)

    def release(self, start: int, stop: int) -> int:
        """Give back the memory of values [start, stop), the whole pages inside it; the value
        where they end (the next release may begin there)."""
        first = -(-2 * start // PAGE) * PAGE
        last = 2 * stop // PAGE * PAGE
        if first < last:
            self._map.madvise(mmap.MADV_DONTNEED, first, last - first)
        return max(start, last // 2)

    def reserve(self, stop: int) -> None:
        """On disk: allocate the file's blocks for values [0, stop) (RESERVE_STEP bytes
        ahead at a time), so that writing them cannot find the disk full; WriteError, naming
        the file, when it is."""
        end = min(2 * stop, len(self._map))
        if self._fd < 0 or end <= self._reserved:
            return
        end = min(max(end, self._reserved + RESERVE_STEP), len(self._map))
        try:
            os.posix_fallocate(self._fd, self._reserved, end - self._reserved)
        except OSError as exc:
            raise WriteError(exc.errno, exc.strerror, display(self.path)) from None
        self._reserved = end

    def flush(self, start: int, stop: int) -> None:
        """On disk: write values [start, stop) through to the file (nothing in memory)."""
        if self.path is None or start >= stop:
            return
        first = 2 * start // PAGE * PAGE
        self._map.flush(first, min(2 * stop, len(self._map)) - first)

    def sign(self, start: int, stop: int, secret: bytes | None = None) -> str:
        """The signature of values [start, stop) as 64 hex digits (module header), by
        ``secret`` or this user's key."""
        signer = signing.Signer(secret or signing.key(),
                                f"kayles run table {start} {stop}\n".encode())
        for at in range(start, stop, SIGNED_BLOCK):
            end = min(at + SIGNED_BLOCK, stop)
            with self.values[at:end] as part:
                if sys.byteorder == "little":
                    signer.update(part)
                else:
                    swapped = array("H", part)
                    swapped.byteswap()
                    signer.update(swapped)
            if self.path is not None:
                self.release(at, end)  # read back from the file when needed: memory flat
        return signer.hexdigest()

    def signed(self, stretches) -> bool:
        """Whether each (start, stop, signature) is this user's signature of its values."""
        secret = signing.key(create=False)
        if secret is None:
            return False
        from _operator import _compare_digest

        return all(isinstance(signature, str) and signature.isascii() and _compare_digest(
            signature.encode(), self.sign(start, stop, secret).encode())
            for start, stop, signature in stretches)

    def close(self) -> None:
        self.values.release()
        self._map.close()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _size(length: int) -> int:
    return max(2 * length, PAGE)


def _table_file(path, size: int, saved_length: int | None) -> int:
    """The table file, open for reading and writing: made (sparse) when there is no saved
    length, else the file of that many values, grown to ``size`` bytes; any other (a
    symbolic link included: never followed, so never grown) is refused."""
    if saved_length is None:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        try:
            os.ftruncate(fd, size)
        except BaseException:
            os.close(fd)
            os.remove(path)
            raise
        return fd
    try:
        fd = open_regular(path, os.O_RDWR | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{display(path)}: a symbolic link, not the run's table file: "
                             "it is left alone") from None
        raise
    try:
        found = os.fstat(fd).st_size
        if found < _size(saved_length) or found % 2:
            raise InputError(f"{display(path)}: the table file holds {found:,} bytes, "
                             f"fewer than the {_size(saved_length):,} of its run (cut "
                             "short, or of another run)")
        if found < size:
            os.ftruncate(fd, size)   # grown by a resume that stopped before its checkpoint
    except BaseException:
        os.close(fd)
        raise
    return fd
