"""Where surveys and long runs keep their results: one SQLite file.

Surveys keep one row per (code, max) in ``games``; long runs (``kayles run``)
one row per (game, power of two) in ``records``; misère surveys (``kayles survey
--misere``) one row per (code, heap) in ``quotients``.

The file (default ``$XDG_CACHE_HOME/kayles/survey.sqlite``, ``~/.cache`` when the
variable is unset) runs in WAL mode with a busy timeout, so several surveys and
readers may share it; every change is one ``BEGIN IMMEDIATE`` transaction, so a
killed survey leaves every row it finished intact.  Schema (``PRAGMA user_version`` 5;
a file of version 1 to 4, without ``records``, ``quotients``, ``games.saltus`` or the
``signature`` columns, gains them when opened for writing, and is read as it stands
otherwise):

    CREATE TABLE games (
        code TEXT NOT NULL,        -- the game's canonical code, e.g. '0.77'
        max INTEGER NOT NULL,      -- the --max (values allowed for the proof) of the row
        status TEXT NOT NULL,      -- 'running' | 'done' | 'failed' | 'stopped' (see below)
        owner TEXT,                -- 'HOST PID' of the survey that last claimed the row
        updated REAL NOT NULL,     -- Unix time of the last change
        seconds REAL,              -- compute time of a done row
        proved INTEGER, preperiod INTEGER, period INTEGER, values_used INTEGER,
        largest INTEGER, largest_heap INTEGER, mask INTEGER, rare INTEGER,
        last_rare INTEGER, checksum INTEGER,   -- kayles.analysis.survey.Summary, NULL until done
        head BLOB,                 -- zlib of 16-bit G(0..): the whole period when proved
        error TEXT,                -- why a failed row failed
        saltus INTEGER,            -- a proved row's: G(n + period) = G(n) + saltus (0, NULL:
                                   -- periodic; kayles.engine.regularity)
        signature TEXT,            -- a done row's (see "Signed rows" below)
        PRIMARY KEY (code, max))

    CREATE TABLE records (         -- kayles.storage.records.Record, one power of two of a run
        game TEXT NOT NULL,        -- the game's name, e.g. '0.167', 'grundy'
        n INTEGER NOT NULL,        -- 2**k: the record covers heaps 1..n
        largest INTEGER NOT NULL, first INTEGER NOT NULL, mask INTEGER NOT NULL,
        rare INTEGER NOT NULL, last_rare INTEGER NOT NULL, checksum INTEGER NOT NULL,
        frequencies BLOB NOT NULL, -- zlib of little-endian 64-bit counts of values 0..largest
        seconds REAL NOT NULL,     -- the run's computing time to n
        updated REAL NOT NULL,
        signature TEXT,
        PRIMARY KEY (game, n))

    CREATE TABLE quotients (       -- kayles.analysis.survey.misere_summary, proved only
        code TEXT NOT NULL,        -- the game's canonical code
        max_heap INTEGER NOT NULL, -- the heaps asked for (--misere HEAP)
        heaps INTEGER NOT NULL,    -- heaps 1..heaps proved: max_heap, or fewer when beyond
        quotient_order INTEGER NOT NULL, p_size INTEGER NOT NULL,
        solved_at INTEGER, period INTEGER, preperiod INTEGER,  -- NULL unless solved
        checksum TEXT NOT NULL,    -- SHA-256 of presentation, P-portion, heaps' classes
        states INTEGER NOT NULL,   -- the walk budget (--budget) it ran under
        error TEXT,                -- why heap heaps + 1 is beyond the search, or NULL
        seconds REAL NOT NULL,
        updated REAL NOT NULL,
        signature TEXT,
        PRIMARY KEY (code, max_heap))

A quotient row holds only what was proved: the quotient of heaps 1..heaps (all of
them, when solved).  A row with an error is computed again by a survey with a larger
budget; any other is final.

A record is written once (``put_record``); a run that reaches a stored record
again must find the same figures, or it stops (a damaged file, or a bug).

Status: a survey *claims* a row ('running', owner = itself) just before computing
it and marks it 'done' (or 'failed', with the error) in the same transaction that
stores the result.  A row is never computed again once done.  A 'running' row
whose owner process is gone (killed), a 'stopped' row (its survey was interrupted)
and a 'failed' row are claimed again by the next survey; a 'running' row of a live
survey on this host, or of a survey on another host, is left to it unless the
survey is told to reclaim it (``reclaim=True``: ``kayles survey --reclaim``).

A database is input that may be hostile.  It is opened with ``trusted_schema``
off, and refused unless it holds exactly the table above (no other table, view,
trigger or index, the same columns); every row read is checked (types, ranges),
a done row's head is decompressed with a bound and must hold exactly the values
it claims, whose Fletcher-32 checksum must be the row's.  A database that fails
is refused with one line naming what is wrong; nothing of it is printed.  A
database that cannot be written (its mode, a read-only disk, its folder) is read
without writing, in WAL mode too (``kayles.storage.database``: how, and when it is
read as immutable): it answers when every row asked for is done.  What is not a
database is named as what it is, and no message advises deleting a file.

Signed rows.  Each row kayles writes (a done survey row, a record, a quotient row)
carries the signature (``kayles.storage.signing``: HMAC-SHA256 with this user's
secret) of everything a reader believes in it: for a survey row its code, max and
status, its proof and figures, its values' blob and the row format (``ROW_FORMAT``).
A row whose signature fails -- edited (its checksum made again or not), copied from
another user's file, written by a kayles before signatures -- is never shown as it
stands.  What follows is what is cheap:

* a proved survey row is derived again to its proof's bound (the values its proof
  used: 167 for 0.77), every figure compared; the same row is then trusted (signed
  anew when the file may be written), another is treated as not done;
* a row not proved (computed to its max: minutes for a census's 2**24) is treated as
  not done;
* not done: a survey or census that may write the file computes it again (the row is
  marked 'stopped'); a read-only reader (the web page, ``--stored``) leaves it out;
* a record or a quotient row whose signature fails is left out, as if absent: the run
  or the survey that reaches it again stores it anew.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
import zlib
from array import array
from pathlib import Path

from ..engine.checksum import fletcher32_of_pieces
from ..errors import InputError, counted, path_text
from ..kernels.limits import interrupt
from . import signing
from .database import BUSY_TIMEOUT, Transaction, open_database
from .derived import too_large
from .records import Record, Summary, pack_counts, unpack_counts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["SCHEMA_VERSION", "Store", "default_path"]

SCHEMA_VERSION = 5
ROW_FORMAT = 1  # what a row's signature covers, and how (_row_message): signed with it

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
    saltus INTEGER,
    signature TEXT,
    PRIMARY KEY (code, max)
)
"""

