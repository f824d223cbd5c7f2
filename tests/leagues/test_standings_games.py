"""Standings of a running season from real finished games: one Hansa table played to the end
with random legal moves through games.services.submit_move, the others ended by resignations."""
import random
from datetime import timedelta

import pytest

from games import services as games
from games.models import Game
from hanseweb.leagues import services
from hanseweb.leagues.models import Table
from hanseweb.leagues.standings import place_points

pytestmark = pytest.mark.django_db


def play_to_the_end(game, rng):
    engine = game.engine_obj
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.RUNNING:
            return
        seat = game.to_act[0]
        user = game.seats.get(number=seat).user
        moves = engine.legal_moves(games.current_state(game), seat)
        games.submit_move(game.pk, user, rng.choice(moves), expected_seq=game.move_count)
    raise AssertionError("game did not end")


def test_standings_follow_finished_games(running_season):
    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    division = season.divisions.get(level=1)
    played = Table.objects.get(round__season=season, round__number=1, division=division).game
    play_to_the_end(played, random.Random(7))
    played.refresh_from_db()
    assert played.status == Game.FINISHED and played.result["scores"]
    # division 2: the table (of 3; the division's fourth player sits out) ends by resignations of
    # seats 2, 1 (seat 0 wins, the rest share 2nd-3rd)
    other = Table.objects.get(round__season=season, round__number=1, division__level=2).game
    for number in (2, 1):
        games.resign(other.pk, other.seats.get(number=number).user)
    other.refresh_from_db()
    assert other.result["ranking"] == [1, 2, 2]

    rows = services.division_standings(division)
    seats = {s.user_id: s.number for s in played.seats.all()}
    expected = {}
    table = place_points(3)
    for uid, number in seats.items():
        place = played.result["ranking"][number]
        tied = played.result["ranking"].count(place)
        expected[uid] = sum(table[place - 1:place - 1 + tied]) / tied
    (bye,) = [r for r in rows if r.player not in seats]  # listed with 0, no game
    assert bye.points == 0 and bye.played == 0
    rows = [r for r in rows if r.player in seats]
    assert {r.player: r.points for r in rows} == expected
    assert {r.player: r.score for r in rows} == {uid: played.result["scores"][n] for uid, n in seats.items()}
    assert all(r.played == 1 and r.games[0][0] == played.pk for r in rows)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)

    rows2 = {r.player: r for r in services.division_standings(other.league_table.division)}
    winner = other.seats.get(number=0).user_id
    assert rows2[winner].points == 3 and rows2[winner].rank == 1
    assert sorted(r.points for uid, r in rows2.items() if uid != winner) == [0, 0.5, 0.5]  # the bye: 0
    # nothing finished yet in division 3: everyone listed with 0
    rows3 = services.division_standings(season.divisions.get(level=3))
    assert len(rows3) == 4 and {r.points for r in rows3} == {0} and {r.rank for r in rows3} == {1}
