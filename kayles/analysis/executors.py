"""The edge of a survey: who computes the games, and the loop that feeds them.

``open_executor`` gives a ``concurrent.futures.Executor``: the caller itself for
one job, a process pool for more, or a running Dask scheduler (the optional
extra ``kayles[dask]``, through ``Client.get_executor``, whose futures are plain
``concurrent.futures`` futures).  ``survey`` claims each row in the store just
before it submits it, stores each result the moment it arrives (so an
interruption loses only what is in flight), and waits for rows another live
survey is computing; ``quotients`` computes misère quotients the same way (not
stored).  No scheduling of its own beyond a bounded window.

A pool worker killed under a survey (SIGKILL, the kernel's out-of-memory killer) breaks
the pool and every call in flight: a fresh pool takes over and the calls lost are made
again.  A code lost a second time is computed alone, so a code that kills its worker
itself fails (its row says so) and the codes beside it never do.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from contextlib import contextmanager

from ..errors import InputError, SetupError, shown
from .survey import misere_summary, summarise

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from ..storage.records import Summary
    from ..storage.store import Store

__all__ = ["open_executor", "quotients", "survey"]

POLL = 0.5  # seconds between looks at rows another survey is computing
DASK_TIMEOUT = "5s"  # how long to try reaching a Dask scheduler


class _Here(Executor):
    """Run each call at once in this process (one job: no pool, no pickling)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