_RECORDS_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    game TEXT NOT NULL,
    n INTEGER NOT NULL,
    largest INTEGER NOT NULL, first INTEGER NOT NULL, mask INTEGER NOT NULL,
    rare INTEGER NOT NULL, last_rare INTEGER NOT NULL, checksum INTEGER NOT NULL,
    frequencies BLOB NOT NULL,
    seconds REAL NOT NULL,
    updated REAL NOT NULL,
    signature TEXT,
    PRIMARY KEY (game, n)
)
"""
_RECORD_COLUMNS = (("game", "TEXT"), ("n", "INTEGER"),
                   *((c, "INTEGER") for c in ("largest", "first", "mask", "rare", "last_rare",
                                              "checksum")),
                   ("frequencies", "BLOB"), ("seconds", "REAL"), ("updated", "REAL"),
                   ("signature", "TEXT"))

_QUOTIENTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS quotients (
    code TEXT NOT NULL,
    max_heap INTEGER NOT NULL,
    heaps INTEGER NOT NULL,
    quotient_order INTEGER NOT NULL, p_size INTEGER NOT NULL,
    solved_at INTEGER, period INTEGER, preperiod INTEGER,
    checksum TEXT NOT NULL,
    states INTEGER NOT NULL,
    error TEXT,
    seconds REAL NOT NULL,
    updated REAL NOT NULL,
    signature TEXT,
    PRIMARY KEY (code, max_heap)
)
"""
_QUOTIENT_COLUMNS = (("code", "TEXT"), ("max_heap", "INTEGER"), ("heaps", "INTEGER"),
                     ("quotient_order", "INTEGER"), ("p_size", "INTEGER"),
                     ("solved_at", "INTEGER"), ("period", "INTEGER"), ("preperiod", "INTEGER"),
                     ("checksum", "TEXT"), ("states", "INTEGER"), ("error", "TEXT"),
                     ("seconds", "REAL"), ("updated", "REAL"), ("signature", "TEXT"))

_RESULT = ("proved", "preperiod", "period", "values_used", "largest", "largest_heap",
           "mask", "rare", "last_rare", "checksum")

# The table's columns and declared types, exactly (PRAGMA table_info's order).
_OLD_COLUMNS = (("code", "TEXT"), ("max", "INTEGER"), ("status", "TEXT"), ("owner", "TEXT"),
                ("updated", "REAL"), ("seconds", "REAL"), *((c, "INTEGER") for c in _RESULT),
                ("head", "BLOB"), ("error", "TEXT"))  # schema 1 to 3
_COLUMNS = (*_OLD_COLUMNS, ("saltus", "INTEGER"), ("signature", "TEXT"))
# The columns each schema added at the end of a table: a file of an older schema may lack
# them (added when it is opened for writing).
_ADDED = {"games": {"saltus": 4, "signature": 5}, "records": {"signature": 5},
          "quotients": {"signature": 5}}
_OURS = {("table", "games"), ("index", "sqlite_autoindex_games_1"),
         ("table", "records"), ("index", "sqlite_autoindex_records_1"),
         ("table", "quotients"), ("index", "sqlite_autoindex_quotients_1")}
LARGEST_VALUE = (1 << 16) - 1  # values are 16-bit
MAX_PID = (1 << 31) - 1  # pid_t


