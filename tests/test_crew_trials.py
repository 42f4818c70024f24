"""Crews on one sequence only where they win (kayles.engine.sequence.CrewTrials): the
trial's schedule and verdict from given times, and the same values whichever way a
trial goes (the verdict forced, so nothing here depends on the machine's speed)."""

from __future__ import annotations

import pytest

from kayles.engine.codes import get_game
from kayles.engine.sequence import CrewTrials, Sequence

from conftest import load_kernel


def test_the_trial_schedule_and_its_verdict():
    trials = CrewTrials(2)
    start = CrewTrials.TRIAL_FROM
    assert trials.half(0, 1 << 20) == (1 << 20, None)  # short: one thread, no trial
    assert trials.half(start, start + 8191) == (start + 8191, None)  # no room for two halves
    size = max(1 << 12, start // CrewTrials.TRIAL_SHARE)
    assert trials.half(start, 1 << 20) == (start + size, "solo")
    trials.solo = "the solo scratch"
    trials.crew = "the crew scratch"
    assert trials.timed("solo", 1.0, size, start + size) == "the solo scratch"
    assert trials.half(start + size, 1 << 20) == (start + 2 * size, "crew")
    # the crew a heap in 0.95 of one thread's time: not enough
    assert trials.timed("crew", 0.95, size, start + 2 * size) == "the solo scratch"
    assert trials.chosen == "solo" and trials.at == 2 * (start + 2 * size)
    assert trials.half(start + 2 * size, 1 << 20) == (1 << 20, None)  # till the heaps double
    at = trials.at
    assert trials.half(at, 1 << 22)[1] == "solo"
    trials.timed("solo", 1.0, at // 32, at + at // 32)
    trials.half(at + at // 32, 1 << 22)
    assert trials.timed("crew", 0.5, at // 32, at + at // 16) == "the crew scratch"
    assert trials.chosen == "crew"


def test_a_short_run_starts_no_crew():
    sequence = Sequence(get_game(".04"), kernel=load_kernel("cython"), threads=2)
    sequence.table(CrewTrials.TRIAL_FROM)
    assert sequence._crews is not None and sequence._crews.crew is None
    assert sequence._scratch.threads == 1


@pytest.mark.parametrize("gain", [0.0, 1e9], ids=["never-the-crew", "always-the-crew"])
@pytest.mark.parametrize("game", [".04", ".161", "grundy"])  # no period by 2**17
def test_the_values_are_one_threads_whichever_the_verdict(monkeypatch, game, gain):
    compiled = load_kernel("cython")
    monkeypatch.setattr(CrewTrials, "TRIAL_GAIN", gain)
    count = 1 << 17
    alone = Sequence(get_game(game), kernel=compiled)
    crews = Sequence(get_game(game), kernel=compiled, threads=2)
    assert bytes(crews.table(count)) == bytes(alone.table(count))
    assert crews._crews.chosen == ("crew" if gain else "solo")
    assert crews._crews.crew.threads == 2
