"""The web board's server: an aiohttp application over a :class:`~polytile.serve.board.Board`.

Safety of a server on the local machine (another web page in the same browser must not be
able to drive it, as Jupyter guards its own):

* every request but the page's own script, style and icon carries the run's secret token,
  compared in constant time: in the cookie the first load of the page sets (``HttpOnly``,
  ``SameSite=Lax``, named by the port so that two boards on one machine keep theirs apart;
  cookies are not kept apart by port, so this is no wall against other local servers, which
  is what the origin check below is for), in the ``X-Polytile-Token`` header, or in the query
  ``?token=``. The first load, ``/?token=...``, sets the cookie and sends the browser on to
  ``/``, so that the token leaves the address bar, the history and any link copied from it;
* a request that changes something (any method but GET and HEAD) must come from the page's
  own origin: one whose ``Origin`` names another (another port of this machine included), or
  that the browser marks as cross-site (``Sec-Fetch-Site``), starts nothing, even with the
  token;
* every answer, errors included, says ``X-Content-Type-Options: nosniff`` and
  ``Referrer-Policy: no-referrer``; an unknown route answers a JSON 404;
* the ``Host`` header must name this server (``127.0.0.1``, ``localhost``, ``[::1]`` or the
  ``--host`` given, with the port it listens on), which defeats DNS rebinding;
* records are found by index, never by a path: only the files given and those uploaded (saved
  by the server in its own temporary folder) are read;
* uploads are limited to :data:`~polytile.serve.board.MAX_UPLOAD_BYTES` and refused with a
  message when they are not a game's file;
* a request that fails answers with its error (4xx for what the request got wrong, 500 for a
  bug, logged) and the server goes on.

The faces' work (reading a record, drawing it, listing legal moves) runs in one worker thread,
one request at a time, so the event loop keeps answering; an engine player's thinking runs in
a thread of its own, one move at a time, so the board answers while the engine thinks (its
move is then played in the board's thread); analyses run in worker processes
(:mod:`polytile.serve.analysis`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import shutil
import tempfile
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from polytile._files import MAX_DEPTH, too_deep
from polytile.errors import PolytileError
from polytile.serve.board import MAX_UPLOAD_BYTES, UPLOAD_SUFFIXES, Board, BoardError
from polytile.serve.store import Shelf
from polytile.text import printable

__all__ = ["BOARD", "HOSTS", "SHELF", "TOKEN", "make_app"]

log = logging.getLogger("polytile.serve")

#: The application keys: the board, the secret token, the host names accepted.
BOARD = web.AppKey("board", Board)
SHELF = web.AppKey("shelf", Shelf)
TOKEN = web.AppKey("token", str)
HOSTS = web.AppKey("hosts", frozenset)
_POOL = web.AppKey("pool", ThreadPoolExecutor)
_ENGINE = web.AppKey("engine", ThreadPoolExecutor)
_UPLOADS = web.AppKey("uploads", Path)
_ANALYSES = web.AppKey("analyses", object)

#: The files of the page, shipped in the package (``polytile/serve/static``), by URL.
STATIC = {"/board.js": ("board.js", "text/javascript"),
          "/board.css": ("board.css", "text/css"),
          "/favicon.svg": ("favicon.svg", "image/svg+xml"),
          "/favicon.ico": ("favicon.svg", "image/svg+xml")}  # fmt: skip
#: The methods that only read: every other must come from the page's own origin.
SAFE_METHODS = frozenset({"GET", "HEAD"})
#: Headers on every answer, errors included.
ALWAYS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
#: The names a browser on this machine reaches the server by.
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})

_T = TypeVar("_T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def make_app(board: Board, token: str | None = None, host: str = "127.0.0.1",
             analyses: Any = None, shelf: Shelf | None = None) -> web.Application:  # fmt: skip
    """The application serving ``board``.

    Parameters
    ----------
    board
        The records served.
    token
        The secret every request must carry (a new random one when None: read it back as
        ``app[TOKEN]``).
    host
        The address the server is bound to; a name or address other than a wildcard is
        accepted in ``Host`` besides :data:`LOCAL_NAMES`.
    analyses
        The :class:`~polytile.serve.analysis.Analyses` running solvers for the page (None:
        a new one, stopped with the application).
    shelf
        The puzzle stores served (None: none).
    """
    app = web.Application(middlewares=[_guard], client_max_size=MAX_UPLOAD_BYTES)
    app[BOARD] = board
    app[SHELF] = shelf or Shelf()
    app[TOKEN] = token or secrets.token_urlsafe(24)
    names = set(LOCAL_NAMES)
    if host not in ("", "0.0.0.0", "::"):
        names.add(f"[{host}]" if ":" in host else host)
    app[HOSTS] = frozenset(n.lower() for n in names)
    app[_POOL] = ThreadPoolExecutor(1, thread_name_prefix="polytile-board")
    app[_ENGINE] = ThreadPoolExecutor(1, thread_name_prefix="polytile-engine")
    app[_UPLOADS] = Path(tempfile.mkdtemp(prefix="polytile-serve-"))
    if analyses is None:
        from polytile.serve.analysis import Analyses

        analyses = Analyses(app[_UPLOADS])
    app[_ANALYSES] = analyses
    app.on_startup.append(_start_reaper)
    app.on_response_prepare.append(_always)
    app.on_cleanup.append(_cleanup)
    app.router.add_get("/", _page)
    for url in STATIC:
        app.router.add_get(url, _static)
    app.router.add_get("/api/records", _records)
    app.router.add_get("/api/records/{index}", _position)
    app.router.add_post("/api/records/{index}/play", _play)
    app.router.add_post("/api/records/{index}/preview", _preview)
    app.router.add_post("/api/records/{index}/engine", _engine)
    app.router.add_get("/api/records/{index}/cells", _cells)
    app.router.add_get("/api/records/{index}/download", _download)
    app.router.add_get("/api/records/{index}/picture", _picture)
    app.router.add_post("/api/upload", _upload)
    app.router.add_post("/api/records/{index}/analysis", _start_analysis)
    app.router.add_get("/api/stores", _stores)
    app.router.add_get("/api/stores/{index}/puzzles", _store_puzzles)
    app.router.add_get("/api/stores/{index}/puzzles/{id}", _store_puzzle)
    app.router.add_post("/api/stores/{index}/puzzles/{id}/hand", _store_hand)
    app.router.add_get("/api/analysis/{job}", _analysis)
    app.router.add_delete("/api/analysis/{job}", _cancel_analysis)
    return app


_REAPER = web.AppKey("reaper", asyncio.Task)


async def _start_reaper(app: web.Application) -> None:
    """Every second, stop the analyses past their limit or abandoned by their page."""

    async def reap() -> None:
        while True:
            await asyncio.sleep(1.0)
            try:
                app[_ANALYSES].reap()  # type: ignore[attr-defined]
            except Exception:  # never let the reaper die
                log.exception("stopping abandoned analyses")

    app[_REAPER] = asyncio.get_running_loop().create_task(reap())


async def _cleanup(app: web.Application) -> None:
    if _REAPER in app:
        app[_REAPER].cancel()
    app[_ANALYSES].close()  # type: ignore[attr-defined]
    app[_POOL].shutdown(wait=False, cancel_futures=True)
    app[_ENGINE].shutdown(wait=False, cancel_futures=True)
    shutil.rmtree(app[_UPLOADS], ignore_errors=True)


# -- the guard: host, token, errors ---------------------------------------------------------


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Check the ``Host`` and the token, and turn every error into an answer."""
    if not _host_ok(request):
        return _error(403, "this server answers only requests addressed to it by its own "
                           "name (Host header refused)")  # fmt: skip
    missing = request.match_info.http_exception
    if missing is not None:  # no such route, or not with this method
        what = "no such page or API route" if missing.status == 404 else (
            f"{request.path} does not take {request.method}")
        answer = _error(missing.status, f"{what}: {printable(request.path[:200])}")
        if "Allow" in missing.headers:  # a 405 says which methods the route takes
            answer.headers["Allow"] = missing.headers["Allow"]
        return answer
    if request.method not in SAFE_METHODS and not _origin_ok(request):
        return _error(403, "refused: a request that changes something must come from this "
                           "board's own page, not from a page of another origin")  # fmt: skip
    if request.path not in STATIC and not _token_ok(request):
        return _error(403, "missing or wrong token: open the URL 'polytile serve' printed")
    try:
        return await handler(request)
    except BoardError as exc:
        return _error(exc.status, exc.message)
    except (PolytileError, ValueError) as exc:
        return _error(400, printable(str(exc)))
    except web.HTTPRequestEntityTooLarge:
        return _error(413, f"the file is larger than the {MAX_UPLOAD_BYTES:,} bytes the board "
                           "takes")  # fmt: skip
    except web.HTTPException:
        raise
    except Exception as exc:  # a bug: say so, log it, keep serving
        log.exception("internal error answering %s %s", request.method, request.path)
        return _error(500, f"internal error ({type(exc).__name__}): please report it")


