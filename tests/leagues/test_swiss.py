"""A Swiss league: each round paired at its start from the standings then, avoiding repeats."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as games
from hanseweb.leagues import pairing, services
from hanseweb.leagues.models import League, Table

pytestmark = pytest.mark.django_db


def test_swiss_rounds_follow_the_standings(club_setup):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="Swiss", engine="hansa", table_size=4, format=League.SWISS)
    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1),
                                    rounds=3, round_days=7)
    players = members[:8]
    for member in players:
        services.sign_up(season, member)
    services.seed_divisions(season, organiser, 1)
    services.start_season(season, organiser)
    season.refresh_from_db()
    assert list(season.plan.values()) == [[]]  # nothing planned ahead
    assert services.start_due_rounds() == 2
    assert services.start_due_rounds() == 0
    winners = set()
    for table in Table.objects.filter(round__season=season, round__number=1):
        game = table.game
        for seat in game.seats.exclude(number=0):
            games.resign(game.pk, seat.user)
        winners.add(table.seat_order[0])
    assert services.start_due_rounds(season.starts_at + timedelta(days=7, seconds=1)) == 2
    season.refresh_from_db()
    (rounds,) = season.plan.values()
    assert len(rounds) == 2
    top = Table.objects.get(round__season=season, round__number=2, index=0)
    assert winners <= set(top.seat_order)  # the round-1 winners meet at the top table
    assert sorted(u for t in Table.objects.filter(round__season=season, round__number=2) for u in t.seat_order) == \
        sorted(p.pk for p in players)
    # repeats kept to the minimum: each new table takes two players from each first-round table
    first = [set(t) for t in rounds[0]["tables"]]
    for table in rounds[1]["tables"]:
        assert sorted(len(set(table) & old) for old in first) == [2, 2]
    assert pairing.seat_spread(services._as_rounds(rounds)) <= 1
    # a dropout is simply not paired again
    services.drop_player(season, organiser, players[0])
    services.start_due_rounds(season.starts_at + timedelta(days=14, seconds=1))
    third = Table.objects.filter(round__season=season, round__number=3)
    # 7 players at tables of 4: less than two tables' worth, but 4 + 3 seats everyone at less
    # cost than one table of 4 and 3 byes (docs/leagues.md "Table sizes and byes")
    assert sorted(len(t.seat_order) for t in third) == [3, 4]
    season.refresh_from_db()
    assert list(season.plan.values())[0][2]["byes"] == []
    assert all(players[0].pk not in t.seat_order for t in third)
