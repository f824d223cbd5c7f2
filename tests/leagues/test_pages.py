"""Club, league and season pages for an organiser, a member and an outsider; the organiser
tools through the pages, each logged; sign-up through the page."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from hanseweb.leagues import services
from hanseweb.leagues.models import Club, Entry, OrganiserAction, Season, Table

from ..factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_pages(running_season):
    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    return season, organiser, members


def test_pages_for_organiser_member_outsider_and_anonymous(client, season_pages):
    season, organiser, members = season_pages
    club, league = season.league.club, season.league
    urls = [club.get_absolute_url(), league.get_absolute_url(), season.get_absolute_url()]
    for url in urls:
        assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(UserFactory())
    for url in urls:
        response = client.get(url)
        assert response.status_code == 403
        assert b"invitation link" in response.content
    client.force_login(members[0])
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Member L" in page and "Organiser log" in page and "start season" in page
    assert "New league" not in page
    page = client.get(season.get_absolute_url()).content.decode()
    assert "Organiser tools" not in page and "Division 1" in page and "Division 3" in page
    for table in Table.objects.filter(round__season=season):
        assert table.game.get_absolute_url() in page  # each game linked
    # a league game's page links to its season and division, in the (cached) page body
    table = Table.objects.filter(round__season=season).select_related("division").first()
    game_page = client.get(table.game.get_absolute_url()).content.decode()
    assert "League game:" in game_page and "round 1" in game_page
    assert f'href="{season.get_absolute_url()}#division-{table.division.level}"' in game_page
    assert f'id="division-{table.division.level}"' in page
    assert "Planned tables of the rounds to come" in page and "Round 4:" in page
    assert "pair meetings 2–2 (spread 0), seat spread 0, bye spread 0" in page
    client.force_login(organiser)
    assert "New league" in client.get(club.get_absolute_url()).content.decode()
    page = client.get(season.get_absolute_url()).content.decode()
    assert "Organiser tools" in page and "Award forfeit" in page


def test_member_cannot_use_organiser_tools(client, season_pages):
    season, organiser, members = season_pages
    client.force_login(members[0])
    response = client.post(reverse("leagues:organise", args=[season.pk, "pause"]))
    assert response.status_code == 403
    season.refresh_from_db()
    assert season.status == Season.RUNNING
    assert client.get(reverse("leagues:create_league", args=[season.league.club.slug])).status_code == 403


def test_organiser_tools_through_the_pages_are_logged(client, season_pages):
    season, organiser, members = season_pages
    client.force_login(organiser)
    url = lambda action: reverse("leagues:organise", args=[season.pk, action])  # noqa: E731
    client.post(url("pause"))
    season.refresh_from_db()
    assert season.status == Season.PAUSED
    client.post(url("resume"))
    table = Table.objects.filter(round__season=season).first()
    loser = table.game.seats.get(number=2).user
    client.post(url("forfeit"), {"game": table.game_id, "player": loser.pk, "confirm": "yes"})
    assert table.game.seats.get(user=loser).resigned
    client.post(url("drop"), {"player": members[5].pk, "confirm": "yes"})
    assert Entry.objects.get(season=season, user=members[5]).status == Entry.DROPPED
    response = client.post(url("drop"), {"player": members[5].pk, "confirm": "yes"}, follow=True)
    assert b"not an active player" in response.content
    newcomer = UserFactory(display_name="Newcomer")
    services.join_club(services.create_invite(season.league.club, organiser).code, newcomer)
    page = client.get(season.get_absolute_url()).content.decode()
    assert f'<option value="{newcomer.pk}">Newcomer</option>' in page  # offered as a replacement
    response = client.post(url("replace"), {"player": members[6].pk, "replacement": newcomer.pk, "confirm": "yes"}, follow=True)
    assert b"Done: replace a player" in response.content, response.content.decode()[-3000:]
    assert Entry.objects.get(season=season, user=newcomer).status == Entry.ACTIVE
    assert Entry.objects.get(season=season, user=members[6]).status == Entry.DROPPED
    actions = set(OrganiserAction.objects.filter(season=season).values_list("action", flat=True))
    assert {"pause season", "resume season", "award forfeit", "drop player", "replace player"} <= actions
    client.force_login(members[0])
    page = client.get(season.league.club.get_absolute_url()).content.decode()
    assert "award forfeit" in page and "drop player" in page and "replace player" in page  # the log, to members


def test_club_league_season_created_and_run_through_the_pages(client):
    organiser = UserFactory()
    client.force_login(organiser)
    response = client.post(reverse("leagues:create_club"), {"name": "Visby Club", "default_deadline_hours": 48})
    assert response.status_code == 302
    club = Club.objects.get(slug="visby-club")
    client.post(reverse("leagues:invite", args=[club.slug]))
    invite = club.invites.get()
    players = UserFactory.create_batch(3)
    for player in players:
        client.force_login(player)
        assert client.get(reverse("leagues:join", args=[invite.code])).status_code == 200
        client.post(reverse("leagues:join", args=[invite.code]))
    client.force_login(organiser)
    client.post(reverse("leagues:create_league", args=[club.slug]),
                {"name": "Zanzibar Cup", "engine": "zanzibar", "table_size": 3, "rated": "on"})
    league = club.leagues.get()
    assert league.format == "round-robin"
    client.post(reverse("leagues:create_league", args=[club.slug]),
                {"name": "Swiss Cup", "engine": "hansa", "table_size": 4, "format": "swiss"})
    assert club.leagues.get(name="Swiss Cup").format == "swiss"
    response = client.post(reverse("leagues:create_league", args=[club.slug]),
                           {"name": "Odd", "engine": "die-hanse", "table_size": 3, "opt_round_limit": "7"})
    assert response.status_code == 200 and b"Select a valid choice" in response.content
    assert not club.leagues.filter(name="Odd").exists()
    start = (timezone.now() - timedelta(minutes=1)).strftime("%Y-%m-%d %H:%M")
    client.post(reverse("leagues:create_season", args=[league.pk]),
                {"starts_at": start, "rounds": 2, "round_days": 7, "promote": 1, "relegate": 1})
    season = league.seasons.get()
    for player in players:
        client.force_login(player)
        page = client.get(season.get_absolute_url()).content.decode()
        assert "Sign up" in page
        client.post(reverse("leagues:sign_up", args=[season.pk]))
    client.force_login(organiser)
    client.post(reverse("leagues:organise", args=[season.pk, "seed"]), {"divisions": 1})
    client.post(reverse("leagues:organise", args=[season.pk, "start"]))
    season.refresh_from_db()
    assert season.status == Season.RUNNING
    assert services.start_due_rounds() == 1
    table = Table.objects.get(round__season=season)
    assert sorted(table.seat_order) == sorted(p.pk for p in players)
    assert table.game.move_deadline_hours == 48  # the club's default


def test_bad_invitation_link_page(client):
    client.force_login(UserFactory())
    assert b"not valid" in client.get(reverse("leagues:join", args=["nope"])).content


def test_club_settings_and_removing_a_sign_up(client, club_setup):
    club, organiser, members = club_setup
    client.force_login(members[0])
    url = reverse("leagues:club_settings", args=[club.slug])
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    client.post(url, {"name": "Lübeck Club", "default_deadline_hours": 24})
    club.refresh_from_db()
    assert (club.name, club.default_deadline_hours) == ("Lübeck Club", 24)
    league = services.create_league(club, organiser, name="L", engine="hansa", table_size=3)
    client.post(reverse("leagues:create_season", args=[league.pk]),
                {"starts_at": "2031-01-01 18:00", "signup_closes": "2030-12-31 18:00", "rounds": 3,
                 "round_days": 7, "promote": 1, "relegate": 1})
    season = league.seasons.get()
    assert season.deadline_hours == 24 and season.signup_closes.year == 2030
    services.sign_up(season, members[1])
    client.post(reverse("leagues:organise", args=[season.pk, "remove"]), {"player": members[1].pk})
    assert not season.entries.exists()
    actions = list(OrganiserAction.objects.filter(club=club).values_list("action", flat=True))
    assert "club settings" in actions and "remove sign-up" in actions


def test_roles_through_the_club_page(client, club_setup):
    club, organiser, members = club_setup
    url = reverse("leagues:set_role", args=[club.slug])
    client.force_login(members[0])
    assert client.post(url, {"member": members[0].pk, "role": "organiser"}).status_code == 403
    client.force_login(organiser)
    client.post(url, {"member": members[0].pk, "role": "organiser"})
    assert services.is_organiser(club, members[0])
    response = client.post(url, {"member": "x", "role": "organiser"}, follow=True)
    assert b"Choose a member" in response.content
    assert OrganiserAction.objects.filter(club=club, action="set role").exists()


def test_player_league_profile_for_clubmates_only(client, running_season, started_game):
    """/players/<id>/: ratings with history and provisional marks, for the player and members of
    a club they are in; another club's or a private game's title is not shown to others."""
    from games import services as games
    from hanseweb.leagues import ratings
    from hanseweb.leagues.models import RatingChange

    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    table = Table.objects.filter(round__season=season).first()
    for seat in table.game.seats.exclude(number=0):
        games.resign(table.game_id, seat.user)
    casual, users = started_game("hansa", 3)
    casual.listed = False
    casual.save(update_fields=["listed"])
    for user in users[1:]:
        games.resign(casual.pk, user)
    assert ratings.rate_finished_games() == 2
    player = table.game.seats.get(number=0).user
    mate = next(m for m in members if m != player)
    client.force_login(mate)
    page = client.get(reverse("players:player", args=[player.pk])).content.decode()
    assert player.display_name in page and "(provisional)" in page and "place 1 in" in page
    assert table.game.get_absolute_url() in page
    # the player's own page: everything they played
    stranger_game_player = users[0]
    client.force_login(stranger_game_player)
    theirs = client.get(reverse("players:player", args=[player.pk]))  # no shared club: no clubs or seasons
    assert theirs.status_code == 200 and "Clubs and league seasons" not in theirs.content.decode()
    own = client.get(reverse("players:player", args=[stranger_game_player.pk])).content.decode()
    assert casual.get_absolute_url() in own
    # a clubmate of the casual player does not see the unlisted casual game's title
    services.join_club(services.create_invite(season.league.club, organiser).code, stranger_game_player)
    client.force_login(mate)
    page = client.get(reverse("players:player", args=[stranger_game_player.pk])).content.decode()
    assert RatingChange.objects.filter(rating__user=stranger_game_player).exists()
    assert casual.get_absolute_url() not in page and "place 1" in page
    # the club page's latest changes leave the unlisted casual game out as well
    club_page = client.get(season.league.club.get_absolute_url()).content.decode()
    assert casual.get_absolute_url() not in club_page and table.game.get_absolute_url() in club_page
