"""The archive kept whole in the cache (``hanseweb.pagecache``) follows who may see a club's league
games (docs/visibility.md): an outsider sees a finished league game once they join the club, or
once the organiser makes the league public (issue 26)."""
from datetime import timedelta

import pytest
from django.core.cache import cache

from games import services as games
from games.models import Game
from hanseweb.leagues import services
from hanseweb.leagues.models import Table

from ..conftest import committed
from ..factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_league_game(running_season):
    season, organiser, members = running_season
    cache.clear()
    with committed():
        services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    game = Table.objects.filter(round__season=season, round__number=1).select_related("game").first().game
    with committed():
        for seat in game.seats.exclude(number=0).order_by("-number"):
            games.resign(game.pk, seat.user)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    return game, season, organiser


def _archive(client) -> str:
    response = client.get("/archive/")
    assert response.status_code == 200
    return response.content.decode()


def test_an_outsider_sees_a_club_game_once_they_join_the_club(client, finished_league_game, settings):
    settings.HANSEWEB_LIST_CACHE_SECONDS = 300
    game, season, organiser = finished_league_game
    outsider = UserFactory()
    client.force_login(outsider)
    assert game.title not in _archive(client)
    assert game.title not in _archive(client)  # kept
    club = season.league.club
    invite = services.create_invite(club, organiser)
    with committed():
        services.join_club(invite.code, outsider)
    assert game.title in _archive(client)


def test_an_outsider_sees_a_club_game_once_the_league_is_public_and_not_after(client, finished_league_game, settings):
    settings.HANSEWEB_LIST_CACHE_SECONDS = 300
    game, season, organiser = finished_league_game
    client.force_login(UserFactory())
    assert game.title not in _archive(client)
    with committed():
        services.set_league_public(season.league, organiser, True)
    assert game.title in _archive(client)
    with committed():
        services.set_league_public(season.league, organiser, False)
    assert game.title not in _archive(client)
