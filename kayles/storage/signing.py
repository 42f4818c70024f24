"""Signatures on what kayles writes, so that what it reads back is what it wrote.

As Jupyter signs the notebooks it trusts (``NotebookNotary``): every table file,
checkpoint, proof cache file and database row kayles writes carries an
HMAC-SHA256 of everything a reader believes in it, keyed by a secret of this user.

* The key: 32 random bytes (``os.urandom``) in ``$XDG_DATA_HOME/kayles/secret``
  (an absolute XDG_DATA_HOME; else ``~/.local/share/kayles/secret``), made the first
  time something is signed: written to a temporary file of mode 0600 in a folder of
  mode 0700, then linked to its name, which fails if another process made it first
  (O_EXCL's guarantee, with the key whole when it appears); that one is then read.
  A key file that is not a regular file of this user, that others may read or write,
  or that is not 32 bytes is refused (``SetupError``: one line naming it), never
  replaced.
* Signing: ``Signer(key)`` takes the bytes in order (``update``: a big file costs
  one pass) and gives the 32-byte digest; ``sign`` and ``verify`` do it for one
  message.  Comparison is in constant time.

What it promises: data edited by hand or by a tool, copied from another user or
machine, or written by an older kayles (unsigned) fails ``verify``; the storage
modules then derive it again, or refuse it with the command that does.  Its limit:
anyone who can read the key (this user's account, root, a backup of the home
folder) can sign anything.  Deleting the key makes everything signed before
unsigned (derived again, or refused).

The digest is HMAC-SHA256 (RFC 2104) written out over a SHA-256 constructor: the
built-in ``_sha256`` for short messages (a proof cache read at Kayles-xox's start:
0.4 ms to import, where OpenSSL's hashlib takes 3 ms), hashlib's for long ones or
once it is imported (some seven times faster: 1.6 GB/s with SHA-NI).  Both give the
same digest.
"""

from __future__ import annotations

import sys

from .._environ import getenv
from .._environ import system as _system
from ..errors import SetupError, path_text

__all__ = ["KEY_BYTES", "SIZE", "Signer", "another_key", "key", "key_path", "sign", "verify"]

KEY_BYTES = 32  # the secret's length: SHA-256's output
SIZE = 32  # bytes of a digest (64 hex digits)
BLOCK = 64  # SHA-256's block: the HMAC key is padded to it
LIGHT_BELOW = 1 << 19  # bytes: shorter messages are hashed by the built-in module (there
                       # its 7x slower hashing costs less than OpenSSL's 3 ms import)
REGULAR = 0o100000  # S_IFREG
SEP = "/" if _system.__name__ == "posix" else "\\"
_INNER = bytes(x ^ 0x36 for x in range(256))  # RFC 2104's ipad and opad, as tables
_OUTER = bytes(x ^ 0x5C for x in range(256))
_keys: dict[str, bytes] = {}  # the key read, by its path
_made: set[str] = set()  # the paths of the keys this process made


def _sha256(light: bool):
    if light and "_hashlib" not in sys.modules:  # hashlib's when it is already there
        for name in ("_sha256", "_sha2"):  # built in (3.12 renamed it)
            module = sys.modules.get(name)
            if module is None:
                try:
                    module = __import__(name)
                except ImportError:
                    continue
            return module.sha256
    from hashlib import sha256

    return sha256


