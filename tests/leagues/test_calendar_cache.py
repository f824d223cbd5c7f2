"""A player's iCal feed kept whole per version (hanseweb/pagecache.py, issue 26): calendar programs
poll it without a session; a repeated fetch is the kept copy, and each fact it shows (a pending
decision's deadline, the rounds of the player's seasons) changes it after the write path."""
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from icalendar import Calendar

from hanseweb.leagues import feeds, services
from hanseweb.leagues.models import Table

from ..conftest import act, committed, count_calls, user_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("list_cache")]


@pytest.fixture
def made(monkeypatch):
    return count_calls(monkeypatch, feeds, "_player_calendar")


def summaries(client, user) -> list[str]:
    response = client.get(feeds.player_calendar_url(user))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    return [str(e["summary"]) for e in Calendar.from_ical(response.content).walk("VEVENT")]


@pytest.fixture
def table(running_season):
    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    return Table.objects.filter(round__season=season).select_related("game").first()


def test_a_repeated_fetch_is_the_kept_copy_read_with_one_query(client, table, made):
    player = user_of(table.game, table.game.to_act[0])
    first = summaries(client, player)
    with CaptureQueriesContext(connection) as ctx:
        assert summaries(client, player) == first
    assert made["n"] == 1
    assert len(ctx.captured_queries) == 1  # the version; no session, no user: the link is the key


def test_a_decision_made_takes_its_deadline_off_the_calendar(client, table, made):
    game = table.game
    number = game.to_act[0]
    player = user_of(game, number)
    deadline = f"Deadline: your move in {game.title}"
    assert deadline in summaries(client, player)
    summaries(client, player)
    assert made["n"] == 1
    while number in game.to_act:  # the player's whole turn (a Hansa turn is several actions)
        act(game, number, game.engine_obj.legal_moves(game.state_cache, number)[0])
        game.refresh_from_db()
    assert deadline not in summaries(client, player)
    # and the next player's calendar has it
    assert deadline in summaries(client, user_of(game, game.to_act[0]))


def test_a_player_dropped_from_the_season_loses_its_rounds(client, running_season, table, made):
    season, organiser, members = running_season
    player = next(m for m in members if not table.game.seats.filter(user=m).exists())
    assert sum("starts" in s for s in summaries(client, player)) == 4
    summaries(client, player)
    assert made["n"] == 1
    with committed():
        services.drop_player(season, organiser, player)
    assert sum("starts" in s for s in summaries(client, player)) == 0


def test_each_player_has_their_own_calendar(client, table, made):
    game = table.game
    to_act = user_of(game, game.to_act[0])
    waiting = game.seats.exclude(number__in=game.to_act).first().user
    assert any(s.startswith("Deadline") for s in summaries(client, to_act))
    assert not any(s.startswith("Deadline") for s in summaries(client, waiting))
    assert made["n"] == 2
