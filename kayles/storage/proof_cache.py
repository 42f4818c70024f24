"""A cache of proved periods, so Kayles-xox does not prove its period on every run.

The cache lives in ``$XDG_CACHE_HOME/kayles/`` (when that is an absolute path) or
``~/.cache/kayles/``; one file per game and core, ``<game>.<core>.proof``.  Its
content is computed by this program and nothing else: the first ``values``
nimbers of the game (exactly the table that proved the period) and the period.
``shared(name)`` is the process's one sequence of a named game, read from here.

How stale values are kept out:

* the key, stored in the file and compared in full, names the package version,
  the cache format, the game's moves (``rules.describe_moves``), and the path,
  size and modification time of the kernel module that computed the table
  (``_core*.so`` or ``pure/_core.py``, as ``kayles.kernels.chooser.choice`` names it
  without importing it) and of ``sequence.py`` and ``rules.py``.  A table is
  stored only when the kernel that computed it is that very file, so
  KAYLES_PURE=1 and the compiled core never read each other's files, and a
  rebuilt kernel or edited rules simply miss;
* a CRC-32 (zlib's) of the whole file, then its signature (``kayles.storage.signing``:
  HMAC-SHA256 with this user's secret) are checked on load, and the period's
  certificate is checked again on the loaded table (``Sequence.from_proof``);
* the first SPOT_CHECKED values are derived again from the rules on every load;
* writes go to a temporary file in the same directory, renamed over the old
  one (``kayles.storage._files.write_atomically``), so two processes writing at once
  leave one whole file, and temporaries of killed writers are removed.

What the cache trusts: its own directory and the user's key.  A file that another
user owns, or that others may write to, is ignored; damage is caught by the CRC, a
file not signed with this user's key (edited with its CRC made again, copied from
another user or machine, written by an older kayles) by the signature, a table that
does not prove its period by the certificate, an edit of a small heap's value by
the derivation.  An ignored file is derived again (the proof found anew) and
rewritten.  A forgery by someone who can read the key (this user's account) is
not caught.

Any failure (no home, a read-only or full disk, a damaged or foreign file, a
file that is not a regular one) is silent: the run computes as if there were no
cache, and rewrites a bad file.

Memory: the header is read first, and a file that cannot serve the request
(another key, or a proof longer than the run may use) is left unread; the
values are read straight into the table the sequence keeps, so a load costs
the table and nothing more.  A store writes the table as it stands.

Loading runs at every start of Kayles-xox, whose whole budget is a few
milliseconds, so it does not import ``os`` (0.8 ms, a sixth of the interpreter's
own start-up): files are opened and checked through ``posix``, the built-in
half of ``os`` (and through ``os`` where there is no ``posix``).

File format (little-endian): b"KAYLESPC", u32 key length, the key (UTF-8),
u64 preperiod, u64 period, u64 count, count u16 values, u32 CRC-32 of all before,
32 bytes: the signature of all before.  No key yet (nothing signed): every load misses.
"""

from __future__ import annotations

import sys
from _thread import allocate_lock

from ..engine.rules import GAMES, Game, describe_moves
from ..errors import SetupError
from ..kernels import chooser

if "posix" in sys.builtin_module_names:
    import posix as _system
else:  # pragma: no cover - Windows
    import os as _system

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.sequence import Sequence

__all__ = [
    "MAGIC",
    "cache_dir",
    "cache_key",
    "cache_path",
    "kernel_file",
    "load",
    "save",
    "sequence",
    "shared",
]

MAGIC = b"KAYLESPC"
FORMAT = 2  # in the key: files of format 1 (unsigned) miss
SIGNATURE = 32  # bytes of the signature that ends a file
LARGEST = 1 << 26  # bytes: a bigger file is not one of ours
REGULAR = 0o100000  # S_IFREG: the file type bits of a regular file (stat.S_ISREG)
SPOT_CHECKED = 32  # values derived again from the rules on every load (~0.3 ms)
PROVED_AT_ONCE = frozenset({"kayles-xox"})  # quick proofs that nearly every run uses
SEP = chooser.SEP
ENGINE = f"{chooser.HERE.rpartition(SEP)[0]}{SEP}engine"  # sequence.py and rules.py lie there


