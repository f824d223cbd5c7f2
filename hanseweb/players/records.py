"""What a player's page and the archive read: a player's games, results, ratings and record of
decisions made in time, and the finished games matching a search.

Visibility (docs/visibility.md, ``games.visibility``): a game shows here only to whoever may see
it (public: anyone; club: its club's members and its players; private: its players), and the
record counts only those games. Nothing here reads a game's state: results come from ``Game.result``
(set when a game ends), the record from the move log's channels.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from django.core.cache import cache
from django.db.models import Count, F, Q
from django.utils import timezone

from games.engines import get_engine
from games.models import Game, Move, Seat

RECORD_SECONDS = 300  # a player's record is counted at most every five minutes


def visible_games(viewer, prefix: str = "") -> Q:
    """Games ``viewer`` may see (``games.visibility.visible_q``)."""
    from games.visibility import visible_q

    return visible_q(viewer, prefix)


@dataclass
class Row:
    game: Game
    engine_name: str
    names: list[str]
    place: int | None = None
    score: int | float | None = None
    resigned: bool = False
    my_turn: bool = False


def _names(game: Game) -> list[str]:
    by_number = {s.number: s.user.display_name for s in game.seats.all() if s.number is not None}
    return [by_number.get(i, "?") for i in range(game.players)]


def games_of(player, viewer, status: str, limit: int) -> list[Row]:
    seats = (Seat.objects.filter(user=player, game__status=status, number__isnull=False)
             .filter(game__in=Game.objects.filter(visible_games(viewer)).values("pk"))
             .select_related("game").distinct().order_by("-game__finished_at" if status == Game.FINISHED
                                                          else "-game__last_move_at")[:limit])
    seats = list(seats)
    games = {g.pk: g for g in Game.objects.filter(pk__in=[s.game_id for s in seats])
             .defer("state_cache", "undo_state", "setup_events").prefetch_related("seats__user")}
    rows = []
    for seat in seats:
        game = games[seat.game_id]
        result = game.result or {}
        ranking, scores = result.get("ranking") or [], result.get("scores") or []
        rows.append(Row(
            game=game, engine_name=get_engine(game.engine).name, names=_names(game),
            place=ranking[seat.number] if seat.number < len(ranking) else None,
            score=scores[seat.number] if seat.number < len(scores) else None,
            resigned=seat.resigned,
            my_turn=status == Game.RUNNING and seat.number in (game.to_act or []) and not seat.resigned,
        ))
    return rows


@dataclass
class Record:
    decisions: int      # decisions the player made (on the page or by mail)
    timed_out: int      # decisions the deadline made for the player
    resigned: int       # games the player left
    games: int          # started games the player sat at
    wins: int           # finished games in first place (shared included)
    finished: int

    @property
    def in_time(self) -> int | None:
        total = self.decisions + self.timed_out
        return round(100 * self.decisions / total) if total else None


def record_of(player, viewer=None) -> Record:
    """The player's record, counted from the log over the games ``viewer`` may see (all of them
    for the player themself; cached for a few minutes per player and viewer)."""
    own = viewer is None or viewer.pk == player.pk
    key = f"player-record:2:{player.pk}:{'own' if own else viewer.pk if viewer.is_authenticated else '-'}"
    found = cache.get(key)
    if found is not None:
        return Record(**found)
    shown = Game.objects.all() if own else Game.objects.filter(visible_games(viewer))
    shown = shown.values("pk")
    decisions = Move.objects.filter(user=player, channel__in=[Move.WEB, Move.EMAIL])
    # a timed-out decision is logged for the seat, without a user (a partial index keeps these few)
    timed_out = Move.objects.filter(channel=Move.TIMEOUT, game__seats__user=player, game__seats__number=F("seat"))
    seats = Seat.objects.filter(user=player, number__isnull=False).exclude(game__status=Game.OPEN)
    finished = Seat.objects.filter(user=player, game__status=Game.FINISHED, number__isnull=False)
    if not own:
        decisions, timed_out = decisions.filter(game__in=shown), timed_out.filter(game__in=shown)
        seats, finished = seats.filter(game__in=shown), finished.filter(game__in=shown)
    decisions, timed_out = decisions.count(), timed_out.count()
    seats = list(seats.values_list("resigned", flat=True))
    finished = finished.values_list("number", "game__result")
    wins = sum(1 for number, result in finished
               if result and (result.get("ranking") or [None] * (number + 1))[number] == 1)
    record = Record(decisions=decisions, timed_out=timed_out, resigned=sum(seats),
                    games=len(seats), wins=wins, finished=len(finished))
    cache.set(key, record.__dict__, RECORD_SECONDS)
    return record


@dataclass
class Search:
    engine: str = ""
    player: str = ""
    since: date | None = None
    until: date | None = None


def archive(search: Search, viewer):
    """Finished games matching ``search``, newest first (a queryset: the view paginates it)."""
    games = Game.objects.filter(status=Game.FINISHED).filter(visible_games(viewer))
    if search.engine:
        games = games.filter(engine=search.engine)
    if search.player:
        games = games.filter(seats__user__display_name__icontains=search.player)
    zone = timezone.get_current_timezone()
    if search.since:
        games = games.filter(finished_at__gte=datetime.combine(search.since, time.min, zone))
    if search.until:
        games = games.filter(finished_at__lte=datetime.combine(search.until, time.max, zone))
    ids = games.values("pk").distinct()
    return (Game.objects.filter(pk__in=ids).defer("state_cache", "undo_state", "setup_events")
            .prefetch_related("seats__user").order_by("-finished_at", "-pk"))


def counts_by_engine(viewer) -> dict[str, int]:
    rows = (Game.objects.filter(status=Game.FINISHED).filter(visible_games(viewer)).values("engine")
            .annotate(n=Count("pk", distinct=True)))
    return {r["engine"]: r["n"] for r in rows}
