"""An organiser may let a bot fill a dropped-out player's league seats (issue 30): the rounds to
come keep their planned tables, the player's seat is played by the autopilot (a bot) from the
start, the table sees it, and the player gets no table mail."""
import pytest
from django.core import mail
from django.urls import reverse

from games.models import Game, Move
from hanseweb.leagues.models import Entry, OrganiserAction, Table

from ..conftest import act, committed
from .test_season import advance

pytestmark = pytest.mark.django_db


def _plays_in_round(season, division, number):
    """A player of ``division`` seated at a table of round ``number`` in the season's plan (a round
    may give a bye: the division's first entry sat out round 2 in some full runs)."""
    from hanseweb.accounts.models import User

    season.refresh_from_db()
    return User.objects.get(pk=season.plan[str(division.pk)][number - 1]["tables"][0][0])


def test_a_bot_plays_the_seats_of_a_player_dropped_before_the_round(running_season, client):
    season, organiser, members = running_season
    advance(season, 0)
    division = season.divisions.get(level=1)
    quitter = _plays_in_round(season, division, 2)
    planned_before = season.plan[str(division.pk)]
    # the organiser's named choice on the season page
    client.force_login(organiser)
    page = client.get(season.get_absolute_url()).content.decode()
    assert "Drop; a bot plays their seats in the rounds to come" in page
    response = client.post(reverse("leagues:organise", args=[season.pk, "dropbot"]), {"player": quitter.pk, "confirm": "yes"})
    assert response.status_code in (200, 302)
    entry = Entry.objects.get(season=season, user=quitter)
    assert entry.status == Entry.DROPPED and entry.bot_plays
    assert OrganiserAction.objects.filter(season=season, action="drop player").exists()
    season.refresh_from_db()
    assert season.plan[str(division.pk)] == planned_before  # not re-formed: the seats stay
    mail.outbox.clear()
    with committed():  # the round's games start; a dropped seat due at once is the bots' task, queued at the commit
        advance(season, 1)
    tables = Table.objects.filter(round__season=season, round__number=2, game__seats__user=quitter)
    assert tables.exists()
    for table in tables:
        game = table.game
        seat = game.seats.get(user=quitter)
        assert seat.resigned and game.status in (Game.RUNNING, Game.FINISHED)
        if seat.number in (game.to_act or []):
            raise AssertionError("the autopilot should have moved for the seat")
        # the table sees who plays the seat
        other = game.seats.exclude(user=quitter).first().user
        client.force_login(other)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert f"A bot (the autopilot) plays the seat of {quitter.display_name}" in page
        # the others play; the bot answers for the dropped seat
        engine = game.engine_obj
        for _ in range(60):
            game.refresh_from_db()
            if game.status != Game.RUNNING:
                break
            mover = game.to_act[0]
            act(game, mover, engine.legal_moves(game.state_cache, mover)[0])
        assert game.moves.filter(channel=Move.AUTOPILOT, seat=seat.number).exists()
    assert not [(m.subject, m.body[:300]) for m in mail.outbox if quitter.email in m.to and "round 2" in m.subject.lower()]
    # a player cannot choose a bot for themselves: it is the organiser's decision
    someone = Entry.objects.filter(season=season, status=Entry.ACTIVE).first().user
    client.force_login(someone)
    client.post(reverse("leagues:organise", args=[season.pk, "dropbot"]), {"player": someone.pk, "confirm": "yes"})
    assert Entry.objects.get(season=season, user=someone).status == Entry.ACTIVE


def test_a_dropped_out_players_league_seat_is_played_by_the_worker_to_the_end(running_season, client, monkeypatch):
    """The autopilot's moves come from the bots' task (in-process here, right after each commit):
    the game ends by the rules with the seat resigned and ranked last, the standings count the
    game for everyone at the table, and the game is rated as a league game."""
    import random

    from hanseweb.leagues import services
    from hanseweb.leagues.ratings import rate_finished_games
    from hanseweb.leagues.models import Division

    from games import services as games

    from ..conftest import committed

    in_task, decide = [], games.autopilot_move
    monkeypatch.setattr(games, "autopilot_move", lambda *a, **k: in_task.append(games.BOT_TASK.active) or decide(*a, **k))
    season, organiser, members = running_season
    with committed():
        advance(season, 0)
    division = season.divisions.get(level=1)
    quitter = _plays_in_round(season, division, 2)
    with committed():
        services.drop_player(season, organiser, quitter, bot_plays=True)
        advance(season, 1)
    table = Table.objects.get(round__season=season, round__number=2, game__seats__user=quitter)
    game = table.game
    seat = game.seats.get(user=quitter).number
    engine = game.engine_obj
    rng = random.Random(7)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.RUNNING:
            break
        assert seat not in game.to_act  # the bots' task answered after the last commit
        mover = game.to_act[0]
        moves = engine.legal_moves(game.state_cache, mover)
        buy = [m for m in moves if m.startswith(("fill", "buy", "build", "sell"))]
        act(game, mover, rng.choice(buy or moves))
    assert game.status == Game.FINISHED
    pilot = game.moves.filter(channel=Move.AUTOPILOT, seat=seat)
    assert pilot.count() >= 10 and not pilot.exclude(user=None).exists()
    assert len(in_task) >= pilot.count() and all(in_task)  # every decision in the bots' task
    assert set(game.moves.filter(seat=seat).values_list("channel", flat=True)) == {Move.AUTOPILOT}
    assert game.result["resigned"] == [seat]
    assert game.result["ranking"][seat] == max(game.result["ranking"])
    rows = {row.player: row for row in services.division_standings(Division.objects.get(pk=table.division_id))}
    for uid in table.seat_order:
        assert game.pk in [g[0] for g in rows[uid].games]
    assert rows[quitter.pk].entry.status == Entry.DROPPED
    rate_finished_games()
    from hanseweb.leagues.models import RatedGame

    assert RatedGame.objects.get(game=game).applied