def _host_ok(request: web.Request) -> bool:
    host = (request.headers.get("Host") or "").lower()
    name, sep, port = host.rpartition(":")
    if not sep or not port.isdigit():
        return False
    sock = request.transport.get_extra_info("sockname") if request.transport else None
    if sock is None or str(sock[1]) != port:
        return False
    return name in request.app[HOSTS]


def _origin_ok(request: web.Request) -> bool:
    """Whether a request that changes something comes from the board's own page (or from no
    page: a script or ``curl``, which send no ``Origin``)."""
    origin = request.headers.get("Origin")
    if origin is None:
        # browsers send Origin with every cross-origin POST; Sec-Fetch-Site is a second say
        return request.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")
    host = (request.headers.get("Host") or "").lower()
    return origin.lower() == f"http://{host}"


def _cookie_name(request: web.Request) -> str:
    """The token's cookie, one per port: cookies do not tell ports apart, and two boards may
    run on one machine."""
    sock = request.transport.get_extra_info("sockname") if request.transport else None
    return f"polytile-token-{sock[1] if sock else 0}"


def _token_ok(request: web.Request) -> bool:
    given = (request.headers.get("X-Polytile-Token") or request.query.get("token")
             or request.cookies.get(_cookie_name(request)) or "")  # fmt: skip
    return hmac.compare_digest(given.encode(), request.app[TOKEN].encode())


