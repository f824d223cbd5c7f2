"""The leagues' part of the visibility model (docs/visibility.md; ``games.visibility``): a league
game is a club game (its club's members and its players may see it) unless its league is public
(anyone may). Registered in ``hanseweb.hooks`` by the app's ``ready``."""
from __future__ import annotations

from django.db.models import Q


def _authenticated(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def may_view(game_id: int, user) -> bool | None:
    from .models import Membership, Table

    row = (Table.objects.filter(game_id=game_id)
           .values_list("round__season__league__public", "round__season__league__club_id").first())
    if row is None:
        return None
    public, club_id = row
    if public:
        return True
    return _authenticated(user) and Membership.objects.filter(club_id=club_id, user_id=user.pk).exists()


def level(game_id: int) -> str | None:
    from .models import Table

    public = Table.objects.filter(game_id=game_id).values_list("round__season__league__public", flat=True).first()
    if public is None:
        return None
    return "public" if public else "club"


def visible_q(user, prefix: str = "") -> Q:
    from .models import Membership

    league = f"{prefix}league_table__round__season__league__"
    q = Q(**{f"{league}public": True})
    if _authenticated(user):
        # the viewer's clubs as a subquery (a few rows by the user's index), not a join over every
        # membership of each game's club: a list checks this per game it reads
        q |= Q(**{f"{league}club_id__in": Membership.objects.filter(user_id=user.pk).values("club_id")})
    return q


def may_read_league(league, user) -> bool:
    """The league's pages (league, seasons, standings): its club's members, anyone if public."""
    from .services import is_member

    return league.public or is_member(league.club, user)
