"""Survey databases where they cannot be written, and files that are no database
(kayles.storage.database, issue 64).

A read-only disk is made for real: the folder bind-mounted read-only over itself in a
user and mount namespace of the child's own (``unshare -rm``), so the kernel answers
EROFS to root as to anyone (a folder without write permission would not stop root, and
CI runs as root).  Skipped where namespaces are not allowed, except under CI.  The files
are made by kayles itself: a survey leaves its database in WAL mode, with no -wal or
-shm file once it closes, as a copy taken to a read-only disk would be.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from conftest import ROOT, in_process, ok, run_kayles

TIMEOUT = 600  # ends a stuck child only, sized for a busy machine
MOUNT = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
CODES = ("0.77", "0.07")


def read_only(folder, *args) -> subprocess.CompletedProcess:
    """``kayles ARGS`` with ``folder`` on a read-only mount (module header)."""
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0 and os.environ.get("CI") != "true":
        pytest.skip(f"no user and mount namespaces here: {probe.stderr.decode().strip()}")
    return subprocess.run(["unshare", "-rm", "sh", "-c", MOUNT, "sh", str(folder),
                           sys.executable, "-m", "kayles", *map(str, args)],
                          capture_output=True, cwd=ROOT, timeout=TIMEOUT)


def in_wal_mode(db) -> bool:
    """Whether SQLite's header says WAL (bytes 18 and 19: 2) and every row is in the file:
    no -wal file, or an empty one (a read-only reader, --stored, leaves one behind)."""
    wal = f"{db}-wal"
    return db.read_bytes()[18:20] == b"\x02\x02" and (
        not os.path.exists(wal) or os.path.getsize(wal) == 0)


def one_line(result, status: int) -> str:
    err = result.stderr.decode()
    assert (result.returncode, result.stdout) == (status, b""), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_wal_database_on_a_read_only_disk_is_read(tmp_path):
    """The issue's: a survey and a census database on a read-only mount were refused ("not
    a usable survey database (unable to open database file): move it away, or delete
    it").  They answer as on a disk that can be written, nothing written, nothing
    advised; a row not done says why it cannot be computed there."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db, census = folder / "s.sqlite", folder / "c.sqlite"
    surveyed = ok(run_kayles("survey", *CODES, "--max", 300, "--jobs", 1, "--db", db))
    ok(run_kayles("census", "--digits", 1, "--to", 1 << 16, "--jobs", 1, "--db", census))
    stored = ok(run_kayles("census", "--digits", 1, "--to", 1 << 16, "--stored", "--db", census))
    assert in_wal_mode(db) and in_wal_mode(census)
    before = {path: path.read_bytes() for path in (db, census)}
    assert ok(read_only(folder, "survey", *CODES, "--max", 300, "--db", db)) == surveyed
    assert ok(read_only(folder, "census", "--digits", 1, "--to", 1 << 16, "--stored", "--db",
                        census)) == stored
    err = one_line(read_only(folder, "survey", "0.6", "--max", 300, "--db", db), 2)
    assert "0.6 (max 300) is not done, and the database cannot be written" in err, err
    assert "delete" not in err
    assert {path: path.read_bytes() for path in (db, census)} == before


def test_a_wal_file_that_holds_rows_on_a_read_only_disk_says_what_to_do(tmp_path):
    """A database whose last rows are still in its -wal file (copied while a survey had it
    open) and no -shm file: SQLite cannot read them without making one, and reading the
    file alone (immutable) would hide them: refused, status 1, one line saying where to
    read it, never "delete"."""
    made = tmp_path / "s.sqlite"
    ok(run_kayles("survey", *CODES, "--max", 300, "--jobs", 1, "--db", made))
    folder = tmp_path / "ro"
    folder.mkdir()
    with sqlite3.connect(made) as writer:  # open: the -wal file holds what it writes
        writer.execute("UPDATE games SET updated = updated + 1")
        writer.commit()
        for end in ("", "-wal"):
            shutil.copyfile(f"{made}{end}", folder / f"s.sqlite{end}")
    assert os.path.getsize(folder / "s.sqlite-wal") > 0
    err = one_line(read_only(folder, "survey", *CODES, "--max", 300, "--db",
                             folder / "s.sqlite"), 1)
    assert "its last changes are in its -wal file" in err and "delete" not in err, err


def test_an_immutable_read_stops_when_the_file_changes(tmp_path, monkeypatch):
    """Read as immutable (no folder to write the -shm in), a database that another program
    checkpoints meanwhile: the read ends with "changed while it was read", not with rows
    from a torn page nor with "damaged"."""
    from kayles.storage import database
    from kayles.storage.store import Store

    db = tmp_path / "s.sqlite"
    ok(run_kayles("survey", *CODES, "--max", 300, "--jobs", 1, "--db", db))
    monkeypatch.setattr(database, "_writable", lambda path: False)
    monkeypatch.setattr(database, "_folder_writable", lambda path: False)
    with Store(db) as store:
        assert store.read_only and store._db.immutable
        assert sorted(store.summaries(CODES, 300)) == sorted(CODES)
        with sqlite3.connect(db) as writer:
            writer.execute("UPDATE games SET updated = updated + 1")
            writer.commit()
            writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # into the file itself
        with pytest.raises(OSError, match="changed while it was read"):
            store.summaries(CODES, 300)


def kayles(*args):
    """``kayles ARGS`` in this process: (status, stderr)."""
    result = in_process("kayles", [str(arg) for arg in args])
    return result.returncode, result.stderr.decode()


@pytest.mark.parametrize("stored", [False, True])
def test_files_that_are_no_survey_database_are_named_as_what_they_are(tmp_path, stored):
    """A text file, a file of the kernel's, a device, a directory, an empty file read only,
    a damaged database: each one line saying what it is, status 2; none says "delete" (the
    issue's /etc/passwd was to be "moved away, or deleted")."""
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n")
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    damaged = tmp_path / "damaged.sqlite"
    ok(run_kayles("survey", *(f"0.{d}" for d in range(10, 78) if "8" not in str(d)
                              and "9" not in str(d)), "--max", 2000, "--jobs", 1, "--db",
                  damaged))
    with open(damaged, "r+b") as handle:  # a page in the middle: its b-tree header
        handle.seek(damaged.stat().st_size // 4096 // 2 * 4096)
        handle.write(bytes(range(256)) * 8)
    said = {
        text: "not a survey database: not an SQLite file",
        "/proc/self/status": "a file of the kernel's (under /proc), made as it is read",
        "/proc/version": "a file of the kernel's (under /proc), made as it is read",
        "/dev/null": "a character device, not a regular file",
        "/dev/zero": "a character device, not a regular file",
        tmp_path: "is a directory, not a file",
        damaged: "not a usable survey database: SQLite finds it damaged",
    }
    if stored:
        said[empty] = "no survey in it yet (an empty database)"
    command = ("census", "--stored", "--db") if stored else ("survey", "0.77", "--max", 100,
                                                             "--db")
    for path, words in said.items():
        status, err = kayles(*command, path)
        assert status == 2 and err.count("\n") == 1 and f": {path}: {words}" in err, err
        assert "delete" not in err, err
