from django import template
from django.db.models import F, Window
from django.db.models.functions import RowNumber

from games.engines import get_engine
from hanseweb import fastsql

from ..models import Rating, RatingChange, Season, Table

register = template.Library()


@register.inclusion_tag("leagues/_ratings.html")
def ratings_of(user, history: int = 10, viewer=None):
    """A player's ratings per game title with their latest changes (the profile page, and the
    league profile ``/players/<id>/``). For a ``viewer`` other than the player, a change names
    and links its game only when the viewer may know of it: a listed game, one they played in,
    or a game of a club they are in (league games are unlisted).

    Who sees the ratings at all (docs/visibility.md): the player and the members of a club they
    are in (ratings come from the clubs' league games); anyone else sees none."""
    from games.models import Game
    from games.visibility import visible_q

    from ..models import Membership

    rows = []
    restricted = False  # another viewer: a change names its game only if they may see it
    if viewer is not None and viewer.pk != user.pk:
        shared = Membership.objects.filter(user=viewer, club__memberships__user=user).exists() \
            if getattr(viewer, "is_authenticated", False) else False
        if not shared and not getattr(viewer, "is_staff", False):
            return {"rows": [], "own": False, "hidden": True}
        restricted = True
    ratings = list(Rating.objects.filter(user=user).order_by("engine"))
    # each rating's latest ``history`` changes, newest first, in one query for all the titles; a
    # change shows its game's title and link: the game's id, title and listing, never its state
    # snapshot or log
    changes: dict[int, list] = {}
    if ratings:
        latest = (RatingChange.objects.filter(rating__in=ratings).select_related("game").only(*_CHANGE_COLUMNS)
                  .annotate(nth=Window(RowNumber(), partition_by=F("rating_id"), order_by=(F("at").desc(), F("pk").desc())))
                  .filter(nth__lte=history).order_by("rating_id", "-at", "-pk"))
        for change in latest:
            changes.setdefault(change.rating_id, []).append(change)
    for rating in ratings:
        rows.append({"rating": rating, "name": get_engine(rating.engine).name, "changes": changes.get(rating.pk, [])})
    shown = None
    if restricted:
        # which of the shown changes' games the viewer may see: asked of those games only, not of
        # every game the viewer may see on the site
        ids = {c.game_id for row in rows for c in row["changes"] if not c.game.listed}
        shown = set(Game.objects.filter(visible_q(viewer), pk__in=ids).values_list("pk", flat=True).distinct()) \
            if ids else set()
    for row in rows:
        for change in row["changes"]:
            change.shown = shown is None or change.game.listed or change.game_id in shown
    return {"rows": rows, "own": not restricted}


_CHANGE_COLUMNS = ("rating_id", "game_id", "place", "mu_before", "sigma_before", "mu_after", "sigma_after", "at",
                   "game__title", "game__listed")


_LEAGUE_OF_GAME = ("round__season_id", "round__season__number", "round__season__league__name",
                   "round__number", "division__level", "division__name")


def _league_rows():  # its SQL is made once per process (fastsql.rows); parameter: the game
    return Table.objects.filter(game_id=0).values_list(*_LEAGUE_OF_GAME)


@register.simple_tag
def league_table_of(game):
    """Where a league game was made (its season, league, round and division: one query, its SQL
    made once), or None: the game page's head links a league game to its season."""
    rows = fastsql.rows(_league_rows, [getattr(game, "pk", None)])
    if not rows:
        return None
    season_id, season, league, round_number, level, division = rows[0]
    return {"season": {"number": season, "league": {"name": league},
                       "get_absolute_url": Season(pk=season_id).get_absolute_url()},
            "round": {"number": round_number}, "division": {"level": level, "name": division}}
