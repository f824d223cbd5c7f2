"""Calendars and feeds with secret URLs (docs/leagues.md "Calendars and feeds").

The URLs carry an HMAC of what they show (Django's ``salted_hmac`` with the secret key), so they
work in calendar programs and feed readers without a login and cannot be guessed; a wrong token
gets 404, which says nothing about whether the player or league exists.
"""
from __future__ import annotations

import re
from datetime import timedelta

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from games.models import Game, Seat
from hanseweb import pagecache, pageversion

from .models import League, Round, Season, Table

SALT = "hanseweb.leagues.feeds"


def token(kind: str, pk: int, key: str = "") -> str:
    """The secret of a feed address; ``key`` (``League.feed_key``) is changed to retire the old
    addresses (``services.rotate_feeds``)."""
    return salted_hmac(SALT, f"{kind}:{pk}" + (f":{key}" if key else "")).hexdigest()[:32]


def _check(kind: str, pk: int, given: str, key: str = "") -> None:
    if not constant_time_compare(token(kind, pk, key), given):
        raise Http404(_("No such feed."))


def _league_key(pk: int) -> str:
    key = League.objects.filter(pk=pk).values_list("feed_key", flat=True).first()
    if key is None:
        raise Http404(_("No such feed."))
    return key


def player_calendar_url(user) -> str:
    return reverse("leagues:player_calendar", args=[user.pk, token("player", user.pk)])


def league_calendar_url(league) -> str:
    return reverse("leagues:league_calendar", args=[league.pk, token("league", league.pk, league.feed_key)])


def league_results_url(league) -> str:
    return reverse("leagues:league_results", args=[league.pk, token("league", league.pk, league.feed_key)])


