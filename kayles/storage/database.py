"""Opening a survey database as the files promise (``kayles.storage.store`` reads it), and
every SQLite error said as one line of the error kind it is.

What a path is, before SQLite sees it: a directory, a device, a FIFO or a file of the
kernel's (under /proc or /sys) is refused by its kind (``_files.open_regular``); a file
that does not begin with SQLite's 16-byte header is "not an SQLite file" (never "damaged":
it may be anything, /etc/passwd included, and nothing tells the user to delete it).

Read-only.  A file that cannot be written (its mode, a read-only mount) or whose folder
cannot be (SQLite writes a journal or a WAL beside it) is opened read-only (``mode=ro``),
whatever was asked.  In WAL mode (bytes 18 and 19 of the header: 2) SQLite reads through
a shared-memory index, the ``-shm`` file beside the database; where the folder cannot be
written and there is none, ``mode=ro`` fails ("unable to open database file"), and:

* when there is no ``-wal`` file either (or an empty one), every committed row is in the
  database file itself (the last connection to close folds the WAL in and removes both),
  so it is opened with ``immutable=1``: read without the index and without locks.  That
  is safe only while nobody writes the file, and the folder being closed to this process
  does not close it to everyone (its owner, root, another mount of the same disk).  A
  writer starting meanwhile writes to a new ``-wal`` first and changes the database file
  only at a checkpoint; so the file's inode, size and modification time are compared
  before and after every statement, and a change ends the read: "changed while it was
  read: run the command again" (status 1), never rows from a torn page;
* when a ``-wal`` file holds frames (a writer is connected, or one was killed), its rows
  can only be read through an index SQLite cannot make here: refused (status 1) with
  what to do; ``immutable=1`` would show the file as it was before them.

SQLite's errors, by their primary result code: a full disk or an I/O error while writing
is a ``WriteError`` (the rows finished before are kept); a lock held past the busy
timeout a ``ResourceError``; a file SQLite cannot open or may not write an ``OSError``
naming the file (status 1); "not a database" is the InputError "not an SQLite file"; a
damaged file ("malformed") is the InputError that says so, with ``.recover``; any other
is "not a usable survey database" with SQLite's words.  None advises deleting a file.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from ..errors import InputError, ResourceError, WriteError
from ._files import open_regular, refused_here

__all__ = ["BUSY_TIMEOUT", "Database", "Transaction", "open_database", "refused"]

BUSY_TIMEOUT = 60.0  # seconds a writer waits for another survey's transaction
HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database
WAL_MODE = 2  # header bytes 18 and 19 (write and read versions) of a file in WAL mode
# SQLite's primary result codes (sqlite3 names them from Python 3.11 on)
ERROR, PERM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, NOTADB = 1, 3, 8, 10, 11, 13, 14, 26
_WORDS = {"disk is full": FULL, "disk I/O error": IOERR, "readonly database": READONLY,
          "unable to open": CANTOPEN, "not a database": NOTADB, "malformed": CORRUPT}


def _writable(path: str) -> bool:
    """Whether SQLite may write ``path``: the file, and its folder (journals go beside it)."""
    return os.access(path, os.W_OK) and _folder_writable(path)


def _folder_writable(path: str) -> bool:
    return os.access(os.path.dirname(os.path.abspath(path)), os.W_OK | os.X_OK)


def _header(path: str, name: str) -> bytes | None:
    """The file's first 100 bytes (b'' when it is empty), None when there is none; the
    kinds of file that are no database refused (module header)."""
    try:
        fd = open_regular(path)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        head = handle.read(100)
    if head and not head.startswith(HEADER):
        raise InputError(f"{name}: not a survey database: not an SQLite file (its first bytes "
                         "are not SQLite's header)")
    return head


def open_database(path: str, name: str, read_only: bool) -> tuple[Database, bool]:
    """The database at ``path`` (``name`` in messages) opened, and whether read-only: as
    asked, or because it cannot be written (module header).  A file that is not there is
    made (unless ``read_only``: "no such survey database")."""
    head = _header(path, name)
    if head is None:
        if read_only:
            raise InputError(f"{name}: no such survey database")
        try:  # made here, so that a folder that refuses it says why in the system's words
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            pass
        except OSError as exc:
            raise refused_here(exc, path) from None
        head = b""
    read_only = read_only or not _writable(path)
    target, watch = path, None
    if read_only:
        target = f"{Path(path).resolve().as_uri()}?mode=ro"
        wal = f"{path}-wal"
        if head[18:20] == bytes([WAL_MODE, WAL_MODE]) and not _folder_writable(path):
            if not os.path.exists(wal) or os.path.getsize(wal) == 0:
                target += "&immutable=1"  # every row is in the file: read as it is, watched
                watch = _Watch(path, name)
            elif not os.path.exists(f"{path}-shm"):
                raise OSError(errno.EACCES, "its last changes are in its -wal file, which "
                              "SQLite reads only through a -shm file it cannot make here (the "
                              "folder cannot be written): read it where its folder can be "
                              "written (a copy of both files will do)", name)
    try:
        db = sqlite3.connect(target, uri=read_only, timeout=BUSY_TIMEOUT, isolation_level=None)
    except sqlite3.Error as exc:
        raise refused(name, exc) from None
    return Database(db, name, watch), read_only


class _Watch:
    """The identity of a file opened immutable (inode, size, modification time): ``check``
    raises the module header's "changed while it was read" when it is no longer the same."""

    def __init__(self, path: str, name: str) -> None:
        self.path, self.name = path, name
        self.seen = self._now()

    def _now(self) -> tuple:
        try:
            info = os.stat(self.path)
        except OSError:
            return ()
        return info.st_ino, info.st_size, info.st_mtime_ns

    def check(self) -> None:
        if self._now() != self.seen:
            raise OSError(errno.EAGAIN, "changed while it was read (another program writes "
                          "it, and its folder cannot be written, so kayles read it without "
                          "SQLite's locks): run the command again", self.name)


