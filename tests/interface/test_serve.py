"""`kayles serve` as a real process, attacked as a hostile client or page would.

Each test talks HTTP over a socket to a server started on a free port: work bounded
per request and stopped by Ctrl-C, bodies counted as they arrive, requests from other
sites refused (Host header, content type), slow clients closed, what is not HTTP a
JSON 400, deep JSON a 400, no files written into the user's cache, a busy port one
clear line.  (tests/interface/test_admission.py: many slow clients at once.)
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from urllib.parse import quote

import pytest

pytest.importorskip("uvicorn")

import oracle  # noqa: E402
from conftest import ROOT, assert_usage_error, signal_and_measure, wait_until_busy  # noqa: E402

SEVENS = "0." + "7" * 63  # the longest code: 63 kinds, values that keep growing
MANY_PARTS = quote("0.&18446744073709551608;")  # take one, leave 3 to 63 heaps: a heap of
                                                # 60 searches for minutes (take-and-break)
CLIENT_SECONDS = 1  # KAYLES_CLIENT_SECONDS: how long a client may take over a request's head


class Server:
    def __init__(self, tmp_path, *args: str) -> None:
        self.cache = tmp_path / "cache"
        self.cache.mkdir()
        env = {**os.environ, "XDG_CACHE_HOME": str(self.cache),
               "KAYLES_CLIENT_SECONDS": str(CLIENT_SECONDS)}
        self.proc = subprocess.Popen([sys.executable, "-m", "kayles", "serve", "--port", "0",
                                      *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=ROOT, env=env)
        line = self.proc.stdout.readline().decode()
        assert line.startswith("kayles serve: http://127.0.0.1:"), line
        self.port = int(line.split(":")[3].split("/")[0])

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=120)

    def exchange(self, request: bytes) -> tuple[int, bytes]:
        """Send one raw request and read the whole reply: (status, body)."""
        with self.connect() as s:
            s.sendall(request)
            reply = read_reply(s)
        head, _, body = reply.partition(b"\r\n\r\n")
        return int(head.split()[1]), body

    def get_from(self, k: int, path: str) -> tuple[int, dict]:
        """GET from loopback address 127.0.0.k (another client, as the server counts them)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=120,
                                      source_address=(f"127.0.0.{k}", 0)) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                      "Connection: close\r\n\r\n".encode())
            reply = read_reply(s)
        head, _, body = reply.partition(b"\r\n\r\n")
        return int(head.split()[1]), json.loads(body)

    def get(self, path: str, host: str | None = None) -> tuple[int, dict]:
        host = host or f"127.0.0.1:{self.port}"
        status, body = self.exchange(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n"
                                     "Connection: close\r\n\r\n".encode())
        return status, json.loads(body)

    def post(self, path: str, body: bytes, kind: str = "application/json") -> tuple[int, dict]:
        status, reply = self.exchange(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: {kind}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
        return status, json.loads(reply)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=120)
            finally:
                if self.proc.poll() is None:
                    self.proc.kill()
        if not self.proc.stderr.closed:
            self.said = self.proc.stderr.read()  # what the server wrote on stderr
        self.proc.stdout.close()
        self.proc.stderr.close()


def read_reply(s: socket.socket) -> bytes:
    """Everything the server sends till it closes the connection."""
    chunks = []
    while chunk := s.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path, "--seconds", "1")
    yield running
    running.stop()


@pytest.mark.parametrize("game, count", [(SEVENS, 131072), (MANY_PARTS, 100)])
def test_a_request_past_its_cpu_time_is_refused_and_others_are_served(server, game, count):
    status, body = server.get(f"/api/sequence?game={game}&count={count}")
    assert status == 400 and "needs more than the page's 1 s of work" in body["error"], body
    status, body = server.get("/api/nimber?game=kayles&n=10")
    assert (status, body["value"]) == (200, 2)


MISERE_HEAVY = {"game": "0.3777777", "misere": True,
                "position": [200, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9, 11]}