def _calendar(name: str):
    from icalendar import Calendar

    cal = Calendar()
    cal.add("prodid", "-//Hanseweb//leagues//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    return cal


def _event(uid: str, summary: str, start, url: str, description: str = ""):
    from icalendar import Event

    event = Event()
    event.add("uid", f"{uid}@hanseweb")
    event.add("dtstamp", timezone.now())
    event.add("dtstart", start)
    event.add("dtend", start + timedelta(minutes=30))
    event.add("summary", summary)
    event.add("url", settings.SITE_URL + url)
    if description:
        event.add("description", description)
    return event


def _round_events(cal, rounds) -> None:
    for rnd in rounds:
        season = rnd.season
        cal.add_component(_event(
            f"round-{rnd.pk}", f"{season.league.name} {season.number}: round {rnd.number} starts", rnd.starts_at,
            season.get_absolute_url(), "New tables are created and mailed at the round's start."))


def _ics(cal) -> HttpResponse:
    response = HttpResponse(cal.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    return response


def player_calendar(request, pk: int, secret: str):
    """Every pending decision's deadline of the player, and the round starts of their seasons.
    A repeated fetch (calendar programs poll it) is the kept copy while neither changed
    (``hanseweb.pagecache``; its key holds the path, so the token too)."""
    _check("player", pk, secret)
    if not pagecache.enabled():
        return _player_calendar(pk)
    return pagecache.respond(request, "player-calendar", lambda: _player_calendar(pk),
                             version=pageversion.digest_of(_player_calendar_parts, pk))


def _player_calendar_parts(pk: int) -> list:
    """What the feed shows, as values-list parts of its version (``pageversion``)."""
    seats, rounds = _player_calendar_reads(pk)
    return [seats.values_list("game_id", "number", "game__title", "game__to_act", "game__deadline_at",
                              "game__move_count"),
            rounds.values_list("id", "number", "starts_at", "season_id", "season__number", "season__league__name")]


def _player_calendar_reads(pk: int):
    # From the player's own seats (the index on Seat.user) whose decision is pending (the write
    # path keeps ``decision_key`` non-empty exactly while the seat is in ``to_act``): without
    # that filter PostgreSQL read every running game of the site to join them with the player's
    # seats. (A game with a deadline has a move, by its player or by the deadline, within each
    # deadline's hours, and every move refreshes the keys: none is left from before they existed.)
    # No state snapshots are read.
    seats = (Seat.objects.filter(user_id=pk, resigned=False, game__status=Game.RUNNING, game__deadline_at__isnull=False)
             .exclude(decision_key="").order_by("game__deadline_at", "game_id"))
    rounds = (Round.objects.filter(season__entries__user_id=pk, season__entries__status="active",
                                   season__status__in=[Season.SIGNUP, Season.RUNNING, Season.PAUSED])
              .order_by("starts_at"))
    return seats, rounds


def _player_calendar(pk: int) -> HttpResponse:
    seats, rounds = _player_calendar_reads(pk)
    cal = _calendar("Hanseweb: my deadlines and rounds")
    seats = seats.select_related("game").only("number", "game__id", "game__title", "game__to_act", "game__deadline_at",
                                              "game__move_count")
    for seat in seats:
        game = seat.game
        if seat.number in (game.to_act or []):
            cal.add_component(_event(f"deadline-{game.pk}-{game.move_count}", f"Deadline: your move in {game.title}",
                                     game.deadline_at, game.get_absolute_url(),
                                     "If you do not decide by then, the game's default decision is made for you."))
    _round_events(cal, rounds.select_related("season__league"))
    return _ics(cal)


def league_calendar(request, pk: int, secret: str):
    """The round starts of the league's seasons that are not finished."""
    _check("league", pk, secret, _league_key(pk))
    league = get_object_or_404(League, pk=pk)
    cal = _calendar(f"Hanseweb: {league.name}")
    _round_events(cal, Round.objects.filter(season__league=league).exclude(season__status=Season.FINISHED)
                  .select_related("season__league").order_by("starts_at"))
    return _ics(cal)


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value):
    """``value`` without the characters XML 1.0 cannot hold (a name stored before names were
    checked may have them; the feed must not fail for every subscriber)."""
    return _NOT_XML.sub("\ufffd", value) if isinstance(value, str) else value


class SafeAtom1Feed(Atom1Feed):
    """An Atom feed whose every text is made fit for XML 1.0 (``xml_text``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*(xml_text(a) for a in args), **{k: xml_text(v) for k, v in kwargs.items()})

    def add_item(self, *args, **kwargs):
        super().add_item(*(xml_text(a) for a in args), **{k: xml_text(v) for k, v in kwargs.items()})


def league_results(request, pk: int, secret: str):
    """An Atom feed of the league's finished games, newest first: the league, its last 50
    finished games (no state snapshots) and their seats with the players' names, three queries;
    a repeated request from the cache (``hanseweb.pagecache``, ``changes.SCOPES``) after the one
    query that checks the address."""
    from hanseweb import pagecache

    from . import changes

    league = League.objects.filter(pk=pk).only("id", "name", "feed_key", "created_at").first()
    _check("league", pk, secret, league.feed_key if league is not None else "")
    if league is None:
        raise Http404(_("No such feed."))
    return pagecache.respond(request, "league_results", lambda: _results_feed(request, league),
                             scopes=changes.SCOPES)


def _results_feed(request, league) -> HttpResponse:
    from .rows import seats_of

    feed = SafeAtom1Feed(title=f"{league.name}: results", link=settings.SITE_URL + league.get_absolute_url(),
                     description=f"Finished games of {league.name}", language="en",
                     feed_url=settings.SITE_URL + request.path)
    games = list(Table.objects.filter(round__season__league=league, game__status=Game.FINISHED)
                 .order_by("-game__finished_at").values_list("game_id", "game__title", "game__result",
                                                             "game__finished_at")[:50])
    seated = seats_of(g[0] for g in games)
    for game_id, title, result, finished_at in games:
        ranking = (result or {}).get("ranking") or []
        scores = (result or {}).get("scores")
        seats = seated.get(game_id, [])
        places = sorted(seats, key=lambda s: ranking[s.number] if s.number < len(ranking) else 99)
        text = "; ".join(
            f"{ranking[s.number]}. {s.name}" + (f" ({scores[s.number]})" if scores else "")
            + (" (forfeit)" if s.forfeited else " (resigned)" if s.resigned else "")
            for s in places)
        if (result or {}).get("ended_by") == "forfeit":
            text += " · Ended by forfeit."
        feed.add_item(title=f"{title}: {places[0].name} wins" if places else title,
                      link=settings.SITE_URL + reverse("game", args=[game_id]), description=text,
                      unique_id=f"tag:hanseweb,game-{game_id}", pubdate=finished_at, updateddate=finished_at)
    if not games:  # the feed's <updated> says when it last changed, not when it was read
        feed.latest_post_date = lambda: league.created_at
    return HttpResponse(feed.writeString("utf-8"), content_type="application/atom+xml; charset=utf-8")
