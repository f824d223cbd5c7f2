"""iCalendar feeds (per player, per league) and the Atom feed of results: valid, complete and
private (secret URLs)."""
from datetime import timedelta

import pytest
from django.urls import reverse
from icalendar import Calendar

from games import services as games
from hanseweb.leagues import feeds, services
from hanseweb.leagues.models import Table

pytestmark = pytest.mark.django_db


def events(response):
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    cal = Calendar.from_ical(response.content)
    return [c for c in cal.walk("VEVENT")]


def test_player_calendar_has_deadlines_and_round_starts_and_is_private(client, running_season):
    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    table = Table.objects.filter(round__season=season).select_related("game").first()
    to_act = table.game.seats.get(number=table.game.to_act[0]).user
    evs = events(client.get(feeds.player_calendar_url(to_act)))  # no login needed: the link is the key
    summaries = [str(e["summary"]) for e in evs]
    assert f"Deadline: your move in {table.game.title}" in summaries
    deadline = next(e for e in evs if str(e["summary"]).startswith("Deadline"))
    assert deadline.decoded("dtstart") == table.game.deadline_at.replace(microsecond=0)
    assert sum("starts" in s for s in summaries) == 4  # the season's four rounds
    waiting = table.game.seats.exclude(number__in=table.game.to_act).first().user
    assert not any(str(e["summary"]).startswith("Deadline") for e in events(client.get(feeds.player_calendar_url(waiting))))
    # private: another player's id with my token, or a made-up token, is 404
    assert client.get(reverse("leagues:player_calendar", args=[waiting.pk, feeds.token("player", to_act.pk)])).status_code == 404
    assert client.get(reverse("leagues:player_calendar", args=[to_act.pk, "0" * 32])).status_code == 404
    assert client.get(reverse("leagues:league_calendar", args=[season.league.pk, feeds.token("player", season.league.pk)])).status_code == 404


def test_league_calendar_and_results_feed(client, running_season):
    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    evs = events(client.get(feeds.league_calendar_url(season.league)))
    assert len(evs) == 4 and len({str(e["uid"]) for e in evs}) == 4
    game = Table.objects.filter(round__season=season).first().game
    for seat in game.seats.exclude(number=0):
        games.resign(game.pk, seat.user)
    response = client.get(feeds.league_results_url(season.league))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    body = response.content.decode()
    assert "<feed" in body and game.title in body and f"{game.seats.get(number=0).user} wins" in body
    assert client.get(reverse("leagues:league_results", args=[season.league.pk, "x" * 32])).status_code == 404


def test_feed_links_are_shown_to_members(client, running_season):
    season, organiser, members = running_season
    client.force_login(members[0])
    assert feeds.player_calendar_url(members[0]) in client.get(season.league.club.get_absolute_url()).content.decode()
    assert feeds.league_calendar_url(season.league) in client.get(season.league.get_absolute_url()).content.decode()
