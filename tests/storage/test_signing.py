"""Signed data (kayles.storage.signing): what kayles writes carries an HMAC-SHA256 with a
secret of this user, and what fails it is derived again or refused, never shown.

The key is conftest's: XDG_DATA_HOME points every test and subprocess at a folder of
the session; a test that needs another user's key points it elsewhere.  Each forgery
of issue 53 is here, made as the issue made it: a saved table's value edited with its
chunk CRC made again, a survey row rewritten with its Fletcher-32 made again.
"""

from __future__ import annotations

import hmac
import os
import struct
import subprocess
import sys
import zlib

import pytest

from kayles.errors import SetupError
from kayles.storage import signing

from conftest import ROOT, assert_usage_error, ok, run_kayles

TIMEOUT = 300



# -- the key and the signature ----------------------------------------------------------------


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    """A fresh XDG_DATA_HOME (no key yet) for this test, in process."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.mark.parametrize("light", [True, False])
def test_the_signature_is_hmac_sha256(light):
    for size in (0, 1, 55, 64, 65, 1000):
        key, data = os.urandom(32), os.urandom(size)
        signer = signing.Signer(key, data[:size // 2], light=light)
        signer.update(data[size // 2:])
        assert signer.hexdigest() == hmac.new(key, data, "sha256").hexdigest()
        assert signer.matches(hmac.new(key, data, "sha256").digest())
        assert not signer.matches(hmac.new(key, data + b"x", "sha256").hexdigest())
        assert not signer.matches(None) and not signer.matches("zz" * 32)


def test_the_key_is_made_once_private_and_kept(data_home):
    path = data_home / "kayles" / "secret"
    assert signing.key_path() == str(path)
    assert signing.key(create=False) is None and not path.exists()
    assert not signing.verify(b"data", "00" * 32)  # no key: nothing verifies
    signature = signing.sign(b"data")
    assert path.stat().st_mode & 0o777 == 0o600 and path.stat().st_size == 32
    assert (data_home / "kayles").stat().st_mode & 0o777 == 0o700
    assert os.listdir(data_home / "kayles") == ["secret"]  # no temporary left
    assert signing.verify(b"data", signature) and not signing.verify(b"date", signature)
    assert signing.sign(b"data") == signature  # the same key, read again


def test_processes_made_at_once_share_one_key(data_home):
    """Eight processes asking for a key where there is none: one is made (O_EXCL), all
    eight sign with it."""
    code = "from kayles.storage import signing; print(signing.sign(b'x'))"
    env = {**os.environ, "XDG_DATA_HOME": str(data_home)}
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              env=env, cwd=ROOT) for _ in range(8)]
    outs = {proc.communicate(timeout=TIMEOUT)[0] for proc in procs}
    assert len(outs) == 1 and all(proc.returncode == 0 for proc in procs)
    assert signing.verify(b"x", outs.pop().decode().strip())
    assert os.listdir(data_home / "kayles") == ["secret"]


def test_a_key_not_to_trust_is_refused_not_replaced(data_home):
    signing.sign(b"x")
    path = data_home / "kayles" / "secret"
    secret = path.read_bytes()
    signing._keys.clear()  # read anew, as another process would
    path.chmod(0o644)
    with pytest.raises(SetupError, match="others may read or write it") as refused:
        signing.key()
    assert "chmod 600" in str(refused.value)  # the mend for a key that is still good
    path.chmod(0o600)
    path.write_bytes(secret[:16])
    signing._keys.clear()
    with pytest.raises(SetupError, match="16 bytes, not 32") as refused:
        signing.key()
    assert path.read_bytes() == secret[:16]
    # a key that could be read is never to be deleted: what it signed would be lost
    assert "delete" not in str(refused.value) and "move it away" in str(refused.value)


def test_no_folder_for_the_key_is_one_line(monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", "relative")
    monkeypatch.delenv("HOME", raising=False)
    assert signing.key_path() is None and signing.key(create=False) is None
    with pytest.raises(SetupError, match="set XDG_DATA_HOME"):
        signing.sign(b"x")


# -- saved tables ---------------------------------------------------------------------------


def chunks(data: bytes):
    """(offset, first index, count, offset of its values) of each chunk of a table file."""
    (size,) = struct.unpack_from("<I", data, 12)
    at = 16 + size + 4 + 32
    while at < len(data):
        _, start, count = struct.unpack_from("<4sQI", data, at)
        yield at, start, count, at + 24
        at += 24 + 2 * count + 32


def with_value(data: bytes, index: int, value: int) -> bytes:
    """The file with G(index) = value and its chunk's values CRC made again (the issue's
    forgery: every checksum agrees)."""
    copy = bytearray(data)
    for at, start, count, values_at in chunks(data):
        if start <= index < start + count:
            struct.pack_into("<H", copy, values_at + 2 * (index - start), value)
            crc = zlib.crc32(copy[values_at:values_at + 2 * count])
            struct.pack_into("<I", copy, at + 20, crc)
            return bytes(copy)
    raise AssertionError(index)


def unsigned(data: bytes) -> bytes:
    """The same table as an older kayles wrote it: format 1, no signatures."""
    (size,) = struct.unpack_from("<I", data, 12)
    head = bytearray(data[:16 + size])
    struct.pack_into("<H", head, 8, 1)
    out = bytes(head) + struct.pack("<I", zlib.crc32(head))
    for _, _, count, values_at in chunks(data):
        out += data[values_at - 24:values_at + 2 * count]
    return out


def test_a_value_edited_in_the_middle_is_refused_by_resume(tmp_path):
    """Issue 53, item 2: G(500000) of 0.6 changed from 141, its chunk's CRC made again.
    The sampled check of the values (64 heaps of a million) would miss it; the signature
    does not: one line naming how to start afresh, status 2, the file left as it was."""
    path = tmp_path / "t.kt"
    ok(run_kayles("grundy", 999999, "--game", "0.6", "--save", path, "--checksum"))
    good = path.read_bytes()
    (first,) = [(values_at, start) for _, start, count, values_at in chunks(good)
                if start <= 500000 < start + count]
    assert struct.unpack_from("<H", good, first[0] + 2 * (500000 - first[1]))[0] == 141
    forged = with_value(good, 500000, 140)
    path.write_bytes(forged)
    for _ in range(3):  # on every try, not once in 16,000
        result = run_kayles("grundy", 1000009, "--game", "0.6", "--resume", path)
        assert_usage_error(result)
        assert b"not a table kayles wrote for this user" in result.stderr
        assert b"--save FILE --force in place of --resume FILE starts it afresh" in result.stderr
    assert path.read_bytes() == forged
    restarted = run_kayles("grundy", 1000, "--game", "0.6", "--save", path, "--force", "--checksum")
    assert ok(restarted) == ok(run_kayles("grundy", 1000, "--game", "0.6", "--checksum"))


@pytest.mark.parametrize("how", ["older", "another key", "key deleted"])
def test_a_table_not_signed_with_this_key_is_not_resumed(tmp_path, how):
    """A table of an older kayles (format 1, no signature), one copied from another user
    (signed with another key), one signed with a key since deleted: refused as a whole,
    whatever its values."""
    path = tmp_path / "t.kt"
    other = {"XDG_DATA_HOME": str(tmp_path / "other")}
    if how == "another key":
        ok(run_kayles("grundy", 3000, "--game", "0.77", "--save", path, "--chunk", 500, env=other))
    else:
        ok(run_kayles("grundy", 3000, "--game", "0.77", "--save", path, "--chunk", 500))
        if how == "older":
            path.write_bytes(unsigned(path.read_bytes()))
    env = other if how == "key deleted" else None
    if env is not None:  # a key made anew where the one that signed it was
        ok(run_kayles("grundy", 5, "--game", "0.77", "--save", tmp_path / "x.kt", env=env))
    result = run_kayles("grundy", 3100, "--game", "0.77", "--resume", path, env=env)
    assert_usage_error(result)
    said = result.stderr.decode()
    assert "not a table kayles wrote for this user" in said and "starts it afresh" in said
    assert ("format 1, written by an older kayles" in said) == (how == "older")
    assert ("copying the kayles/secret file of its data home over" in said) == (how != "older")


# -- survey rows -----------------------------------------------------------------------------


def survey(db, *codes, env: dict | None = None) -> str:
    return ok(run_kayles("survey", *codes, "--max", 1000, "--jobs", 1, "--db", db, env=env))


def recomputed(db, rows: int) -> str:
    """The notice of a survey that computes again ``rows`` rows not signed with this user's
    key (conftest's)."""
    key = f"{os.environ['XDG_DATA_HOME']}/kayles/secret"
    return (f"kayles survey: {db}: {rows} survey row{'s' if rows > 1 else ''} not signed with "
            f"this user's key {'are' if rows > 1 else 'is'} computed again (signed with "
            f"another key, or edited); what another home or machine signed is kept by "
            f"copying the kayles/secret file of its data home over {key}\n")


def test_a_new_home_says_which_rows_it_computes_again_and_how_to_keep_them(tmp_path):
    """A survey database taken to a new home (a new key): the rows that cost their full
    computation (not proved) are computed again, and one stderr line says so, and that
    copying the old home's kayles/secret keeps them -- which it does: with the old key
    copied over the new one, nothing is computed again and nothing is said."""
    import shutil
    import sqlite3

    old, new = tmp_path / "old", tmp_path / "new"
    db, kept = tmp_path / "s.sqlite", tmp_path / "kept.sqlite"
    codes = ("0.77", "0.6")  # 0.6 is not proved within 1,000 values
    fresh = survey(db, *codes, env={"XDG_DATA_HOME": str(old)})
    shutil.copyfile(db, kept)
    moved = run_kayles("survey", *codes, "--max", 1000, "--jobs", 1, "--db", db,
                       env={"XDG_DATA_HOME": str(new)})
    key = new / "kayles" / "secret"
    assert (moved.returncode, moved.stdout.decode()) == (0, fresh)
    said = moved.stderr.decode()
    assert said.count("\n") == 1 and said.endswith(f"over {key}\n"), said
    assert f"{db}: 1 survey row not signed with this user's key is computed again" in said
    assert f"this home had no signing key until now ({key} was made)" in said  # to sign 0.77's anew
    with sqlite3.connect(kept) as connection:
        before = dict(connection.execute("SELECT code, updated FROM games"))
    shutil.copyfile(old / "kayles" / "secret", key)
    assert survey(kept, *codes, env={"XDG_DATA_HOME": str(new)}) == fresh  # nothing said
    with sqlite3.connect(kept) as connection:
        assert dict(connection.execute("SELECT code, updated FROM games")) == before


def forge(db, code: str, head: list[int], **fields) -> None:
    """Rewrite a survey row as the issue did: new fields, its head zlib of ``head``, its
    Fletcher-32 made again over the values the row then claims (fletcher32_of_pieces)."""
    import sqlite3
    from array import array

    from kayles.engine.checksum import fletcher32_of_pieces

    with sqlite3.connect(db) as connection:
        n0, p, count = connection.execute(
            "SELECT preperiod, period, values_used FROM games WHERE code = ?", (code,)).fetchone()
        n0, p = fields.get("preperiod", n0), fields.get("period", p)
        rest, tail = divmod(count - (n0 + p), p)
        values = array("H", head)
        checksum = fletcher32_of_pieces([(values, 1), (values[n0:], rest),
                                         (values[n0:n0 + tail], 1)])
        sets = ", ".join(f"{name} = ?" for name in fields)
        connection.execute(f"UPDATE games SET head = ?, checksum = ?{', ' if sets else ''}{sets} "
                           "WHERE code = ?", (zlib.compress(values.tobytes()), checksum,
                                              *fields.values(), code))


def head_of(db, code: str) -> list[int]:
    import sqlite3
    from array import array

    with sqlite3.connect(db) as connection:
        (blob,) = connection.execute("SELECT head FROM games WHERE code = ?", (code,)).fetchone()
    return array("H", zlib.decompress(blob)).tolist()


def served(db) -> dict:
    """What the web page's /api/survey shows of ``db`` (read only)."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from kayles.interface.web.app import create_app
    from kayles.interface.web.service import Service

    with TestClient(create_app(Service(str(db)))) as client:
        response = client.get("/api/survey", params={"computed": "1000"})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("forgery", ["0.77 period 1", "G(80) of 0.137"])
def test_a_forged_survey_row_is_never_shown(tmp_path, forgery):
    """Issue 53, item 1: 0.77's row rewritten as "proved, preperiod 0, period 1", its head
    zlib([0]) and its Fletcher-32 made again; or G(80) of 0.137 (past the 64 values a read
    derives again) edited the same way.  The web page (read only) leaves the row out;
    `kayles survey` derives it again and prints the true row (saying, in one line, that it
    computes a row not signed with this user's key again); the file then holds it, signed."""
    db = tmp_path / "s.sqlite"
    true = survey(db, "0.77", "0.137")
    shown = served(db)
    assert [row["code"] for row in shown["rows"]] == ["0.137", "0.77"]
    if forgery == "0.77 period 1":
        forge(db, "0.77", [0], preperiod=0, period=1)
        code = "0.77"
    else:
        head = head_of(db, "0.137")
        head[80] ^= 1
        forge(db, "0.137", head)
        code = "0.137"
    rows = served(db)["rows"]
    assert [row["code"] for row in rows] == [c for c in ("0.137", "0.77") if c != code]
    assert all(row in shown["rows"] for row in rows)
    again = run_kayles("survey", "0.77", "0.137", "--max", 1000, "--jobs", 1, "--db", db)
    assert (again.returncode, again.stdout.decode()) == (0, true)  # computed again,
    assert again.stderr.decode() == recomputed(db, 1)                # and said to be
    assert served(db) == shown
    assert " yes       0       1 " not in true


def test_an_older_or_another_users_database_is_derived_again(tmp_path):
    """Rows without a signature (an older kayles), or signed with another user's key: a
    proved row is derived again to its proof's bound and signed anew (its time of writing
    kept: not computed again); a row not proved (computed to its max) is computed again.
    Either way what is printed is what a fresh survey prints."""
    import sqlite3

    other = {"XDG_DATA_HOME": str(tmp_path / "other")}
    codes = ("0.77", "0.6", "0.07")  # 0.6 is not proved within 1,000 values
    fresh = survey(tmp_path / "fresh.sqlite", *codes)
    for how in ("older", "another key"):
        db = tmp_path / f"{how}.sqlite"
        survey(db, *codes, env=other if how == "another key" else None)
        with sqlite3.connect(db) as connection:
            if how == "older":
                connection.execute("UPDATE games SET signature = NULL")
            before = dict(connection.execute("SELECT code, updated FROM games"))
        again = run_kayles("survey", *codes, "--max", 1000, "--jobs", 1, "--db", db)
        assert (again.returncode, again.stdout.decode()) == (0, fresh)
        assert again.stderr.decode() == recomputed(db, 1)  # 0.6's row: said, once
        with sqlite3.connect(db) as connection:
            after = dict(connection.execute("SELECT code, updated FROM games"))
            signatures = [row[0] for row in connection.execute("SELECT signature FROM games")]
        assert after["0.6"] > before["0.6"]  # computed again
        assert after["0.77"] >= before["0.77"] and after["0.07"] >= before["0.07"]
        assert all(isinstance(s, str) and len(s) == 64 for s in signatures)
        assert survey(db, *codes) == fresh


def test_a_database_of_schema_4_gains_its_signatures(tmp_path):
    """A file written before signatures (schema 4: no signature columns) is read as it
    stands where it cannot be written, and gains the columns where it can."""
    import sqlite3

    db = tmp_path / "s.sqlite"
    fresh = survey(db, "0.77", "0.07")
    with sqlite3.connect(db) as connection:
        for table in ("games", "records", "quotients"):
            connection.execute(f"ALTER TABLE {table} DROP COLUMN signature")
        connection.execute("PRAGMA user_version = 4")
    assert [row["code"] for row in served(db)["rows"]] == ["0.07", "0.77"]  # derived again
    assert survey(db, "0.77", "0.07") == fresh
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA user_version").fetchone() == (5,)
        assert all(len(s) == 64 for (s,) in connection.execute("SELECT signature FROM games"))


# -- checkpoints of long runs ----------------------------------------------------------------


def checkpoint_parts(data: bytes) -> tuple[bytes, bytes]:
    """(header line, values) of a checkpoint file (kayles.storage.checkpoint's layout)."""
    from kayles.storage.checkpoint import MAGIC

    line_end = data.index(b"\n", len(MAGIC)) + 1
    signature = len(b"signature \n") + 64
    return data[len(MAGIC):line_end], data[line_end + signature:-15 - signature]


@pytest.mark.parametrize("how", ["value edited", "older", "another key", "header edited"])
def test_a_checkpoint_not_signed_with_this_key_is_refused(tmp_path, how):
    """A checkpoint whose value was edited with its CRC made again, one an older kayles
    wrote (version 1, no signature), one copied from another user, one whose header was
    edited: refused, one line, none of it used, the file left as it was."""
    from kayles.storage.checkpoint import MAGIC

    folder, db = tmp_path / "run", tmp_path / "db"
    env = {"XDG_DATA_HOME": str(tmp_path / "other")} if how == "another key" else None
    ok(run_kayles("run", ".167", "--to", 4096, "--window", 2048, "--dir", folder, "--db", db,
              env=env))
    path = folder / "kayles-run.checkpoint"
    good = path.read_bytes()
    head, values = checkpoint_parts(good)
    signature = len(b"signature \n") + 64
    if how == "value edited":  # the header's signature kept, the CRC made again
        body = bytearray(good[:-15 - signature])
        body[-100] ^= 1
        path.write_bytes(bytes(body) + f"crc32 {zlib.crc32(body):08x}\n".encode()
                         + good[-signature:])
    elif how == "header edited":
        top = MAGIC + head.replace(b'"seconds":', b'"seconds":1', 1)
        body = top + good[len(MAGIC) + len(head):-15 - signature]
        path.write_bytes(body + f"crc32 {zlib.crc32(body):08x}\n".encode() + good[-signature:])
    elif how == "older":
        body = b"kayles run checkpoint 1\n" + head + values
        path.write_bytes(body + f"crc32 {zlib.crc32(body):08x}\n".encode())
    data = path.read_bytes()
    result = run_kayles("run", ".167", "--to", 8192, "--dir", folder, "--db", db)
    assert_usage_error(result)
    said = result.stderr.decode()
    assert "not a checkpoint kayles can use" in said and "start the run again" in said, said
    assert ("older kayles" in said) == (how == "older")
    assert ("signature does not match" in said) == (how != "older")
    key = f"{os.environ['XDG_DATA_HOME']}/kayles/secret"  # where its header's check fails:
    assert (f"copying the kayles/secret file of its data home over {key}" in said) == (
        how in ("another key", "header edited"))  # what a key carried from another home keeps
    assert path.read_bytes() == data


def test_a_value_edited_in_the_middle_of_a_kept_table_is_refused(tmp_path):
    """--keep-table: the checkpoint holds the prefix and the recent values, not the middle
    of the table file; a value edited there is found by the table's signatures (checked
    in one pass when the run resumes): refused, one line, the files left as they were."""
    folder, db = tmp_path / "run", tmp_path / "db"
    common = ["--window", 2048, "--keep-table", "--dir", folder, "--db", db]
    ok(run_kayles("run", ".167", "--to", 1 << 15, *common))
    table = folder / "kayles-run.table"
    data = bytearray(table.read_bytes())
    data[2 * 20000] ^= 1
    table.write_bytes(bytes(data))
    result = run_kayles("run", ".167", "--to", 1 << 16, "--dir", folder, "--db", db)
    assert_usage_error(result)
    assert b"kayles-run.table: its signature does not match" in result.stderr, result.stderr
    assert table.read_bytes() == data
    data[2 * 20000] ^= 1
    table.write_bytes(bytes(data))
    ok(run_kayles("run", ".167", "--to", 1 << 16, "--dir", folder, "--db", db))
