"""The Starlette application: the page, its static files and its JSON API (GET only).

Every query parameter is checked (known names only, once each, bounded length, typed values);
a bad one is a 400 answer with one line saying why. Answers carry a content security policy that
allows nothing but this server's own files.
"""

from __future__ import annotations

import re
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pdn.archive.criteria import result_refused
from pdn.archive.players import Aliases
from pdn.archive.standings import EventChoice
from pdn.db.connection import database_error, trouble
from pdn.db.questions import GameFilter, QuestionError, count_games, result_stats
from pdn.rules.draw import endings
from pdn.rules.fen import FenError
from pdn.rules.variants import UnknownVariantError
from pdn.web import analysis, analysisboard, api, event

STATIC = Path(__file__).resolve().parent / "static"
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]
MAX_VALUE = 1000  # characters of one parameter
PAGE_SIZES = range(1, 201)
SEARCH = {"player", "white", "black", "event", "site", "variant", "result", "from", "to", "valid"}
EXPLORE = {"player", "event", "from", "to", "result"}  # the selection of `pdn explore`
HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
     b"frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]  # fmt: skip


class BadParameter(ValueError):
    """A query parameter the API does not take as given."""


class Params:
    """The query parameters of a request, checked against the names an endpoint takes."""

    def __init__(self, request: Request, allowed: set[str]) -> None:
        self.values: dict[str, str] = {}
        for name, value in request.query_params.multi_items():
            if name not in allowed:
                raise BadParameter(f"unknown parameter {name!r}")
            if name in self.values:
                raise BadParameter(f"parameter {name!r} given twice")
            if len(value) > MAX_VALUE:
                raise BadParameter(f"parameter {name!r} is longer than {MAX_VALUE} characters")
            self.values[name] = value

    def text(self, name: str, required: bool = False) -> str | None:
        """A text value (None when absent or blank)."""
        value = self.values.get(name, "").strip()
        if not value and required:
            raise BadParameter(f"parameter {name!r} is required")
        return value or None

    def required(self, name: str) -> str:
        """A text value that must be given."""
        value = self.text(name, required=True)
        assert value is not None
        return value

    def result(self) -> str | None:
        """The result to select by, refused as `--result` is (pdn.archive.criteria)."""
        value = self.text("result")
        why = result_refused(value) if value is not None else None
        if why:
            raise BadParameter(f"parameter 'result' is {value!r}: {why}")
        return value

    def integer(self, name: str, allowed: range, default: int | None = None) -> int | None:
        """A whole number within *allowed*."""
        value = self.values.get(name, "").strip()
        if not value:
            return default
        if not re.fullmatch(r"\d{1,9}", value) or int(value) not in allowed:
            raise BadParameter(
                f"parameter {name!r} must be a whole number from {allowed.start} "
                f"to {allowed.stop - 1}"
            )
        return int(value)

    def flag(self, name: str) -> bool:
        """A yes/no value: 1 or 0."""
        value = self.values.get(name, "0")
        if value not in ("0", "1"):
            raise BadParameter(f"parameter {name!r} must be 0 or 1")
        return value == "1"

    def squares(self, name: str) -> list[str]:
        """A comma-separated list of squares (numbers or algebraic)."""
        value = self.values.get(name, "")
        items = [s for s in value.split(",") if s]
        if any(not re.fullmatch(r"[a-z]?\d{1,2}", s) for s in items):
            raise BadParameter(f"parameter {name!r} must list squares separated by commas")
        return items

    def page(self) -> api.Page:
        """The page number and size."""
        number = self.integer("page", range(1, 10**9), 1) or 1
        size = self.integer("size", PAGE_SIZES, 50) or 50
        return api.Page(number, size)


def _game_id(text: str) -> int:
    if not re.fullmatch(r"-?\d{1,19}", text) or not -(2**63) <= int(text) < 2**63:
        raise BadParameter("a game id is a whole number")
    return int(text)


