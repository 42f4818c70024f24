"""`kayles serve` under many slow clients: admission, cancellation, caps by the clock.

The server here is the real one (the app, uvicorn, the connection protocol of
kayles.interface.web.server) on a thread of this process, on a free port, so that a
test can hold the heavy requests' kernels where they look at the interrupt hook
(``Hold``: a look blocks until released) and read the admission queue's counts.  No
verdict depends on the machine's speed: each test waits for a state (requests held,
refusals received) and asserts on what was answered while it held, and in what order.
Clients come from distinct loopback addresses (127.0.0.k) where the limit per client
address is not what is tested.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from urllib.parse import quote

import pytest

uvicorn = pytest.importorskip("uvicorn")

from kayles.errors import ResourceError  # noqa: E402
from kayles.interface.web import service as service_module  # noqa: E402
from kayles.interface.web.admission import Admission  # noqa: E402
from kayles.interface.web.app import create_app, loopback_hosts  # noqa: E402
from kayles.interface.web.server import slow_clients_closed  # noqa: E402
from kayles.interface.web.service import Service  # noqa: E402
from kayles.kernels.limits import set_interrupt  # noqa: E402

import oracle  # noqa: E402
from conftest import DEADLINE  # noqa: E402


def slow_code(k: int) -> str:
    """Distinct many-part codes (take one, leave 3 to 63 heaps, and more or fewer as k's
    bits say): each searches for minutes for its proof (the issue's reproduction)."""
    return quote(f"0.&{2**64 - 8 - k};")


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + DEADLINE  # only ends a stuck test
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.005)


class Hold:
    """The kernels' interrupt hook, held in the heavy requests' worker threads: each look
    blocks until ``release``; while it blocks it still looks at the Service's own hook
    every 10 ms (``looks``: a client gone, the server stopping, the request's time)."""

    def __init__(self, looks: bool = True) -> None:
        self.inner = service_module._interrupt
        self.looks = looks
        self.released = threading.Event()

    def __call__(self) -> None:
        if threading.current_thread().name.startswith("kayles-work"):
            while not self.released.wait(0.01):
                if self.looks:
                    self.inner()
        self.inner()

    def __enter__(self) -> Hold:
        set_interrupt(self)
        return self

    def __exit__(self, *exc) -> None:
        self.released.set()
        set_interrupt(self.inner)


class InProcess:
    """kayles serve's app and protocol served by uvicorn on a thread, on a free port."""

    def __init__(self, service: Service, admission: Admission) -> None:
        self.service, self.admission = service, admission
        listener = socket.create_server(("127.0.0.1", 0))
        self.port = listener.getsockname()[1]
        config = uvicorn.Config(create_app(service, loopback_hosts(self.port), admission),
                                log_level="warning", lifespan="off",
                                http=slow_clients_closed())
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [listener]})
        self.thread.start()
        wait_for(lambda: self.server.started, "the server started")

    def stop(self) -> None:
        self.service.stop()
        self.admission.stop()
        self.server.should_exit = True
        self.thread.join(DEADLINE)
        assert not self.thread.is_alive()


@pytest.fixture
def serve():
    started: list[InProcess] = []

    def start(service: Service, admission: Admission) -> InProcess:
        started.append(InProcess(service, admission))
        return started[-1]

    yield start
    for server in started:
        server.stop()