def default_path() -> Path:
    """``survey.sqlite`` in the cache folder (``kayles.storage.proof_cache.cache_dir``: an absolute
    ``$XDG_CACHE_HOME`` or ``~/.cache``); InputError when there is none, or when the variable
    it comes from names a file (``_files.blocked_folder``: the variable is blamed)."""
    from ._files import blocked_folder
    from .proof_cache import cache_dir

    folder = cache_dir()
    if folder is None:
        raise InputError("no cache folder (neither XDG_CACHE_HOME nor HOME is an absolute "
                         "path): give --db FILE")
    variable = "XDG_CACHE_HOME" if os.environ.get("XDG_CACHE_HOME", "").startswith(os.sep) \
        else "HOME"
    why, blamed = blocked_folder(folder, variable, os.environ.get(variable, ""))
    if why:
        where = "$XDG_CACHE_HOME" if variable == "XDG_CACHE_HOME" else "$HOME/.cache"
        fix = f"set {variable} to a folder" if blamed else "move it away"
        raise InputError(f"{why} (the survey database is {where}/kayles/survey.sqlite unless "
                         f"--db FILE names another): {fix}, or give --db FILE")
    return Path(folder) / "survey.sqlite"


def _owner_alive(owner: str | None, me: str) -> bool:
    """Whether the survey that claimed a row still runs (a survey on another host: yes)."""
    if owner is None or owner == me:
        return False
    host, _, pid = owner.rpartition(" ")
    if host != socket.gethostname():
        return True
    if not (pid.isascii() and pid.isdigit() and 0 < int(pid) <= MAX_PID):
        return False  # no process of this host has that number
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _is_owner(owner) -> bool:
    """Whether ``owner`` is written as kayles writes it: 'HOST PID'."""
    if not isinstance(owner, str):
        return False
    host, space, pid = owner.rpartition(" ")
    return bool(space and host and pid.isascii() and pid.isdigit())


