"""The ASGI app of ``kayles serve``: the page's files and its JSON API (Starlette).

    GET  /                    the page (kayles/interface/web/static/index.html, app.js, style.css)
    GET  /api/games           the named games and their moves
    POST /api/analyse         {game, misere, position}: parts, values, nim-sum, outcome,
                              the winning move and why
    POST /api/move            {game, misere, position, move}: the user's move (as the
                              terminal takes it: "4", "3 5", "heap 2 -> 1 + 4"), then the
                              program's answer, and the analysis of the position after
    POST /api/reply           {game, misere, position}: the program's move
    GET  /api/sequence        ?game=&count=: G(0..count-1), the proof, rare values
    GET  /api/nimber          ?game=&n=: G(n) for any n
    GET  /api/survey          ?computed=: the done rows of the server's --db

A position is a row ("xx.xxx") or a list of heap sizes.  Bad input, and a request
past a bound (``kayles.errors``' InputError and ResourceError), is HTTP 400 with
{"error": "one sentence"}; a bug is 500 with the same kind of object (the server's
log has the traceback); an unknown path 404, a wrong method 405, a body
over MAX_BODY bytes 413 (counted as it arrives, chunked or not), a POST whose
body is not declared application/json 415, a heavy request past the admission
queue's bounds 503 with Retry-After (kayles.interface.web.admission), each with the
same kind of object.  No request names a file.

Cheap or heavy: each API request is first offered to ``Service.quick`` on Starlette's
thread pool (with the pages, the static files and the game list), which answers at
once what comes from values already computed; what it cannot answer goes to the
admission queue and its workers, and while it waits or computes, its client's hanging
up (the ASGI disconnect) cancels it.

Other sites the user visits must not drive the page: a request whose Host header
is not one of the names the server answers to (the loopback names and port
unless --host widened them) gets 421 before anything else is read, which defeats
DNS rebinding; and a POST must say application/json, which a page of another
origin cannot send without a preflight that is never allowed.  The web stack (the
extra ``kayles[web]``) is imported by this module alone, which ``kayles serve``
imports only when it serves.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...errors import InputError, ResourceError
from .admission import Admission, Busy, Gone
from .service import Service, Ticket

__all__ = ["MAX_BODY", "create_app", "loopback_hosts"]

MAX_BODY = 64 * 1024  # bytes of a request's JSON body
STATIC = Path(__file__).with_name("static")


def _error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    # A body too long is not read further: the connection closes after the answer.
    if status == 413:
        headers = {**(headers or {}), "Connection": "close"}
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _gone(receive) -> None:
    """Return once the client has hung up (the ASGI server's http.disconnect)."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def _body(request: Request) -> dict:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPException(415, "a request body is JSON, sent as application/json")
    too_long = HTTPException(413, f"a request body is at most {MAX_BODY} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise too_long
    data = bytearray()
    async for chunk in request.stream():  # counted as it comes: a chunked body has no length
        data += chunk
        if len(data) > MAX_BODY:
            raise too_long
    try:
        body = json.loads(data or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise InputError("the request body is not JSON (or nests too deeply)") from None
    if not isinstance(body, dict):
        raise InputError("the request body is a JSON object")
    return body


def _host_check(app, hosts: frozenset[str] | None):
    """ASGI middleware: 421 for a request whose Host header is not in ``hosts`` (None: any
    host, as when the server listens beyond this machine)."""

    async def checked(scope, receive, send):
        if hosts is not None and scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
            if host not in hosts:
                response = _error(421, "this server answers to its own address only "
                                       "(the Host header names another)")
                await response(scope, receive, send)
                return
        await app(scope, receive, send)

    return checked


def loopback_hosts(port: int) -> frozenset[str]:
    """The Host headers a browser sends to a server on this machine's loopback port."""
    names = ("127.0.0.1", "localhost", "[::1]")
    return frozenset(name + suffix for name in names for suffix in ("", f":{port}"))


def create_app(service: Service | None = None, hosts: frozenset[str] | None = None,
               admission: Admission | None = None):
    """The app, over ``service`` (a new Service without a survey database by default),
    answering requests whose Host header is in ``hosts`` (None: any), its heavy requests
    let in by ``admission`` (a new Admission with the default bounds by default)."""
    service = service or Service()
    admission = admission or Admission()
    retry_after = max(1, math.ceil(service.seconds))  # every request computing ends by then

    async def answer(request: Request, name: str, data: dict, ticket: Ticket) -> JSONResponse:
        found = await run_in_threadpool(service.quick, name, data, ticket)
        if found is None:
            found = await admission.run(
                request.client.host if request.client else "",
                functools.partial(service.serve, name, data, ticket),
                deadline=ticket.arrived + service.seconds, retry_after=retry_after,
                cancel=ticket.gone, gone=_gone(request.receive))
        return JSONResponse(found)

    def posted(name: str):
        async def endpoint(request: Request) -> JSONResponse:
            ticket = Ticket()
            return await answer(request, name, await _body(request), ticket)
        return endpoint

    def queried(name: str):
        async def endpoint(request: Request) -> JSONResponse:
            return await answer(request, name, dict(request.query_params), Ticket())
        return endpoint

    async def games(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(service.games))

    async def page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def bad_input(request: Request, exc: Exception) -> JSONResponse:
        return _error(400, str(exc))

    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, exc.detail)

    async def busy(request: Request, exc: Busy) -> JSONResponse:
        headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
        return _error(503, str(exc), headers)

    async def gone(request: Request, exc: Exception) -> Response:
        return Response(status_code=400)  # sent nowhere: the client went (or was closed)

    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"internal error: {type(exc).__name__} (a bug in kayles: please "
                           "report it with the request)")

    routes = [
        Route("/", page),
        Route("/api/games", games),
        Route("/api/analyse", posted("analyse"), methods=["POST"]),
        Route("/api/move", posted("move"), methods=["POST"]),
        Route("/api/reply", posted("reply"), methods=["POST"]),
        Route("/api/board", posted("board"), methods=["POST"]),
        Route("/api/sequence", queried("sequence")),
        Route("/api/nimber", queried("nimber")),
        Route("/api/survey", queried("survey")),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {InputError: bad_input, ResourceError: bad_input, HTTPException: http_error,
                Busy: busy, ClientDisconnect: gone, Gone: gone, Exception: internal_error}
    return _host_check(Starlette(routes=routes, exception_handlers=handlers), hosts)
