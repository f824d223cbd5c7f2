"""Game mails: queued in the move's transaction (outbox), sent by a Celery worker after commit."""
from __future__ import annotations

from django.urls import reverse

from hanseweb.mail.outbox import absolute, queue_mail

from . import presentation
from .email_replies import reply_address
from .models import Game, Seat


def _seats(game: Game) -> dict[int, Seat]:
    return {s.number: s for s in game.seats.select_related("user") if s.number is not None}


def your_turn(game: Game, seat_numbers: list[int]) -> None:
    if not seat_numbers:
        return
    engine = game.engine_obj
    state = game.state_cache
    seats = _seats(game)
    names = presentation.player_names(game)
    for number in seat_numbers:
        seat = seats.get(number)
        if seat is None or seat.resigned:
            continue
        if seat.user.wants_turn_mail:
            view = engine.view(state, number)
            reply_to = reply_address(game.pk, number, game.move_count)
            queue_mail(
                to=seat.user.email,
                user=seat.user,
                template="games/mail/your_turn",
                kind="your_turn",
                headers={"Reply-To": reply_to} if reply_to else None,
                context={
                    "can_reply": bool(reply_to),
                    "game": game,
                    "engine_name": engine.name,
                    "player": seat.user,
                    "prompt": view.get("prompt", ""),
                    "since": presentation.log_lines(view, names, since=seat.seen_seq or None),
                    "view_text": presentation.view_text(game.engine, view, names),
                    "legal": engine.legal_moves(state, number),
                    "deadline": game.deadline_at,
                    "game_url": absolute(reverse("game", args=[game.pk])),
                    "move_count": game.move_count,
                },
            )
        seat.seen_seq = game.move_count
        seat.save(update_fields=["seen_seq"])


def game_over(game: Game) -> None:
    engine = game.engine_obj
    state = game.state_cache
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
        view = engine.view(state, number) if state is not None else {"log": []}
        queue_mail(
            to=seat.user.email,
            user=seat.user,
            template="games/mail/game_over",
            kind="game_over",
            context={
                "game": game,
                "engine_name": engine.name,
                "player": seat.user,
                "standings": standings,
                "ended_by": result.get("ended_by"),
                "since": presentation.log_lines(view, names, since=seat.seen_seq),
                "game_url": absolute(reverse("game", args=[game.pk])),
            },
        )


def reminder(game: Game, seat: Seat) -> None:
    """The deadline of a decision is near: remind the seat once for this move number."""
    engine = game.engine_obj
    state = game.state_cache
    names = presentation.player_names(game)
    view = engine.view(state, seat.number)
    reply_to = reply_address(game.pk, seat.number, game.move_count)
    queue_mail(
        to=seat.user.email,
        user=seat.user,
        template="games/mail/reminder",
        kind="reminder",
        headers={"Reply-To": reply_to} if reply_to else None,
        context={
            "can_reply": bool(reply_to),
            "game": game,
            "engine_name": engine.name,
            "player": seat.user,
            "prompt": view.get("prompt", ""),
            "legal": engine.legal_moves(state, seat.number),
            "default": engine.default_move(state, seat.number),
            "deadline": game.deadline_at,
            "game_url": absolute(reverse("game", args=[game.pk])),
            "view_text": presentation.view_text(game.engine, view, names),
        },
    )
