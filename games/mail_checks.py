"""Checks the mail layer asks before it retries a mail (``hanseweb.mail.relevance``).

A turn mail or a reminder is about one decision of one seat: the seat was to act at move ``seq``.
Once that decision has been made (by the player, by a deadline's default, by an undo that gave it
back as a new decision) or the game has ended, the mail would arrive late about a position that is
gone, with a reply address that no longer works: it is dropped as obsolete instead.
"""
from __future__ import annotations

from .models import Game, Seat

DECISION = "games.decision_open"


def decision_spec(game_id: int, seat_number: int, seq: int) -> dict:
    """``OutboundEmail.wanted_while`` of a mail about ``seat_number``'s decision at move ``seq``."""
    return {"name": DECISION, "params": {"game": game_id, "seat": seat_number, "seq": seq}}


def decision_open(params: dict) -> bool:
    """Is the seat's decision at move ``params["seq"]`` still open? The per-seat stale check
    (``services.decision_current``): the seat's own decision has not changed since that move,
    the seat is still to act and the game is running."""
    row = (Seat.objects.filter(game_id=params["game"], number=params["seat"])
           .values_list("decision_seq", "resigned", "game__status", "game__to_act").first())
    if row is None:
        return False
    decision_seq, resigned, status, to_act = row
    return (status == Game.RUNNING and not resigned and params["seat"] in (to_act or [])
            and decision_seq <= int(params["seq"]))
