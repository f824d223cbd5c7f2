"""Table talk: a chat per game, private notes per seat, mute and moderation (docs/chat.md).

This module is the one way in for every channel (game page, email replies, the JSON API): who may
read and write, what a viewer sees of each message, what a mail tells. Views and the API call
``messages_for``, ``post``, ``hide``, ``save_note``, ``note_of`` and ``set_muted``; mails call
``said_since`` and ``mark_told``.

- The chat is append-only like the move log: ``ChatMessage`` rows are never changed or deleted
  (model guard and database triggers, migration 0011). A moderator hides a message by adding a
  ``ChatModeration`` row (who, when, why); the text stays in the database.
- Players write (seated players of a started game, resigned ones too, also after the end);
  spectators read the chat of listed games only; staff and the organisers of the club whose
  league the game belongs to read every game's chat and hide messages.
- A seat's note is seen by that seat's player and nobody else, nowhere else.
- Text: CR/LF normalised to LF, trimmed, at most ``ChatMessage.MAX_LENGTH`` characters. Control
  characters other than LF and TAB (NUL among them) and text that was not valid UTF-8 (which
  Django decodes to U+FFFD) are refused with a clear error; nothing is stripped silently.
"""
from __future__ import annotations

import unicodedata
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from hanseweb import throttle

from .models import ChatMessage, ChatModeration, Game, Seat, SeatNote

PAGE = 50  # messages on the game page (older ones: the chat history page)
MAIL_LIMIT = 30  # messages in one mail's "said since your last turn"
REASON_LENGTH = 200
ORGANISER = "organiser"  # hanseweb.leagues.models.Membership.ORGANISER (no import: leagues depends on games)


class ChatError(Exception):
    """A chat or note request that cannot be carried out; the message is shown to the user."""


class ChatThrottled(ChatError):
    """Too many chat requests of one account in a short time (the API answers 429)."""


# --- text ----------------------------------------------------------------------------------------

def clean_text(raw, *, max_length: int, allow_empty: bool = False) -> str:
    """``raw`` as it is stored, or ``ChatError`` saying what is wrong with it."""
    text = "" if raw is None else str(raw)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\ufffd" in text:
        raise ChatError(_("The text contains bytes that are not valid UTF-8 (shown as \ufffd); nothing was saved."))
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in "\n\t" for c in text):
        raise ChatError(_("The text contains control characters (such as NUL); only ordinary characters, line "
                          "breaks and tabs are allowed. Nothing was saved."))
    text = text.strip()
    if not text and not allow_empty:
        raise ChatError(_("The message is empty: write something first."))
    if len(text) > max_length:
        raise ChatError(_("The text is too long: %(length)d characters, at most %(max)d are allowed. Nothing was "
                          "saved.") % {"length": len(text), "max": max_length})
    return text


# --- who may do what ------------------------------------------------------------------------------

