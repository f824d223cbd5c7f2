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
from datetime import timezone as dt_timezone

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q, Subquery, Value
from django.utils import timezone

from games.engines import get_engine
from games.models import Game, Seat, SeatTakeover

RECORD_SECONDS = 300  # a player's record is counted at most every five minutes
EARLIEST = datetime.min.replace(tzinfo=dt_timezone.utc)


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


ROW_COLUMNS = ("title", "engine", "players", "status", "result", "to_act", "move_count", "finished_at", "last_move_at")


def seats_of(game_ids) -> dict[int, list[tuple]]:
    """The seated players of these games as plain values, {game id: [(number, user id, name,
    resigned), …]} in seat order: one query, no seat or user objects."""
    seats: dict[int, list[tuple]] = {}
    for game_id, *seat in (Seat.objects.filter(game_id__in=game_ids, number__isnull=False).order_by("game_id", "number")
                           .values_list("game_id", "number", "user_id", "user__display_name", "resigned")):
        seats.setdefault(game_id, []).append(tuple(seat))
    return seats


def names_of(game_ids) -> dict[int, dict[int, str]]:
    """The seated players' names of these games, {game id: {seat number: name}}: one query of
    plain values."""
    names: dict[int, dict[int, str]] = {}
    for game_id, number, name in (Seat.objects.filter(game_id__in=game_ids, number__isnull=False).order_by()
                                  .values_list("game_id", "number", "user__display_name")):
        names.setdefault(game_id, {})[number] = name
    return names


