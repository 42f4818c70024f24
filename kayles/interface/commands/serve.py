"""``kayles serve``: the web page for play and exploration, served on this machine."""

from __future__ import annotations

import sys

from ...errors import InputError
from ._shared import file_name

__all__ = ["register"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help="serve the web page: play, explore, teach (needs kayles[web])",
        description="Serve a page to play any game against perfect play, with each part's "
        "Grundy value, the nim-sum and why the winning move wins; and to explore a game's "
        "nim-sequence and its proof.  Bound to this machine unless --host says otherwise.  "
        "Needs the extra: pip install 'kayles[web]'.")
    p.add_argument("--port", type=_port, default=8000, help="the port (default 8000; 0: any "
                   "free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--db", metavar="FILE", type=file_name,
                   help="a survey database to show (kayles survey)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument("--seconds", type=_seconds, default=None, metavar="SECONDS",
                   help="the time one request may take, by the clock from its arrival and "
                   "in CPU time, whichever ends first (default 10); past it the request "
                   "gets a 400 that says so (a 503 if it was still waiting for a worker)")
    p.set_defaults(handler=command_serve)


def _port(text: str) -> int:
    import argparse

    from ..._numbers import natural

    try:
        port = natural(text, "--port")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if port > 65535:
        raise argparse.ArgumentTypeError(f"--port is 0 to 65535, not {text}")
    return port


def _seconds(text: str) -> float:
    import argparse
    import math

    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (0 < seconds <= 86400):
        raise argparse.ArgumentTypeError(f"--seconds is a number of seconds above 0 (at most a "
                                         f"day), not {text!r}")
    return seconds


def _listen(host: str, port: int):
    """A socket that listens on host and port, bound here so that a busy port is one
    clear line (not the server's own message)."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} on {host} is in use (another server?): choose "
                             f"another with --port, or --port 0 for any free one") from None
        raise InputError(f"cannot listen on {host} port {port}: "
                         f"{exc.strerror or exc}") from None


def command_serve(args, out) -> int:
    from ...errors import SetupError

    if args.db is not None:
        import os

        from ...storage._files import open_regular

        os.close(open_regular(args.db))  # a regular file that exists: never one made here
    try:
        import uvicorn

        from ..web.admission import Admission
        from ..web.app import create_app, loopback_hosts
        from ..web.server import slow_clients_closed
        from ..web.service import Service
    except ImportError:
        raise SetupError("serving the page needs the extra: pip install 'kayles[web]' (in a "
                         "checkout: make extras)") from None
    if args.host not in LOOPBACK:
        sys.stderr.write(f"kayles serve: warning: listening on {args.host}: anyone who can "
                         "reach this machine can use the page\n")
    listener = _listen(args.host, args.port)
    port = listener.getsockname()[1]
    service = Service(args.db) if args.seconds is None else Service(args.db, args.seconds)
    hosts = loopback_hosts(port) if args.host in LOOPBACK else None
    admission = Admission()
    config = uvicorn.Config(create_app(service, hosts, admission), log_level="warning",
                            lifespan="off", http=slow_clients_closed())
    server = uvicorn.Server(config)
    handle_exit = server.handle_exit

    def stop(number, frame) -> None:  # Ctrl-C, SIGTERM: the work under way ends too
        service.stop()  # at its next look at the interrupt hook
        admission.stop()  # what waits for a worker is refused
        handle_exit(number, frame)

    server.handle_exit = stop
    host = "127.0.0.1" if args.host in ("0.0.0.0", "localhost") else args.host
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    out.write(f"kayles serve: {url} (Ctrl-C stops)\n")
    out.flush()
    if args.open:
        import webbrowser

        webbrowser.open(url)
    server.run(sockets=[listener])
    return 0