def make_app(
    engine: Engine, title: str, hosts: list[str] | None = None, aliases: Aliases | None = None
) -> Starlette:
    """The application over the database of *engine* (opened read-only by the caller); *hosts*:
    the host names it answers to (default: this machine's loopback names only); *aliases*: the
    names players are matched under (`pdn serve --aliases`)."""

    def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    def variant_counts() -> list[tuple[str | None, int]]:
        """Games per variant, the most played first (as `pdn stats results` counts them)."""
        frame = result_stats(engine, "variant")
        return [
            (None if pd.isna(v) else v, int(n))
            for v, n in zip(frame["variant"], frame["games"], strict=True)
        ]

    def info(request: Request) -> Response:
        Params(request, set())
        rows = variant_counts()
        counts = [{"variant": v, "games": n} for v, n in rows if v]
        total = sum(n for _, n in rows)
        names = api.variants()
        return JSONResponse(
            {
                "title": title,
                "games": total,
                "variants": counts,
                "all_variants": names,
                "endings": endings(),
            }
        )

    def game_filter(p: Params) -> GameFilter:
        valid = p.text("valid")
        if valid not in (None, "yes", "no"):
            raise BadParameter("parameter 'valid' must be yes or no")
        return GameFilter(
            white=p.text("white"), black=p.text("black"), player=p.text("player"),
            event=p.text("event"), site=p.text("site"), variant=p.text("variant"),
            result=p.result(), date_from=p.integer("from", range(0, 10000)),
            date_to=p.integer("to", range(0, 10000)),
            valid=None if valid is None else valid == "yes", aliases=aliases,
        )  # fmt: skip

    def explore_filter(p: Params) -> GameFilter:
        """The games `pdn explore` selects by --player, --event, --year-from/--year-to (and
        --aliases, given to the server)."""
        return GameFilter(
            player=p.text("player"), event=p.text("event"),
            date_from=p.integer("from", range(0, 10000)), date_to=p.integer("to", range(0, 10000)),
            aliases=aliases,
        )  # fmt: skip

    def games(request: Request) -> Response:
        p = Params(request, SEARCH | {"page", "size", "sort"})
        sort = p.text("sort")
        if sort not in (None, "place", "loss"):
            raise BadParameter("parameter 'sort' must be place or loss")
        return JSONResponse(analysis.games(engine, game_filter(p), p.page(), sort == "loss"))

    def count(request: Request) -> Response:
        p = Params(request, SEARCH)
        return JSONResponse(api.count(engine, game_filter(p)))

    def game(request: Request) -> Response:
        Params(request, set())
        gid = _game_id(request.path_params["id"])
        return JSONResponse({**api.game(engine, gid), "analysis": analysis.judgement(engine, gid)})

    def version() -> int:
        """The number of games: answers about positions are kept until it changes."""
        return count_games(engine, GameFilter())

    @lru_cache(maxsize=512)
    def moves_at(
        _version: int, variant: str, fen: str, where: GameFilter, result: str | None
    ) -> dict[str, Any]:
        return api.moves(engine, variant, fen, where, result)

    @lru_cache(maxsize=512)
    def reached_at(
        _version: int, variant: str, fen: str, page: api.Page, where: GameFilter
    ) -> dict[str, Any]:
        return api.reached(engine, variant, fen, page, where)

    def warm() -> None:
        """Explore the start position of each variant once: every game and the explorer open
        there, and on a large database it is the slowest position to count."""
        try:
            now = version()
            for variant, _ in variant_counts():
                if variant:
                    fen = api.start(variant)["fen"]
                    everything = GameFilter(aliases=aliases)  # as explore_filter of nothing
                    moves_at(now, variant, fen, everything, None)
                    reached_at(now, variant, fen, api.Page(), everything)
        except Exception as exc:
            if database_error(exc) is None:
                raise
            return  # a request will say what is wrong

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        threading.Thread(target=warm, name="pdn-serve-warm", daemon=True).start()
        yield

    def explore(request: Request) -> Response:
        p = Params(request, {"variant", "fen"} | EXPLORE)
        variant, fen, where = p.required("variant"), p.required("fen"), explore_filter(p)
        return JSONResponse(moves_at(version(), variant, fen, where, p.result()))

    def reached(request: Request) -> Response:
        p = Params(request, {"variant", "fen", "page", "size"} | EXPLORE)
        where = replace(explore_filter(p), result=p.result())
        answer = reached_at(version(), p.required("variant"), p.required("fen"), p.page(), where)
        return JSONResponse(answer)

    def event_view(request: Request) -> Response:
        p = Params(request, {"event", "site", "year"})
        choice = EventChoice(p.text("event"), p.text("site"), p.integer("year", range(0, 10000)))
        if choice == EventChoice():
            raise BadParameter("say which event: parameter 'event', 'site' or 'year'")
        return JSONResponse(event.event(engine, choice, aliases))

    def events(request: Request) -> Response:
        Params(request, set())
        return JSONResponse(event.events(engine))

    def play(request: Request) -> Response:
        p = Params(request, {"variant", "fen", "move"})
        return JSONResponse(api.play(p.required("variant"), p.required("fen"), p.required("move")))

    def start(request: Request) -> Response:
        p = Params(request, {"variant"})
        return JSONResponse(api.start(p.required("variant")))

    def board(request: Request) -> Response:
        p = Params(request, {"variant", "fen", "path", "flip", "legal", "marks", "best"})
        svg = api.board(
            p.required("variant"), p.required("fen"), p.squares("path"), p.flag("flip"),
            p.flag("legal"), p.squares("marks"), p.text("best"),
        )  # fmt: skip
        return Response(svg, media_type="image/svg+xml")

    thinking = analysisboard.Thinking()

    def moves_of(p: Params) -> list[str]:
        return (p.text("moves") or "").split()

    def legal(request: Request) -> Response:
        p = Params(request, {"variant", "fen", "moves"})
        board = analysisboard.played(p.required("variant"), p.text("fen"), moves_of(p))
        return JSONResponse(analysisboard.position(board))

    def think(request: Request) -> Response:
        p = Params(request, {"variant", "fen", "moves", "client", "seconds"})
        board = analysisboard.played(p.required("variant"), p.text("fen"), moves_of(p))
        seconds = p.integer("seconds", range(1, int(analysisboard.MAX_SECONDS) + 1), 3) or 3
        return JSONResponse(thinking.start(p.required("client"), board, seconds))

    def thought(request: Request) -> Response:
        p = Params(request, {"client", "stop"})
        client = p.required("client")
        return JSONResponse(thinking.stop(client) if p.flag("stop") else thinking.status(client))

    def pdn_line(request: Request) -> Response:
        p = Params(request, {"variant", "fen", "moves", "line", "comment"})
        line = (p.text("line") or "").split()
        text = analysisboard.pdn_text(
            p.required("variant"), p.text("fen"), moves_of(p), line, p.text("comment")
        )
        headers = {"content-disposition": 'attachment; filename="analysis.pdn"'}
        return Response(text, media_type="application/x-chess-pdn", headers=headers)

    def busy(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=503)

    def invalid(request: Request) -> Response:
        p = Params(request, {"page", "size"})
        return JSONResponse(api.invalid_games(engine, p.page()))

    def bad_request(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=400)

    def not_found(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=404)

    def unavailable(request: Request, exc: Exception) -> Response:
        """Every database error, as one line for the page (no traceback, no statement)."""
        return JSONResponse({"error": trouble(exc, engine)}, status_code=503)

    get = ["GET"]
    routes = [
        Route("/", index, methods=get),
        Route("/api/info", info, methods=get),
        Route("/api/games", games, methods=get),
        Route("/api/count", count, methods=get),
        Route("/api/game/{id}", game, methods=get),
        Route("/api/explore", explore, methods=get),
        Route("/api/reached", reached, methods=get),
        Route("/api/play", play, methods=get),
        Route("/api/start", start, methods=get),
        Route("/api/board", board, methods=get),
        Route("/api/invalid", invalid, methods=get),
        Route("/api/event", event_view, methods=get),
        Route("/api/events", events, methods=get),
        Route("/api/legal", legal, methods=get),
        Route("/api/think", think, methods=get),
        Route("/api/thought", thought, methods=get),
        Route("/api/pdn", pdn_line, methods=get),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Response]] = {
        BadParameter: bad_request,
        QuestionError: bad_request,
        FenError: bad_request,
        UnknownVariantError: bad_request,
        api.NotFound: not_found,
        event.NoEvent: not_found,
        analysisboard.BoardError: bad_request,
        analysisboard.Busy: busy,
        SQLAlchemyError: unavailable,
        pd.errors.DatabaseError: unavailable,  # pandas' wrapping of one
    }
    middleware = [
        Middleware(TrustedHostMiddleware, allowed_hosts=hosts or LOOPBACK_NAMES),
        Middleware(SecurityHeaders),
    ]
    return Starlette(
        routes=routes, middleware=middleware, exception_handlers=handlers, lifespan=lifespan
    )


class SecurityHeaders:
    """Adds the content security policy and its companions to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)
