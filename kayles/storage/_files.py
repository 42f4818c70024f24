"""Files the package reads and writes, one careful way: what it promises about files.

* Reading opens only regular files: the open itself does not block (O_NONBLOCK,
  so a FIFO or a device cannot hang it), then ``fstat`` must say "regular file",
  and no more than a stated number of bytes is read (``read_regular``).  A file of
  the kernel's (under /proc or /sys: a "regular file" whose size says 0, or 4,096,
  whatever it holds, made as it is read) is no file of data: never read, never
  written over (``kind``, ``kernel_folder``).
* Every output file is written beside its target under a temporary name
  (``.NAME.PID.RANDOM.tmp``, created exclusively), flushed to the disk and
  renamed over the target, the folder synced (``write_atomically``): an
  interrupted write, or a power cut, leaves the old file whole or the new one.
  A target that exists is replaced only when the caller says so (``force``),
  and never when it is not a regular file (a device, a FIFO, a directory):
  writing through a path onto a device is refused.
* Temporaries of writers that died (SIGKILL) are removed by the next writer in
  the same folder (``remove_stale``): those of a process that no longer runs on
  this host.

Errors name the file the user gave, never a temporary, and what it is (a directory,
a character device, a FIFO, a file of the kernel's): ValueError for what the user can
change (a directory where a file belongs, an existing file), OSError when the file
cannot be made (no such folder, no permission), and ``errors.WriteError`` (an OSError:
exit status 1) when writing it fails (a full disk).  A folder made from an environment
variable (``$XDG_CACHE_HOME/kayles``) that cannot be made because the variable names a
file blames the variable (``blocked_folder``).
"""

from __future__ import annotations

import os
import stat

from ..errors import InputError, WriteError, path_text, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import BinaryIO

__all__ = ["blocked_folder", "check_target", "display", "kernel_folder", "kind", "open_regular",
           "read_regular", "refused_here", "remove_quietly", "remove_stale", "sync_folder",
           "temporary_name", "write_atomically"]


def display(path: str | os.PathLike) -> str:
    """A path for a message: undecodable bytes shown as typed (``\\xff``)."""
    return path_text(os.fsdecode(path))


KERNEL_FOLDERS = ("/proc", "/sys")  # where the kernel's files are mounted


def kernel_folder(info: os.stat_result) -> str | None:
    """'/proc' or '/sys' when ``info`` is of a file there: the kernel's, made as it is read
    (a mount of its own: a plain folder of that name on the root's device is not one)."""
    for folder in KERNEL_FOLDERS:
        try:
            device = os.stat(folder).st_dev
            if device == info.st_dev and device != os.stat("/").st_dev:
                return folder
        except OSError:
            continue
    return None


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link to nothing"))


def kind(info: os.stat_result) -> str:
    """What a file is, for a message: 'a directory', 'a character device', ..., 'a file of
    the kernel's (under /proc)', or 'a file' (a regular file of data)."""
    for test, name in _KINDS:
        if test(info.st_mode):
            return name
    folder = kernel_folder(info) if stat.S_ISREG(info.st_mode) else None
    return f"a file of the kernel's (under {folder})" if folder else "a file"


def open_regular(path: str | os.PathLike, flags: int = os.O_RDONLY) -> int:
    """A file descriptor of ``path`` opened with ``flags``; ValueError when it is not a
    regular file of data (the open cannot block on a FIFO or a device; see ``kind``)."""
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{display(path)}: is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{display(path)}: {kind(info)}, not a regular file: never read")
        if kernel_folder(info):
            raise InputError(f"{display(path)}: {kind(info)}, made as it is read, not a "
                             "file of data: never read")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def refused_here(exc: OSError, path: str | os.PathLike) -> OSError:
    """``exc``, met making ``path`` (or a file beside it), as the error to say: naming the
    path the user gave; in a folder of the kernel's (under /proc or /sys, whose answer is
    "No such file or directory" or "Permission denied"), saying that instead."""
    folder = os.path.dirname(os.path.abspath(os.fsdecode(path)))
    while not os.path.isdir(folder) and folder != os.path.dirname(folder):
        folder = os.path.dirname(folder)
    try:
        where = kernel_folder(os.stat(folder))
    except OSError:
        where = None
    why = f"in a folder of the kernel's (under {where}): no file is made there" if where \
        else exc.strerror
    return OSError(exc.errno, why, display(path))