class Signer:
    """HMAC-SHA256 of the bytes given to ``update``, keyed by ``key`` (see the module header);
    ``light``: the message will be short (the built-in SHA-256)."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes, data: bytes = b"", light: bool = False) -> None:
        new = _sha256(light)
        padded = key.ljust(BLOCK, b"\0")  # a key longer than a block is never given
        self._inner = new(padded.translate(_INNER))
        self._outer = new(padded.translate(_OUTER))
        if data:
            self._inner.update(data)

    def update(self, data) -> None:
        self._inner.update(data)

    def copy(self) -> Signer:
        twin = Signer.__new__(Signer)
        twin._inner, twin._outer = self._inner.copy(), self._outer.copy()
        return twin

    def digest(self) -> bytes:
        """The signature of the bytes so far (more may follow: the state is kept)."""
        outer = self._outer.copy()
        outer.update(self._inner.digest())
        return outer.digest()

    def hexdigest(self) -> str:
        return self.digest().hex()

    def matches(self, signature) -> bool:
        """Whether ``signature`` (the digest's bytes, or its hex text) is this one's."""
        from _operator import _compare_digest

        if isinstance(signature, str):
            if not (len(signature) == 2 * SIZE and signature.isascii()):
                return False
            signature = signature.encode()
            return _compare_digest(signature, self.hexdigest().encode())
        if not isinstance(signature, (bytes, bytearray, memoryview)):
            return False
        return _compare_digest(bytes(signature), self.digest())


def _home() -> tuple[str, str, str] | None:
    """(the variable the key's folder comes from, its value, the data home), or None."""
    base = getenv("XDG_DATA_HOME")
    if base.startswith(SEP):
        return "XDG_DATA_HOME", base, base
    home = getenv("HOME")
    if not home.startswith(SEP):
        return None
    return "HOME", home, f"{home.rstrip(SEP)}{SEP}.local{SEP}share"


def key_path() -> str | None:
    """Where the key is (module header), or None when there is no absolute folder for it."""
    found = _home()
    return None if found is None else f"{found[2].rstrip(SEP)}{SEP}kayles{SEP}secret"


def another_key() -> str:
    """What a refusal of data whose signature fails says of the key: kayles's files move
    between homes and machines with the key that signed them (and, when this process made
    this user's key, that there was none before)."""
    where = key_path()
    if where is None:
        return "what another home's key signed is kept by copying its kayles/secret file"
    new = ""
    if where in _made:
        new = f"this home had no signing key until now ({path_text(where)} was made); "
    elif _read_quietly(where) is None:
        new = f"this home has no signing key yet ({path_text(where)}); "
    return (f"{new}what another home or machine signed is kept by copying the kayles/secret "
            f"file of its data home over {path_text(where)}")


def key(create: bool = True) -> bytes | None:
    """This user's key: read (once a process), or made when there is none and ``create``
    (None when there is none and not ``create``).  SetupError, naming the file, when it
    cannot be made or read, or is not one to trust (module header)."""
    path = key_path()
    if path is None:
        if not create:
            return None
        raise SetupError("no folder for kayles's signing key (neither XDG_DATA_HOME nor HOME "
                         "is an absolute path): set XDG_DATA_HOME")
    found = _keys.get(path)
    if found is None:
        found = _read(path)
        if found is None:
            if not create:
                return None
            found = _make(path)
        _keys[path] = found
    return found


def _read_quietly(path: str) -> bytes | None:
    """The key at ``path``, None when there is none or it is refused."""
    try:
        return _read(path)
    except SetupError:
        return None


NEW_KEY = ("move it away to have a new one made (what the old key signed is then derived "
           "again, or put the old file back to keep it)")


def _refused(path: str, why: str, fix: str = NEW_KEY) -> SetupError:
    """The key at ``path`` refused, and how to mend it: never by deleting what could be read
    (the work it signed would be lost for good)."""
    return SetupError(f"{path_text(path)}: {why}; kayles's signing key is refused: {fix}")


def _blocked(path: str) -> SetupError | None:
    """The error of a key whose folder cannot be, because a part of its path is no folder
    (a variable naming a file is blamed: ``_files.blocked_folder``), or None."""
    from ._files import blocked_folder

    variable, value, _ = _home() or ("HOME", "", "")
    why, blamed = blocked_folder(path.rpartition(SEP)[0], variable, value)
    if not why:
        return None
    where = "$XDG_DATA_HOME" if variable == "XDG_DATA_HOME" else "$HOME/.local/share"
    fix = ("move it away" if not blamed else "set XDG_DATA_HOME to a folder, or unset it"
           if variable == "XDG_DATA_HOME" else "set HOME, or XDG_DATA_HOME, to a folder")
    return SetupError(f"{why} (kayles keeps its signing key in {where}/kayles/secret): {fix}")


def _read(path: str) -> bytes | None:
    """The key at ``path``, None when there is no file there."""
    flags = _system.O_RDONLY | getattr(_system, "O_NOFOLLOW", 0) | getattr(
        _system, "O_NONBLOCK", 0)
    try:
        fd = _system.open(path, flags)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise _blocked(path) or _refused(path, "a part of its path is not a folder") from None
    except OSError as exc:
        raise _refused(path, exc.strerror or str(exc)) from None
    try:
        info = _system.fstat(fd)
        if info.st_mode & 0o170000 != REGULAR:
            raise _refused(path, "not a regular file")
        if hasattr(_system, "geteuid") and info.st_uid != _system.geteuid():
            raise _refused(path, "another user's file", "if it is your key, copy it into a "
                           "file of your own with mode 600; else " + NEW_KEY)
        if info.st_mode & 0o077:
            raise _refused(path, f"others may read or write it (mode {info.st_mode & 0o777:o}, "
                           "not 600)", "where nobody else can have changed it, chmod 600 it; "
                           "else " + NEW_KEY)
        data = _system.read(fd, KEY_BYTES + 1)
    finally:
        _system.close(fd)
    if len(data) != KEY_BYTES:
        raise _refused(path, f"{len(data)} bytes, not {KEY_BYTES}")
    return data


def _make(path: str) -> bytes:
    """A new key at ``path``; the one another process made first, if it did."""
    import os

    folder = os.path.dirname(path)
    temporary = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(os.urandom(KEY_BYTES))
                handle.flush()
                os.fsync(handle.fileno())
            try:
                os.link(temporary, path)  # fails if it exists: the first key made stays
                _made.add(path)
            except FileExistsError:
                pass
        finally:
            try:
                os.remove(temporary)
            except OSError:
                pass
    except OSError as exc:
        blocked = _blocked(path) if isinstance(exc, (NotADirectoryError, FileExistsError)) \
            else None
        if blocked is not None:
            raise blocked from None
        raise SetupError(f"{path_text(path)}: cannot make kayles's signing key: "
                         f"{exc.strerror or exc}; set XDG_DATA_HOME to a folder you may "
                         "write") from None
    found = _read(path)
    if found is None:
        raise SetupError(f"{path_text(path)}: kayles's signing key vanished as it was made")
    return found


def sign(data: bytes) -> str:
    """The signature of ``data`` as 64 hex digits (the key made if there is none)."""
    return Signer(key(), data, light=len(data) < LIGHT_BELOW).hexdigest()


def verify(data: bytes, signature) -> bool:
    """Whether ``signature`` (hex text or bytes) is this user's of ``data``; False when
    there is no key yet (nothing was signed with it)."""
    secret = key(create=False)
    if secret is None or signature is None:
        return False
    return Signer(secret, data, light=len(data) < LIGHT_BELOW).matches(signature)