def _isabs(path: str) -> bool:
    return path.startswith(SEP) if SEP == "/" else len(path) > 2 and path[1:3] == ":\\"


def kernel_file() -> tuple[str, str] | None:
    """(core name, file) of the kernel ``kayles.kernels.chooser`` chooses, or None if it cannot."""
    try:
        return chooser.choice()
    except SetupError:
        return None


def cache_dir() -> str | None:
    base = chooser.getenv("XDG_CACHE_HOME")
    if not _isabs(base):
        home = chooser.getenv("HOME")
        if not _isabs(home):
            return None
        base = f"{home.rstrip(SEP)}{SEP}.cache"
    return f"{base.rstrip(SEP)}{SEP}kayles"


def _stamp(path: str) -> str:
    info = _system.stat(path)
    return f"{path} {info.st_size} {info.st_mtime_ns}"


def cache_key(game: Game) -> tuple[str, str] | None:
    """(core name, key) for ``game``, or None when there is nothing to key on."""
    from .._version import __version__

    found = kernel_file()
    if found is None:
        return None
    core, kernel = found
    try:
        files = "; ".join(_stamp(path) for path in
                          (kernel, f"{ENGINE}{SEP}sequence.py", f"{ENGINE}{SEP}rules.py"))
    except OSError:
        return None
    return core, f"kayles {__version__}; cache {FORMAT}; moves {describe_moves(game)}; {files}"


def cache_path(game: Game, core: str) -> str | None:
    folder = cache_dir()
    if folder is None:
        return None
    slug = "".join(ch if ch.isalnum() or ch in "-." else "_" for ch in game.name)
    return f"{folder}{SEP}{slug}.{core}.proof"


