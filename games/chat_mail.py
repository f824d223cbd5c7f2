"""Table talk by mail on its own (issue 24 item 8, docs/chat.md "Mails").

A chat line follows each reader's mail policy. Usually it rides along with the next turn mail or
the daily digest ("said since your last turn", ``chat.said_since``). A reader who wants a mail for
every decision (``User.NOTIFY_EVERY_TURN``) also gets the table talk by itself when no turn mail
carried it within ``HANSEWEB_CHAT_MAIL_AFTER_MINUTES`` (the debounce window) of the line being
said: the beat's ``games.tasks.send_chat_news`` looks for lines older than the window that a seat
of such a reader has not been told (its ``chat_told_id`` cursor), and mails them in one message
per game and seat. Muted seats, digest/debounced/off readers and unconfirmed addresses get none;
the author's own lines and hidden ones are left out (``said_since``). Lines older than a day are
left to the next turn mail or digest.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone, translation

from hanseweb.accounts.models import User
from hanseweb.i18n import language_of
from hanseweb.mail.outbox import absolute, queue_mail

from . import chat
from .models import ChatMessage, Game, Seat

LOOK_BACK = timedelta(days=1)


def window() -> timedelta:
    return timedelta(minutes=settings.HANSEWEB_CHAT_MAIL_AFTER_MINUTES)


def send_chat_news(now=None) -> int:
    """Mail the table talk no turn mail carried within the window to every-decision readers.
    Returns the number of mails queued. Safe to run twice at once: each seat is locked and its
    cursor read again before its mail is queued (in the same transaction as the cursor's move)."""
    now = now or timezone.now()
    in_window = {"created_at__lte": now - window(), "created_at__gt": now - window() - LOOK_BACK}
    # one query: the seats of the games with lines in the window whose readers have not been told
    # the newest of them (each seat's newest line found through the index on (game, id))
    newest = ChatMessage.objects.filter(game_id=OuterRef("game_id"), **in_window).order_by("-id").values("id")[:1]
    seats = (Seat.objects.filter(game_id__in=ChatMessage.objects.filter(**in_window).values("game_id"),
                                 chat_muted=False, resigned=False, user__notify=User.NOTIFY_EVERY_TURN,
                                 user__email_confirmed=True, user__is_active=True)
             .annotate(last=Subquery(newest)).filter(chat_told_id__lt=F("last"))
             .order_by("game_id", "pk").values_list("pk", "last"))
    sent = 0
    for seat_pk, last in list(seats):
        sent += _mail_seat(seat_pk, last, now)
    return sent


def _mail_seat(seat_pk: int, last: int, now) -> int:
    from .notifications import thread_of

    with transaction.atomic():
        seat = (Seat.objects.select_for_update(skip_locked=True, of=("self",)).select_related("user", "game")
                .defer("game__state_cache", "game__undo_state", "game__setup_events")  # a chat mail shows no board
                .filter(pk=seat_pk, chat_told_id__lt=last).first())
        if seat is None:  # told meanwhile (a turn mail, another beat)
            return 0
        game: Game = seat.game
        said = chat.said_since(game, seat)
        # only lines said before the window closed: a newer line waits for its own window
        said["lines"] = [line for line in said["lines"] if line["at"] <= now - window()]
        told_up_to = last  # the newest line said before the window closed
        if not said["lines"]:  # only the seat's own or hidden lines: nothing to tell
            chat.mark_told(seat, told_up_to)
            return 0
        with translation.override(language_of(seat.user)):
            queue_mail(to=seat.user.email, user=seat.user, template="games/mail/chat", kind="chat",
                       context={"game": game, "player": seat.user, "said": said,
                                "game_url": absolute(reverse("game", args=[game.pk]) + "#chat")},
                       **thread_of(game, seat.number))
        chat.mark_told(seat, told_up_to)
        return 1