class Store:
    """An open survey database (see the module header); use it as a context manager."""

    def __init__(self, path: str | os.PathLike, make_parents: bool = False,
                 reclaim: bool = False, read_only: bool = False,
                 notice: Callable[[str], None] | None = None) -> None:
        """``read_only``: open with SQLite's mode=ro, write nothing and never migrate (a
        server that only shows the file); a file this process may not write, or in a folder
        it may not write, is read so (``kayles.storage.database``: immutable=1 where WAL
        mode needs it).  ``notice(line)`` is told, once for each kind, of the rows whose
        signature fails that are not kept (computed again, or left out)."""
        self.path = Path(path)
        self.name = path_text(os.fsdecode(path))
        self.owner = f"{socket.gethostname()} {os.getpid()}"
        self.reclaim = reclaim
        self._checked: set[bytes] = set()  # digests of the rows found sound (_done_rows)
        self._reader = read_only  # asked to read only (else read-only because it must be)
        self._notice = notice
        self._told: set[str] = set()  # the kinds of row notice was told of
        if make_parents and not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db, self.read_only = open_database(os.fsdecode(path), self.name, read_only)
        try:
            self._db.execute("PRAGMA trusted_schema = OFF")  # no SQL of the file's own runs
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
            missing = self._check_schema()
            if not self.read_only:
                self._db.use_wal()
                with self._transaction():
                    self._db.execute(_SCHEMA)
                    self._db.execute(_RECORDS_SCHEMA)
                    self._db.execute(_QUOTIENTS_SCHEMA)
                    for table, column, kind in missing:  # an older schema's: added, empty
                        self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                    self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                missing = []
            self._lacks = {(table, column) for table, column, _ in missing}
            self.saltus_kept = ("games", "saltus") not in self._lacks
        except BaseException:
            self._db.close()
            raise

    def _check_schema(self) -> list[tuple[str, str, str]]:
        """ValueError unless the file is empty or holds exactly our tables (module header);
        the (table, column, type) its schema lacks (columns added since, at the end)."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in range(SCHEMA_VERSION + 1):
            raise InputError(f"{self.name}: survey database of schema {version}, this kayles "
                             f"reads schema {SCHEMA_VERSION}")
        objects = [tuple(row) for row in
                   self._db.execute("SELECT type, name FROM sqlite_master").fetchall()]
        for kind, name in objects:
            if (kind, name) not in _OURS:
                raise InputError(f"{self.name}: not a kayles survey database: it holds a "
                                 f"{kind} {name!r} that kayles does not make")
        missing = []
        for table, expected in (("games", _COLUMNS), ("records", _RECORD_COLUMNS),
                                ("quotients", _QUOTIENT_COLUMNS)):
            if ("table", table) not in objects:
                continue
            columns = tuple((row[1], row[2]) for row in
                            self._db.execute(f"PRAGMA table_info({table})"))
            lacking = expected[len(columns):]
            if columns != expected[:len(columns)] or not all(
                    version < _ADDED[table].get(name, 0) for name, _ in lacking):
                raise InputError(f"{self.name}: not a kayles survey database: its {table} "
                                 "table has other columns")
            missing += [(table, name, kind) for name, kind in lacking]
        if not objects and self.read_only:
            why = "" if self._reader else ", and it cannot be written"
            raise InputError(f"{self.name}: no survey in it yet (an empty database{why})")
        return missing

    def _tell_unsigned(self, count: int, what: str, fate: str) -> None:
        """Tell ``notice``, once for each kind ``what`` (a noun and its plural), of ``count``
        rows whose signature fails, and their ``fate``."""
        if not count or self._notice is None or what in self._told:
            return
        self._told.add(what)
        word, words = what.split("|")
        self._notice(f"{self.name}: {counted(count, word, words)} not signed with this "
                     f"user's key {'is' if count == 1 else 'are'} {fate} (signed with another "
                     f"key, or edited); {signing.another_key()}")

    def _signature_of(self, table: str) -> str:
        """The signature column of ``table`` in a query (NULL where an older file lacks it)."""
        return "NULL" if (table, "signature") in self._lacks else "signature"

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _transaction(self):
        return Transaction(self._db)

    # -- the life of a row -------------------------------------------------------------------

    def claim(self, code: str, limit: int) -> str:
        """'claimed' (this survey computes it now), 'done', or 'busy' (a live survey, or one
        on another host, has it; with ``reclaim`` this survey takes it over)."""
        if self.read_only:
            raise InputError(f"{self.name}: {code} (max {limit}) is not done, and the "
                             "database cannot be written: survey into a --db FILE that can be "
                             "written to compute it")
        with self._transaction():
            row = self._db.execute("SELECT status, owner FROM games WHERE code = ? AND max = ?",
                                   (code, limit)).fetchone()
            status, owner = self._checked_state(row, code)
            if status == "done":
                return "done"
            if status == "running" and not self.reclaim and _owner_alive(owner, self.owner):
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
        saltus = summary.saltus if summary.proved else None
        signature = _signer(_games_row(summary.code, summary.max, summary.seconds, saltus,
                                       values), summary.packed).hexdigest()
        with self._transaction():
            self._db.execute(
                f"UPDATE games SET status = 'done', owner = ?, updated = ?, seconds = ?, "
                f"head = ?, error = NULL, saltus = ?, signature = ?, "
                f"{', '.join(f'{c} = ?' for c in _RESULT)} "
                f"WHERE code = ? AND max = ? AND status != 'done'",
                (self.owner, time.time(), summary.seconds, summary.packed, saltus, signature,
                 *values, summary.code, summary.max))

    def fail(self, code: str, limit: int, error: str) -> None:
        with self._transaction():
            self._db.execute(
                "UPDATE games SET status = 'failed', updated = ?, error = ? "
                "WHERE code = ? AND max = ? AND owner = ? AND status = 'running'",
                (time.time(), error, code, limit, self.owner))

    def release(self) -> None:
        """Mark every row this survey claimed and did not finish 'stopped' (none: a store
        that may not be written claims nothing)."""
        if self.read_only:
            return
        with self._transaction():
            self._db.execute("UPDATE games SET status = 'stopped', updated = ? "
                             "WHERE owner = ? AND status = 'running'", (time.time(), self.owner))

    # -- reading -----------------------------------------------------------------------------

    def _checked_state(self, row, code: str) -> tuple[str | None, str | None]:
        """(status, owner) of a row read (None, None: no row); ValueError when foreign."""
        if row is None:
            return None, None
        status, owner = row
        if status not in ("running", "done", "failed", "stopped") or not (
                owner is None or _is_owner(owner)):
            raise InputError(f"{self.name}: the row of {code} is not one kayles wrote")
        return status, owner

    def status(self, code: str, limit: int) -> tuple[str, str | None] | None:
        """(status, owner) of a row, or None when there is none."""
        row = self._db.execute("SELECT status, owner FROM games WHERE code = ? AND max = ?",
                               (code, limit)).fetchone()
        found = self._checked_state(row, code)
        return None if row is None else found

    def busy_elsewhere(self, code: str, limit: int) -> bool:
        """Whether a live survey other than this one is computing the row."""
        row = self.status(code, limit)
        return row is not None and row[0] == "running" and _owner_alive(row[1], self.owner)

    def done_codes(self, limit: int) -> list[str]:
        """The codes of the done rows at this ``max``, in code order."""
        codes = [row[0] for row in self._db.execute(
            "SELECT code FROM games WHERE max = ? AND status = 'done' ORDER BY code", (limit,))]
        if not all(isinstance(code, str) for code in codes):
            raise InputError(f"{self.name}: a row's code is not one kayles wrote")
        return codes

    def failed_codes(self, codes: Iterable[str], limit: int) -> dict[str, str]:
        """Those of ``codes`` whose row at this ``max`` failed (a survey tries them again),
        each with its error as stored ('' where it is not text): to be classified, not shown
        (a file may be hostile)."""
        wanted = set(codes)
        return {code: error if isinstance(error, str) else "" for code, error in
                self._db.execute("SELECT code, error FROM games WHERE max = ? AND "
                                 "status = 'failed' ORDER BY code", (limit,))
                if code in wanted}

    def limits(self) -> dict[int, int]:
        """How many done rows there are at each ``max`` the file holds, ascending."""
        found = self._db.execute("SELECT max, COUNT(*) FROM games WHERE status = 'done' "
                                 "GROUP BY max ORDER BY max").fetchall()
        if not all(type(limit) is int and limit > 0 for limit, _ in found):
            raise InputError(f"{self.name}: a row's max is not one kayles wrote")
        return dict(found)

    def summaries(self, codes: Iterable[str], limit: int,
                  keep: int | None = None) -> dict[str, Summary]:
        """The done rows among ``codes`` at this ``max``, by code, each checked (see the
        module header): ValueError naming the first row that is not what it claims.  With
        ``keep``, each summary keeps only the first ``keep`` values of its head (all of them
        are checked first; its ``first`` answers up to ``keep``): a census's 1,419 rows of
        2**24 values would otherwise hold some 12 GB."""
        return {summary.code: summary
                for summary in self._done_rows(codes, "max = ?", (limit,), keep)}

    def furthest(self, codes: Iterable[str], low: int, high: int,
                 keep: int | None = None) -> dict[str, Summary]:
        """Each code's done row of the largest ``max`` from ``low`` to ``high`` (a census's
        last pass, or a survey run further into the same file), checked and kept as
        ``summaries`` does."""
        furthest = ("max = (SELECT MAX(max) FROM games AS other WHERE other.code = games.code "
                    "AND other.max >= ? AND other.max <= ? AND other.status = 'done')")
        return {summary.code: summary  # one row read (and checked) per code
                for summary in self._done_rows(codes, furthest, (low, high), keep)}

    def _done_rows(self, codes: Iterable[str], where: str, arguments: tuple,
                   keep: int | None):
        wanted = set(codes)
        lost = 0  # rows whose signature fails, not kept
        saltus = "saltus" if self.saltus_kept else "NULL"
        keys = [(code, limit) for code, limit in _read(self._db.execute(
            f"SELECT code, max FROM games WHERE {where} AND status = 'done'", arguments))
            if code in wanted]  # the values of the rows wanted alone are read (and checked)
        for code, limit in keys:
            found = list(_read(self._db.execute(
                f"SELECT seconds, head, {saltus}, {self._signature_of('games')}, "
                f"{', '.join(_RESULT)} FROM games "
                "WHERE code = ? AND max = ? AND status = 'done'", (code, limit))))
            if not found:  # deleted since by another survey
                continue
            seconds, head, saltus_value, signature, *values = found[0]
            fields = dict(zip(_RESULT, values))
            fields["values"] = fields.pop("values_used")
            fields["saltus"] = saltus_value
            digest = _row_digest(code, limit, seconds, {**fields, "signature": signature}, head)
            checked = digest in self._checked  # the same bytes: the same verdict
            why = ("" if checked
                   else "its max is not a count" if type(limit) is not int or limit < 1
                   else _damage(fields, seconds, head, limit))
            if not (why or checked or _signed_row(code, limit, seconds, saltus_value, values,
                                                  head, signature)):
                if not self._derived_again(code, limit, fields, seconds, head, values):
                    lost += 1
                    continue  # not done: computed again by a survey, not shown
            elif not (why or checked):
                why = _foreign(code, fields, head)
            if why:
                raise InputError(f"{self.name}: the row of {code} (max {limit}) is damaged or "
                                 f"was edited ({why}); delete that row of its games table to "
                                 "compute it again")
            self._checked.add(digest)
            fields["proved"] = bool(fields["proved"])
            fields["saltus"] = fields["saltus"] or 0
            if keep is not None:  # checked whole above: the first values alone are kept
                head = zlib.compress(zlib.decompressobj().decompress(head, 2 * keep)
                                     if keep else b"", 1)
            yield Summary(code=code, max=limit, seconds=seconds, packed=head, **fields)
        self._tell_unsigned(lost, "survey row|survey rows", "left out (a survey that may write "
                            "the file computes it again)" if self.read_only else "computed again")

    def _derived_again(self, code: str, limit: int, fields: dict, seconds, head: bytes,
                       values: list) -> bool:
        """A done row whose signature fails (module header, "Signed rows"): whether it holds
        (derived again to its proof's bound: signed anew where the file may be written);
        a row that does not, or is not proved (as costly as its survey), is marked 'stopped'
        where the file may be written, so that a survey computes it again."""
        holds = bool(fields["proved"]) and _derives(code, fields, head)
        if self.read_only:
            return holds
        with self._transaction():
            if holds:
                signature = _signer(_games_row(code, limit, seconds, fields["saltus"], values),
                                    head).hexdigest()
                self._db.execute("UPDATE games SET signature = ? WHERE code = ? AND max = ? "
                                 "AND status = 'done'", (signature, code, limit))
            else:
                self._db.execute("UPDATE games SET status = 'stopped', owner = NULL, "
                                 "signature = NULL, updated = ? WHERE code = ? AND max = ? "
                                 "AND status = 'done'", (time.time(), code, limit))
        return holds

    # -- misère quotients --------------------------------------------------------------------

    def put_quotient(self, code: str, summary: dict, states: int) -> None:
        """Store a misère summary (``misere_summary``) computed under ``states``; one with
        nothing proved is not stored, nor one over a row without an error."""
        if self.read_only or summary["order"] is None:
            return
        solved = summary["solved"] or {}
        fields = (code, summary["max_heap"], summary["heaps"], summary["order"],
                  summary["p_size"], solved.get("at_heap"), solved.get("period"),
                  solved.get("preperiod"), summary["checksum"], states, summary["error"],
                  float(summary["seconds"]))  # a REAL: read back as a float
        with self._transaction():
            if self._quotient_rows("WHERE code = ? AND max_heap = ?", (code, summary["max_heap"]),
                                   unsigned=True):  # not this user's: replaced
                self._db.execute("DELETE FROM quotients WHERE code = ? AND max_heap = ?",
                                 (code, summary["max_heap"]))
            self._db.execute(
                "INSERT INTO quotients (code, max_heap, heaps, quotient_order, p_size, "
                "solved_at, period, preperiod, checksum, states, error, seconds, updated, "
                "signature) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (code, max_heap) "
                "DO UPDATE SET heaps = excluded.heaps, quotient_order = excluded.quotient_order, "
                "p_size = excluded.p_size, solved_at = excluded.solved_at, "
                "period = excluded.period, preperiod = excluded.preperiod, "
                "checksum = excluded.checksum, states = excluded.states, error = excluded.error, "
                "seconds = excluded.seconds, updated = excluded.updated, "
                "signature = excluded.signature WHERE quotients.error IS NOT NULL",
                (*fields, time.time(), signing.sign(_plain_row("quotient", fields))))

    def quotients(self, codes: Iterable[str], max_heap: int) -> dict[str, tuple[dict, int]]:
        """The stored quotient rows among ``codes`` at ``max_heap``: code -> (summary, the
        budget it ran under), each checked (ValueError naming a damaged row)."""
        wanted = set(codes)
        found = {}
        for row in self._quotient_rows("WHERE max_heap = ?", (max_heap,)):
            code, _, heaps, order, p_size, at, period, preperiod, checksum, states, error, \
                seconds = row
            if code not in wanted:
                continue
            solved = None if at is None else {"at_heap": at, "period": period,
                                              "preperiod": preperiod}
            found[code] = ({"max_heap": max_heap, "heaps": heaps, "order": order,
                            "p_size": p_size, "solved": solved, "checksum": checksum,
                            "error": error, "seconds": seconds}, states)
        return found

    def _quotient_rows(self, where: str, arguments: tuple, unsigned: bool = False) -> list:
        """The quotient rows (the fields of ``_plain_row``) signed with this user's key,
        each checked (ValueError naming a damaged one); with ``unsigned``, those that are
        not signed (left out of what is read: computed again by the survey)."""
        exists = self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                  "name = 'quotients'").fetchone()
        if not exists:  # an older file, read-only
            return []
        rows, lost = [], 0
        for row in self._db.execute(
                "SELECT code, max_heap, heaps, quotient_order, p_size, solved_at, period, "
                f"preperiod, checksum, states, error, seconds, {self._signature_of('quotients')} "
                f"FROM quotients {where}", arguments):
            *fields, signature = row
            code, max_heap, heaps, order, p_size, at, period, preperiod, checksum, states, \
                error, seconds = fields
            why = ("a value of the wrong type" if not (isinstance(code, str)
                                                       and type(max_heap) is int)
                   else _quotient_damage(max_heap, heaps, order, p_size, (at, period, preperiod),
                                         checksum, states, error, seconds))
            if why:
                raise InputError(f"{self.name}: the quotient row of {code!s:.40} (heap "
                                 f"{max_heap!s:.20}) is damaged or was edited ({why}); delete "
                                 "that row of its quotients table to compute it again")
            if _signed(_plain_row("quotient", fields), signature) != unsigned:
                rows.append(fields)
            elif not unsigned:
                lost += 1
        self._tell_unsigned(lost, "misère quotient row|misère quotient rows", "computed again")
        return rows

    # -- the records of long runs -----------------------------------------------------------

    def put_record(self, record: Record) -> None:
        """Store a record; one already stored must say the same (ValueError otherwise)."""
        if self.read_only:
            return
        fields = (record.game, record.n, record.largest, record.first, record.mask, record.rare,
                  record.last_rare, record.fletcher32)
        blob = pack_counts(record.counts)
        with self._transaction():
            stored = self._record_rows("WHERE game = ? AND n = ?", (record.game, record.n))
            if stored:
                if not stored[0].same_figures(record):
                    raise InputError(
                        f"{self.name}: the stored record of {record.game} at 2**{record.log2} "
                        f"differs from this run's (fletcher32 {stored[0].fletcher32:08x} "
                        f"there, {record.fletcher32:08x} here): one of them is wrong; "
                        "delete the stored one to keep this run's")
                return
            self._db.execute(  # over a row not signed with this user's key, if there is one
                "INSERT INTO records (game, n, largest, first, mask, rare, last_rare, checksum, "
                "frequencies, seconds, updated, signature) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, n) DO UPDATE SET "
                "largest = excluded.largest, first = excluded.first, mask = excluded.mask, "
                "rare = excluded.rare, last_rare = excluded.last_rare, "
                "checksum = excluded.checksum, frequencies = excluded.frequencies, "
                "seconds = excluded.seconds, updated = excluded.updated, "
                "signature = excluded.signature",
                (*fields, blob, record.seconds, time.time(),
                 signing.sign(_plain_row("record", (*fields, float(record.seconds)), blob))))

    def records(self, game: str) -> list[Record]:
        """The stored records of a game, by n, each checked (ValueError naming a bad one);
        one not signed with this user's key is left out."""
        return self._record_rows("WHERE game = ? ORDER BY n", (game,))

    def _record_rows(self, where: str, arguments: tuple) -> list[Record]:
        exists = self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                  "name = 'records'").fetchone()
        if not exists:  # a file of schema 1, read-only
            return []
        found, lost = [], 0
        for row in self._db.execute(
                "SELECT game, n, largest, first, mask, rare, last_rare, checksum, frequencies, "
                f"seconds, {self._signature_of('records')} FROM records {where}", arguments):
            game, n, largest, first, mask, rare, last_rare, checksum, blob, seconds, \
                signature = row
            fields = {"game": game, "n": n, "counts": unpack_counts(blob), "largest": largest,
                      "first": first, "mask": mask, "rare": rare, "last_rare": last_rare,
                      "fletcher32": checksum, "seconds": seconds}
            try:
                found.append(Record.from_fields(fields))
            except ValueError as exc:
                raise InputError(f"{self.name}: the record of {game!s:.40} at n = {n!s:.20} "
                                 f"is damaged or was edited ({exc}); delete that row of its "
                                 "records table to compute it again") from None
            if not (isinstance(blob, bytes) and _signed(_plain_row(
                    "record", (game, n, largest, first, mask, rare, last_rare, checksum,
                               seconds), blob), signature)):
                found.pop()  # not this user's: as if absent (a run stores it again)
                lost += 1
        self._tell_unsigned(lost, "record of a long run|records of long runs",
                            "left out (the run that reaches it again stores it anew)")
        return found