class Database:
    """The connection to a database file, each SQLite error said as one line naming the file
    (``refused``), whether it comes with a statement or with a row read after it; a file
    opened immutable is watched around every statement (module header)."""

    def __init__(self, db: sqlite3.Connection, name: str, watch: _Watch | None = None) -> None:
        self._db, self.name, self._watch = db, name, watch

    @property
    def immutable(self) -> bool:
        return self._watch is not None

    def execute(self, sql: str, arguments=()):
        self.check()
        try:
            rows = _Rows(self._db.execute(sql, arguments), self)
        except sqlite3.Error as exc:
            raise self.refused(exc) from None
        self.check()
        return rows

    def check(self) -> None:
        if self._watch is not None:
            self._watch.check()

    def refused(self, exc: sqlite3.Error) -> Exception:
        self.check()  # a file that changed under an immutable read: that, not "damaged"
        return refused(self.name, exc)

    def use_wal(self) -> None:
        """Switch to WAL mode.  SQLite answers 'database is locked' at once, without the
        busy handler, when two connections switch a new database at the same moment:
        retry."""
        import time

        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            try:
                self._db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise self.refused(exc) from None
                time.sleep(0.01)
            except sqlite3.Error as exc:
                raise self.refused(exc) from None

    def close(self) -> None:
        self._db.close()


class _Rows:
    """A cursor whose reads say an error as Database does."""

    def __init__(self, cursor: sqlite3.Cursor, database: Database) -> None:
        self._cursor, self._database = cursor, database

    def __iter__(self):
        try:
            yield from self._cursor
        except sqlite3.Error as exc:
            raise self._database.refused(exc) from None
        self._database.check()

    def fetchone(self):
        try:
            row = self._cursor.fetchone()
        except sqlite3.Error as exc:
            raise self._database.refused(exc) from None
        self._database.check()
        return row

    def fetchall(self) -> list:
        return list(self)


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of an error (before Python 3.11: from its words)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        text = str(exc)
        code = next((value for words, value in _WORDS.items() if words in text), ERROR)
    return code & 0xFF


def refused(name: str, exc: sqlite3.Error) -> Exception:
    """One SQLite error as the error a front end says in one line (module header)."""
    code = _code(exc)
    if code in (FULL, IOERR):  # SQLite rolls back: the file stays whole
        return WriteError(errno.ENOSPC if code == FULL else errno.EIO,
                          f"{exc} (the rows finished before are kept: make room and run the "
                          "same command again to go on)", name)
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return ResourceError(f"{name}: the survey database stayed locked by another survey "
                             f"for {BUSY_TIMEOUT:g} s; try again")
    if code == READONLY:
        return WriteError(errno.EROFS, str(exc), name)
    if code in (CANTOPEN, PERM):
        return OSError(errno.EACCES, f"SQLite cannot open it ({exc})", name)
    if code == NOTADB:
        return InputError(f"{name}: not a survey database: not an SQLite file ({exc})")
    if code == CORRUPT:
        return InputError(f"{name}: not a usable survey database: SQLite finds it damaged "
                          f"({exc}); move it away to start a new one (sqlite3's .recover "
                          "may save its rows)")
    return InputError(f"{name}: not a usable survey database ({exc})")


class Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any exception)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
