"""A cache of proved periods, so Kayles-xox does not prove its period on every run.

The cache lives in ``$XDG_CACHE_HOME/kayles/`` (when that is an absolute path) or
``~/.cache/kayles/``; one file per game and core, ``<game>.<core>.proof``.  Its
content is computed by this program and nothing else: the first ``values``
nimbers of the game (exactly the table that proved the period) and the period.

How stale values are kept out:

* the key, stored in the file and compared in full, names the package version,
  the cache format, the game's moves (``rules.describe_moves``), and the path,
  size and modification time of the kernel module that computed the table
  (``_core*.so`` or ``_pure.py``) and of ``sequence.py`` and ``rules.py``.  The
  kernel is found the way ``kayles._impl`` finds it, without importing it;
  a table is stored only when the kernel that computed it is that very file,
  so KAYLES_PURE=1 and the compiled core never read each other's files, and a
  rebuilt kernel or edited rules simply miss;
* a CRC-32 (zlib's) of the whole file is checked on load, and the period's
  certificate is checked again on the loaded table (``Sequence.from_proof``);
* writes go to a temporary file in the same directory, renamed over the old
  one (``os.replace``), so two processes writing at once leave one whole file.

Any failure (no home, a read-only or full disk, a damaged or foreign file) is
silent: the run computes as if there were no cache, and rewrites a bad file.

Loading runs at every start of Kayles-xox, whose whole budget is a few
milliseconds, so it does not import ``os`` (0.8 ms, a sixth of the interpreter's
own start-up): it reads the environment and stats files through ``posix``, the
built-in half of ``os`` (and through ``os`` where there is no ``posix``).

File format (little-endian): b"KAYLESPC", u32 key length, the key (UTF-8),
u64 preperiod, u64 period, u64 count, count u16 values, u32 CRC-32 of all before.
"""

from __future__ import annotations

import sys

from .rules import Game, describe_moves

if "posix" in sys.builtin_module_names:
    import posix as _system
else:  # pragma: no cover - Windows
    import os as _system

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .sequence import Sequence

__all__ = [
    "MAGIC",
    "cache_dir",
    "cache_key",
    "cache_path",
    "kernel_file",
    "load",
    "sequence",
    "store",
]

MAGIC = b"KAYLESPC"
FORMAT = 1
LARGEST = 1 << 26  # bytes: a bigger file is not one of ours
PROVED_AT_ONCE = frozenset({"kayles-xox"})  # quick proofs that nearly every run uses
SEP = "/" if _system.__name__ == "posix" else "\\"
HERE = __file__.rpartition(SEP)[0]  # a module's __file__ is an absolute path


def _getenv(name: str) -> str:
    os = sys.modules.get("os")
    if os is not None:  # os.environ sees changes made through it since start-up
        return os.environ.get(name, "")
    value = _system.environ.get(name.encode(), b"")  # posix.environ: bytes, as at start-up
    return value.decode(sys.getfilesystemencoding(), "surrogateescape")


def _flag(name: str) -> bool:
    return _getenv(name) not in ("", "0")


def _isabs(path: str) -> bool:
    return path.startswith(SEP) if SEP == "/" else len(path) > 2 and path[1:3] == ":\\"


def _stat(path: str):
    try:
        return _system.stat(path)
    except OSError:
        return None


def kernel_file() -> tuple[str, str] | None:
    """(core name, file) of the kernel ``kayles._impl`` will load, or None if it will fail."""
    if not _flag("KAYLES_PURE"):
        import _imp

        for suffix in _imp.extension_suffixes():
            path = f"{HERE}{SEP}_core{suffix}"
            if _stat(path) is not None:
                return "cython", path
        if _flag("KAYLES_REQUIRE_NATIVE"):
            return None
    elif _flag("KAYLES_REQUIRE_NATIVE"):
        return None
    return "python", f"{HERE}{SEP}_pure.py"


def cache_dir() -> str | None:
    base = _getenv("XDG_CACHE_HOME")
    if not _isabs(base):
        home = _getenv("HOME")
        if not _isabs(home):
            return None
        base = f"{home.rstrip(SEP)}{SEP}.cache"
    return f"{base.rstrip(SEP)}{SEP}kayles"


def _stamp(path: str) -> str:
    info = _system.stat(path)
    return f"{path} {info.st_size} {info.st_mtime_ns}"