def load(game: Game, most: int | None = None) -> Sequence | None:
    """The proved sequence of ``game`` from the cache, or None (silently) on any miss.

    ``most``: take only a proof that needed at most that many values.
    """
    keyed = cache_key(game)
    path = keyed and cache_path(game, keyed[0])
    if not path:
        return None
    try:
        fd = _system.open(path, _system.O_RDONLY | getattr(_system, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        with open(fd, "rb", buffering=0) as handle:
            return _read(handle, _system.fstat(fd), game, keyed[1].encode(), most)
    except (OSError, ValueError, SetupError):  # a key not to trust: a miss
        return None


def _read(handle, info, game: Game, key: bytes, most: int | None) -> Sequence | None:
    from zlib import crc32

    if info.st_mode & 0o170000 != REGULAR or info.st_size > LARGEST:
        return None  # a FIFO, a device, a directory: never ours, and reading could hang
    if hasattr(_system, "geteuid") and (info.st_uid != _system.geteuid()
                                        or info.st_mode & 0o022):
        return None  # another user's file, or one others may write: not trusted
    head = handle.read(12 + len(key) + 24)
    if len(head) < 12 + len(key) + 24 or head[:8] != MAGIC or head[12 : 12 + len(key)] != key:
        return None
    if int.from_bytes(head[8:12], "little") != len(key):
        return None
    n0, p, count = (int.from_bytes(head[i : i + 8], "little") for i in range(12 + len(key),
                                                                            len(head), 8))
    if info.st_size != len(head) + 2 * count + 4 + SIGNATURE or (
            most is not None and count > most):
        return None
    from . import signing

    secret = signing.key(create=False)
    if secret is None:
        return None  # nothing was ever signed here
    from ..engine.sequence import Period, Sequence

    table = memoryview(bytearray(2 * count))
    if handle.readinto(table) != 2 * count or len(tail := handle.read(5 + SIGNATURE)) != (
            4 + SIGNATURE):
        return None
    if int.from_bytes(tail[:4], "little") != crc32(table, crc32(head)):
        return None
    signer = signing.Signer(secret, head, light=2 * count < signing.LIGHT_BELOW)
    signer.update(table)
    signer.update(tail[:4])
    if not signer.matches(tail[4:]):
        return None  # not this user's: edited, copied, or of another key
    values = table.cast("H")
    if sys.byteorder == "big":
        values = _swapped(values)
    if not _derived_again(game, values):
        return None
    return Sequence.from_proof(game, values, Period(n0, p, count))


def _derived_again(game: Game, values) -> bool:
    """Whether G(0..SPOT_CHECKED-1) of the table are the mex of their options (the rules)."""
    from ..engine.rules import encode
    from ..kernels.pure._common import constant, mex, options

    kinds = encode(game.kinds)
    for n in range(min(SPOT_CHECKED, len(values))):
        found = {values[a] ^ values[b] ^ constant(values, kinds[k][1])
                 for a, k, b in options(n, kinds)}
        if mex(found) != values[n]:
            return False
    return True


def _swapped(values: memoryview) -> memoryview:
    from array import array

    swapped = array("H", values)
    swapped.byteswap()
    return memoryview(swapped)


def save(sequence: Sequence) -> bool:
    """Write a proved sequence to the cache; False (silently) when it cannot."""
    found = sequence.period
    keyed = cache_key(sequence.game)
    if found is None or keyed is None:
        return False
    if getattr(sequence.kernel, "__file__", "") != kernel_file()[1]:
        return False  # computed by another kernel than the key names
    path = cache_path(sequence.game, keyed[0])
    if path is None or 2 * found.values + 1024 > LARGEST:
        return False   # the reader would refuse it (0.1777's proof: 886 MB)
    import os
    from zlib import crc32

    from . import signing
    from ._files import write_atomically

    key = keyed[1].encode()
    values = sequence.table(found.values)[: found.values]
    if sys.byteorder == "big":
        values = _swapped(values)
    head = MAGIC + len(key).to_bytes(4, "little") + key
    for number in (found.preperiod, found.period, found.values):
        head += number.to_bytes(8, "little")

    def write(handle) -> None:
        crc = crc32(values, crc32(head)).to_bytes(4, "little")
        signer = signing.Signer(secret, head)
        signer.update(values)
        signer.update(crc)
        for part in (head, values, crc, signer.digest()):
            handle.write(part)

    try:
        secret = signing.key()
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        write_atomically(path, write, force=True)
    except (OSError, ValueError, SetupError):
        return False
    return True


def _writable() -> bool:
    import os

    folder = cache_dir()
    if folder is None:
        return False
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def _save_when_proved(sequence: Sequence) -> None:
    if sequence.period is not None:
        sequence.listeners.remove(_save_when_proved)
        save(sequence)


def sequence(game: Game, most: int | None = None) -> Sequence:
    """The sequence of ``game``: from the cache when it holds the proof, else computed.

    ``most``: a run that may compute at most this many values takes a cached
    proof only if it needed no more (so it answers as it would without a cache).
    On a miss, a game of PROVED_AT_ONCE with the compiled core and a writable
    cache has its period proved at once (about 60 ms for Kayles-xox) and stored;
    otherwise (the pure core is some 200 times slower, other proofs may take
    minutes) the proof is stored whenever a run finds it.
    """
    found = load(game, most)
    if found is not None:
        return found
    from ..engine.sequence import Sequence

    fresh = Sequence(game)
    if game.provable:
        fresh.listeners.append(_save_when_proved)
        if (
            most is None
            and game.name in PROVED_AT_ONCE
            and chooser.choice()[0] == "cython"
            and _writable()
        ):
            fresh.prove()
    return fresh


_SHARED: dict[str, Sequence] = {}
_SHARING = allocate_lock()


def shared(name: str) -> Sequence:
    """The process's one Sequence of a named game (``rules.GAMES``), made on first use.

    Modules that serve one game (``xox``, ``games.grundys_game``, ...) take their
    sequence from here, so values computed by one are there for the others; a
    proof a run has stored in the user's cache is loaded.
    """
    found = _SHARED.get(name)
    if found is None:
        with _SHARING:  # two threads asking first make one sequence, not two
            found = _SHARED.get(name)
            if found is None:
                found = _SHARED[name] = sequence(GAMES[name])
    return found
