"""The organiser's pages and the league feeds cost a fixed number of queries whatever the club
holds (issue 26): the club, league and season pages, the standings CSV, the league's Atom and
iCalendar feeds and a player's calendar are read with the same number of queries for a club of
N members, seasons, divisions and games as for one of 3N, and they show the same things as
before (the names, games and standings of each)."""
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.models import Game
from hanseweb.leagues import feeds, ratings, services
from hanseweb.leagues.models import Table

from ..factories import UserFactory

pytestmark = pytest.mark.django_db


def build_club(n: int, tag: str):
    """A club of 6n members with one Hansa league of n seasons; the last one made runs with n
    divisions of 6 (two tables of 3), its first round's games made, one table of the first
    division finished (by resignations) and rated; every other table running. Returns (club, organiser, season,
    members)."""
    organiser = UserFactory(display_name=f"Organiser {tag}")
    club = services.create_club(organiser, f"Club {tag}")
    members = [UserFactory(display_name=f"{tag} member {i:02d}") for i in range(6 * n)]
    invite = services.create_invite(club, organiser)
    for member in members:
        services.join_club(invite.code, member)
    league = services.create_league(club, organiser, name=f"League {tag}", engine="hansa", table_size=3)
    start = timezone.now() - timedelta(minutes=1)
    for number in range(n - 1):  # more seasons: only their sign-ups (logged with the season; unnamed, so
        # the log names each by its league and number, Season.__str__)
        services.create_season(league, organiser, starts_at=start + timedelta(days=300), rounds=3,
                               deadline_hours=48)
    season = services.create_season(league, organiser, starts_at=start, rounds=3, round_days=7, deadline_hours=48)
    for member in members:
        services.sign_up(season, member)
    services.seed_divisions(season, organiser, n)
    services.start_season(season, organiser)
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    season.refresh_from_db()
    finished = Table.objects.filter(round__season=season, division__level=1).first().game
    for seat in sorted(finished.seats.all(), key=lambda s: -s.number)[:-1]:
        games.resign(finished.pk, seat.user)
    finished.refresh_from_db()
    assert finished.status == Game.FINISHED
    ratings.rate_finished_games()
    assert Table.objects.filter(round__season=season).count() == 2 * n
    return club, organiser, season, members


def pages(club, organiser, season, members):
    league = season.league
    return {
        "club": club.get_absolute_url(),
        "league": league.get_absolute_url(),
        "season": season.get_absolute_url(),
        "standings csv": reverse("leagues:standings_csv", args=[season.pk]),
        "results feed": feeds.league_results_url(league),
        "league calendar": feeds.league_calendar_url(league),
        "player calendar": feeds.player_calendar_url(members[0]),
    }


def queries(client, url) -> tuple[int, bytes]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries), response.content


@pytest.fixture
def small_and_large():
    return build_club(1, "S"), build_club(3, "L")


@pytest.mark.parametrize("viewer", ["organiser", "member"])
def test_each_page_costs_the_same_queries_at_n_and_3n(client, small_and_large, viewer):
    counts = {}
    for size, (club, organiser, season, members) in zip(("N", "3N"), small_and_large):
        client.force_login(organiser if viewer == "organiser" else members[-1])
        for name, url in pages(club, organiser, season, members).items():
            queries(client, url)  # warm the per-process caches (translations, content types)
            counts[(name, size)] = queries(client, url)[0]
    assert {name: counts[(name, "N")] for name, _ in counts} == {name: counts[(name, "3N")] for name, _ in counts}


def test_the_large_club_pages_show_everything_as_before(client, small_and_large):
    club, organiser, season, members = small_and_large[1]
    client.force_login(organiser)
    page = client.get(club.get_absolute_url()).content.decode()
    for member in members:
        assert str(member) in page  # the members list
    # the organiser log names the season of each action (by its league and number)
    for each in season.league.seasons.all():
        assert f"({each})" in page
    finished = Game.objects.get(league_table__round__season=season, status=Game.FINISHED)
    assert finished.title in page and "Latest rating changes" in page
    page = client.get(season.get_absolute_url()).content.decode()
    for division in season.divisions.all():
        rows = services.division_standings(division)
        assert len(rows) == 6
        assert f'id="division-{division.level}"' in page
        for row in rows:
            assert row.name in page
    winner = next(s for s in finished.seats.all() if not s.resigned).user
    top = services.division_standings(season.divisions.get(level=1))[0]
    assert top.player == winner.pk and top.points == 3 and top.games[0][0] == finished.pk
    for table in Table.objects.filter(round__season=season).select_related("game"):
        assert table.game.title in page
    csv = client.get(reverse("leagues:standings_csv", args=[season.pk])).content.decode()
    assert csv.count("\n") == 1 + 6 * season.divisions.count()
    atom = client.get(feeds.league_results_url(season.league)).content.decode()
    assert f"{finished.title}: {winner} wins" in atom
    for running in Game.objects.filter(league_table__round__season=season, status=Game.RUNNING):
        to_act = running.seats.get(number=running.to_act[0]).user
        ics = client.get(feeds.player_calendar_url(to_act)).content.decode()
        assert f"your move in {running.title}" in ics.replace("\r\n ", "").replace("\\,", ",")  # unfolded, unescaped


def test_latest_rating_changes_are_those_of_games_the_members_may_know_of(client):
    """The club page's history: the members' latest changes in the club's league games and in
    listed games, newest first; a private game's change is left out, however new, also when the
    members' changes are read in batches smaller than the list (``_visible_change_ids``)."""
    from hanseweb.leagues.models import Rating, RatingChange
    from hanseweb.leagues.views import _visible_change_ids

    club, organiser, season, members = build_club(1, "R")
    for listed in (True, False, True, False):
        game = games.create_game(creator=members[0], engine="hansa", title=f"Casual {listed}", players=3,
                                 listed=listed, seat_order=Game.SEAT_ORDER_JOINED)
        for member in members[1:3]:
            games.join_game(game.pk, member, invite_code=game.invite_code)
        for seat in sorted(Game.objects.get(pk=game.pk).seats.all(), key=lambda s: -s.number)[:-1]:
            games.resign(game.pk, seat.user)
    ratings.rate_finished_games()
    ids = list(Rating.objects.filter(user__in=members, engine="hansa").values_list("pk", flat=True))
    everything = list(RatingChange.objects.filter(rating_id__in=ids).select_related("game"))  # newest first
    club_games = set(Table.objects.filter(round__season__league__club=club).values_list("game_id", flat=True))
    expected = [c.pk for c in everything if c.game.listed or c.game_id in club_games]
    assert len(expected) < len(everything)  # the private games' changes are among them
    for batch in (1, 2, 5, 200):
        for count in (1, 4, 30):
            assert _visible_change_ids(club, ids, count, batch=batch) == expected[:count], (batch, count)
    client.force_login(members[5])
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Casual True" in page and "Casual False" not in page
