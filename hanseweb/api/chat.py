"""The chat endpoints of the JSON API: read a game's table talk and write in it, through
``games.chat`` (the one way in for the page, mail replies and the API), so the API shows and
accepts exactly what the game page does: who may read, what a hidden message shows to whom,
the text checks and the per-account rate."""
from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema, Status
from pydantic import ConfigDict

from games import chat
from games.models import ChatMessage

from .core import ApiError
from .games import BODY_ERRORS, ERRORS, MAX_ID, Error, GameId, readable_game
from .text import CHAT_PATTERN

router = Router(tags=["chat"])


class ChatLine(Schema):
    id: int = Field(description="the message's id (use it as `after` or `before`)")
    seat: int = Field(description="the author's seat")
    author: str
    own: bool = Field(description="I wrote it")
    text: str | None = Field(description="null: hidden by a moderator (its text is shown only to its author and moderators)")
    at: datetime
    move_count: int = Field(description="the game's move count when it was said")
    channel: str = Field(description="web, email or api")
    hidden: bool
    hidden_by: str | None = Field(description="who hid it (players and moderators only)")
    hidden_at: datetime | None
    hidden_reason: str | None


class ChatIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(min_length=1, max_length=ChatMessage.MAX_LENGTH, pattern=CHAT_PATTERN,
                      description="what I say at the table: at most 1,000 characters, something besides white "
                                  "space, no control character (tab and line breaks aside; a carriage return "
                                  "is kept as a line break) and no U+FFFD; otherwise 400 `malformed`. A message "
                                  "the chat refuses for another reason is 400 `refused`")


@router.get("/games/{game_id}/chat", response={200: list[ChatLine], 403: Error, **ERRORS}, operation_id="get_chat",
            summary="The game's chat as I may read it: the newest messages, or those after/before an id, oldest first")
def get_chat(request, game_id: int = GameId,
             after: int | None = Query(None, ge=0, le=MAX_ID, description="messages after this id"),
             before: int | None = Query(None, ge=1, le=MAX_ID, description="messages before this id"),
             limit: int = Query(chat.PAGE, ge=1, le=200, description="messages at most")):
    game, _seat = readable_game(request, game_id)
    try:
        return chat.messages_for(game, request.auth, after_id=after, before_id=before, limit=limit)
    except chat.ChatError as exc:
        raise ApiError(403, "forbidden", str(exc)) from None


@router.post("/games/{game_id}/chat", response={201: ChatLine, 403: Error, 409: Error, **BODY_ERRORS, **ERRORS},
             operation_id="post_chat", summary="Say something at the table (players only); sends no mail")
def post_chat(request, payload: ChatIn, game_id: int = GameId):
    game, seat = readable_game(request, game_id)
    if seat is None:
        raise ApiError(403, "forbidden", _("Only the players of this game can write in its chat."))
    try:
        message = chat.post(game.pk, request.auth, payload.text, channel=ChatMessage.API)
    except chat.ChatThrottled as exc:
        raise ApiError(429, "throttled", str(exc)) from None
    except chat.ChatError as exc:
        raise ApiError(409 if game.status == game.OPEN else 400, "refused", str(exc)) from None
    line = chat.messages_for(game, request.auth, after_id=message.pk - 1, limit=1)
    return Status(201, line[0])
