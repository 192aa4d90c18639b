"""The ASGI app of ``duetbot serve``: pages, assets and a small JSON API over :class:`GameStore`.

Routes (every asset is served from the package; nothing is loaded from elsewhere):

- ``GET /``: new game and the saved games; ``GET /games/ID``: a game; ``GET /table``: the
  table helper; ``GET /rules``: how to play. Pages are server-rendered HTML with a little JavaScript (``static/``).
- ``GET|POST /api/games``: the saved games / deal a new one (``{"variant", "seed"}``).
- ``GET /api/games/ID``: what player A may know of the game.
- ``POST /api/games/ID/actions``: ``{"version", "clue", "number"}``, ``{"version", "guess"}`` or
  ``{"version", "pass": true}``; answers the game and one frame per applied action. A clue word
  the bot does not know (a typo?) is refused with ``"unknown": true`` and a ``"suggestion"``
  unless the action says ``"insist": true``.
- ``GET /api/games/ID/check?clue=&number=``: would this clue be accepted now (``ok``), and is
  it a word the bot knows (``unknown``, ``suggestion``).
- ``GET /api/games/ID/hint``: the bot's suggestion for the person's own move.
- ``POST /api/suggest``: one request of the ``suggest`` contract (``duetbot suggest schema``).
- ``POST /api/photo/board`` and ``/api/photo/key``: a photo (``Content-Type: image/...``, at
  most :data:`MAX_PHOTO` bytes) read by :mod:`duetbot.photo`: ``{"words", "unreadable", "read",
  "matched"}`` or ``{"key"}``. The table helper shows it for the person to correct before it
  changes the table. A photo that cannot be read answers 422, a server without the ``photo``
  extra 501, each with one line.

A refused request answers ``{"error": "one line"}`` with a 4xx status and changes nothing.
Served on this computer only, the app answers only requests addressed to its local names.
Requests with a body must be JSON (``Content-Type: application/json``, at most
:data:`MAX_BODY` bytes): a page on another site cannot post one without the browser asking
first, and this app never says yes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..jsonio import JSONInputError, loads
from . import pages
from .games import GameStore, NotFound, WebError

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = 64 * 1024
"""Largest request body accepted (a suggest request is a few kB)."""
MAX_PHOTO = 16 * 1024 * 1024
"""Largest photo accepted (the table helper shrinks a photo to about 0.5 MB before sending it;
a phone's own photo is 2-12 MB)."""
STATIC = Path(__file__).parent / "static"


class _TooLarge(WebError):
    status = 413


class _NotJSON(WebError):
    status = 415


class _Unreadable(WebError):
    status = 422


class _NoExtra(WebError):
    status = 501


async def _body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _TooLarge(f"request body too large ({declared} bytes; at most {limit})")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _TooLarge(f"request body too large (more than {limit} bytes)")
    return bytes(body)


async def _json_body(request: Request) -> Any:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise _NotJSON("send the request body as JSON (Content-Type: application/json)")
    body = await _body(request, MAX_BODY)
    try:
        return loads(body)
    except JSONInputError as exc:
        raise WebError(f"the request body is not JSON: {exc}") from None


def _error(exc: WebError) -> JSONResponse:
    return JSONResponse({"error": str(exc), **exc.fields}, status_code=exc.status)


def _api(handler: Callable[..., Any]) -> Callable[[Request], Any]:
    """A JSON endpoint: a refused request becomes ``{"error"}`` with its status."""
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except WebError as exc:
            return _error(exc)
    return endpoint


def create_app(store: GameStore, allowed_hosts: Sequence[str] | None = None) -> Starlette:
    """The web app over ``store`` (its data directory, the bots new games get).

    ``allowed_hosts``: the names a request's ``Host`` may give (``None``: any). An app that
    listens on this computer only should accept only its local names, so that a page
    elsewhere cannot reach it by pointing a domain of its own at 127.0.0.1 (DNS rebinding).
    """

    async def home(request: Request) -> Response:
        rows = await run_in_threadpool(store.listing)
        return HTMLResponse(pages.home(rows, store.data))

    async def game_page(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            game = await run_in_threadpool(store.get, game_id)
        except WebError as exc:
            return HTMLResponse(pages.missing(str(exc)), status_code=exc.status)
        return HTMLResponse(pages.game(game.view(), game.path))

    async def table(request: Request) -> Response:
        return HTMLResponse(pages.table())

    async def rules(request: Request) -> Response:
        return HTMLResponse(pages.rules())

    async def list_games(request: Request) -> Response:
        return JSONResponse({"games": await run_in_threadpool(store.listing)})

    async def new_game(request: Request) -> Response:
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise WebError("send a JSON object: {\"variant\": \"standard\", \"seed\": null}")
        game = await run_in_threadpool(store.new, body.get("variant"), body.get("seed"))
        return JSONResponse({"id": game.id, "url": f"/games/{game.id}", "state": game.view()}, status_code=201)

    async def get_game(request: Request) -> Response:
        game = await run_in_threadpool(store.get, request.path_params["game_id"])
        return JSONResponse(game.view())

    async def act(request: Request) -> Response:
        body = await _json_body(request)
        version = body.get("version") if isinstance(body, dict) else None
        game, frames = await run_in_threadpool(store.act, request.path_params["game_id"], version, body)
        return JSONResponse({"state": game.view(), "frames": frames})

    async def check(request: Request) -> Response:
        number = request.query_params.get("number", "")
        result = await run_in_threadpool(store.check_clue, request.path_params["game_id"],
                                         request.query_params.get("clue", "")[:200],
                                         int(number) if number.isdigit() else None)
        return JSONResponse(result)

    async def hint(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(store.hint, request.path_params["game_id"]))

    async def suggest(request: Request) -> Response:
        body = await _json_body(request)

        def answer() -> dict:
            with store.bot_lock:
                return store.suggester().handle(body)

        response = await run_in_threadpool(answer)
        return JSONResponse(response, status_code=400 if "error" in response else 200)

    async def photo(request: Request) -> Response:
        # An image type, never a form's: another site's page cannot post one without asking first.
        if not request.headers.get("content-type", "").lower().startswith("image/"):
            raise _NotJSON("send the photo itself as the body (Content-Type: image/jpeg or image/png)")
        kind = request.path_params["kind"]
        if kind not in ("board", "key"):
            raise NotFound(f"no such API route: POST {request.url.path} (photos go to /api/photo/board or /api/photo/key)")
        data = await _body(request, MAX_PHOTO)

        def read() -> dict:
            from ..photo import PhotoError, PhotoExtraMissing, read_board, read_key

            try:
                with store.bot_lock:  # two cores: one heavy job at a time
                    return (read_key if kind == "key" else read_board)(data).to_json()
            except PhotoExtraMissing as exc:
                raise _NoExtra(str(exc)) from None
            except PhotoError as exc:
                raise _Unreadable(str(exc)) from None

        return JSONResponse(await run_in_threadpool(read))

    async def not_found(request: Request, exc: Exception) -> Response:
        if request.url.path == "/api" or request.url.path.startswith("/api/"):
            return _error(NotFound(f"no such API route: {request.method} {request.url.path}"))
        return HTMLResponse(pages.missing(f"no page {request.url.path}"), status_code=404)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": f"{request.method} is not allowed on {request.url.path}"}, status_code=405)

    gid = "{game_id}"
    routes = [
        Route("/", home, methods=["GET"]),
        Route(f"/games/{gid}", game_page, methods=["GET"]),
        Route("/table", table, methods=["GET"]),
        Route("/rules", rules, methods=["GET"]),
        Route("/api/games", _api(list_games), methods=["GET"]),
        Route("/api/games", _api(new_game), methods=["POST"]),
        Route(f"/api/games/{gid}", _api(get_game), methods=["GET"]),
        Route(f"/api/games/{gid}/actions", _api(act), methods=["POST"]),
        Route(f"/api/games/{gid}/check", _api(check), methods=["GET"]),
        Route(f"/api/games/{gid}/hint", _api(hint), methods=["GET"]),
        Route("/api/suggest", _api(suggest), methods=["POST"]),
        Route("/api/photo/{kind:str}", _api(photo), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [] if allowed_hosts is None else [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={404: not_found, 405: not_allowed})
    app.state.store = store
    return app
