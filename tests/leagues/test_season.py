"""A season end to end at the service level: the 12-player scenario of issue 10 (3 divisions of
4, Hansa at preferred table size 3, 4 rounds), round creation by the beat task, idempotency, the
planned seat orders, a dropout after round 2, pause, forfeit and replacement."""
from collections import Counter
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Game
from hanseweb.leagues import pairing, services, tasks
from hanseweb.leagues.models import Entry, OrganiserAction, Round, Season, Table
from hanseweb.leagues.services import LeagueError

from ..conftest import committed

pytestmark = pytest.mark.django_db


def advance(season, weeks):
    """Run the beat at the start of round ``weeks + 1``."""
    return services.start_due_rounds(season.starts_at + timedelta(days=7 * weeks, seconds=1))


def test_start_due_rounds_creates_the_planned_tables_once(running_season):
    season, organiser, members = running_season
    assert season.status == Season.RUNNING
    assert season.round_set.count() == 4
    with committed():
        assert tasks.start_due_rounds() == 3  # the beat task: round 1 is due, one table per division
    assert tasks.start_due_rounds() == 0  # twice-run creates nothing
    assert services.start_due_rounds(season.starts_at + timedelta(days=6)) == 0  # round 2 not yet due
    rnd = Round.objects.get(season=season, number=1)
    assert rnd.created_at is not None
    tables = list(Table.objects.filter(round=rnd).select_related("game", "division"))
    assert len(tables) == 3
    seated = Counter()
    for table in tables:
        game = table.game
        planned = season.plan[str(table.division_id)][0]["tables"][table.index]
        assert table.seat_order == planned
        assert [s.user_id for s in game.seats.order_by("number")] == planned  # exact planned seat order
        assert game.status == Game.RUNNING and not game.listed
        assert game.engine == "hansa" and game.move_deadline_hours == 48
        assert game.created_by_id == planned[0]
        assert len(planned) == 3  # 4 players at size 3: a table of 3 and a bye, never one of 4
        assert season.plan[str(table.division_id)][0]["byes"] == [
            p for p in table.division.entries.values_list("user_id", flat=True) if p not in planned]
        seated.update(planned)
    assert len(seated) == 9 and set(seated.values()) == {1}
    league_mails = [m for m in mail.outbox if "your game has started" in m.subject]
    assert sorted(m.to[0] for m in league_mails) == sorted(m.email for m in members if m.pk in seated)

    # every later round, each once; every player at a table every round
    for week in (1, 2, 3):
        assert advance(season, week) == 3
        assert advance(season, week) == 0
    assert Table.objects.filter(round__season=season).count() == 12
    byes = Counter()
    for rnd in season.round_set.all():
        seated = [uid for t in rnd.tables.all() for uid in t.seat_order]
        assert len(seated) == len(set(seated)) == 9
        byes.update(m.pk for m in members if m.pk not in seated)
    assert byes == Counter({m.pk: 1 for m in members})  # each sits out exactly once
    # the plan's fairness per division: every pair meets twice; seats 0-2 once each
    for division in season.divisions.all():
        history = services._as_rounds(season.plan[str(division.pk)])
        assert pairing.seat_spread(history) == 0
        assert set(pairing.pair_meetings(history).values()) == {2}


def test_rounds_before_the_start_and_paused_seasons_create_nothing(running_season):
    season, organiser, members = running_season
    assert services.start_due_rounds(season.starts_at - timedelta(seconds=5)) == 0
    services.set_paused(season, organiser, True)
    assert services.start_due_rounds() == 0
    with pytest.raises(LeagueError, match="Only an organiser"):
        services.set_paused(season, members[0], False)
    services.set_paused(season, organiser, False)
    assert services.start_due_rounds() == 3
    assert list(OrganiserAction.objects.filter(season=season).values_list("action", flat=True)[:2]) == \
        ["resume season", "pause season"]


def test_dropout_after_round_two_resigns_and_reforms_later_rounds(running_season):
    season, organiser, members = running_season
    advance(season, 0)
    advance(season, 1)
    division = season.divisions.get(level=1)
    quitter = division.entries.first().user
    games_before = list(Table.objects.filter(round__season=season, game__seats__user=quitter).values_list("game_id", flat=True))
    planned = season.plan[str(division.pk)][:2]
    assert len(games_before) == sum(quitter.pk in t for r in planned for t in r["tables"]) >= 1
    with pytest.raises(LeagueError, match="Only an organiser"):
        services.drop_player(season, members[11] if members[11] != quitter else members[10], quitter)
    services.drop_player(season, organiser, quitter)
    entry = Entry.objects.get(season=season, user=quitter)
    assert entry.status == Entry.DROPPED and entry.dropped_at_round == 2
    for game in Game.objects.filter(pk__in=games_before):
        seat = game.seats.get(user=quitter)
        assert seat.resigned
        assert game.status == Game.RUNNING  # the others play on, the autopilot plays the seat
    season.refresh_from_db()
    plan = season.plan[str(division.pk)]
    for item in plan[2:]:
        assert all(quitter.pk not in table for table in item["tables"])
        assert sorted(uid for t in item["tables"] for uid in t) == sorted(
            division.entries.filter(status=Entry.ACTIVE).values_list("user_id", flat=True))
        assert [len(t) for t in item["tables"]] == [3]
    advance(season, 2)
    advance(season, 3)
    for rnd in season.round_set.filter(number__gt=2):
        table = rnd.tables.get(division=division)
        assert quitter.pk not in table.seat_order and len(table.seat_order) == 3
    log = OrganiserAction.objects.get(season=season, action="drop player")
    assert log.details["after_round"] == 2 and sorted(log.details["resigned_games"]) == sorted(games_before)