def cache_key(game: Game) -> tuple[str, str] | None:
    """(core name, key) for ``game``, or None when there is nothing to key on."""
    from . import __version__

    found = kernel_file()
    if found is None:
        return None
    core, kernel = found
    try:
        files = "; ".join(_stamp(path) for path in
                          (kernel, f"{HERE}{SEP}sequence.py", f"{HERE}{SEP}rules.py"))
    except OSError:
        return None
    return core, f"kayles {__version__}; cache {FORMAT}; moves {describe_moves(game)}; {files}"


def cache_path(game: Game, core: str) -> str | None:
    folder = cache_dir()
    if folder is None:
        return None
    slug = "".join(ch if ch.isalnum() or ch in "-." else "_" for ch in game.name)
    return f"{folder}{SEP}{slug}.{core}.proof"


def load(game: Game) -> Sequence | None:
    """The proved sequence of ``game`` from the cache, or None (silently) on any miss."""
    keyed = cache_key(game)
    path = keyed and cache_path(game, keyed[0])
    if not path:
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read(LARGEST + 1)
    except OSError:
        return None
    return _parse(data, game, keyed[1].encode())


def _parse(data: bytes, game: Game, key: bytes) -> Sequence | None:
    from zlib import crc32

    size = len(key)
    start = 12 + size + 24  # where the values begin
    if (
        len(data) > LARGEST
        or len(data) < start + 4
        or data[:8] != MAGIC
        or int.from_bytes(data[8:12], "little") != size
        or data[12 : 12 + size] != key
        or int.from_bytes(data[-4:], "little") != crc32(memoryview(data)[:-4])
    ):
        return None
    n0, p, count = (int.from_bytes(data[i : i + 8], "little") for i in range(12 + size, start, 8))
    if len(data) != start + 2 * count + 4:
        return None
    values = memoryview(data)[start : start + 2 * count].cast("H")
    if sys.byteorder == "big":
        from array import array

        values = array("H", values)
        values.byteswap()
    from .sequence import Period, Sequence

    try:
        return Sequence.from_proof(game, values, Period(n0, p, count))
    except ValueError:
        return None


def store(sequence: Sequence) -> bool:
    """Write a proved sequence to the cache; False (silently) when it cannot."""
    found = sequence.period
    keyed = cache_key(sequence.game)
    if found is None or keyed is None:
        return False
    kernel = kernel_file()
    if kernel is None or getattr(sequence.kernel, "__file__", "") != kernel[1]:
        return False  # computed by another kernel than the key names
    path = cache_path(sequence.game, keyed[0])
    if path is None:
        return False
    import os
    from zlib import crc32

    key = keyed[1].encode()
    values = sequence.table(found.values)[: found.values]
    data = bytearray(MAGIC)
    data += len(key).to_bytes(4, "little") + key
    for number in (found.preperiod, found.period, found.values):
        data += number.to_bytes(8, "little")
    if sys.byteorder == "big":
        from array import array

        swapped = array("H", values)
        swapped.byteswap()
        data += swapped.tobytes()
    else:
        data += values.tobytes()
    data += crc32(data).to_bytes(4, "little")
    folder = os.path.dirname(path)
    unique = f"{os.getpid()}.{os.urandom(4).hex()}"
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{unique}.tmp")
    try:
        os.makedirs(folder, exist_ok=True)
        with open(temporary, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except OSError:
        try:
            os.remove(temporary)
        except OSError:
            pass
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


def _store_when_proved(sequence: Sequence) -> None:
    if sequence.period is not None:
        sequence.on_growth = None
        store(sequence)


def sequence(game: Game, most: int | None = None) -> Sequence:
    """The sequence of ``game``: from the cache when it holds the proof, else computed.

    ``most``: a run that may compute at most this many values takes a cached
    proof only if it needed no more (so it answers as it would without a cache).
    On a miss, a game of PROVED_AT_ONCE with the compiled core and a writable
    cache has its period proved at once (about 60 ms for Kayles-xox) and stored;
    otherwise (the pure core is some 200 times slower, other proofs may take
    minutes) the proof is stored whenever a run finds it.
    """
    found = load(game)
    if found is not None and (most is None or found.period.values <= most):
        return found
    from .sequence import Sequence

    fresh = Sequence(game)
    if game.provable:
        fresh.on_growth = _store_when_proved
        if (
            most is None
            and game.name in PROVED_AT_ONCE
            and fresh.kernel.__name__.endswith("_core")
            and _writable()
        ):
            fresh.prove()
    return fresh
