"""Admission to ``kayles serve``'s engine: heavy requests wait, in a bounded queue, for one
of a few workers of their own; past the queue's bounds the answer is a refusal, at once.

How it works.  A request that needs the engine (a *heavy* one: the Service says which,
``Service.quick``) comes to ``Admission.run`` with its client's address.  It is admitted
while that address has fewer than ``per_client`` requests admitted (computing or
waiting) and fewer than ``workers + queue`` are admitted in all; otherwise ``Busy`` (the
app answers 503 with Retry-After).  An admitted request waits, first come first served,
for one of ``workers`` threads, until its deadline (then ``Busy`` too); then its work
runs on that thread.  Cheap requests never come here: they run on Starlette's own thread
pool, so no heavy request stands in their way.

While a request waits or computes, the client's hanging up is watched for (``gone``, an
awaitable that returns when the ASGI server reports the disconnect): a waiting request
leaves the queue (``dropped``), a computing one has its ``cancel`` event set, which its
work sees at its next look at the kernels' interrupt hook and ends (the Service counts
those).  A worker stays taken until its thread has ended, so no more than ``workers``
threads ever compute.  ``stop`` (Ctrl-C) refuses what waits and whatever comes.

Only the event loop's thread touches the counts and the queue (no lock), except
``stop``, which hands itself to the loop.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from collections.abc import Awaitable, Callable

__all__ = ["PER_CLIENT", "QUEUE", "WORKERS", "Admission", "Busy", "Gone"]

WORKERS = min(8, max(2, os.cpu_count() or 2))  # threads computing heavy requests: the cores
QUEUE = 16  # heavy requests that may wait for a worker, beyond those computing
PER_CLIENT = 4  # heavy requests one client address may have computing or waiting


class Busy(Exception):
    """A request refused for now (HTTP 503): ``retry_after`` says in how many seconds to
    ask again (None: not again, the server is stopping)."""

    def __init__(self, message: str, retry_after: int | None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Gone(Exception):
    """The client hung up before its answer: none is sent."""


class Admission:
    """The bounded queue in front of the heavy requests' workers (see the module header)."""

    def __init__(self, workers: int = WORKERS, queue: int = QUEUE,
                 per_client: int = PER_CLIENT) -> None:
        self.workers, self.queue, self.per_client = workers, queue, per_client
        self.running = 0  # requests computing now
        self.refused = 0  # requests answered Busy (past a bound, or their deadline)
        self.dropped = 0  # requests whose client hung up while they waited
        self._waiting: deque[asyncio.Future] = deque()
        self._admitted: Counter[str] = Counter()  # per client address, computing or waiting
        self._pool: ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def stop(self) -> None:
        """Refuse every request waiting and every one to come (any thread, a signal
        handler's included)."""
        self._stopping = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake_all)

    async def run(self, client: str, call: Callable[[], object], *, deadline: float,
                  retry_after: int, cancel: threading.Event, gone: Awaitable[None]):
        """``call()`` on a worker, once admitted and a worker is free (see the module
        header); Busy past a bound or ``deadline`` (time.monotonic()), Gone when the
        client hangs up first."""
        watcher = asyncio.ensure_future(gone)
        try:
            self._admit(client, retry_after)
            try:
                await self._worker(deadline, retry_after, watcher)
                try:
                    return await self._compute(call, cancel, watcher)
                finally:
                    self._release()
            finally:
                self._admitted[client] -= 1
                if not self._admitted[client]:
                    del self._admitted[client]
        finally:
            watcher.cancel()

    def _admit(self, client: str, retry_after: int) -> None:
        if self._stopping:
            raise Busy("the server is stopping", None)
        admitted = self.running + len(self._waiting)
        if self._admitted[client] >= self.per_client:
            self.refused += 1
            raise Busy(f"this address has {self._admitted[client]} requests computing or "
                       f"waiting, the most it may have at once: ask again once one is "
                       f"answered (in {retry_after} s at most)", retry_after)
        if admitted >= self.workers + self.queue:
            self.refused += 1
            raise Busy(f"the server is busy ({admitted} requests computing or waiting, the "
                       f"most it takes): ask again in {retry_after} s", retry_after)
        self._admitted[client] += 1

    async def _worker(self, deadline: float, retry_after: int, watcher: asyncio.Future) -> None:
        """Take a worker, waiting for one (first come, first served) till ``deadline``."""
        self._loop = asyncio.get_running_loop()
        if self.running < self.workers and not self._waiting:
            self.running += 1
            return
        turn = self._loop.create_future()
        self._waiting.append(turn)
        try:
            await asyncio.wait({turn, watcher}, timeout=max(0.0, deadline - time.monotonic()),
                               return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            if self._leave(turn):
                self._release()
            raise
        handed = self._leave(turn)
        if handed and not watcher.done():
            return
        if handed:
            self._release()  # handed a worker as the client went: passed on
        if watcher.done():
            self.dropped += 1
            raise Gone
        if self._stopping:
            raise Busy("the server is stopping", None)
        self.refused += 1
        raise Busy(f"the server is busy: no worker was free in time: ask again in "
                   f"{retry_after} s", retry_after)

    def _leave(self, turn: asyncio.Future) -> bool:
        """Leave the queue: whether ``turn`` was handed a worker (then it holds one)."""
        if turn.done():
            return turn.result()  # _release or _wake_all took it off the queue
        turn.cancel()
        self._waiting.remove(turn)
        return False

    async def _compute(self, call: Callable[[], object], cancel: threading.Event,
                       watcher: asyncio.Future):
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="kayles-work")
        work = asyncio.get_running_loop().run_in_executor(self._pool, call)
        try:
            await asyncio.wait({work, watcher}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            cancel.set()
            raise
        if work.done():
            return work.result()
        cancel.set()  # the work ends at its next look at the interrupt hook
        await asyncio.wait({work})  # the worker is free once its thread is
        work.exception()  # (Cancelled, most often: the answer goes nowhere)
        raise Gone

    def _release(self) -> None:
        """A worker is free: hand it to the first request still waiting, if any."""
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(True)  # running stays counted: the worker changes hands
                return
        self.running -= 1

    def _wake_all(self) -> None:
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(False)