def read_regular(path: str | os.PathLike, limit: int, what: str = "the file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (ValueError past it)."""
    with os.fdopen(open_regular(path), "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise InputError(f"{display(path)}: {what} is {size} bytes, more than the "
                             f"{limit} this program reads")
        data = handle.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise InputError(f"{display(path)}: {what} is more than the {limit} bytes this "
                         "program reads")
    return data


def check_target(path: str | os.PathLike, force: bool = False, hint: str = "") -> bool:
    """Whether ``path`` exists (then as a regular file, and ``force`` is set).

    ValueError when it is anything but a regular file, or exists without ``force``
    (``hint`` says what to do instead, e.g. "--force replaces it").
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{display(path)}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode) or kernel_folder(info):
        raise InputError(f"{display(path)}: exists and is {kind(info)}, not a regular file "
                         "of data: never written to")
    if not force:
        raise InputError(f"{display(path)}: exists" + (f"; {hint}" if hint else ""))
    return True


def blocked_folder(folder: str, variable: str, value: str) -> tuple[str, bool]:
    """Why ``folder``, made from the environment variable ``variable`` (whose value is
    ``value``), cannot be made when a part of its path that exists is no folder ('' when
    none is), and whether the variable is to blame (that part is its value or above it;
    else the part is in the way)."""
    parts = folder.rstrip(os.sep).split(os.sep)
    for end in range(2, len(parts) + 1):
        part = os.sep.join(parts[:end])
        try:
            info = os.stat(part)
        except OSError:
            return "", False  # missing (made with the folder), or not to be looked into
        if stat.S_ISDIR(info.st_mode):
            continue
        what = kind(info)
        if part == value.rstrip(os.sep):
            return f"{variable} is {shown(value)}: {what}, not a folder", True
        if os.path.commonpath([part, value]) == part:
            return (f"{variable} is {shown(value)}, but {display(part)} is {what}, not a "
                    "folder"), True
        return f"{display(part)}: {what} where a folder of kayles's belongs", False
    return "", False


def temporary_name(path: str | os.PathLike) -> str:
    """A fresh name for a temporary beside ``path`` (``.NAME.PID.RANDOM.tmp``)."""
    folder, name = os.path.split(os.fsdecode(path))
    return os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")


def write_atomically(path: str | os.PathLike, write: Callable[[BinaryIO], None],
                     force: bool = False, hint: str = "") -> None:
    """Write a new ``path`` through ``write(handle)``: a temporary file beside it, flushed,
    then renamed over it (see the module header; ``force`` and ``hint`` as in
    check_target).  On any failure, Ctrl-C included, the target is as it was."""
    path = os.fsdecode(path)
    check_target(path, force, hint)
    remove_stale(path)
    temporary = temporary_name(path)
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as exc:  # no such folder, no permission: the path asked for (status 1)
        raise refused_here(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        check_target(path, force, hint)  # nothing new appeared in its place meanwhile
        os.replace(temporary, path)
        sync_folder(path)
    except OSError as exc:
        remove_quietly(temporary)
        raise WriteError(exc.errno, exc.strerror, display(path)) from None
    except BaseException:
        remove_quietly(temporary)
        raise


def sync_folder(path: str) -> None:
    """Make a rename in ``path``'s folder durable (best effort: not every system can)."""
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale(path: str | os.PathLike) -> None:
    """Remove the temporaries of ``path`` (``.NAME.PID.*.tmp``) left by dead writers."""
    folder, name = os.path.split(os.fsdecode(path))
    prefix = f".{name}."
    try:
        entries = os.listdir(folder or ".")
    except OSError:
        return
    for entry in entries:
        if not (entry.startswith(prefix) and entry.endswith(".tmp")):
            continue
        pid = entry[len(prefix):].split(".", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            remove_quietly(os.path.join(folder, entry))


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (unsure: yes)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):
        return True
    return True


def remove_quietly(path: str) -> None:
    """Remove a file if it is there; say nothing either way."""
    try:
        os.remove(path)
    except OSError:
        pass
