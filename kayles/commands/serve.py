"""``kayles serve``: the web page for play and exploration, served on this machine."""

from __future__ import annotations

import sys

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
    p.add_argument("--db", metavar="FILE", help="a survey database to show (kayles survey)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(run=run_serve)


def _port(text: str) -> int:
    import argparse

    from .._numbers import natural

    try:
        port = natural(text, "--port")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if port > 65535:
        raise argparse.ArgumentTypeError(f"--port is 0 to 65535, not {text}")
    return port


def run_serve(args, out) -> int:
    from ..errors import SetupError

    if args.db is not None:
        import os

        from .._files import open_regular

        os.close(open_regular(args.db))  # a regular file that exists: never one made here
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.service import Service
    except ImportError:
        raise SetupError("serving the page needs the extra: pip install 'kayles[web]'") from None
    if args.host not in LOOPBACK:
        sys.stderr.write(f"kayles serve: warning: listening on {args.host}: anyone who can "
                         "reach this machine can use the page\n")
    config = uvicorn.Config(create_app(Service(args.db)), host=args.host, port=args.port,
                            log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    _announce_when_ready(server, args, out)
    server.run()
    return 0


def _announce_when_ready(server, args, out) -> None:
    """Print the URL (and open it) once the server listens: then the port is known."""
    started = server.startup

    async def startup(sockets=None):
        await started(sockets)
        port = server.servers[0].sockets[0].getsockname()[1] if server.servers else args.port
        host = "127.0.0.1" if args.host in ("0.0.0.0", "localhost") else args.host
        url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
        out.write(f"kayles serve: {url} (Ctrl-C stops)\n")
        out.flush()
        if args.open:
            import webbrowser

            webbrowser.open(url)

    server.startup = startup
