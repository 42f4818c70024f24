"""A search split at its top over worker processes or a Dask cluster, with the same answer.

The tasks are the top of the search, each with a table of its own on its worker:

* a position of several components: each component's nimber (one task per key);
* a position of one component: the nimber of each component of each of its options (one
  task per key): each option's value is then their XOR, the position's the mex;
* misère play: each option's outcome (a sum is not split in misère play).

A task makes the game again from its ``GameSource`` (a file's text travels with it, so a
worker needs no copy of the file) and searches with ``memory`` bytes of table.  Back
here a local ``Solver`` gets every value the tasks found and finds the move from them.
A task whose search meets a cycle (the game is not short) sends back ``None``: the local
solver then answers the whole position with the loopy solver, on this machine.

Workers that die: Dask computes a lost task again on another worker; a process pool
broken by a dead worker is made afresh and its lost tasks submitted again once more (a
task lost twice is a ResourceError that names it).
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, wait

from ..engine.game_protocol import CycleFound
from ..engine.search import Search
from ..errors import ResourceError
from .solver import Solution, Solver

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from concurrent.futures import Executor

    from .games.families import GameSource

__all__ = ["component_nimber", "misere_wins", "split_solve"]


def component_nimber(source: GameSource, component, memory: int) -> int | None:
    """The nimber of ``component`` by a search of its own (a task), None for a cycle."""
    try:
        return Search(source.load(), memory).nimber(component)
    except CycleFound:
        return None


def misere_wins(source: GameSource, position, memory: int) -> bool | None:
    """Whether the player to move wins ``position`` in misère play (a task), None for a
    cycle."""
    try:
        return Search(source.load(), memory).misere_wins(position)
    except CycleFound:
        return None


def split_solve(source: GameSource, position, executor: Executor, window: int, memory: int,
                misere: bool = False, done: Callable[[int, int], None] | None = None,
                solver: Solver | None = None) -> Solution:
    """The ``Solution`` of ``position``, its top's tasks computed by ``executor`` (at most
    ``window`` in flight); ``done(finished, tasks)`` after each task; ``solver``: the local
    one (default: a new Solver of the game with ``memory``)."""
    solver = solver or Solver(source.load(), memory)
    search = solver.search
    if misere:
        options = search.options(position)
        outcomes = _run(executor, window, misere_wins, source, memory,
                        {i: option for i, option in enumerate(options)}, done)
        if None in outcomes.values():
            return solver.solve(position, misere)
        for option, wins in zip(options, (outcomes[i] for i in range(len(options)))):
            search.remember_misere(option, wins)
        return solver.solve(position, misere)
    parts = search.parts(position)
    if len({kc for _, kc in parts}) > 1:
        wanted = {kc: c for c, kc in parts}
    else:
        wanted = {}
        for option in search.options(position):
            for c, kc in search.parts(option):
                if search.table.get(kc) is None:
                    wanted.setdefault(kc, c)
    values = _run(executor, window, component_nimber, source, memory, wanted, done)
    if None not in values.values():
        for kc, value in values.items():
            search.remember(kc, value)
    return solver.solve(position, misere)


def _run(executor: Executor, window: int, task, source: GameSource, memory: int,
         wanted: dict, done: Callable[[int, int], None] | None) -> dict:
    """{name: task(source, wanted[name], memory)} for every name of ``wanted``."""
    pending = deque(wanted)
    flight: dict = {}
    lost: set = set()
    found: dict = {}
    while pending or flight:
        while pending and len(flight) < window:
            name = pending.popleft()
            flight[executor.submit(task, source, wanted[name], memory)] = name
        arrived, _ = wait(flight, return_when=FIRST_COMPLETED)
        for future in arrived:
            name = flight.pop(future)
            try:
                found[name] = future.result()
            except BrokenExecutor:
                if name in lost:
                    raise ResourceError(f"a worker process died twice computing a part of the "
                                        f"search ({_brief(wanted[name])}): killed, or out of "
                                        "memory (lower --memory)") from None
                lost.add(name)
                pending.appendleft(name)
                continue
            if done is not None:
                done(len(found), len(wanted))
    return found


def _brief(position) -> str:
    text = repr(position)
    return text if len(text) <= 60 else text[:57] + "..."
