"""How many cores other processes kept busy over a stretch of time (Linux's /proc/stat).

A crew of threads beside a busy core only waits for it, and the timed trial that finds
so (sequence.CrewTrials) costs some percent of a short run.  So before a trial the
sequence asks how busy the other cores were since its last look and skips the trial
where fewer than CrewTrials.FREE_CORES (1.5) were free: one thread goes on, as the trial
would choose.

Counted as busy: every core's time that is not idle or waiting for a disk (user, nice,
system, interrupt, stolen), less this process's own CPU time.  Niced time counts too: a
process at nice 19 in another session keeps its core under Linux's autogroups (the
default where enabled: nice ranks processes only within one session), so a crew beside
it may lose.  Without /proc/stat (not Linux) or over too short a stretch, the answer is
None and the trial runs as before.  Imported only near a sequence's first trial (2**14
heaps): Kayles-xox's start-up never pays for it.
"""

from __future__ import annotations

from time import process_time

from .._environ import system as _system

__all__ = ["busy_ticks", "cores", "others_busy", "snapshot", "ticks_a_second", "usable"]

LEAST_TICKS = 2  # a stretch shorter than this many clock ticks a core tells nothing
READ_LIMIT = 1 << 12  # bytes read of /proc/stat: its first line is the sum of the cores


def busy_ticks(first_line: bytes) -> tuple[int, int]:
    """(busy ticks, all ticks) of /proc/stat's 'cpu' line: user nice system idle iowait
    irq softirq steal ...; busy is all but idle and iowait."""
    fields = first_line.split()
    if not fields or fields[0] != b"cpu" or len(fields) < 9:
        raise ValueError("not the cpu line of /proc/stat")
    user, nice, system, idle, iowait, irq, softirq, steal = map(int, fields[1:9])
    busy = user + nice + system + irq + softirq + steal
    return busy, busy + idle + iowait


def snapshot() -> tuple | None:
    """(busy ticks, all ticks, this process's CPU seconds) now (None: no /proc/stat)."""
    try:
        with open("/proc/stat", "rb") as stat:
            busy, total = busy_ticks(stat.read(READ_LIMIT).split(b"\n", 1)[0])
    except (OSError, ValueError):
        return None
    return busy, total, process_time()


def others_busy(before: tuple | None, after: tuple | None,
                cores: int, ticks_a_second: int) -> float | None:
    """Cores' worth of time other processes kept busy between two snapshots (None: not
    known, or a stretch of fewer than LEAST_TICKS ticks a core)."""
    if before is None or after is None or cores < 1 or ticks_a_second < 1:
        return None
    elapsed_ticks = (after[1] - before[1]) / cores  # each core's ticks in the stretch
    if elapsed_ticks < LEAST_TICKS:
        return None
    busy_seconds = (after[0] - before[0]) / ticks_a_second - (after[2] - before[2])
    return max(0.0, busy_seconds / (elapsed_ticks / ticks_a_second))


def ticks_a_second() -> int:
    """The kernel's clock ticks a second (USER_HZ, 100 where it cannot be read)."""
    try:
        return int(_system.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, AttributeError):
        return 100


def cores() -> int:
    """The machine's cores, as /proc/stat sums them."""
    return _system.cpu_count() or 1


def usable() -> int:
    """The cores this process may run on (its affinity; the machine's where that cannot
    be read): a crew of more threads only waits, each wait as long as a time slice."""
    try:
        return len(_system.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return cores()