class Client:
    """One connection from loopback address 127.0.0.``k``, one request on it, its reply
    read on a thread of its own (``reply``: (status, headers, body) once it came)."""

    def __init__(self, server: InProcess, k: int, path: str, body: dict | None = None,
                 arrived: threading.Semaphore | None = None) -> None:
        self.socket = socket.create_connection(("127.0.0.1", server.port), timeout=DEADLINE,
                                               source_address=(f"127.0.0.{k}", 0))
        head = f"Host: 127.0.0.1:{server.port}\r\nConnection: close\r\n"
        if body is None:
            request = f"GET {path} HTTP/1.1\r\n{head}\r\n".encode()
        else:
            data = json.dumps(body).encode()
            request = (f"POST {path} HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                       f"Content-Length: {len(data)}\r\n\r\n").encode() + data
        self.socket.sendall(request)
        self.reply: tuple[int, dict, dict] | None = None
        self.arrived = arrived
        self.reader = threading.Thread(target=self._read)
        self.reader.start()

    def _read(self) -> None:
        chunks = []
        try:
            while chunk := self.socket.recv(65536):
                chunks.append(chunk)
        except OSError:
            return  # closed here: the client hung up
        finally:
            self.socket.close()
        if chunks:
            head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            headers = dict(line.lower().split(": ", 1) for line in lines[1:])
            self.reply = (int(lines[0].split()[1]), headers, json.loads(body))
        if self.arrived is not None:
            self.arrived.release()

    def answer(self) -> tuple[int, dict, dict]:
        self.reader.join(DEADLINE)
        assert self.reply is not None, "no answer"
        return self.reply

    def hang_up(self) -> None:
        if self.socket.fileno() >= 0:
            self.socket.shutdown(socket.SHUT_RDWR)
        self.reader.join(DEADLINE)


def replies(clients: list[Client]) -> list[tuple[int, dict, dict]]:
    return [c.reply for c in clients if c.reply is not None]


def assert_busy(reply, retry_after: str, says: str) -> None:
    status, headers, body = reply
    assert status == 503 and headers["retry-after"] == retry_after, reply
    assert headers["content-type"] == "application/json" and set(body) == {"error"}, reply
    assert says in body["error"] and "\n" not in body["error"], body


KAYLES = oracle.octal_nimbers("0.77", 7)


def test_an_ordinary_request_is_answered_while_a_hundred_slow_ones_are_held(serve):
    """The issue's reproduction, with a hundred: distinct many-part codes, each from its own
    address, beside an ordinary analysis of Kayles 7 5 3.  Those past the queue's bounds
    are refused at once (503, Retry-After); the ordinary request is answered, five times,
    while every admitted slow one is still held in its kernel, none of them answered (it
    waited for minutes behind them when they shared one pool of 40 threads)."""
    admission = Admission()
    server = serve(Service(seconds=3600), admission)
    admitted = admission.workers + admission.queue
    clients: list[Client] = []
    with Hold():
        try:
            arrived = threading.Semaphore(0)
            clients = [Client(server, 2 + k, f"/api/sequence?game={slow_code(k)}&count=10",
                              arrived=arrived) for k in range(100)]
            for _ in range(100 - admitted):  # every refusal, at once
                assert arrived.acquire(timeout=DEADLINE)
            wait_for(lambda: admission.running == admission.workers, "the workers busy")
            for _ in range(5):
                ordinary = Client(server, 200, "/api/analyse",
                                  {"game": "kayles", "position": [7, 5, 3]}).answer()
                status, _, report = ordinary
                assert status == 200, ordinary
                assert [p["value"] for p in report["parts"]] == [KAYLES[7], KAYLES[5],
                                                                 KAYLES[3]]
                assert report["nim_sum"] == KAYLES[7] ^ KAYLES[5] ^ KAYLES[3]
            held = [c for c in clients if c.reply is None]
            assert len(held) == admitted  # none of the admitted ones was answered meanwhile
            assert (admission.running, admission.waiting) == (admission.workers,
                                                              admission.queue)
            refusals = replies(clients)
            assert len(refusals) == 100 - admitted == admission.refused
            for reply in refusals:
                assert_busy(reply, "3600", "the server is busy")
        finally:
            for client in clients:
                client.hang_up()
    wait_for(lambda: admission.running == admission.waiting == 0, "the work cancelled")


def test_the_work_of_clients_that_hang_up_is_cancelled(serve):
    """Heavy requests computing (held in their kernels) and waiting for a worker: their
    clients hang up; the computing ones end at their next look at the hook (counted by
    the Service), the waiting ones leave the queue (counted by the admission), and the
    workers are free again: a new heavy request is answered."""
    admission = Admission(workers=2, queue=3, per_client=4)
    service = Service(seconds=3600)
    server = serve(service, admission)
    with Hold() as hold:
        clients = []
        for k in range(5):  # one at a time: the first two compute, the others wait
            clients.append(Client(server, 2 + k, f"/api/sequence?game={slow_code(k)}&count=10"))
            wait_for(lambda k=k: admission.running + admission.waiting == k + 1, "admitted")
        assert (admission.running, admission.waiting) == (2, 3)
        for client in clients[2:]:
            client.hang_up()
        wait_for(lambda: admission.waiting == 0, "the queue empty")
        assert (admission.running, admission.dropped, service.cancelled) == (2, 3, 0)
        for client in clients[:2]:
            client.hang_up()
        wait_for(lambda: admission.running == 0, "the work cancelled")
        assert service.cancelled == 2 and admission.dropped == 3
        hold.released.set()
        status, _, report = Client(server, 2, "/api/analyse", {
            "game": "kayles", "misere": True, "position": [4, 3]}).answer()  # heavy: misère
        assert status == 200 and report["outcome"] in ("N", "P"), report
    assert service.cancelled == 2 and admission.running == 0


def test_a_request_waiting_for_its_games_lock_is_cancelled_too(serve):
    """Two heavy requests on one game: the second waits, on a worker, for the game's lock
    that the first (held in its kernel) has; its client hangs up and it ends there, its
    worker free, while the first goes on."""
    admission = Admission(workers=2, queue=0, per_client=4)
    service = Service(seconds=3600)
    server = serve(service, admission)
    with Hold():
        first = Client(server, 2, f"/api/sequence?game={slow_code(0)}&count=10")
        wait_for(lambda: admission.running == 1, "the first one computing")
        second = Client(server, 3, f"/api/sequence?game={slow_code(0)}&count=10")
        wait_for(lambda: admission.running == 2, "the second one on a worker")
        second.hang_up()
        wait_for(lambda: admission.running == 1, "the second one cancelled")
        assert service.cancelled == 1 and first.reply is None
        first.hang_up()
        wait_for(lambda: admission.running == 0, "the first one cancelled")
    assert service.cancelled == 2


def test_past_the_limits_per_address_and_in_all_the_answer_is_503_at_once(serve):
    """One worker, two places in the queue, two requests an address: the third request of
    an address is refused at once (503, Retry-After: the cap, by when every request
    computing has ended), another address still gets in, and past the bound in all the
    next one is refused too."""
    admission = Admission(workers=1, queue=2, per_client=2)
    server = serve(Service(seconds=30), admission)
    clients = []
    with Hold():
        try:
            for k, address in enumerate((2, 2)):
                clients.append(Client(server, address,
                                      f"/api/sequence?game={slow_code(k)}&count=10"))
                wait_for(lambda k=k: admission.running + admission.waiting == k + 1, "admitted")
            third = Client(server, 2, f"/api/sequence?game={slow_code(2)}&count=10")
            assert_busy(third.answer(), "30", "this address has 2 requests computing or waiting")
            clients.append(Client(server, 3, f"/api/sequence?game={slow_code(3)}&count=10"))
            wait_for(lambda: admission.waiting == 2, "another address admitted")
            fourth = Client(server, 4, f"/api/sequence?game={slow_code(4)}&count=10")
            assert_busy(fourth.answer(), "30", "the server is busy (3 requests computing or "
                                               "waiting, the most it takes)")
            assert [c.reply for c in clients] == [None] * 3  # still held, unanswered
            assert admission.refused == 2
        finally:
            for client in clients:
                client.hang_up()


def test_a_request_waits_for_a_worker_no_longer_than_its_time(serve):
    """The cap is by the clock from a request's arrival: one held past its time in its
    kernel (held there, so it used almost no CPU) is refused by the clock once it looks,
    and one that waited that long for a worker is refused with 503 (the server is busy)."""
    admission = Admission(workers=1, queue=1, per_client=2)
    server = serve(Service(seconds=1), admission)
    with Hold(looks=False) as hold:  # held without a look at the time: it cannot end
        first = Client(server, 2, f"/api/sequence?game={slow_code(0)}&count=10")
        wait_for(lambda: admission.running == 1, "the first one computing")
        second = Client(server, 3, f"/api/sequence?game={slow_code(1)}&count=10")
        assert_busy(second.answer(), "1", "no worker was free in time")
        assert first.reply is None
        hold.released.set()
        status, _, body = first.answer()
    assert status == 400 and "needs more than the page's 1 s of work (by the clock" in (
        body["error"]), body


def test_the_python_api_caps_a_request_by_the_clock():
    """On a busy machine a request's thread gets little of the CPU: here each of its
    kernel's looks at the hook sleeps 20 ms (no CPU), as a thread waiting for a core
    would.  The request ends once its time has passed by the clock, well before it has
    used that much CPU time (it ran for minutes where only CPU time was counted)."""
    service = Service(seconds=0.5)
    inner = service_module._interrupt

    def busy_machine() -> None:
        time.sleep(0.02)
        inner()

    set_interrupt(busy_machine)
    try:
        with pytest.raises(ResourceError) as refused:
            service.sequence({"game": "0.&18446744073709551608;", "count": "10"})
    finally:
        set_interrupt(inner)
    said = str(refused.value)
    assert "needs more than the page's 0.5 s of work (by the clock:" in said, said
    cpu = float(said.split(" s of it on the CPU")[0].rsplit(", ", 1)[1])
    assert cpu < 0.5, said


# -- cheap or heavy, from what a request asks -------------------------------------------------


def test_cheap_requests_are_answered_from_values_already_computed():
    """``quick`` answers (the same as the engine) what comes from values computed or a
    small table, and says None (heavy) for a misère search, a proof to search for, the
    survey database and a long move search; once the engine has computed a sequence, its
    requests are cheap."""
    service = Service()
    cheap = [("analyse", {"game": "kayles", "position": [7, 5, 3]}),
             ("move", {"game": "kayles-xox", "position": "xxxxx", "move": "3"}),
             ("reply", {"game": "dawsons-kayles", "position": [9, 4]}),
             ("nimber", {"game": "kayles", "n": "40"})]
    for name, request in cheap:
        assert service.quick(name, request) == service.serve(name, request), name
    heavy = [("analyse", {"game": "kayles", "misere": True, "position": [3, 4]}),
             ("sequence", {"game": "0.137", "count": "100"}),
             ("nimber", {"game": "0.137", "n": str(10**6)}),
             ("analyse", {"game": "0.&18446744073709551608;", "position": [7]})]
    for name, request in heavy:
        assert service.quick(name, request) is None, (name, request)
    assert Service("survey.sqlite").quick("survey", {}) is None  # (not opened: heavy)
    service.sequence({"game": "0.137", "count": "100"})  # the engine proves its period
    assert service.quick("sequence", {"game": "0.137", "count": "100"}) == service.sequence(
        {"game": "0.137", "count": "100"})
    assert service.quick("nimber", {"game": "0.137", "n": str(10**6)})["value"] == (
        service.nimber({"game": "0.137", "n": str(10**6)})["value"])


def test_a_cheap_request_waits_for_no_lock_of_heavy_work():
    """While heavy work holds a game (its lock), a cheap request on the same game is
    answered from its table, and bad input is refused at once, never queued."""
    service = Service()
    service.sequence({"game": "kayles", "count": "1000"})
    entry = service._entry(service._game("kayles"))
    with entry.lock:
        report = service.quick("analyse", {"game": "kayles", "position": "xxxxxxxx.xxx"})
        assert report["parts"][0]["value"] == oracle.octal_nimbers("0.77", 8)[8]
        with pytest.raises(ValueError, match="only '.' and 'x'"):
            service.quick("analyse", {"game": "kayles", "misere": True, "position": "xox"})
