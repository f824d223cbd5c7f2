"""Who may see a game: one model for every channel (docs/visibility.md).

A game is

- **public**: listed in the lobby (``Game.listed``), or a game of a league its club made public:
  anyone may look at it, logged out included;
- **club**: a league game (leagues are club games by default): the members of the league's club
  and the game's players;
- **private**: an unlisted game outside the leagues (join by link): its players only (and, while
  it waits for players, whoever opened its join link in this browser session).

Staff may see every game. The same rule holds for the game page, its status poll, replay, log,
export, table talk, the JSON API, players' pages, the archive and the league feeds. The games
app knows nothing of leagues: the leagues app registers ``game_viewers`` (callable(game_id, user)
-> bool | None) and ``visible_games_q`` (callable(user, prefix) -> Q) in ``hanseweb.hooks``.
"""
from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _

from hanseweb import hooks

PUBLIC, CLUB, PRIVATE = "public", "club", "private"


def _authenticated(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def may_see(game_id: int, listed: bool, seat_user_ids, user, *, invited: bool = False) -> bool:
    """Whether ``user`` (maybe anonymous) may see the game. ``seat_user_ids``: the accounts at its
    table; ``invited``: the viewer holds the game's join link (an open game only)."""
    if listed or invited:
        return True
    if _authenticated(user):
        if user.pk in set(seat_user_ids) or user.is_staff:
            return True
    for check, _label in hooks.callables("game_viewers"):
        if check(game_id, user):
            return True
    return False


def level(game) -> str:
    """public, club or private (for the page's note and the docs' table)."""
    if game.listed:
        return PUBLIC
    for check, _label in hooks.callables("game_level"):
        found = check(game.pk)
        if found:
            return found
    return PRIVATE


def visible_q(user, prefix: str = "") -> Q:
    """The games ``user`` may see, as a filter on a query of games (``prefix``: the path to the
    game, e.g. ``"game__"`` on seats). Callers take ``distinct()`` (it joins seats)."""
    q = Q(**{f"{prefix}listed": True})
    if _authenticated(user):
        if user.is_staff:
            return Q(**{f"{prefix}pk__isnull": False})
        q |= Q(**{f"{prefix}seats__user": user})
    for more, _label in hooks.callables("visible_games_q"):
        q |= more(user, prefix)
    return q


def refuse(request):
    """The answer to someone who may not see a game: the login page for a visitor (a member or
    player following a link logs in and comes back), 404 for anyone else (the game's existence is
    not confirmed)."""
    if not _authenticated(request.user):
        return redirect_to_login(request.get_full_path())
    raise Http404(_("No such game."))


def check(request, game, *, invited: bool = False):
    """None when ``request.user`` may see ``game`` (with its seats loaded), else the answer."""
    if may_see(game.pk, game.listed, [s.user_id for s in game.seats.all()], request.user, invited=invited):
        return None
    return refuse(request)
