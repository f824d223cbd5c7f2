"""The game endpoints of the JSON API: my games, my view of a game with my legal moves, submitting
a move, the log. They read and write exactly as the game page does:

- what a seat sees is ``engine.view(state, seat)`` (a spectator's: ``engine.view(state, None)``),
  turned into words by ``games.presentation`` and the log by ``games.history`` (per viewer);
- a move goes through ``games.services.submit_move`` (the one write path) with the page's own
  form (``games.forms.MoveForm``) in front of it, and the same per-seat stale token: ``seq``, the
  move count the view was made at (``services.decision_current``);
- who may read a game is decided by :func:`readable_game`, the same rule as the game page.
"""
from __future__ import annotations

import functools
import hashlib
from datetime import datetime
from typing import Any, Literal
from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from ninja import Field, Path, Query, Router, Schema
from pydantic import ConfigDict, field_validator

from games import history, presentation, services
from games.engines import get_engine
from games.forms import MAX_MOVE_LENGTH, MoveForm
from games.models import Game, Move, Seat

from hanseweb import pagecache

from .core import ApiError, api
from .text import MOVE_PATTERN

router = Router(tags=["games"])

MAX_ID = 2**63 - 1  # the largest primary key the database has: anything larger is no game
GameId = Path(..., ge=1, le=MAX_ID, description="the game's id (as in /games/<id>/)")


# --- schemas -------------------------------------------------------------------------

class Error(Schema):
    code: str = Field(description="malformed, unauthorized, forbidden, not_found, method_not_allowed, stale, "
                                  "not_your_turn, not_running, conflict, illegal, refused, too_large, throttled "
                                  "(docs/api.md, \"Errors\")")
    detail: str = Field(description="what went wrong, in words (the game page's own message where it has one)")


class GameSummary(Schema):
    id: int
    title: str
    engine: str = Field(description="the game's slug: hansa, hansa-teutonica, die-hanse, zanzibar")
    engine_name: str
    status: Literal["open", "running", "finished"]
    my_seat: int | None = Field(description="my seat number (0 first in turn order); null until the game starts")
    my_turn: bool = Field(description="a decision of mine is waiting")
    deadline_at: datetime | None = Field(description="when the pending decisions are made by default, if the game has deadlines")
    move_count: int
    last_move_at: datetime | None


class Player(Schema):
    seat: int | None
    name: str
    resigned: bool
    to_act: bool


class LegalMove(Schema):
    move: str = Field(description="the text to submit")
    label: str = Field(description="the move in words, as on the game page's button")
    kind: str = Field(description="the group the game page lists it under")


class Moves(Schema):
    seq: int = Field(description="the per-seat stale token: send it back with a move (the move count this was made at)")
    my_seat: int | None
    my_turn: bool
    prompt: str = Field(description="what the game asks of me now, in words")
    legal_moves: list[LegalMove] = Field(description="my choices now (empty when nothing waits for me)")
    can_undo: bool = Field(description="submitting 'undo' takes my last step back")


class GameView(Schema):
    id: int
    title: str
    engine: str
    engine_name: str
    status: Literal["open", "running", "finished"]
    spectator: bool = Field(description="I have no seat: this is the public view")
    my_seat: int | None
    players: list[Player]
    to_act: list[int] = Field(description="the seats whose decision the game waits for")
    deadline_at: datetime | None
    move_count: int
    view: dict[str, Any] | None = Field(description="my view of the state (the engine's view for my seat, or the "
                                                    "public view): what the game page draws. Null before the start")
    view_text: str = Field(description="the same view in words, as on the game page")
    result: dict[str, Any] | None = Field(description="scores and ranking once the game is over")
    seq: int = Field(description="the per-seat stale token: send it back with a move (the move count this was made at)")
    my_turn: bool
    prompt: str = Field(description="what the game asks of me now, in words")
    legal_moves: list[LegalMove] = Field(description="my choices now (empty when nothing waits for me)")
    can_undo: bool = Field(description="submitting 'undo' takes my last step back")


class MoveIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    move: str = Field(min_length=1, max_length=MAX_MOVE_LENGTH, pattern=MOVE_PATTERN,
                      description="one of my legal moves' `move` texts (or 'undo'): at most 200 characters, "
                                  "something besides white space, no control, format or private-use character "
                                  "(tab and line breaks aside) and no U+FFFD; otherwise 400 `malformed`")
    seq: int = Field(ge=0, le=MAX_ID, description="the `seq` of the view or move list the move was chosen from")

    @field_validator("seq", mode="before")
    @classmethod
    def _whole_number(cls, value):
        # JSON Schema's "integer" is any number with no fractional part, so 28.0 is one (as the document
        # says); strict mode would refuse it. 1.5, "28" and true are still 400 `malformed`.
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value


class MoveDone(Schema):
    move: str = Field(description="the move as logged")
    seq: int = Field(description="the game's move count now (my next stale token)")
    status: Literal["open", "running", "finished"]
    my_turn: bool = Field(description="another decision of mine is waiting already")


class LogLine(Schema):
    seq: int = Field(description="the move this line belongs to (0: the setup)")
    seat: int | None = Field(description="the seat the line is about, if any")
    text: str
    at: datetime | None
    channel: str = Field(description="how the move was made, when not on the web (email reply, deadline passed, …)")


class LogPage(Schema):
    lines: list[LogLine] = Field(description="oldest first")
    older: int | None = Field(description="`before` for the next older page; null: this page starts the game")
    newer: int | None = Field(description="`before` for the next newer page (0: the latest); null: this is the latest")


# OpenAPI links (what a client, or Schemathesis' stateful phase, does next with an answer).
_GAME = {"game_id": "$request.path.game_id"}
_MOVE = {"operationId": "submit_move", "parameters": _GAME,
         "requestBody": {"move": "$response.body#/legal_moves/0/move", "seq": "$response.body#/seq"},
         "description": "make my first legal move, with the seq to send back"}
_READ = {"get_log": {"operationId": "get_log", "parameters": _GAME},
         "get_chat": {"operationId": "get_chat", "parameters": _GAME},
         "list_my_moves": {"operationId": "list_my_moves", "parameters": _GAME}}
LINKS = {
    "list_my_games": {"get_game": {"operationId": "get_game", "parameters": {"game_id": "$response.body#/0/id"},
                                   "description": "my first game"}},
    "get_game": {"submit_move": _MOVE, **_READ},
    "list_my_moves": {"submit_move": _MOVE},
    "submit_move": {"get_game": {"operationId": "get_game", "parameters": _GAME}},
}


def links(operation_id: str, status: int = 200) -> dict:
    return {"responses": {str(status): {"links": LINKS[operation_id]}}}


ERRORS = {400: Error, 401: Error, 404: Error, 429: Error}
# What an operation with a request body may answer besides: a body over HANSEWEB_API_MAX_BODY.
BODY_ERRORS = {413: Error}


# --- who may read what -------------------------------------------------------------

def readable_game(request, game_id: int) -> tuple[Game, Seat | None]:
    """The game ``game_id`` with its seats and users, and the requesting account's seat in it
    (None: it looks on as a spectator). The rule is the game page's (docs/visibility.md): a
    public game can be looked at by anyone, a club game by its club's members and players, a
    private one by its players; a seat sees its own view, anyone else the public one. Raises 404
    for no game and for a game the account may not see (its existence is not confirmed)."""
    from games import visibility

    game = Game.objects.filter(pk=game_id).prefetch_related("seats__user").first()
    if game is None or not visibility.may_see(game.pk, game.listed, [s.user_id for s in game.seats.all()],
                                              request.auth):
        raise Http404(_("There is no such game (it may have been cancelled)."))
    return game, services.seat_of(game, request.auth)


def _my_turn(game: Game, seat: Seat | None) -> bool:
    return seat is not None and _my_turn_of(seat.number, seat.resigned, game.status, game.to_act)


def _my_turn_of(number: int | None, resigned: bool, status: str, to_act: list | None) -> bool:
    return number is not None and not resigned and status == Game.RUNNING and number in (to_act or [])


def _moves(game: Game, seat: Seat | None, view: dict | None, names: list[str]) -> dict:
    number = seat.number if seat is not None else None
    legal = []
    if view is not None and seat is not None and not seat.resigned and game.status == Game.RUNNING:
        state = services.current_state(game)
        legal = game.engine_obj.legal_moves(state, number)
    groups = presentation.move_groups(game.engine, view, legal, names) if legal else []
    return {
        "seq": game.move_count,
        "my_seat": number,
        "my_turn": _my_turn(game, seat),
        "prompt": (view or {}).get("prompt", ""),  # as on the game page (the view's own words)
        "legal_moves": [{"move": m["move"], "label": m["label"], "kind": g["kind"]} for g in groups for m in g["moves"]],
        "can_undo": bool(legal) and services.can_undo(game, number),
    }


