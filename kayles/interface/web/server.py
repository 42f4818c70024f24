"""The HTTP connections of ``kayles serve``: slow or idle clients are closed.

uvicorn's own protocol waits as long as a client likes for a request's head, so a
few hundred half-sent requests would hold every file descriptor.  Here each
connection must complete a request's head within HEADER_SECONDS of opening, or of
its last response (which also closes idle keep-alive connections); and past
MAX_CONNECTIONS open ones, a new connection is closed at once, so the server
always keeps descriptors for its own files.  KAYLES_CLIENT_SECONDS (a number of
seconds) overrides HEADER_SECONDS, for tests.
"""

from __future__ import annotations

import os
import resource

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_SECONDS", "MAX_CONNECTIONS", "slow_clients_closed"]

HEADER_SECONDS = 10.0  # a request's head arrives within this, or the connection closes
MAX_CONNECTIONS = 256  # open connections; more are closed as they come


def _header_seconds() -> float:
    try:
        seconds = float(os.environ.get("KAYLES_CLIENT_SECONDS", ""))
    except ValueError:
        return HEADER_SECONDS
    return seconds if 0 < seconds < HEADER_SECONDS else HEADER_SECONDS


def _more_descriptors() -> None:
    """The soft limit on open files raised to the hard one (often 1,024 against far more)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass  # the limit stays: MAX_CONNECTIONS is well below any usual one


def slow_clients_closed() -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing connections that are slow to send a request's head
    and those past MAX_CONNECTIONS."""
    seconds = _header_seconds()
    _more_descriptors()

    class Protocol(H11Protocol):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > MAX_CONNECTIONS:
                transport.close()
                return
            self._await_head()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._await_head()

        def _await_head(self) -> None:
            """Close the connection unless a new request's head arrives in time."""
            waiting_after = self.cycle

            def too_slow() -> None:
                if self.cycle is waiting_after and not self.transport.is_closing():
                    self.transport.close()

            self.loop.call_later(seconds, too_slow)

    return Protocol