def _authenticated(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def is_moderator(game_id: int, user) -> bool:
    """Staff, or an organiser of the club whose league the game is a table of."""
    if not _authenticated(user):
        return False
    if user.is_staff:
        return True
    return Game.objects.filter(
        pk=game_id, league_table__round__season__league__club__memberships__user=user,
        league_table__round__season__league__club__memberships__role=ORGANISER,
    ).exists()


def _seat(game_id: int, user) -> Seat | None:
    if not _authenticated(user):
        return None
    return Seat.objects.filter(game_id=game_id, user_id=user.pk, number__isnull=False).first()


def may_read(game: Game, seat: Seat | None, moderator: bool) -> bool:
    return game.status != Game.OPEN and (seat is not None or moderator or game.listed)


# --- what a viewer sees ----------------------------------------------------------------------------

def _seen(message: ChatMessage, viewer: int | None, moderator: bool) -> dict:
    """One message as ``viewer`` (a seat number, None: not seated) may see it. A hidden message's
    text is shown only to its author and to moderators; who hid it and why, to the players and
    moderators; to spectators only that a moderator hid it."""
    moderation = message.moderation if _has_moderation(message) else None
    own = viewer is not None and message.seat == viewer
    insider = viewer is not None or moderator
    return {
        "id": message.pk,
        "seat": message.seat,
        "author": message.user.display_name,
        "own": own,
        "text": message.text if moderation is None or own or moderator else None,
        "at": message.created_at,
        "move_count": message.move_count,
        "channel": message.channel,
        "hidden": moderation is not None,
        "hidden_by": moderation.by.display_name if moderation is not None and insider else None,
        "hidden_at": moderation.created_at if moderation is not None and insider else None,
        "hidden_reason": moderation.reason if moderation is not None and insider else None,
    }


def _has_moderation(message: ChatMessage) -> bool:
    try:
        message.moderation
    except ChatModeration.DoesNotExist:
        return False
    return True


def _window(game_id: int, *, after_id=None, before_id=None, limit: int = PAGE) -> tuple[list[ChatMessage], bool]:
    """Up to ``limit`` messages, oldest first: the first ones after ``after_id``, else the newest
    (before ``before_id``); and whether there are more beyond them. One query on (game, id)."""
    rows = ChatMessage.objects.filter(game_id=game_id).select_related("user", "moderation", "moderation__by")
    if after_id is not None:
        found = list(rows.filter(id__gt=int(after_id)).order_by("id")[:limit + 1])
        return found[:limit], len(found) > limit
    if before_id is not None:
        rows = rows.filter(id__lt=int(before_id))
    found = list(rows.order_by("-id")[:limit + 1])
    return list(reversed(found[:limit])), len(found) > limit


def messages_for(game: Game, user, *, after_id: int | None = None, before_id: int | None = None,
                 limit: int = PAGE) -> list[dict]:
    """What ``user`` (an account, or None/anonymous for a visitor) may read of ``game``'s chat:
    at most ``limit`` messages, oldest first (the first ones after ``after_id``, else the newest
    before ``before_id``), each a dict as ``_seen`` makes it. ``ChatError`` when the user may not
    read this chat at all. The JSON API uses this, so it shows exactly what the page shows."""
    seat = _seat(game.pk, user)
    moderator = is_moderator(game.pk, user)
    if not may_read(game, seat, moderator):
        raise ChatError(_("Only the players of this game can read its chat."))
    limit = max(1, min(int(limit), 200))
    rows, _more = _window(game.pk, after_id=after_id, before_id=before_id, limit=limit)
    viewer = seat.number if seat else None
    return [_seen(m, viewer, moderator) for m in rows]


PAGE_SECONDS = 300  # the longest a viewer's chat part is kept; any change of the chat replaces it at once


def _version_key(game_id: int) -> str:
    return f"chatver:1:{game_id}"


def _changed(game_id: int) -> None:
    """Something the chat part of a page shows changed (a message, a hide, a note, a mute): a new
    version of the game's chat, now and again when the transaction commits (so no reader keeps
    what it read before the commit under the new version)."""
    def bump():
        cache.set(_version_key(game_id), uuid.uuid4().hex, None)

    bump()
    transaction.on_commit(bump)


def version_key(game_id: int) -> str:
    """The cache key holding the game's chat version (a new one whenever the chat part changes)."""
    return _version_key(game_id)


def current_version(game_id: int, known: str | None = None) -> str:
    """The game's chat version (``known``: the value already read from ``version_key``); made on
    first use."""
    if known is None:
        cache.add(_version_key(game_id), uuid.uuid4().hex, None)
        known = cache.get(_version_key(game_id))
    return known


def page_context(game_id: int, user, *, before_id: int | None = None, listed: bool | None = None,
                 version: str | None = None) -> dict:
    """The chat and notes part of a started game's page for ``user``: outside the cached page
    body, so a new message shows at once. Kept in the cache per game chat version and viewer
    (``_changed`` makes a new version whenever the chat, a hide, a note or a mute changes) and
    the game's ``listed`` flag, so a repeated view costs two cache reads and no query; otherwise a fixed number of queries,
    whatever the length of the chat. (A change of a club's organisers, who may moderate, shows
    within ``PAGE_SECONDS``.)"""
    seconds = min(settings.HANSEWEB_PAGE_CACHE_SECONDS, PAGE_SECONDS)
    if not seconds or before_id is not None:
        return _page_context(game_id, user, before_id=before_id)
    if version is None:
        version = current_version(game_id)
    viewer = user.pk if _authenticated(user) else "-"
    # ``listed`` (when the caller knows it): who may read changes with it, so it is in the key
    key = f"chatpage:1:{game_id}:{version}:{viewer}:{get_language()}:{listed}"
    context = cache.get(key)
    if context is None:
        context = _page_context(game_id, user)
        cache.set(key, context, seconds)
    return context


def _page_context(game_id: int, user, *, before_id: int | None = None) -> dict:
    game = Game.objects.only("pk", "status", "listed").get(pk=game_id)
    seat = None
    note = ""
    if _authenticated(user):
        row = (Seat.objects.filter(game_id=game_id, user_id=user.pk, number__isnull=False)
               .values_list("pk", "number", "chat_muted", "note__text").first())
        if row is not None:
            seat = {"pk": row[0], "number": row[1], "muted": row[2]}
            note = row[3] or ""
    moderator = is_moderator(game_id, user)
    context = {"chat_game_id": game_id, "chat_seat": seat, "chat_moderator": moderator,
               "chat_max": ChatMessage.MAX_LENGTH, "note_max": SeatNote.MAX_LENGTH, "reason_max": REASON_LENGTH,
               "note_text": note if seat else None}
    if not may_read(game, seat, moderator):
        context["chat_readable"] = False
        return context
    rows, more = _window(game_id, before_id=before_id)
    viewer = seat["number"] if seat else None
    messages = [_seen(m, viewer, moderator) for m in rows]
    context.update(chat_readable=True, chat_messages=messages, chat_older=messages[0]["id"] if more else None,
                   chat_can_post=seat is not None)
    if seat is not None or moderator:  # the moderation log: visible to the game's players
        context["chat_moderations"] = list(
            ChatModeration.objects.filter(game_id=game_id).select_related("by", "message__user").order_by("-id")[:20])
    return context


# --- writing ---------------------------------------------------------------------------------------

def _throttled(name: str, user) -> None:
    if not throttle.allowed(name, user.pk):
        raise ChatThrottled(_("Too many in a short time: please wait a little and try again."))


def post(game_id: int, user, text, *, channel: str = ChatMessage.WEB) -> ChatMessage:
    """``user`` says ``text`` at ``game_id``'s table. Needs no stale check (a chat message does
    not depend on the position), and sends no mail: it goes into each player's next turn mail or
    digest (``said_since``)."""
    text = clean_text(text, max_length=ChatMessage.MAX_LENGTH)
    if not _authenticated(user):
        raise ChatError(_("Log in to write in the chat."))
    game = Game.objects.only("pk", "status", "move_count").filter(pk=game_id).first()
    if game is None:
        raise ChatError(_("There is no such game."))
    if game.status == Game.OPEN:
        raise ChatError(_("The chat opens when the game starts."))
    seat = _seat(game_id, user)
    if seat is None:
        raise ChatError(_("Only the players of this game can write in its chat."))
    _throttled("chat_per_user", user)
    _changed(game_id)
    return ChatMessage.objects.create(game_id=game_id, seat=seat.number, user=user, text=text,
                                      move_count=game.move_count, channel=channel)


def hide(game_id: int, message_id: int, user, reason) -> ChatModeration:
    """A moderator hides a message, saying why. The message stays; the hide is logged."""
    if not is_moderator(game_id, user):
        raise ChatError(_("Only moderators (staff and the organisers of the game's club) can hide messages."))
    try:
        reason = clean_text(reason, max_length=REASON_LENGTH)
    except ChatError as exc:
        raise ChatError(_("Give a reason for hiding the message. %(problem)s") % {"problem": exc}) from None
    message = ChatMessage.objects.filter(game_id=game_id, pk=message_id).first()
    if message is None:
        raise ChatError(_("There is no such message in this game's chat."))
    _throttled("chat_hide_per_user", user)
    try:
        with transaction.atomic():
            _changed(game_id)
            return ChatModeration.objects.create(message=message, game_id=game_id, by=user, reason=reason)
    except IntegrityError:
        raise ChatError(_("This message is already hidden.")) from None


def note_of(game_id: int, user) -> str | None:
    """``user``'s own note for their seat in the game (None: not seated)."""
    seat = _seat(game_id, user)
    if seat is None:
        return None
    note = SeatNote.objects.filter(seat=seat).first()
    return note.text if note else ""


def save_note(game_id: int, user, text) -> SeatNote:
    """Replace the note of ``user``'s seat (only the latest text is kept)."""
    text = clean_text(text, max_length=SeatNote.MAX_LENGTH, allow_empty=True)
    seat = _seat(game_id, user)
    if seat is None:
        raise ChatError(_("Only the players of this game have notes here."))
    _throttled("notes_per_user", user)
    note, _created = SeatNote.objects.update_or_create(seat=seat, defaults={"text": text})
    _changed(game_id)
    return note


def set_muted(game_id: int, user, muted: bool) -> None:
    """Mute (or unmute) the game's chat in ``user``'s mails; the page still shows it."""
    seat = _seat(game_id, user)
    if seat is None:
        raise ChatError(_("Only the players of this game can mute its chat."))
    _throttled("notes_per_user", user)
    Seat.objects.filter(pk=seat.pk).update(chat_muted=bool(muted))
    _changed(game_id)


# --- mails -----------------------------------------------------------------------------------------

def said_since(game: Game, seat: Seat) -> dict | None:
    """"Said since your last turn" for a mail to ``seat``: the other players' messages after the
    seat's chat cursor (at most ``MAIL_LIMIT``, the newest), hidden ones left out. None when the
    seat muted the chat. One indexed query (game, id > cursor), whatever the chat's length.
    After queueing the mail, call ``mark_told(seat, said["last_id"])``."""
    if seat.chat_muted:
        return None
    found = list(ChatMessage.objects.filter(game_id=game.pk, id__gt=seat.chat_told_id)
                 .select_related("user", "moderation").order_by("-id")[:MAIL_LIMIT + 1])
    more = len(found) > MAIL_LIMIT
    rows = list(reversed(found[:MAIL_LIMIT]))
    lines = [{"author": m.user.display_name, "text": m.text, "at": m.created_at, "move_count": m.move_count,
              "text_indented": m.text.replace("\n", "\n    ")}  # the plain-text mail's continuation lines
             for m in rows if m.seat != seat.number and not _has_moderation(m)]
    return {"lines": lines, "more": more, "last_id": rows[-1].pk if rows else None}


def mark_told(seat: Seat, last_id: int | None) -> None:
    """The seat has been mailed the chat up to message ``last_id``."""
    if last_id and last_id > seat.chat_told_id:
        Seat.objects.filter(pk=seat.pk, chat_told_id__lt=last_id).update(chat_told_id=last_id)
        seat.chat_told_id = last_id