def _view(game: Game, seat: Seat | None) -> dict | None:
    if game.status == Game.OPEN:
        return None
    return game.engine_obj.view(services.current_state(game), seat.number if seat is not None else None)


# --- endpoints -----------------------------------------------------------------------

PAGE_SIZE, MAX_PAGE_SIZE = 50, 200
NEXT_HEADERS = {
    "X-Next-Cursor": {"description": "the `cursor` of the next page (older games); absent on the last page",
                      "schema": {"type": "string", "pattern": "^[1-9][0-9]*$"}},
    "Link": {"description": "`<the next page's URL>; rel=\"next\"` (RFC 8288); absent on the last page",
             "schema": {"type": "string"}},
}


@router.get("/games", response={200: list[GameSummary], **ERRORS}, operation_id="list_my_games",
            openapi_extra={"responses": {"200": {"links": LINKS["list_my_games"], "headers": NEXT_HEADERS}}},
            summary="My games, newest first, a page at a time (the ones waiting for me first on each page)")
def list_my_games(request,
                  status: Literal["open", "running", "finished"] | None = Query(
                      None, description="only the games of this status"),
                  cursor: int | None = Query(None, ge=1, le=MAX_ID, description=(
                      "the next page: the `X-Next-Cursor` header of the page before (the games older than those)")),
                  limit: int = Query(PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description="games per page")):
    """Keyset pagination on the game's id (newest first): a page reads only its own rows, through
    the seats' (user, game) index, at any depth; a game's id never changes, so walking the cursor
    lists every game once even while the games go on. Only my own seat is read per game (my seat
    number and whether it is my turn), never the games' state snapshots.

    The page's rows are read as plain values in one query; they are its version: the JSON made
    from them is kept whole in the cache (``hanseweb.pagecache``, per account, host, path and
    language) and served again while the same query gives the same rows."""
    seats = Seat.objects.filter(user=request.auth).order_by("-game_id")
    if status:
        seats = seats.filter(game__status=status)
    if cursor is not None:
        seats = seats.filter(game_id__lt=cursor)
    page = list(seats.values_list("number", "resigned", *(f"game__{f}" for f in SUMMARY_FIELDS))[:limit + 1])
    version = hashlib.blake2b(repr(page).encode(), digest_size=16).hexdigest()
    return pagecache.respond(request, f"api-games:{request.auth.pk}:{request.get_host()}:{request.is_secure()}",
                             functools.partial(_games_page, request, page, status, limit), version=version)


def _games_page(request, page: list[tuple], status: str | None, limit: int) -> HttpResponse:
    """The list's JSON (as ninja makes it from ``GameSummary``: tests/api/test_api_schemathesis.py
    checks it against the schema) with the next page's headers."""
    headers = {}
    if len(page) > limit:
        page = page[:limit]
        following = page[-1][2]
        headers["X-Next-Cursor"] = str(following)
        query = {"cursor": following, "limit": limit, **({"status": status} if status else {})}
        headers["Link"] = f'<{request.build_absolute_uri(request.path)}?{urlencode(query)}>; rel="next"'
    rows = []
    for number, resigned, pk, title, engine, state, to_act, deadline_at, move_count, last_move_at in page:
        rows.append({"id": pk, "title": title, "engine": engine, "engine_name": get_engine(engine).name,
                     "status": state, "my_seat": number, "my_turn": _my_turn_of(number, resigned, state, to_act),
                     "deadline_at": deadline_at, "move_count": move_count, "last_move_at": last_move_at})
    rows.sort(key=lambda r: not r["my_turn"])  # stable: newest first among the waiting and the rest
    # the rows are GameSummary's fields, in its order, of its types (read from their columns): what
    # validating them through the schema (ninja's way, most of the list's time) would give back
    response = api.create_response(request, rows, status=200)
    for name, value in headers.items():
        response[name] = value
    return response


# The columns of a game its summary shows (no state snapshot, undo state, setup events or options).
SUMMARY_FIELDS = ("id", "title", "engine", "status", "to_act", "deadline_at", "move_count", "last_move_at")


@router.get("/games/{game_id}", response={200: GameView, **ERRORS}, operation_id="get_game", openapi_extra=links("get_game"),
            summary="My view of a game (a spectator's public view if I have no seat), with my legal moves")
