"""The HTTP connections of ``kayles serve``: slow or idle clients are closed, and what is
not HTTP gets the API's JSON error.

uvicorn's own protocol waits as long as a client likes for a request, head or body,
so a few hundred half-sent requests would hold every file descriptor and lock every
other client out.  Here each connection must complete a whole request, its body
included, within REQUEST_SECONDS of opening, or of its last response (which also
closes idle keep-alive connections).  Past MAX_CONNECTIONS open ones, a new
connection takes the place of the one that has waited longest for its request to
complete (a client that is quick is always served; a slow one is the one to wait),
or is closed at once when every other one is being answered: the server keeps
descriptors for its own files.  KAYLES_CLIENT_SECONDS (a number of seconds) overrides
REQUEST_SECONDS, for tests.

A request h11 cannot read (a bad request line, a bad header, a head past h11's size
limit) is answered as every other error of the API: status 400 and one JSON object
{"error": "one sentence"}, where uvicorn would send a line of plain text; the
connection then closes (what follows cannot be told apart from the bad request).
"""

from __future__ import annotations

import json
import os
import resource

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["MAX_CONNECTIONS", "REQUEST_SECONDS", "slow_clients_closed"]

REQUEST_SECONDS = 10.0  # a whole request arrives within this, or the connection closes
MAX_CONNECTIONS = 256  # open connections; more are closed as they come
NOT_HTTP = json.dumps({"error": "this is not an HTTP request the server can read (a bad "
                                "request line or header)"}).encode()


def _request_seconds() -> float:
    try:
        seconds = float(os.environ.get("KAYLES_CLIENT_SECONDS", ""))
    except ValueError:
        return REQUEST_SECONDS
    return seconds if 0 < seconds < REQUEST_SECONDS else REQUEST_SECONDS


def _more_descriptors() -> None:
    """The soft limit on open files raised to the hard one (often 1,024 against far more)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass  # the limit stays: MAX_CONNECTIONS is well below any usual one


def slow_clients_closed() -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing connections that are slow to send a whole request,
    and making room past MAX_CONNECTIONS (the module header)."""
    seconds = _request_seconds()
    _more_descriptors()

    class Protocol(H11Protocol):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._await_request()
            if len(self.connections) > MAX_CONNECTIONS:
                waiting = [c for c in self.connections if c is not self and c.incomplete()]
                slowest = min(waiting, key=lambda c: c.waiting_since, default=self)
                slowest.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._await_request()

        def send_400_response(self, msg: str) -> None:
            """The answer to what h11 cannot read: the API's JSON error, then close."""
            headers = [(b"content-type", b"application/json"), (b"connection", b"close"),
                       (b"content-length", str(len(NOT_HTTP)).encode())]
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                          h11.Data(data=NOT_HTTP), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

        def incomplete(self) -> bool:
            """Whether the request awaited has not arrived whole yet (head or body)."""
            cycle = self.cycle
            return cycle is self.waiting_after or (cycle is not None and cycle.more_body)

        def _await_request(self) -> None:
            """Close the connection unless a whole new request arrives in time."""
            self.waiting_after = self.cycle
            self.waiting_since = self.loop.time()
            waiting_after = self.cycle

            def too_slow() -> None:
                if (self.waiting_after is waiting_after and self.incomplete()
                        and not self.transport.is_closing()):
                    self.transport.close()

            self.loop.call_later(seconds, too_slow)

    return Protocol