def _read(rows):
    """The rows of a query (its errors said by ``database.Database``), the interrupt hook
    (``limits.set_interrupt``: a server's time cap) called at each."""
    for row in rows:
        interrupt()
        yield row


def _row_digest(code: str, limit, seconds, fields: dict, head) -> bytes:
    """A digest of everything a row's check reads: a row read again with the same digest
    (a census's pass, then its furthest rows) is not checked again, and one changed in any
    field or byte since is (a 2**29 row takes some 7 s to check, 0.2 s to digest)."""
    digest = hashlib.blake2b(repr((code, limit, seconds, sorted(fields.items()))).encode(),
                             digest_size=32)
    digest.update(head if isinstance(head, bytes) else repr(head).encode())
    return digest.digest()


def _games_row(code: str, limit: int, seconds, saltus, values) -> bytes:
    """What a survey row's signature covers before its values' blob: the row format, its
    status (only done rows are signed), code, max, time, saltus and the _RESULT fields."""
    plain = [int(v) if isinstance(v, bool) else v for v in values]
    return json.dumps(["kayles survey row", ROW_FORMAT, "done", code, limit, float(seconds),
                       saltus, *plain], separators=(",", ":")).encode() + b"\n"


def _signer(row: bytes, blob: bytes, secret: bytes | None = None) -> signing.Signer:
    """The signature of a row's fields (as text) and its blob, by ``secret`` or this user's
    key (made if there is none)."""
    signer = signing.Signer(secret or signing.key(), row)
    signer.update(blob)
    return signer