def get_game(request, game_id: int = GameId):
    game, seat = readable_game(request, game_id)
    view = _view(game, seat)
    names = presentation.player_names(game) if game.status != Game.OPEN else []
    to_act = list(view["to_act"]) if view is not None else []
    if game.status == Game.OPEN:
        players = [{"seat": None, "name": s.user.display_name or s.user.email.split("@")[0], "resigned": False,
                    "to_act": False} for s in sorted(game.seats.all(), key=lambda s: (s.joined_at, s.pk))]
    else:
        players = [{"seat": s.number, "name": names[s.number], "resigned": s.resigned, "to_act": s.number in to_act}
                   for s in sorted(game.seats.all(), key=lambda s: s.number)]
    return {
        "id": game.pk, "title": game.title, "engine": game.engine, "engine_name": game.engine_obj.name,
        "status": game.status, "spectator": seat is None, "players": players, "to_act": to_act,
        "deadline_at": game.deadline_at, "move_count": game.move_count, "view": view,
        "view_text": presentation.view_text(game.engine, view, names) if view is not None else "",
        "result": game.result if game.status == Game.FINISHED else None,
        **_moves(game, seat, view, names),
    }


@router.get("/games/{game_id}/moves", response={200: Moves, **ERRORS}, operation_id="list_my_moves", openapi_extra=links("list_my_moves"),
            summary="My legal moves now, with their labels and the stale token to send back")
def list_my_moves(request, game_id: int = GameId):
    game, seat = readable_game(request, game_id)
    view = _view(game, seat)
    names = presentation.player_names(game) if game.status != Game.OPEN else []
    return _moves(game, seat, view, names)


@router.post("/games/{game_id}/moves", response={200: MoveDone, 403: Error, 409: Error, 422: Error, **BODY_ERRORS, **ERRORS},
             operation_id="submit_move", openapi_extra=links("submit_move"),
             summary="Make a move: one of my legal moves, with the seq of the view it was chosen from")
def submit_move(request, payload: MoveIn, game_id: int = GameId):
    form = MoveForm({"move": payload.move, "seq": str(payload.seq)})
    if not form.is_valid():
        raise ApiError(400, "malformed", form.problem())
    try:
        outcome = services.submit_move(game_id, request.auth, form.cleaned_data["move"],
                                       expected_seq=form.cleaned_data["seq"], channel=Move.WEB)
    except services.GameError as exc:
        raise _classified(game_id, request.auth, exc) from None
    game = outcome.game
    return {"move": outcome.move.text, "seq": game.move_count, "status": game.status,
            "my_turn": _my_turn(game, services.seat_of(game, request.auth))}


def _classified(game_id: int, user, exc: services.GameError) -> ApiError:
    """The HTTP status of a refusal of the write path, told from the game as it is now (the
    write path changed nothing): its message stays the page's own."""
    detail = str(exc)
    if isinstance(exc, services.StaleMove):
        return ApiError(409, "stale", detail)
    game = Game.objects.filter(pk=game_id).prefetch_related("seats__user").first()
    if game is None:
        return ApiError(404, "not_found", detail)
    seat = services.seat_of(game, user)
    if seat is None or seat.resigned:
        return ApiError(403, "forbidden", detail)
    if game.status != Game.RUNNING:
        return ApiError(409, "not_running", detail)
    if seat.number not in (game.to_act or []):
        return ApiError(409, "not_your_turn", detail)
    return ApiError(422, "illegal", detail)


@router.get("/games/{game_id}/log", response={200: LogPage, 409: Error, **ERRORS}, operation_id="get_log",
            summary="The game's log as I may read it, a page of moves at a time, newest page first")
def get_log(request, game_id: int = GameId,
            before: int | None = Query(None, ge=0, le=MAX_ID, description="the lines of the moves before this one "
                                                                         "(`older` or `newer` of another page)"),
            limit: int = Query(history.PAGE, ge=1, le=200, description="moves per page")):
    game, seat = readable_game(request, game_id)
    if game.status == Game.OPEN:
        raise ApiError(409, "not_running", _("This game has not started: it has no log yet."))
    window = history.recent(game, seat.number if seat is not None else None, presentation.player_names(game),
                            before=before or None, limit=limit)
    return {"lines": window.lines, "older": window.older, "newer": window.newer}