def test_a_misere_request_past_its_cpu_time_is_refused(server):
    """The misère search and quotients answer the page's time cap too (an interrupt hook in
    the kernels' loops: no signal reaches a request's thread)."""
    status, body = server.post("/api/analyse", json.dumps(MISERE_HEAVY).encode())
    assert status == 400 and "needs more than the page's 1 s of work" in body["error"], body
    status, body = server.post("/api/analyse", json.dumps(
        {"game": "0.777", "misere": True, "position": [5000, 5000]}).encode())
    assert status == 400 and "needs more than the page's 1 s of work" in body["error"], body
    assert server.get("/api/nimber?game=kayles&n=10")[0] == 200


@pytest.mark.parametrize("request_kind", ["takebreak", "misere"])
def test_other_clients_are_answered_while_a_long_request_computes(tmp_path, request_kind):
    """The take-and-break kernel and the misère search release the GIL: with no cap, a
    request whose every heap searches splits into up to 63 parts computes for minutes, and
    other clients are answered while it does (it held every client up till it ended, past
    its cap and deaf to Ctrl-C); the same for a misère search of minutes."""
    running = Server(tmp_path, "--seconds", "3600")
    if request_kind == "takebreak":
        ask = (running.get, f"/api/sequence?game={MANY_PARTS}&count=100")
    else:
        ask = (running.post, "/api/analyse", json.dumps(MISERE_HEAVY).encode())
    asked = threading.Thread(target=lambda: _ignore_errors(*ask))
    try:
        asked.start()
        wait_until_busy(running.proc, 1.5)  # well into the work
        expected = oracle.octal_nimbers("0.77", 14)
        for n in range(10, 15):
            status, body = running.get(f"/api/nimber?game=kayles&n={n}")
            assert status == 200 and body["value"] == expected[n], body
        assert asked.is_alive()  # answered while the long request went on
    finally:
        running.stop()
        asked.join()


@pytest.mark.parametrize("request_kind", ["sequence", "takebreak", "misere", "forty"])
def test_ctrl_c_stops_the_server_in_the_middle_of_a_long_request(tmp_path, request_kind):
    """A sequence request, a take-and-break one (its kernel's pulse), a misère search
    (the kernels' interrupt hook) and forty take-and-break ones from forty addresses
    (computing, waiting for a worker, refused), each well under way: Ctrl-C ends the
    server quietly, and every client that was let in gets its answer (none is left
    hanging)."""
    running = Server(tmp_path, "--seconds", "3600")
    if request_kind == "sequence":
        asks = [(running.get, f"/api/sequence?game={SEVENS}&count=131072")]
    elif request_kind == "takebreak":
        asks = [(running.get, f"/api/sequence?game={MANY_PARTS}&count=100")]
    elif request_kind == "misere":
        asks = [(running.post, "/api/analyse", json.dumps(MISERE_HEAVY).encode())]
    else:
        asks = [(running.get_from, 2 + k, "/api/sequence?game="
                 f"{quote(f'0.&{2**64 - 8 - k};')}&count=10") for k in range(40)]
    answers: list = []
    asked = [threading.Thread(target=lambda ask=ask: answers.append(_ignore_errors(*ask)))
             for ask in asks]
    try:
        for thread in asked:
            thread.start()
        wait_until_busy(running.proc, 1.5)  # well into the work
        took, _, err = signal_and_measure(running.proc, signal.SIGINT)
    finally:
        running.stop()
        for thread in asked:
            thread.join()
    assert took < 2, took
    assert running.proc.returncode in (0, 130), err
    assert b"Traceback" not in err, err
    if request_kind == "forty":
        statuses = sorted({status for status, _ in answers})
        assert set(statuses) <= {400, 503} and len(answers) == 40, statuses


def _ignore_errors(call, *args):
    try:
        return call(*args)
    except (OSError, ValueError, IndexError):
        return None  # the server went away: what the test wants