def _plain_row(kind: str, fields, blob: bytes = b"") -> bytes:
    """What a record's or a quotient row's signature covers: its kind, the row format, its
    fields as SQLite gives them back (a time as a float) and its blob."""
    return json.dumps([f"kayles {kind}", ROW_FORMAT, *fields], separators=(",", ":")).encode() \
        + b"\n" + blob


def _signed(message: bytes, signature) -> bool:
    return isinstance(signature, str) and signing.verify(message, signature)


def _signed_row(code: str, limit: int, seconds, saltus, values, head: bytes,
                signature) -> bool:
    """Whether a done survey row (its fields checked by _damage) is signed with this user's
    key."""
    secret = signing.key(create=False)
    if secret is None or not isinstance(signature, str):
        return False
    return _signer(_games_row(code, limit, seconds, saltus, values), head, secret).matches(
        signature)


def _derives(code: str, fields: dict, head: bytes) -> bool:
    """Whether a proved row is its code's: the sequence computed again to the proof's bound
    (``fields["values"]``), the proof found there the row's, every figure the row's (as
    ``kayles.analysis.survey.summarise`` makes them), its head the values."""
    from ..engine.checksum import fletcher32
    from ..engine.codes import get_game
    from ..engine.sequence import Sequence, rare_mask

    try:
        game = get_game(code)
    except ValueError:
        return False
    count, n0, p = fields["values"], fields["preperiod"], fields["period"]
    sequence = Sequence(game)
    found = sequence.prove(count)
    if found is None or (*found, found.saltus) != (n0, p, count, fields["saltus"] or 0):
        return False
    values = array("H")
    values.frombytes(sequence.table(count).cast("B"))
    largest = max(values)
    figures = (largest, values.index(largest), *rare_mask(game, values, sequence.nimber),
               fletcher32(values))
    return figures == tuple(fields[name] for name in (
        "largest", "largest_heap", "mask", "rare", "last_rare", "checksum")) and (
        zlib.decompress(head) == values[:n0 + p].tobytes())  # its size checked by _damage


