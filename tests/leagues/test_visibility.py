"""Issue 25 item 4: one visibility model (docs/visibility.md) on every channel. A league game is a
club game: its club's members and its players see it; an outsider (logged in: 404; logged out:
the login page) sees it on no channel: page, status, replay, log, export, table talk, API,
player pages (games, record, ratings), archive. A public league opens its games and pages to
anyone; an unlisted game outside the leagues is private (its players). League feed addresses can
be rotated."""
from datetime import timedelta

import pytest
from django.urls import reverse

from games import services as games
from games.models import Game
from hanseweb.api.models import ApiToken
from hanseweb.leagues import feeds, ratings, services
from hanseweb.leagues.models import Table

from ..conftest import committed
from ..factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_game(running_season):
    season, organiser, members = running_season
    with committed():
        services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    table = Table.objects.filter(round__season=season).select_related("game").first()
    return season, organiser, members, table.game


def _channels(game):
    return {
        "page": reverse("game", args=[game.pk]),
        "status": reverse("game_status", args=[game.pk]),
        "replay": reverse("game_replay", args=[game.pk]),
        "log": reverse("game_log", args=[game.pk]),
        "export": reverse("game_export", args=[game.pk]),
        "chat": reverse("chat_history", args=[game.pk]),
    }


def _finish_by_forfeit(season, organiser, game):
    seats = list(game.seats.order_by("number"))
    services.award_forfeit(season, organiser, game.pk, [seats[1].user, seats[2].user])
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    ratings.rate_finished_games()


def test_a_club_game_is_seen_by_members_and_players_only_on_every_channel(client, club_game):
    season, organiser, members, game = club_game
    player = game.seats.get(number=0).user
    member = next(m for m in members if not game.seats.filter(user=m).exists())
    outsider = UserFactory(display_name="Outsider")
    for name, url in _channels(game).items():
        client.logout()
        response = client.get(url)
        if name == "status":
            assert response.status_code == 404, name
        else:
            assert response.status_code == 302 and "/login" in response.url, name  # logged out: log in first
        client.force_login(outsider)
        response = client.get(url)
        assert response.status_code == 404, name
        assert game.title.encode() not in response.content, name  # not even the title
        for reader in (player, member, organiser):
            client.force_login(reader)
            assert client.get(url).status_code == 200, (name, reader)
    # the JSON API, by token
    for user, status in ((outsider, 404), (member, 200), (player, 200)):
        token = ApiToken.issue(user, "bot")[1]
        for path in (f"/api/v1/games/{game.pk}", f"/api/v1/games/{game.pk}/log"):
            assert client.get(path, HTTP_AUTHORIZATION=f"Bearer {token}").status_code == status, (path, user)
        # table talk of a club game: its players (and the club's organisers, who moderate) only
        chat = client.get(f"/api/v1/games/{game.pk}/chat", HTTP_AUTHORIZATION=f"Bearer {token}").status_code
        assert chat == {outsider: 404, member: 403, player: 200}[user]


def test_player_pages_and_archive_show_an_outsider_nothing_of_club_games(client, club_game):
    season, organiser, members, game = club_game
    _finish_by_forfeit(season, organiser, game)
    winner = game.seats.get(number=0).user
    outsider = UserFactory(display_name="Outsider")
    member = next(m for m in members if not game.seats.filter(user=m).exists())

    client.force_login(outsider)
    page = client.get(reverse("players:player", args=[winner.pk])).content.decode()
    assert game.title not in page
    assert "No finished games yet." in page
    assert "0 finished" in page and "0 won" in page  # the record counts what the viewer may see
    assert "Ratings" not in page  # ratings come from club games: the club's members see them
    archive = client.get(reverse("players:archive")).content.decode()
    assert game.title not in archive

    client.force_login(member)
    page = client.get(reverse("players:player", args=[winner.pk])).content.decode()
    assert game.title in page and "1 finished" in page and "1 won" in page and "Ratings" in page
    assert game.title in client.get(reverse("players:archive")).content.decode()


def test_a_public_league_opens_its_games_and_pages_to_anyone(client, club_game):
    season, organiser, members, game = club_game
    league = season.league
    client.force_login(organiser)
    client.post(reverse("leagues:league_settings", args=[league.pk]), {"action": "visibility", "public": "yes"})
    league.refresh_from_db()
    assert league.public
    client.logout()
    for name, url in _channels(game).items():
        assert client.get(url).status_code == 200, name
    assert client.get(season.get_absolute_url()).status_code == 200
    assert client.get(league.get_absolute_url()).status_code == 200
    assert b"Organiser log" not in client.get(season.get_absolute_url()).content
    assert b".atom" not in client.get(league.get_absolute_url()).content  # the feed addresses stay the members'
    client.force_login(organiser)
    client.post(reverse("leagues:league_settings", args=[league.pk]), {"action": "visibility", "public": "no"})
    client.logout()
    assert client.get(_channels(game)["page"]).status_code == 302
    assert client.get(season.get_absolute_url()).status_code == 302


def test_an_unlisted_game_outside_the_leagues_is_private(client, started_game):
    game, users = started_game("hansa", 3)
    Game.objects.filter(pk=game.pk).update(listed=False)
    stranger = UserFactory()
    client.force_login(stranger)
    for name, url in _channels(game).items():
        assert client.get(url).status_code == 404, name
    client.force_login(users[1])
    for name, url in _channels(game).items():
        assert client.get(url).status_code == 200, name


def test_an_invitation_only_open_game_shows_to_holders_of_its_join_link(client, make_user):
    creator, guest = make_user(), make_user()
    game = games.create_game(creator=creator, engine="hansa", title="Invite only", players=3, listed=False)
    client.force_login(guest)
    assert client.get(game.get_absolute_url()).status_code == 404
    client.get(game.invite_url())
    assert client.get(game.get_absolute_url()).status_code == 200


def test_league_feed_addresses_can_be_rotated(client, club_game):
    season, organiser, members, game = club_game
    league = season.league
    old_results, old_calendar = feeds.league_results_url(league), feeds.league_calendar_url(league)
    assert client.get(old_results).status_code == 200 and client.get(old_calendar).status_code == 200
    client.force_login(organiser)
    response = client.post(reverse("leagues:league_settings", args=[league.pk]), {"action": "rotate"}, follow=True)
    assert any("Tick the box" in str(m) for m in response.context["messages"])
    league.refresh_from_db()
    assert feeds.league_results_url(league) == old_results  # unconfirmed: nothing changed
    client.post(reverse("leagues:league_settings", args=[league.pk]), {"action": "rotate", "confirm": "yes"})
    league.refresh_from_db()
    assert client.get(old_results).status_code == 404 and client.get(old_calendar).status_code == 404
    assert client.get(feeds.league_results_url(league)).status_code == 200
    assert client.get(feeds.league_calendar_url(league)).status_code == 200
    page = client.get(league.get_absolute_url()).content.decode()
    assert feeds.league_results_url(league) in page
    client.force_login(members[0])
    response = client.post(reverse("leagues:league_settings", args=[league.pk]), {"action": "rotate", "confirm": "yes"})
    assert response.status_code == 403
