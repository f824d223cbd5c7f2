"""A season played to its end (games ended by resignations), finished by the beat, and the next
season created in one step with promotion and relegation; standings as CSV."""
from datetime import timedelta

import pytest
from django.urls import reverse

from games import services as games
from games.models import Game
from hanseweb.leagues import services, tasks
from hanseweb.leagues.models import Entry, OrganiserAction, Season, Table
from hanseweb.leagues.services import LeagueError

from ..factories import UserFactory

pytestmark = pytest.mark.django_db


def finish(game, winner_seat):
    for seat in sorted(game.seats.all(), key=lambda s: -s.number):
        game.refresh_from_db()
        if game.status != Game.RUNNING:
            return
        if seat.number != winner_seat and not seat.resigned:
            games.resign(game.pk, seat.user)


def test_season_to_its_end_and_the_next_with_promotion_and_relegation(client, running_season):
    season, organiser, members = running_season
    quitter = season.divisions.get(level=2).entries.first().user
    for week in range(4):
        services.start_due_rounds(season.starts_at + timedelta(days=7 * week, seconds=1))
        if week == 2:
            services.drop_player(season, organiser, quitter)
        for table in Table.objects.filter(round__season=season, round__number=week + 1).select_related("game"):
            game = table.game
            game.refresh_from_db()
            if game.status == Game.RUNNING:
                finish(game, winner_seat=(week + table.index) % len(table.seat_order))
    with pytest.raises(LeagueError, match="Finish this season first"):
        services.next_season(season, organiser)
    tasks.start_due_rounds()  # the beat marks the season finished: every game has ended
    season.refresh_from_db()
    assert season.status == Season.FINISHED
    assert OrganiserAction.objects.filter(season=season, action="season complete", actor=None).exists()

    standings = {d.level: [r.player for r in services.division_standings(d) if r.entry.status == Entry.ACTIVE]
                 for d in season.divisions.all()}
    with pytest.raises(LeagueError, match="Only an organiser"):
        services.next_season(season, members[0])
    client.force_login(organiser)
    response = client.post(reverse("leagues:organise", args=[season.pk, "next"]))
    new = Season.objects.get(previous=season)
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    assert new.number == 2 and new.status == Season.SIGNUP and new.rounds == 4
    level = {e.user_id: e.division.level for e in new.entries.select_related("division")}
    assert quitter.pk not in level and len(level) == 11
    assert level[standings[2][0]] == 1 and level[standings[3][0]] == 2  # promoted
    assert level[standings[1][-1]] == 2 and level[standings[2][-1]] == 3  # relegated
    assert level[standings[1][0]] == 1 and level[standings[3][-1]] == 3  # top stays, bottom stays
    assert sorted(level.values()) == [1] * 4 + [2] * 3 + [3] * 4
    with pytest.raises(LeagueError, match="already been created"):
        services.next_season(season, organiser)
    # a newcomer signs up into the bottom division; the season can start at once
    newcomer = UserFactory()
    services.join_club(services.create_invite(season.league.club, organiser).code, newcomer)
    assert services.sign_up(new, newcomer).division.level == 3
    services.start_season(new, organiser)

    csv = client.get(reverse("leagues:standings_csv", args=[season.pk]))
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0].startswith("division,rank,player") and len(lines) == 13
    client.force_login(UserFactory())
    assert client.get(reverse("leagues:standings_csv", args=[season.pk])).status_code == 403
