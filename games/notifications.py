"""Game mails: queued in the move's transaction (outbox), sent by a Celery worker after commit."""
from __future__ import annotations

from django.urls import reverse

from hanseweb.mail.outbox import absolute, queue_mail

from . import history, presentation
from .email_replies import reply_address
from .models import Game, Seat
from .services import mark_told


def _seats(game: Game) -> dict[int, Seat]:
    """The seats by number: the game's loaded seats (the write path loads them once, with users)."""
    return {s.number: s for s in game.seats.all() if s.number is not None}


def thread_of(game: Game, seat_number: int) -> dict:
    """The mail headers that make one game one conversation for one seat (``queue_mail``'s
    thread and List-Id arguments): every mail of the game to that seat threads under one root."""
    return {"thread": f"game-{game.pk}.seat-{seat_number}", "list_key": f"game-{game.pk}", "list_name": game.title}


def decision_mail(game: Game, seat: Seat, *, template: str, kind: str, with_news: bool = False,
                  **extra) -> None:
    """A mail about a decision that is ``seat``'s now: its private view as text, the menu of its
    legal moves, the deadline, the link, and (when replies are on) a reply address for this move
    number. Turn mails, reminders and answers to email replies are all of this kind.

    The move number in the reply address (as in the page's form) is the per-seat stale check: a
    reply is taken while the seat's own decision has not changed since (``services.decision_current``)."""
    engine = game.engine_obj
    state = game.state_cache
    names = presentation.player_names(game)
    view = engine.view(state, seat.number)
    reply_to = reply_address(game.pk, seat.number, game.move_count)
    context = {
        "can_reply": bool(reply_to),
        "game": game,
        "engine_name": engine.name,
        "player": seat.user,
        "prompt": view.get("prompt", ""),
        "view_text": presentation.view_text(game.engine, view, names),
        "legal": engine.legal_moves(state, seat.number),
        "deadline": game.deadline_at,
        "game_url": absolute(reverse("game", args=[game.pk])),
        **extra,
    }
    if with_news:  # what happened since the seat last acted or was told
        context["since"], context["since_skipped"] = history.since(game, seat.number, names, seat.seen_seq)
    queue_mail(to=seat.user.email, user=seat.user, template=template, kind=kind, context=context,
               headers={"Reply-To": reply_to} if reply_to else None, **thread_of(game, seat.number))


def your_turn(game: Game, seat_numbers: list[int]) -> None:
    if not seat_numbers:
        return
    seats = _seats(game)
    for number in seat_numbers:
        seat = seats.get(number)
        if seat is None or seat.resigned:
            continue
        if seat.user.wants_turn_mail:
            decision_mail(game, seat, template="games/mail/your_turn", kind="your_turn", with_news=True)
        mark_told(seat, game.move_count)


def game_over(game: Game) -> None:
    engine = game.engine_obj
    names = presentation.player_names(game)
    result = game.result or {}
    standings = []
    for number, seat in sorted(_seats(game).items()):
        standings.append({
            "name": names[number],
            "place": (result.get("ranking") or [None] * game.players)[number],
            "score": (result.get("scores") or [None] * game.players)[number],
            "breakdown": (result.get("breakdown") or [None] * game.players)[number],
            "resigned": seat.resigned,
        })
    standings.sort(key=lambda r: (r["place"] or 99))
    for number, seat in _seats(game).items():
        if not seat.user.wants_turn_mail:
            continue
        since, _ = history.since(game, number, names, seat.seen_seq)
        queue_mail(
            to=seat.user.email,
            user=seat.user,
            template="games/mail/game_over",
            kind="game_over",
            **thread_of(game, number),
            context={
                "game": game,
                "engine_name": engine.name,
                "player": seat.user,
                "standings": standings,
                "ended_by": result.get("ended_by"),
                "since": since,
                "game_url": absolute(reverse("game", args=[game.pk])),
            },
        )


def reminder(game: Game, seat: Seat) -> None:
    """The deadline of a decision is near: remind the seat (once per move number, see tasks)."""
    decision_mail(game, seat, template="games/mail/reminder", kind="reminder",
                  default=game.engine_obj.default_move(game.state_cache, seat.number))