DERIVED = 64  # a row's first values derived again from its code's rules, whenever it is read


def _foreign(code: str, fields: dict, head: bytes) -> str:
    """Why a row's values are not its code's ('' when its first DERIVED values are): a row
    of another game copied under this code, or values edited with the checksum made again."""
    from ..engine.codes import get_game
    from ..engine.sequence import Sequence

    stored = array("H", zlib.decompressobj().decompress(head, 2 * DERIVED))  # checked whole
    count = len(stored)                                                       # by _damage
    try:
        derived = Sequence(get_game(code)).table(count)
    except ValueError:
        return "its code is not a game"
    return "" if derived.tolist() == stored[:count].tolist() else "its values are not its game's"


def _damage(fields: dict, seconds, head, limit: int) -> str:
    """Why a done row cannot be what it claims ('' when it can)."""
    saltus = fields["saltus"]
    if not (saltus is None or type(saltus) is int and 0 <= saltus <= LARGEST_VALUE):
        return "a value of the wrong type"
    if saltus and not fields["proved"]:
        return "a saltus without a proof"
    fields = {k: v for k, v in fields.items() if k != "saltus"}
    ints = [value for name, value in fields.items()
            if name not in ("preperiod", "period", "last_rare")]
    if not all(type(v) is int for v in ints) or not isinstance(head, bytes) or not (
            fields["last_rare"] is None or type(fields["last_rare"]) is int):
        return "a value of the wrong type"
    if type(seconds) not in (int, float) or fields["proved"] not in (0, 1):
        return "a value of the wrong type"
    proved, n0, p, count = (fields[k] for k in ("proved", "preperiod", "period", "values"))
    if proved and not (type(n0) is int and type(p) is int and n0 >= 0 and p >= 1):
        return "a proof without its period"
    if not 1 <= count <= max(limit, n0 + p if proved else 0) or not (
            0 <= fields["largest"] <= LARGEST_VALUE and 0 <= fields["checksum"] < 1 << 32):
        return "a number out of range"
    stored = n0 + p if proved else count
    if proved and stored > count:
        return "a period longer than the values it used"
    unpacker = zlib.decompressobj()
    try:
        data = unpacker.decompress(head, 2 * stored + 1)  # a bound: no decompression bomb
    except zlib.error:
        return "its values are not zlib data"
    if len(data) != 2 * stored or not unpacker.eof:
        return "its values are not the number it claims"
    head_values = array("H", data)
    if too_large(head_values) is not None:
        return "a value more than any option can make"
    if proved and saltus:  # each period the one before plus the saltus: written out
        values = [*head_values, *(head_values[n0 + (n - n0) % p] + saltus * ((n - n0) // p)
                                  for n in range(stored, count))]
        if max(values) > LARGEST_VALUE:
            return "a number out of range"
        pieces = [(values, 1)]
    elif proved:
        rest, tail = divmod(count - stored, p)
        pieces = [(head_values, 1), (head_values[n0:], rest), (head_values[n0 : n0 + tail], 1)]
    else:
        pieces = [(head_values, 1)]
    if fletcher32_of_pieces(pieces) != fields["checksum"]:
        return "its values do not have its checksum"
    return ""


def _quotient_damage(max_heap: int, heaps, order, p_size, solved: tuple, checksum, states,
                     error, seconds) -> str:
    """Why a quotient row cannot be what it claims ('' when it can)."""
    numbers = (heaps, order, p_size, states)
    if not all(type(v) is int for v in numbers) or type(seconds) not in (int, float) or not (
            error is None or isinstance(error, str)) or not isinstance(checksum, str):
        return "a value of the wrong type"
    if not (0 < heaps <= max_heap and order >= 1 and 0 <= p_size < order and states >= 1
            and seconds >= 0 and len(checksum) == 64
            and all(c in "0123456789abcdef" for c in checksum)
            and (error is None or 0 < len(error) <= 1000)):
        return "a number or text out of range"
    at, period, preperiod = solved
    if at is None:
        if period is not None or preperiod is not None:
            return "a period without its heap"
    elif not (all(type(v) is int for v in solved) and 1 <= period and 1 <= preperiod
              and at <= heaps == max_heap and error is None):
        return "a solution out of range"
    if error is None and at is None and heaps != max_heap:
        return "fewer heaps than asked without an error"
    return ""
