"""A search split at its top (``kayles.analysis.split_search``): over a process pool and over a real
local Dask cluster, one of whose workers is killed in the middle, the answer is the one search's
of this process; the expected nimbers are the heap engine's."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from kayles.analysis.executors import open_executor
from kayles.analysis.games.families import GameSource
from kayles.analysis.solver import Solver
from kayles.analysis.split_search import split_solve
from kayles.engine.codes import get_game
from kayles.engine.sequence import Sequence

from conftest import DEADLINE, kayles_said

MEMORY = 1 << 26
SLOW_HEAP = 23
GAME = """\
import os, time

MARKER = {marker!r}


class GrundysGame:
    def options(self, heaps):
        if heaps == ({slow},) and not os.path.exists(MARKER):  # the first try only: wait
            with open(MARKER, "w") as handle:                   # there to be killed
                handle.write(str(os.getpid()))
            time.sleep(600)
        found = []
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1:]
            for a in range(1, (h + 1) // 2):
                found.append(tuple(sorted(rest + (a, h - a))))
        return found

    def components(self, heaps):
        return [(h,) for h in heaps if h >= 3]
"""


def source(tmp_path, marker: str) -> GameSource:
    path = tmp_path / "grundy.py"
    path.write_text(GAME.format(marker=marker, slow=SLOW_HEAP))
    return GameSource.parse(f"{path}:GrundysGame")


def grundy(*heaps: int) -> int:
    sequence = Sequence(get_game("grundy"))
    value = 0
    for h in heaps:
        value ^= sequence.nimber(h)
    return value


def test_a_process_pool_gives_the_one_search_answer(tmp_path):
    game = source(tmp_path, str(tmp_path / "never"))
    (tmp_path / "never").write_text("")  # (no task waits to be killed here)
    with open_executor(2) as (executor, window):
        for position in ((20, 21, 30), (31,)):
            split = split_solve(game, position, executor, window, MEMORY)
            assert split == Solver(game.load(), MEMORY).solve(position)
            assert split.value == grundy(*position)
        misere = split_solve(game, (9, 10), executor, window, MEMORY, misere=True)
        assert misere == Solver(game.load(), MEMORY).solve((9, 10), misere=True)


@pytest.mark.slow  # make test-slow (CI runs it)
def test_a_killed_dask_worker_loses_nothing(tmp_path):
    """Two worker processes; the one computing heap 23 is killed (SIGKILL) while it does:
    Dask computes that part again elsewhere, and the value is the heap engine's."""
    distributed = pytest.importorskip("distributed")
    marker = tmp_path / "started"
    game = source(tmp_path, str(marker))
    position = (SLOW_HEAP, 20, 21)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, scheduler_port=0) as cluster:
        with open_executor(dask=cluster.scheduler_address) as (executor, window):
            import threading

            killed = []

            def kill_when_started() -> None:
                deadline = time.monotonic() + DEADLINE
                while not marker.exists() or not marker.read_text():
                    if time.monotonic() > deadline:
                        return
                    time.sleep(0.01)
                pid = int(marker.read_text())
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

            killer = threading.Thread(target=kill_when_started, daemon=True)
            killer.start()
            solution = split_solve(game, position, executor, window, MEMORY)
            killer.join(DEADLINE)
        command = kayles_said("solve", game.spec, repr(position), "--dask",
                              cluster.scheduler_address, "--json")
    assert killed, "the slow part never started"
    assert (command.returncode, command.stderr) == (0, "")
    assert json.loads(command.stdout)["nimber"] == grundy(*position)
    assert solution.value == grundy(*position)
    assert solution == Solver(game.load(), MEMORY).solve(position)