def games_of(player, viewer, status: str, limit: int) -> list[Row]:
    """The player's ``limit`` latest games of ``status`` that ``viewer`` may see (newest first: by
    the end for finished games, by the last move for running ones)."""
    # The player's seats of that status, all of them, sorted here: with ORDER BY and LIMIT in
    # SQL, PostgreSQL walked the index of every finished game of the site (newest first) against
    # the player's seats (a heavy player's page: a quarter of a second). Each seat's game is read
    # by key (scalar subqueries, as ``record_of``), never by joining the whole games table.
    game = Game.objects.filter(pk=OuterRef("game_id")).order_by()
    when = "finished_at" if status == Game.FINISHED else "last_move_at"
    seats = (Seat.objects.filter(user=player, number__isnull=False).order_by()
             .annotate(status=Subquery(game.values("status")), at=Subquery(game.values(when)),
                       shown=Value(1) if viewer == player else visible_here(viewer))
             .filter(status=status).values_list("game_id", "number", "resigned", "at", "shown"))
    # newest first as PostgreSQL's descending order has it (a game with no date first); ties by id
    seats = sorted((s for s in seats if s[4] is not None),
                   key=lambda s: (s[3] is None, s[3] or EARLIEST, s[0]), reverse=True)[:limit]
    ids = [s[0] for s in seats]
    # the columns the rows show, and the players' names as plain values (no seat or user objects)
    games = {g.pk: g for g in Game.objects.filter(pk__in=ids).only(*ROW_COLUMNS)}
    names = names_of(ids)
    rows = []
    for game_id, number, resigned, *_rest in seats:
        game = games[game_id]
        result = game.result or {}
        ranking, scores = result.get("ranking") or [], result.get("scores") or []
        seated = names.get(game.pk, {})
        rows.append(Row(
            game=game, engine_name=get_engine(game.engine).name, names=[seated.get(i, "?") for i in range(game.players)],
            place=ranking[number] if number < len(ranking) else None,
            score=scores[number] if number < len(scores) else None,
            resigned=resigned,
            my_turn=status == Game.RUNNING and number in (game.to_act or []) and not resigned,
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


def record_of(player, viewer=None, *, cached: bool = True) -> Record:
    """The player's record over the games ``viewer`` may see (all of them for the player themself;
    cached for a few minutes per player and viewer, unless ``cached`` is false: the player's page
    kept whole counts it with the page, whose version holds what it counts). Read from the
    player's seats, whose counters the write path keeps with each move (``Seat.decisions_made``, ``timed_out``), and from the seats
    they handed over (``SeatTakeover``): two queries over the player's own games, whatever the
    length of their games or the size of the site."""
    own = viewer is None or viewer.pk == player.pk
    key = f"player-record:3:{player.pk}:{'own' if own else viewer.pk if viewer.is_authenticated else '-'}"
    found = cache.get(key) if cached else None
    if found is not None:
        return Record(**found)
    # a seat has its number from its game's start; the game's status and ranking are read per seat
    # (a lookup by key each), never by joining the player's seats to the whole games table
    game = Game.objects.filter(pk=OuterRef("game_id")).order_by()
    seats = (Seat.objects.filter(user=player, number__isnull=False).order_by()
             .annotate(status=Subquery(game.values("status")), ranking=Subquery(game.values("result__ranking"))))
    handed = SeatTakeover.objects.filter(old_user=player).order_by()
    # whether the viewer may see each row's game, asked per row in the select list (a filter would
    # let the planner join the player's seats to every game the viewer may see)
    shown = Value(1) if own else visible_here(viewer)
    seats, handed = seats.annotate(shown=shown), handed.annotate(shown=shown)
    rows = [row[:6] for row in seats.values_list("resigned", "decisions_made", "timed_out", "number", "status",
                                                 "ranking", "shown") if row[4] != Game.OPEN and row[6] is not None]
    old = {"made": 0, "late": 0}
    for made, late, visible in handed.values_list("old_decisions_made", "old_timed_out", "shown"):
        if visible is not None:
            old["made"], old["late"] = old["made"] + made, old["late"] + late
    finished = [(number, ranking) for _r, _d, _t, number, status, ranking in rows if status == Game.FINISHED]
    wins = sum(1 for number, ranking in finished
               if isinstance(ranking, list) and number < len(ranking) and ranking[number] == 1)
    record = Record(decisions=sum(r[1] for r in rows) + old["made"], timed_out=sum(r[2] for r in rows) + old["late"],
                    resigned=sum(1 for r in rows if r[0]), games=len(rows), wins=wins, finished=len(finished))
    if cached:
        cache.set(key, record.__dict__, RECORD_SECONDS)
    return record


def visible_here(viewer, ref: str = "game_id") -> Subquery:
    """For a row of the player's (a seat, a handed-over seat): its game's id if ``viewer`` may see
    that game, else NULL. A scalar subquery, so PostgreSQL asks it per row of the player's by key
    (an EXISTS may be turned into a join with, or a hash of, every game the viewer may see)."""
    return Subquery(Game.objects.filter(visible_games(viewer)).filter(pk=OuterRef(ref))
                    .order_by().values("pk")[:1])


@dataclass
class Search:
    engine: str = ""
    player: str = ""
    since: date | None = None
    until: date | None = None


@dataclass(frozen=True)
class Page:
    """One page of the archive: its games, newest first, and the keys of the pages beside it."""
    games: list[Game]
    newer: tuple[datetime, int] | None  # the first game's key, when newer games match
    older: tuple[datetime, int] | None  # the last game's key, when older games match


LIST_COLUMNS = ("state_cache", "undo_state", "setup_events", "options")  # a list shows none of them


def archive(search: Search, viewer, *, after: tuple[datetime, int] | None = None,
            before: tuple[datetime, int] | None = None, size: int = 25) -> Page:
    """Finished games matching ``search`` that ``viewer`` may see, newest first, a page at a time
    by keyset: ``after`` a game's key (finished_at, id), the page of older games after it;
    ``before`` a key, the page of newer games before it. Read in the order of the partial index
    ``game_finished_order`` (``game_finished_engine_order`` with a game chosen), so a page costs
    the same at the archive's first page and at its last, and nothing counts the whole archive.
    Visibility is asked per game read (``visible_here``)."""
    games = (Game.objects.filter(status=Game.FINISHED, finished_at__isnull=False)
             .alias(shown=visible_here(viewer, "pk")).filter(shown__isnull=False))
    if search.engine:
        games = games.filter(engine=search.engine)
    if search.player:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), number__isnull=False,
                                                        user__display_name__icontains=search.player)))
    zone = timezone.get_current_timezone()
    if search.since:
        games = games.filter(finished_at__gte=datetime.combine(search.since, time.min, zone))
    if search.until:
        games = games.filter(finished_at__lte=datetime.combine(search.until, time.max, zone))
    games = games.only(*ROW_COLUMNS)
    if before is not None:  # newer games: read upwards from the key, then turn the page round
        at, pk = before
        found = list(games.filter(finished_at__gte=at).filter(Q(finished_at__gt=at) | Q(pk__gt=pk))
                     .order_by("finished_at", "pk")[:size + 1])
        more = len(found) > size
        found = found[:size][::-1]
        page = Page(found, newer=_key(found[0]) if more and found else None,
                    older=_key(found[-1]) if found else None)
    else:
        if after is not None:
            at, pk = after
            # the range on finished_at is the index's condition; the tie on it is settled by id
            games = games.filter(finished_at__lte=at).filter(Q(finished_at__lt=at) | Q(pk__lt=pk))
        found = list(games.order_by("-finished_at", "-pk")[:size + 1])
        more = len(found) > size
        found = found[:size]
        page = Page(found, newer=_key(found[0]) if after is not None and found else None,
                    older=_key(found[-1]) if more else None)
    return page


def _key(game: Game) -> tuple[datetime, int]:
    return game.finished_at, game.pk