def _start_worker() -> None:
    """Pool workers leave Ctrl-C to the survey, which stops them itself (with SIGTERM,
    which ends a worker quietly, not through the survey's own handler), and end when
    their parent does (a survey killed with SIGKILL leaves no worker computing on)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(POLL)
        os._exit(1)

    threading.Thread(target=watch, name="kayles-parent-watch", daemon=True).start()


class _Pool(Executor):
    """A process pool of ``jobs`` workers that starts afresh when a call finds it broken (a
    worker killed: the calls it had in flight raise BrokenExecutor)."""

    def __init__(self, jobs: int) -> None:
        self._jobs = jobs
        self._pool = ProcessPoolExecutor(jobs, initializer=_start_worker)

    def submit(self, fn, /, *args, **kwargs) -> Future:
        try:
            return self._pool.submit(fn, *args, **kwargs)
        except BrokenExecutor:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = ProcessPoolExecutor(self._jobs, initializer=_start_worker)
            return self._pool.submit(fn, *args, **kwargs)

    def stop_workers(self) -> None:
        stop = getattr(self._pool, "terminate_workers", None)  # Python 3.14
        if stop is not None:
            stop()
            return
        for process in list((getattr(self._pool, "_processes", None) or {}).values()):
            process.terminate()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


@contextmanager
def open_executor(jobs: int = 1, dask: str | None = None) -> Iterator[tuple[Executor, int]]:
    """(executor, how many calls to keep in flight) for ``jobs`` processes or a Dask scheduler."""
    if dask is not None:
        try:
            from distributed import Client
        except ImportError:
            raise SetupError("--dask needs the optional extra: pip install 'kayles[dask]' (in a "
                             "checkout: make extras)") \
                from None
        try:
            client = Client(dask, timeout=DASK_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"cannot reach the Dask scheduler at {shown(dask)}: {exc}") \
                from None
        import logging

        # "Couldn't gather 1 keys, rescheduling": a worker lost while its result was
        # fetched, which Dask computes again (a survey ends well, quietly); errors still show
        rescheduled = logging.getLogger("distributed.client")
        level = rescheduled.level
        rescheduled.setLevel(logging.ERROR)
        try:
            threads = sum(client.nthreads().values()) or 1
            yield client.get_executor(pure=False), 4 * threads
        finally:
            client.close()
            rescheduled.setLevel(level)
    elif jobs == 1:
        yield _Here(), 1
    else:
        pool = _Pool(jobs)
        try:
            yield pool, 4 * jobs
        except BaseException:
            pool.stop_workers()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def survey(codes: list[str], limit: int, store: Store, executor: Executor, window: int,
           done: Callable[[str], None],
           waits: Callable[[str, str], None] = lambda code, owner: None,
           notice: float = 10.0, compute: Callable[[str, int], Summary] = summarise,
           resumed: Callable[[int], None] | None = None) -> dict[str, str]:
    """Compute every code not yet done at ``limit`` (``compute(code, limit)``, by default
    ``kayles.analysis.survey.summarise``) and store it; {code: error} of failures.

    ``done(code)`` is called once per code that is (or becomes) done, ``waits(code,
    owner)`` once per code another survey is computing, when this one has waited
    ``notice`` seconds for it.  With ``resumed``, the codes the store holds already are
    not passed to ``done``: ``resumed(count)`` is called once with how many there are,
    before anything is computed.  On any exception (Ctrl-C included) this survey's
    unfinished claims are released.
    """
    finished = store.summaries(codes, limit, keep=0)  # each row checked, no values kept
    if resumed is not None:
        resumed(len(finished))
    else:
        for code in finished:
            done(code)
    pending = deque(code for code in codes if code not in finished)
    waiting: list[str] = []  # rows a live survey elsewhere is computing
    since: dict[str, float] = {}  # when this survey began to wait for a code
    told: set[str] = set()  # codes waits() was called for
    flight: dict[Future, str] = {}
    failures: dict[str, str] = {}
    lost: set[str] = set()  # codes a killed worker took down once
    suspects: deque[str] = deque()  # codes it took down twice: each computed alone
    alone: str | None = None  # the suspect in flight, nothing beside it
    try:
        while pending or flight or waiting or suspects:
            if suspects and not flight:
                alone = suspects.popleft()
                flight[executor.submit(compute, alone, limit)] = alone
            while pending and len(flight) < window and alone is None:
                code = pending.popleft()
                state = store.claim(code, limit)
                if state == "done":
                    done(code)
                elif state == "busy":
                    waiting.append(code)
                    since.setdefault(code, time.monotonic())
                    if code not in told and time.monotonic() - since[code] >= notice:
                        told.add(code)
                        waits(code, (store.status(code, limit) or ("", "?"))[1] or "?")
                else:
                    flight[executor.submit(compute, code, limit)] = code
            if flight:
                arrived, _ = wait(flight, timeout=POLL if waiting and not pending else None,
                                  return_when=FIRST_COMPLETED)
                for future in arrived:
                    code = flight.pop(future)
                    try:
                        summary = future.result()
                    except BrokenExecutor:
                        if code == alone:
                            failures[code] = ("its worker process died twice, the second time "
                                              "computing it alone (killed, or out of memory)")
                            store.fail(code, limit, failures[code])
                        elif code in lost:
                            suspects.append(code)
                        else:
                            lost.add(code)
                            pending.appendleft(code)  # its row is ours: claimed again
                    except Exception as exc:
                        failures[code] = str(exc) or type(exc).__name__
                        store.fail(code, limit, failures[code])
                    else:
                        store.finish(summary)
                        done(code)
                    if code == alone:
                        alone = None
            elif waiting:
                time.sleep(POLL)
            if waiting and not pending:
                pending.extend(waiting)
                waiting.clear()
    except BaseException:
        store.release()
        raise
    return failures


def quotients(codes: list[str], max_heap: int, budget: int, executor: Executor, window: int,
              done: Callable[[str, dict], None]) -> dict[str, dict]:
    """{code: kayles.analysis.survey.misere_summary} of every code, at most ``window`` in flight;
    ``done(code, summary)`` once per code computed, as it arrives."""
    pending = deque(codes)
    flight: dict[Future, str] = {}
    found: dict[str, dict] = {}
    while pending or flight:
        while pending and len(flight) < window:
            code = pending.popleft()
            flight[executor.submit(misere_summary, code, max_heap, budget)] = code
        arrived, _ = wait(flight, return_when=FIRST_COMPLETED)
        for future in arrived:
            code = flight.pop(future)
            try:
                found[code] = future.result()
            except Exception as exc:  # a worker's failure (memory, a lost Dask worker)
                found[code] = {"max_heap": max_heap, "heaps": 0, "order": None,
                               "p_size": None, "solved": None, "checksum": None,
                               "error": str(exc) or type(exc).__name__, "seconds": 0.0}
            done(code, found[code])
    return found
