"""Where surveys keep their results: one SQLite file, one row per (code, max).

The file (default ``$XDG_CACHE_HOME/kayles/survey.sqlite``, ``~/.cache`` when the
variable is unset) runs in WAL mode with a busy timeout, so several surveys and
readers may share it; every change is one ``BEGIN IMMEDIATE`` transaction, so a
killed survey leaves every row it finished intact.  Schema (``PRAGMA user_version`` 1):

    CREATE TABLE games (
        code TEXT NOT NULL,        -- the game's canonical code, e.g. '0.77'
        max INTEGER NOT NULL,      -- the --max (values allowed for the proof) of the row
        status TEXT NOT NULL,      -- 'running' | 'done' | 'failed' | 'stopped' (see below)
        owner TEXT,                -- 'HOST PID' of the survey that last claimed the row
        updated REAL NOT NULL,     -- Unix time of the last change
        seconds REAL,              -- compute time of a done row
        proved INTEGER, preperiod INTEGER, period INTEGER, values_used INTEGER,
        largest INTEGER, largest_heap INTEGER, mask INTEGER, rare INTEGER,
        last_rare INTEGER, checksum INTEGER,   -- kayles.survey.Summary, NULL until done
        head BLOB,                 -- zlib of 16-bit G(0..): the whole period when proved
        error TEXT,                -- why a failed row failed
        PRIMARY KEY (code, max))

Status: a survey *claims* a row ('running', owner = itself) just before computing
it and marks it 'done' (or 'failed', with the error) in the same transaction that
stores the result.  A row is never computed again once done.  A 'running' row
whose owner process is gone (killed), a 'stopped' row (its survey was interrupted)
and a 'failed' row are claimed again by the next survey; a 'running' row of a live
survey on this host is left to it.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
from pathlib import Path

from .survey import Summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["SCHEMA_VERSION", "Store", "default_path"]

SCHEMA_VERSION = 1
BUSY_TIMEOUT = 60.0  # seconds a writer waits for another survey's transaction

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    code TEXT NOT NULL,
    max INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'stopped')),
    owner TEXT,
    updated REAL NOT NULL,
    seconds REAL,
    proved INTEGER, preperiod INTEGER, period INTEGER, values_used INTEGER,
    largest INTEGER, largest_heap INTEGER, mask INTEGER, rare INTEGER,
    last_rare INTEGER, checksum INTEGER,
    head BLOB,
    error TEXT,
    PRIMARY KEY (code, max)
)
"""

_RESULT = ("proved", "preperiod", "period", "values_used", "largest", "largest_heap",
           "mask", "rare", "last_rare", "checksum")


def default_path() -> Path:
    """``$XDG_CACHE_HOME/kayles/survey.sqlite``, or under ``~/.cache`` without the variable."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "kayles" / "survey.sqlite"


def _owner_alive(owner: str | None, me: str) -> bool:
    """Whether the survey that claimed a row still runs (a survey on another host: yes)."""
    if owner is None or owner == me:
        return False
    host, _, pid = owner.rpartition(" ")
    if host != socket.gethostname():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError):
        return True
    return True


def _use_wal(db: sqlite3.Connection) -> None:
    """Switch to WAL mode.  SQLite answers 'database is locked' at once, without the busy
    handler, when two connections switch a new database at the same moment: retry."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class Store:
    """An open survey database (see the module header); use it as a context manager."""

    def __init__(self, path: str | os.PathLike, make_parents: bool = False) -> None:
        self.path = Path(path)
        self.owner = f"{socket.gethostname()} {os.getpid()}"
        if make_parents:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except sqlite3.Error as exc:
            raise ValueError(f"{self.path}: cannot open the survey database: {exc}") from None
        try:
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
            _use_wal(self._db)
            with self._transaction():
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, SCHEMA_VERSION):
                    raise ValueError(f"{self.path}: survey database of schema {version}, "
                                     f"this kayles reads schema {SCHEMA_VERSION}")
                self._db.execute(_SCHEMA)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            self._db.close()
            raise ValueError(f"{self.path}: not a usable survey database: {exc}") from None
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _transaction(self):
        return _Transaction(self._db)

    # -- the life of a row -------------------------------------------------------------------

    def claim(self, code: str, limit: int) -> str:
        """'claimed' (this survey computes it now), 'done', or 'busy' (a live survey has it)."""
        with self._transaction():
            row = self._db.execute("SELECT status, owner FROM games WHERE code = ? AND max = ?",
                                   (code, limit)).fetchone()
            if row is not None and row[0] == "done":
                return "done"
            if row is not None and row[0] == "running" and _owner_alive(row[1], self.owner):
                return "busy"
            self._db.execute(
                "INSERT INTO games (code, max, status, owner, updated) "
                "VALUES (?, ?, 'running', ?, ?) ON CONFLICT (code, max) DO UPDATE SET "
                "status = 'running', owner = excluded.owner, updated = excluded.updated, "
                "error = NULL", (code, limit, self.owner, time.time()))
            return "claimed"

    def finish(self, summary: Summary) -> None:
        """Store a computed summary: the row is done (unless another survey stored it first)."""
        values = (int(summary.proved), summary.preperiod, summary.period, summary.values,
                  summary.largest, summary.largest_heap, summary.mask, summary.rare,
                  summary.last_rare, summary.checksum)
        with self._transaction():
            self._db.execute(
                f"UPDATE games SET status = 'done', owner = ?, updated = ?, seconds = ?, "
                f"head = ?, error = NULL, {', '.join(f'{c} = ?' for c in _RESULT)} "
                f"WHERE code = ? AND max = ? AND status != 'done'",
                (self.owner, time.time(), summary.seconds, summary.packed, *values,
                 summary.code, summary.max))

    def fail(self, code: str, limit: int, error: str) -> None:
        with self._transaction():
            self._db.execute(
                "UPDATE games SET status = 'failed', updated = ?, error = ? "
                "WHERE code = ? AND max = ? AND owner = ? AND status = 'running'",
                (time.time(), error, code, limit, self.owner))

    def release(self) -> None:
        """Mark every row this survey claimed and did not finish 'stopped'."""
        with self._transaction():
            self._db.execute("UPDATE games SET status = 'stopped', updated = ? "
                             "WHERE owner = ? AND status = 'running'", (time.time(), self.owner))

    # -- reading -----------------------------------------------------------------------------

    def status(self, code: str, limit: int) -> tuple[str, str | None] | None:
        """(status, owner) of a row, or None when there is none."""
        row = self._db.execute("SELECT status, owner FROM games WHERE code = ? AND max = ?",
                               (code, limit)).fetchone()
        return None if row is None else (row[0], row[1])

    def busy_elsewhere(self, code: str, limit: int) -> bool:
        """Whether a live survey other than this one is computing the row."""
        row = self.status(code, limit)
        return row is not None and row[0] == "running" and _owner_alive(row[1], self.owner)

    def summaries(self, codes: Iterable[str], limit: int) -> dict[str, Summary]:
        """The done rows among ``codes`` at this ``max``, by code."""
        wanted = set(codes)
        found = {}
        for row in self._db.execute(
                f"SELECT code, seconds, head, {', '.join(_RESULT)} FROM games "
                "WHERE max = ? AND status = 'done'", (limit,)):
            code, seconds, head, *values = row
            if code not in wanted:
                continue
            fields = dict(zip(_RESULT, values))
            fields["values"] = fields.pop("values_used")
            fields["proved"] = bool(fields["proved"])
            found[code] = Summary(code=code, max=limit, seconds=seconds, packed=head, **fields)
        return found


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any exception)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