def test_a_chunked_body_is_refused_once_it_is_too_long(server):
    with server.connect() as s:
        s.sendall(f"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                  "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"
        sent = 0
        try:
            while sent < 1 << 30:  # a gigabyte, if nothing stops it
                s.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass  # the server closed the connection
        reply = read_reply(s)
    assert reply.split()[1] == b"413", reply[:200]
    assert sent < 64 << 20, sent  # it stopped reading long before the gigabyte


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1:1"])
def test_a_request_for_another_host_is_refused(server, host):
    """DNS rebinding: a page of another site, its name pointed at 127.0.0.1, sends its
    own name as Host."""
    status, body = server.get("/api/games", host=host)
    assert status == 421 and "Host" in body["error"], body
    assert server.get("/api/games", host=f"localhost:{server.port}")[0] == 200


def test_a_post_that_is_not_declared_json_is_refused(server):
    body = json.dumps({"game": "kayles", "misere": False, "position": "xxx"}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        status, reply = server.post("/api/analyse", body, kind)
        assert status == 415 and "application/json" in reply["error"], (kind, reply)
    assert server.post("/api/analyse", body)[0] == 200


def test_deeply_nested_json_is_a_400(server):
    status, body = server.post("/api/analyse", b"[" * 60000)
    assert status == 400 and "not JSON" in body["error"], body


def test_requests_write_nothing_into_the_cache(server):
    for game in ("kayles", "0.07", "0.137", "0.354", "grundy"):
        assert server.get(f"/api/sequence?game={game}&count=100")[0] == 200
    assert [p for p in server.cache.rglob("*") if p.is_file()] == []


def test_slow_clients_are_closed_and_the_server_goes_on(server):
    """Connections that never finish a request's head: the server closes them after
    KAYLES_CLIENT_SECONDS, and past MAX_CONNECTIONS at once; then it serves as before."""
    from kayles.interface.web.server import MAX_CONNECTIONS

    slow = []
    try:
        for _ in range(MAX_CONNECTIONS + 40):
            s = server.connect()
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(s)
        closed_unanswered(slow)
    finally:
        for s in slow:
            s.close()
    assert server.get("/api/nimber?game=kayles&n=10")[0] == 200


def closed_unanswered(sockets) -> None:
    """Each connection is closed by the server, at once or in time, with no answer."""
    for s in sockets:
        try:
            said = read_reply(s)
        except ConnectionResetError:
            said = b""
        assert said == b"", said[:200]


def test_slow_request_bodies_lock_no_client_out(server):
    """A full head, then a body that trickles: the whole request, body included, must come
    within KAYLES_CLIENT_SECONDS, and a quick client takes the place of the slowest
    connection when all are held; so every quick request is answered while the slow ones
    are there, and each slow one ends closed, unanswered."""
    from kayles.interface.web.server import MAX_CONNECTIONS

    slow = []
    try:
        for _ in range(MAX_CONNECTIONS):
            s = server.connect()
            s.sendall(f"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                      "Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"
                      .encode())
            slow.append(s)
        for _ in range(10):
            assert server.get("/api/nimber?game=kayles&n=10")[0] == 200
        closed_unanswered(slow)
    finally:
        for s in slow:
            s.close()
    assert server.get("/api/nimber?game=kayles&n=10")[0] == 200
    server.stop()
    assert b"Traceback" not in server.said, server.said[-2000:]


@pytest.mark.parametrize("sent", [
    b"NOT HTTP AT ALL\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\na header with no colon\r\n\r\n",
    b"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: many\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
], ids=["request line", "header", "length", "control character"])
def test_what_is_not_http_gets_the_apis_json_error(server, sent):
    """A bad request line or header is answered as every other error: 400 and one JSON
    object (uvicorn sent a line of plain text), then the connection closes."""
    with server.connect() as s:
        try:
            s.sendall(sent)
        except OSError:
            pass  # the server answered and closed before the end of the head
        reply = read_reply(s)
    head, _, body = reply.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").lower().split("\r\n")
    assert lines[0].split()[1] == "400", reply[:300]
    assert "content-type: application/json" in lines and "connection: close" in lines, lines
    said = json.loads(body)
    assert set(said) == {"error"} and "not an HTTP request" in said["error"], said
    assert server.get("/api/nimber?game=kayles&n=10")[0] == 200


def test_a_busy_port_is_one_line(server):
    result = subprocess.run([sys.executable, "-m", "kayles", "serve", "--port",
                             str(server.port)], capture_output=True, cwd=ROOT, timeout=120)
    assert_usage_error(result)
    assert f"port {server.port} on 127.0.0.1 is in use".encode() in result.stderr