def test_player_may_drop_themselves_and_not_twice(running_season):
    season, organiser, members = running_season
    services.drop_player(season, members[0], members[0])
    with pytest.raises(LeagueError, match="not an active player"):
        services.drop_player(season, organiser, members[0])


def test_replace_player_takes_over_future_tables(running_season, make_user):
    season, organiser, members = running_season
    advance(season, 0)
    newcomer = make_user()
    with pytest.raises(LeagueError, match="not a member"):
        services.replace_player(season, organiser, members[0], newcomer)
    services.join_club(services.create_invite(season.league.club, organiser).code, newcomer)
    services.replace_player(season, organiser, members[0], newcomer)
    advance(season, 1)
    season.refresh_from_db()
    division = Entry.objects.get(season=season, user=newcomer).division_id
    planned = season.plan[str(division)][1]
    # the newcomer holds the old player's place in round 2: at a table, or sitting out (a bye)
    tables = Table.objects.filter(round__season=season, round__number=2, seat_order__contains=[newcomer.pk])
    assert tables.count() == (0 if newcomer.pk in planned["byes"] else 1)
    assert not Table.objects.filter(round__season=season, round__number=2, seat_order__contains=[members[0].pk]).exists()
    assert members[0].pk not in planned["byes"]
    assert Entry.objects.get(season=season, user=newcomer).status == Entry.ACTIVE


def test_award_forfeit(running_season):
    season, organiser, members = running_season
    advance(season, 0)
    table = Table.objects.filter(round__season=season).first()
    loser = table.game.seats.get(number=1).user
    with pytest.raises(LeagueError, match="Only an organiser"):
        services.award_forfeit(season, members[0], table.game_id, loser)
    services.award_forfeit(season, organiser, table.game_id, loser)
    assert table.game.seats.get(user=loser).resigned
    assert OrganiserAction.objects.filter(season=season, action="award forfeit").exists()


def test_start_needs_seeded_divisions(club_setup):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="L", engine="hansa", table_size=3)
    season = services.create_season(league, organiser, starts_at=timezone.now(), rounds=2)
    services.sign_up(season, members[0])
    with pytest.raises(LeagueError, match="seed the divisions"):
        services.start_season(season, organiser)


def test_a_failing_season_is_rolled_back_and_does_not_hold_up_others(running_season, monkeypatch):
    season, organiser, members = running_season
    from games import services as games

    real = games.start_game
    calls = []

    def flaky(game_id, user, order):
        calls.append(game_id)
        if len(calls) == 2:
            raise games.GameError("boom")
        return real(game_id, user, order)

    monkeypatch.setattr(games, "start_game", flaky)
    assert services.start_due_rounds() == 0
    assert not Table.objects.exists() and not Game.objects.exists()  # the whole round rolled back
    assert Round.objects.get(season=season, number=1).created_at is None
    assert services.start_due_rounds() == 3  # the next beat succeeds


def test_exact_table_size_gives_byes_spread_fairly(client, club_setup):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="Threes", engine="hansa", table_size=3, exact_size=True)
    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1),
                                     rounds=4, round_days=7)
    for member in members:
        services.sign_up(season, member)
    services.seed_divisions(season, organiser, 3)
    services.start_season(season, organiser)
    for week in range(4):
        assert advance(season, week) == 3
    season.refresh_from_db()
    for division in season.divisions.all():
        history = services._as_rounds(season.plan[str(division.pk)])
        assert all(len(t) == 3 for r in history for t in r.tables)
        assert pairing.bye_spread(history) == 0 and pairing.bye_counts(history) == {p: 1 for p in history[0].players}
        assert pairing.seat_spread(history) == 0 and pairing.pair_spread(history) == 0
    assert all(len(t.game.seats.all()) == 3 for t in Table.objects.filter(round__season=season))
    client.force_login(members[0])
    assert "Sitting out (bye)" in client.get(season.get_absolute_url()).content.decode()


def test_resume_moves_the_rounds_not_started_by_the_pause(running_season):
    season, organiser, members = running_season
    assert advance(season, 0) == 3
    before = dict(season.round_set.values_list("number", "starts_at"))
    services.set_paused(season, organiser, True)
    paused_at = Season.objects.get(pk=season.pk).paused_at
    Season.objects.filter(pk=season.pk).update(paused_at=paused_at - timedelta(days=10))  # paused for 10 days
    services.set_paused(season, organiser, False)
    after = dict(season.round_set.values_list("number", "starts_at"))
    assert after[1] == before[1]
    for number in (2, 3, 4):
        assert timedelta(days=10) <= after[number] - before[number] < timedelta(days=10, minutes=1)
    assert services.start_due_rounds(before[2] + timedelta(seconds=1)) == 0  # round 2 is not due yet
    assert OrganiserAction.objects.filter(season=season, action="resume season").first().details["rounds_moved_by_hours"] >= 240


def test_dropping_below_a_table_leaves_the_division_without_tables(club_setup):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="Pairs", engine="hansa", table_size=2, exact_size=True)
    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1), rounds=3)
    for member in members[:2]:
        services.sign_up(season, member)
    services.seed_divisions(season, organiser, 1)
    services.start_season(season, organiser)
    assert services.start_due_rounds() == 1
    services.drop_player(season, organiser, members[0])
    season.refresh_from_db()
    (plan,) = season.plan.values()
    assert [len(r["tables"]) for r in plan] == [1, 0, 0] and plan[1]["byes"] == [members[1].pk]
    assert services.start_due_rounds(timezone.now() + timedelta(days=60)) == 0
