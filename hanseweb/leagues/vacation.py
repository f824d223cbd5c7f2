"""A league may cap or forbid vacation (``League.vacation_days``; docs/leagues.md "Vacation").

The games' deadline sweep holds a game day by day while a seat that is to act is on vacation
(``games.tasks.hold_for_vacation``); it asks the limits registered with it, and this app registers
``may_hold``: in a league game, a player's vacation holds it only while the season's cap has days
left (0: never). Other games get the full extension. ``notes`` tells the player about the caps
that apply to them (the ``vacation N`` mail command and the profile page show it).
"""
from __future__ import annotations

from django.utils.translation import gettext as _, ngettext

from .models import Entry, Season, Table, VacationHold


def may_hold(game, user, day) -> bool:
    """Whether ``user``'s vacation may hold ``game`` on ``day`` (a date); charges the day to the
    season's cap when it does. Called under the game's row lock by the deadline sweep."""
    table = Table.objects.filter(game=game).select_related("round__season__league").first()
    if table is None:
        return True  # not a league game
    season = table.round.season
    cap = season.league.vacation_days
    if cap is None:
        return True
    if cap == 0:
        return False
    if VacationHold.objects.filter(season=season, user=user, day=day).exists():
        return True  # this day is already charged (another game of the season was held on it)
    if VacationHold.objects.filter(season=season, user=user).count() >= cap:
        return False
    VacationHold.objects.get_or_create(season=season, user=user, day=day)
    return True


def days_used(season: Season, user) -> int:
    return VacationHold.objects.filter(season=season, user=user).count()


def notes(user, now=None) -> list[str]:
    """What the leagues the player is playing in say about vacation (capped or forbidden)."""
    entries = (Entry.objects.filter(user=user, status=Entry.ACTIVE, season__league__vacation_days__isnull=False,
                                    season__status__in=[Season.SIGNUP, Season.RUNNING, Season.PAUSED])
               .select_related("season__league").order_by("season__league__name", "season__number"))
    found = []
    for entry in entries:
        season, league = entry.season, entry.season.league
        if league.vacation_days == 0:
            found.append(_("%(league)s (season %(season)d) does not allow vacation: the deadlines of your games "
                           "there run on while you are away, and the default decisions are played when they pass.")
                         % {"league": league.name, "season": season.number})
        else:
            used = days_used(season, user)
            found.append(ngettext(
                "%(league)s (season %(season)d) holds your games for at most %(cap)d vacation day per season "
                "(%(used)d used); after that their deadlines run on.",
                "%(league)s (season %(season)d) holds your games for at most %(cap)d vacation days per season "
                "(%(used)d used); after that their deadlines run on.", league.vacation_days)
                % {"league": league.name, "season": season.number, "cap": league.vacation_days, "used": used})
    return found

