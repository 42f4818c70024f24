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

from conftest import ROOT, assert_usage_error

TIMEOUT = 300


def kayles(*args, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kayles", *map(str, args)],
                          capture_output=True, cwd=ROOT, timeout=TIMEOUT,
                          env=None if env is None else {**os.environ, **env})


def ok(result: subprocess.CompletedProcess) -> str:
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    return result.stdout.decode()


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
    with pytest.raises(SetupError, match="others may read or write it"):
        signing.key()
    path.chmod(0o600)
    path.write_bytes(secret[:16])
    signing._keys.clear()
    with pytest.raises(SetupError, match="16 bytes, not 32"):
        signing.key()
    assert path.read_bytes() == secret[:16]


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
    ok(kayles("grundy", 999999, "--game", "0.6", "--save", path, "--checksum"))
    good = path.read_bytes()
    (first,) = [(values_at, start) for _, start, count, values_at in chunks(good)
                if start <= 500000 < start + count]
    assert struct.unpack_from("<H", good, first[0] + 2 * (500000 - first[1]))[0] == 141
    forged = with_value(good, 500000, 140)
    path.write_bytes(forged)
    for _ in range(3):  # on every try, not once in 16,000
        result = kayles("grundy", 1000009, "--game", "0.6", "--resume", path)
        assert_usage_error(result)
        assert b"not a table kayles wrote for this user" in result.stderr
        assert b"--save FILE --force in place of --resume FILE starts it afresh" in result.stderr
    assert path.read_bytes() == forged
    restarted = kayles("grundy", 1000, "--game", "0.6", "--save", path, "--force", "--checksum")
    assert ok(restarted) == ok(kayles("grundy", 1000, "--game", "0.6", "--checksum"))


@pytest.mark.parametrize("how", ["older", "another key", "key deleted"])
def test_a_table_not_signed_with_this_key_is_not_resumed(tmp_path, how):
    """A table of an older kayles (format 1, no signature), one copied from another user
    (signed with another key), one signed with a key since deleted: refused as a whole,
    whatever its values."""
    path = tmp_path / "t.kt"
    other = {"XDG_DATA_HOME": str(tmp_path / "other")}
    if how == "another key":
        ok(kayles("grundy", 3000, "--game", "0.77", "--save", path, "--chunk", 500, env=other))
    else:
        ok(kayles("grundy", 3000, "--game", "0.77", "--save", path, "--chunk", 500))
        if how == "older":
            path.write_bytes(unsigned(path.read_bytes()))
    env = other if how == "key deleted" else None
    if env is not None:  # a key made anew where the one that signed it was
        ok(kayles("grundy", 5, "--game", "0.77", "--save", tmp_path / "x.kt", env=env))
    result = kayles("grundy", 3100, "--game", "0.77", "--resume", path, env=env)
    assert_usage_error(result)
    said = result.stderr.decode()
    assert "not a table kayles wrote for this user" in said and "starts it afresh" in said
    assert ("format 1, written by an older kayles" in said) == (how == "older")