async def _always(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in ALWAYS.items():
        response.headers.setdefault(name, value)


async def _run(request: web.Request, work: Callable[..., _T], *args: Any) -> _T:
    """Run ``work(*args)`` (face calls) in the board's worker thread."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(request.app[_POOL], partial(work, *args))


def _int(text: str | None, what: str) -> int | None:
    if text is None or text == "":
        return None
    try:
        value = int(text)
    except ValueError:
        raise BoardError(f"{what} must be a whole number, not {printable(text[:40])!r}") from None
    if not 0 <= value < 1 << 31:
        raise BoardError(f"{what} must be from 0 to {(1 << 31) - 1}")
    return value


def _index(request: web.Request) -> int:
    value = _int(request.match_info["index"], "the record")
    if value is None:  # pragma: no cover - the route needs one
        raise BoardError("no record given", 404)
    return value


async def _json(request: web.Request) -> dict[str, Any]:
    deep = BoardError(f"the request's body is nested more than {MAX_DEPTH} levels deep")
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BoardError("the request's body is not JSON") from None
    except RecursionError:  # the decoder recursed through a body nested thousands deep
        raise deep from None
    if too_deep(body) is not None:
        raise deep
    if not isinstance(body, dict):
        raise BoardError("the request's body must be a JSON object")
    return body


# -- the page -------------------------------------------------------------------------------


def _asset(name: str) -> bytes:
    return resources.files("polytile.serve").joinpath("static", name).read_bytes()


async def _page(request: web.Request) -> web.Response:
    if "token" in request.query:
        # the first load: keep the token in a cookie and take it out of the address bar
        rest = [(k, v) for k, v in request.query.items() if k != "token"]
        target = request.rel_url.with_query(rest or None)
        answer = web.Response(status=303, headers={**_NO_STORE, "Location": str(target)})
        # Lax, not Strict: a Strict cookie is left off the redirected load when the URL was
        # opened from a page of another site (a chat, a notebook), and the board said its
        # token was missing; GETs change nothing, and the origin check guards the rest
        answer.set_cookie(_cookie_name(request), request.app[TOKEN], path="/", httponly=True,
                          samesite="Lax")  # fmt: skip
        return answer
    return web.Response(body=_asset("index.html"), content_type="text/html", headers=_NO_STORE)


async def _static(request: web.Request) -> web.Response:
    name, kind = STATIC[request.path]
    return web.Response(body=_asset(name), content_type=kind)


#: The page and the API's answers hold the token or the records: never cached, never framed.
_NO_STORE = {"Cache-Control": "no-store", "X-Frame-Options": "DENY",
             "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; "
                                        "frame-ancestors 'none'"}  # fmt: skip


# -- records and positions ------------------------------------------------------------------


async def _records(request: web.Request) -> web.Response:
    board = request.app[BOARD]
    rows = [rec.summary(i) for i, rec in enumerate(board.records)]
    return web.json_response({"records": rows}, headers=_NO_STORE)


async def _position(request: web.Request) -> web.Response:
    move = _int(request.query.get("move"), "move")
    view = await _run(request, request.app[BOARD].position, _index(request), move)
    return web.json_response(view, headers=_NO_STORE)


async def _cells(request: web.Request) -> web.Response:
    move = _int(request.query.get("move"), "move")
    found = await _run(request, request.app[BOARD].cells, _index(request), move)
    return web.json_response({"cells": found}, headers=_NO_STORE)


async def _move_body(request: web.Request) -> tuple[int, int, str]:
    """The record, the position (after how many moves; the end when not given) and the
    move's text of a request to play or preview a move."""
    body = await _json(request)
    text, move, parts = body.get("text"), body.get("move"), body.get("parts")
    index = _index(request)
    if parts is not None:  # each player's part of a move made at once
        if not _parts_ok(parts):
            raise BoardError('"parts" must map each player to its part of the move')
        text = request.app[BOARD].join(index, parts)
    if not isinstance(text, str):
        raise BoardError('give the move as "text", in the game\'s notation')
    if move is not None and (not isinstance(move, int) or isinstance(move, bool)):
        raise BoardError('"move" must be a whole number: the position the move is played in')
    if move is None:
        move = len(request.app[BOARD].record(index).moves)
    return index, move, text


def _parts_ok(parts: Any) -> bool:
    """Whether ``parts`` maps players to their parts of a move, names and parts as text."""
    return isinstance(parts, dict) and all(isinstance(k, str) and isinstance(v, str)
                                           for k, v in parts.items())  # fmt: skip


async def _preview(request: web.Request) -> web.Response:
    index, move, text = await _move_body(request)
    view = await _run(request, request.app[BOARD].preview, index, move, text)
    return web.json_response(view, headers=_NO_STORE)


async def _play(request: web.Request) -> web.Response:
    index, move, text = await _move_body(request)
    board = request.app[BOARD]
    where, at = await _run(request, board.play, index, move, text)
    view = await _run(request, board.position, where, at)
    return web.json_response(view, headers=_NO_STORE)


async def _engine(request: web.Request) -> web.Response:
    """The engine player's move after ``"move"`` moves (the end when not given), found in
    ``"seconds"`` (2 when not given) and played: the new position, with ``"engine"``
    saying what the choice rests on. In a game whose players move at once, ``"player"``
    asks for that player's part only, played with the others' ``"parts"`` (a person's)."""
    body = await _json(request)
    index = _index(request)
    move, seconds = body.get("move"), body.get("seconds", 2.0)
    player, parts = body.get("player"), body.get("parts")
    if move is not None and (not isinstance(move, int) or isinstance(move, bool)):
        raise BoardError('"move" must be a whole number: the position the engine moves in')
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        raise BoardError('"seconds" must be a number: the engine\'s time for its move')
    if player is not None and not isinstance(player, str):
        raise BoardError('"player" must name the player whose part the engine makes')
    if parts is not None and not _parts_ok(parts):
        raise BoardError('"parts" must map each other player to its part of the move')
    board = request.app[BOARD]
    if move is None:
        move = len(board.record(index).moves)
    task = await _run(request, board.engine_task, index, move, float(seconds), player, parts)
    found = await asyncio.get_running_loop().run_in_executor(request.app[_ENGINE], task.think)
    where, at, choice = await _run(request, board.engine_play, task, found)
    view = await _run(request, board.position, where, at)
    return web.json_response({**view, "engine": choice}, headers=_NO_STORE)


async def _download(request: web.Request) -> web.Response:
    text, name = await _run(request, request.app[BOARD].download, _index(request))
    return web.Response(text=text, content_type="application/octet-stream", headers={
        **_NO_STORE, "Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip


async def _picture(request: web.Request) -> web.Response:
    """The board as a picture file (``?move=N&kind=svg|png``), to download."""
    move = _int(request.query.get("move"), "move")
    kind = request.query.get("kind", "svg")
    data, media, name = await _run(request, request.app[BOARD].picture, _index(request), move,
                                   kind)  # fmt: skip
    return web.Response(body=data, content_type=media, headers={
        **_NO_STORE, "Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip


async def _upload(request: web.Request) -> web.Response:
    """A file sent as the body, its name in ``?name=``: saved in the server's own folder
    under a name of the server's, read by its game's face, added to the board."""
    name = request.query.get("name") or "upload.json"
    if request.content_length is not None and request.content_length > MAX_UPLOAD_BYTES:
        raise web.HTTPRequestEntityTooLarge(MAX_UPLOAD_BYTES, request.content_length)
    data = await request.read()
    if not data.strip():
        raise BoardError("the file is empty")
    suffix = Path(name).suffix.lower()
    folder = request.app[_UPLOADS]
    board = request.app[BOARD]
    path = folder / f"upload-{len(board.records)}-{secrets.token_hex(4)}"
    path = path.with_suffix(suffix if suffix in UPLOAD_SUFFIXES else ".json")
    path.write_bytes(data)
    title = printable(Path(name).name)[:80] or path.name
    try:
        index = await _run(request, board.add_file, str(path), title)
    except (PolytileError, ValueError, OSError) as exc:
        path.unlink(missing_ok=True)
        message = printable(str(exc)).replace(str(path), title)
        raise BoardError(f"not added: {message}") from None
    return web.json_response(board.record(index).summary(index), headers=_NO_STORE)


# -- analyses -------------------------------------------------------------------------------


async def _start_analysis(request: web.Request) -> web.Response:
    from polytile.serve.analysis import AnalysisOrder

    body = await _json(request)
    board = request.app[BOARD]
    index = _index(request)
    rec = board.record(index)
    move = body.get("move")
    if move is None:
        move = len(rec.moves)
    if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move <= len(rec.moves):
        raise BoardError(f'"move" must be a move of the record, 0 to {len(rec.moves)}')
    seconds = body.get("seconds", 10)
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not (
            0.5 <= seconds <= 3600):  # fmt: skip
        raise BoardError('"seconds" (the time limit) must be from 0.5 to 3600')
    tab = body.get("tab")
    if not isinstance(tab, str) or not 0 < len(tab) <= 64:
        raise BoardError('"tab" must name the page asking (at most 64 characters)')
    mode = body.get("mode", "exact")
    order = AnalysisOrder.of(rec, move, float(seconds), str(mode))
    job = request.app[_ANALYSES].start(tab, order)  # type: ignore[attr-defined]
    return web.json_response({"job": job}, headers=_NO_STORE)


async def _analysis(request: web.Request) -> web.Response:
    report = request.app[_ANALYSES].status(request.match_info["job"])  # type: ignore[attr-defined]
    return web.json_response(report, headers=_NO_STORE)


async def _cancel_analysis(request: web.Request) -> web.Response:
    report = request.app[_ANALYSES].cancel(request.match_info["job"])  # type: ignore[attr-defined]
    return web.json_response(report, headers=_NO_STORE)


# -- puzzle sets ----------------------------------------------------------------------------


async def _stores(request: web.Request) -> web.Response:
    rows = await _run(request, request.app[SHELF].stores)
    return web.json_response({"stores": rows}, headers=_NO_STORE)


def _difficulty(text: str | None, what: str) -> float | None:
    if text is None or text == "":
        return None
    try:
        value = float(text)
    except ValueError:
        raise BoardError(f"{what} must be a number, not {printable(text[:40])!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise BoardError(f"{what} must be a finite number")
    return value


async def _store_puzzles(request: web.Request) -> web.Response:
    q = request.query
    kind = q.get("kind") or None
    low, high = _difficulty(q.get("min"), "min"), _difficulty(q.get("max"), "max")
    rows = await _run(request, request.app[SHELF].puzzles, _index(request), kind, low, high)
    return web.json_response(rows, headers=_NO_STORE)


async def _store_puzzle(request: web.Request) -> web.Response:
    puzzle_id = _int(request.match_info["id"], "the puzzle")
    solution = request.query.get("solution") in ("1", "true", "yes")
    doc = await _run(request, request.app[SHELF].puzzle, _index(request), puzzle_id, solution)
    return web.json_response(doc, headers=_NO_STORE)


async def _store_hand(request: web.Request) -> web.Response:
    """A puzzle solved by hand: the placements the page sends, checked by the rules."""
    from polytile.serve.hand import by_hand

    puzzle_id = _int(request.match_info["id"], "the puzzle")
    body = await _json(request)
    index = _index(request)
    doc = await _run(request, by_hand, request.app[SHELF], index, puzzle_id, body.get("placed"))
    return web.json_response(doc, headers=_NO_STORE)
