"""Crews on one sequence only where they win (kayles.engine.sequence.CrewTrials): the
trial's schedule and verdict from given times and given free cores, how busy the other
cores were read from /proc/stat's ticks (kayles.engine.cpu_load), and the same values
whichever way a trial goes (the verdict and the free cores forced, so nothing here
depends on the machine's speed or load)."""

from __future__ import annotations

import pytest

from kayles.engine import cpu_load
from kayles.engine.codes import get_game
from kayles.engine.cpu_load import busy_ticks, others_busy, snapshot
from kayles.engine.sequence import CrewTrials, Sequence

from conftest import load_kernel


@pytest.fixture(autouse=True)
def idle_machine(monkeypatch):
    """Every trial here sees two idle cores, however busy the machine running the tests
    (a test that gives CrewTrials its own ``load`` sees that)."""
    monkeypatch.setattr(cpu_load, "cores", lambda: 2)
    monkeypatch.setattr(cpu_load, "others_busy", lambda *stretch: 0.0)


class Clock:
    """A clock a test moves by hand (CrewTrials' looks at the machine follow it)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_trial_schedule_and_its_verdict():
    trials = CrewTrials(2, clock=Clock())
    start = CrewTrials.TRIAL_FROM
    assert trials.half(0, 1 << 20) == (1 << 20, None)  # short: one thread, no trial
    assert trials.cores(None) == 1
    assert trials.half(start, start + 8191) == (start + 8191, None)  # no room for two halves
    size = max(1 << 12, start // CrewTrials.TRIAL_SHARE)
    assert trials.half(start, 1 << 20) == (start + size, "solo")
    assert trials.cores("solo") == 1
    trials.timed("solo", 1.0, size, start + size)
    assert trials.half(start + size, 1 << 20) == (start + 2 * size, "crew")
    assert trials.cores("crew") == 2
    # the crew a heap in 0.95 of one thread's time: not enough
    trials.timed("crew", 0.95, size, start + 2 * size)
    assert trials.chosen == "solo" and trials.at == 2 * (start + 2 * size)
    assert trials.half(start + 2 * size, 1 << 20) == (1 << 20, None)  # till the heaps double
    at = trials.at
    assert trials.half(at, 1 << 22)[1] == "solo"
    trials.timed("solo", 1.0, at // 32, at + at // 32)
    trials.half(at + at // 32, 1 << 22)
    trials.timed("crew", 0.5, at // 32, at + at // 16)
    assert trials.chosen == "crew" and trials.cores(None) == 2


def test_a_trial_half_is_at_least_trial_seconds_of_work():
    """Measured 2**20 heaps a second: a half of 0.05 s is 52,428 heaps, more than n/32."""
    trials = CrewTrials(2, clock=Clock())
    trials.timed(None, 1.0, 1 << 20, CrewTrials.TRIAL_FROM)
    stop, half = trials.half(CrewTrials.TRIAL_FROM, 1 << 22)
    assert half == "solo" and stop - CrewTrials.TRIAL_FROM == int(
        (1 << 20) * CrewTrials.TRIAL_SECONDS)


def test_a_short_run_starts_no_crew():
    sequence = Sequence(get_game(".04"), kernel=load_kernel("cython"), threads=2)
    sequence.table(CrewTrials.TRIAL_FROM)
    assert sequence._crews is not None and sequence._crews.chosen == "solo"
    assert sequence._scratch.cores == 1 and sequence._scratch.threads_used == 1


@pytest.mark.parametrize("gain", [0.0, 1e9], ids=["never-the-crew", "always-the-crew"])
@pytest.mark.parametrize("game", [".04", ".161", "grundy"])  # no period by 2**17
def test_the_values_are_one_threads_whichever_the_verdict(monkeypatch, game, gain):
    compiled = load_kernel("cython")
    monkeypatch.setattr(CrewTrials, "TRIAL_GAIN", gain)
    monkeypatch.setattr(CrewTrials, "TRIAL_SECONDS", 0.0)  # a half's size is not the
    count = 1 << 17                                         # machine's speed: n/32 heaps
    alone = Sequence(get_game(game), kernel=compiled)
    crews = Sequence(get_game(game), kernel=compiled, threads=2)
    assert bytes(crews.table(count)) == bytes(alone.table(count))
    assert crews._crews.chosen == ("crew" if gain else "solo")
    assert crews._scratch.threads == 2
    assert crews._scratch.cores == (2 if gain else 1)


def test_a_crew_is_no_larger_than_the_cores_this_process_may_run_on(monkeypatch):
    """The commands' default asks for the kernel's most threads (64): a crew of 64 on 2
    cores spun for 3.7 s where one thread took 1.4 s.  The crew is the threads asked for,
    at most the cores the process may run on (its affinity), on every call of a crew."""
    monkeypatch.setattr(cpu_load, "usable", lambda: 2)
    assert [CrewTrials(64).cores(h) for h in ("crew", "solo")] == [2, 1]
    assert CrewTrials(1).cores("crew") == 1
    monkeypatch.setattr(CrewTrials, "TRIAL_GAIN", 1e9)
    monkeypatch.setattr(CrewTrials, "TRIAL_SECONDS", 0.0)
    crews = Sequence(get_game(".161"), kernel=load_kernel("cython"), threads=64)
    crews.table(1 << 17)
    assert crews._crews.chosen == "crew" and crews._scratch.cores == 2
    assert crews._scratch.threads == 64


def test_a_trial_is_skipped_beside_busy_cores():
    """Fewer than FREE_CORES cores free since the last look: no trial, one thread goes on
    to the next checkpoint (about twice as far, often a heap or two short), where the
    machine is looked at again; a crew already chosen always gets its trial (that is how
    it goes back to one thread)."""
    free = [1.0]
    trials = CrewTrials(2, load=lambda: free[0], clock=Clock())
    start = CrewTrials.TRIAL_FROM
    assert trials.half(start, 1 << 20) == (1 << 20, None)
    assert trials.skipped == 1 and trials.chosen == "solo" and trials.busy
    assert trials.half(start + start // 2 - 1, 1 << 20) == (1 << 20, None)  # too soon
    assert trials.skipped == 1
    checkpoint = 2 * start - 2  # the next checkpoint, a little short of the doubling
    assert trials.half(checkpoint, 1 << 20) == (1 << 20, None)  # looked again: still busy
    assert trials.skipped == 2
    free[0] = 1.6  # others left more than FREE_CORES free: the trial runs
    checkpoint = 4 * start - 3
    size = max(1 << 12, checkpoint // CrewTrials.TRIAL_SHARE)
    assert trials.half(checkpoint, 1 << 22) == (checkpoint + size, "solo")
    trials.timed("solo", 1.0, size, checkpoint + size)
    trials.half(checkpoint + size, 1 << 22)
    trials.timed("crew", 0.5, size, checkpoint + 2 * size)
    assert trials.chosen == "crew"
    free[0] = 0.0
    assert trials.half(trials.at, 1 << 23)[1] == "solo" and trials.skipped == 2


def test_a_crew_is_dropped_when_the_cores_get_busy_and_tried_again_when_free():
    """While a crew runs, a look every LOOK_SECONDS (calls cut to about that much work):
    others busy -> one thread at once; free again -> a trial at once."""
    free, clock = [2.0], Clock()
    trials = CrewTrials(2, load=lambda: free[0], clock=clock)
    start = CrewTrials.TRIAL_FROM
    size = max(1 << 12, start // CrewTrials.TRIAL_SHARE)
    trials.half(start, 1 << 30)
    trials.timed("solo", 1.0, size, start + size)
    trials.half(start + size, 1 << 30)
    trials.timed("crew", 0.1, size, start + 2 * size)  # the crew won
    n = start + 2 * size
    assert trials.chosen == "crew"
    rate = size / 0.1
    stop, half = trials.half(n, 1 << 30)  # cut to LOOK_SECONDS of work, no look yet
    assert (stop, half) == (n + int(rate * CrewTrials.LOOK_SECONDS), None)
    assert trials.cores(half) == 2
    free[0] = 0.5
    clock.now += CrewTrials.LOOK_SECONDS
    trials.half(stop, 1 << 30)  # the look: others busy
    assert (trials.chosen, trials.busy, trials.dropped) == ("solo", True, 1)
    assert trials.cores(None) == 1
    free[0] = 1.9
    clock.now += CrewTrials.LOOK_SECONDS
    assert trials.half(stop, 1 << 30)[1] == "solo"  # free again: the trial at once
    assert not trials.busy


def test_no_free_cores_known_means_the_trial_runs():
    trials = CrewTrials(2, load=lambda: None)  # not Linux, or too short a stretch
    start = CrewTrials.TRIAL_FROM
    assert trials.half(start, 1 << 20)[1] == "solo" and trials.skipped == 0


def test_busy_ticks_are_read_from_the_cpu_line():
    line = b"cpu  4868674 1025255 343917 5602421 37392 11 2789 4680 0 0"
    busy, total = busy_ticks(line)
    # user nice system irq softirq steal: niced time keeps a core too (autogroups)
    assert busy == 4868674 + 1025255 + 343917 + 11 + 2789 + 4680
    assert total == busy + 5602421 + 37392  # and idle, iowait
    for bad in (b"", b"cpu0 1 2 3 4 5 6 7 8", b"cpu 1 2 3"):
        with pytest.raises(ValueError):
            busy_ticks(bad)


def test_others_busy_leaves_out_this_process():
    """Two cores, 100 ticks a second, a stretch of 2 s (400 ticks in all)."""
    before = (1000, 10_000, 5.0)
    # 300 busy ticks (3 s): 2 s of them this process's own, so others kept one core half
    # busy (1 s in 2 s)
    assert others_busy(before, (1300, 10_400, 7.0), 2, 100) == 0.5
    assert others_busy(before, (1400, 10_400, 6.0), 2, 100) == 1.5
    assert others_busy(before, (1000, 10_400, 7.0), 2, 100) == 0.0  # never below 0
    assert others_busy(before, (1001, 10_003, 5.0), 2, 100) is None  # too short a stretch
    assert others_busy(None, before, 2, 100) is None
    now = snapshot()
    if now is not None:  # Linux: ticks and this process's CPU seconds
        assert 0 <= now[0] <= now[1] and now[2] >= 0.0
