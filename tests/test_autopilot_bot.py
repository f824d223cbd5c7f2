"""The autopilot of a resigned seat is a bot (issue 30): it plays at the configured level
(``HANSEWEB_AUTOPILOT_LEVEL``, basic by default) from that seat's view, its moves are logged on
the ``autopilot`` channel, and the game's download still verifies."""
import pytest

from games import services
from games.bots import choose_move
from games.engines.fairness import verify
from games.models import Game, Move

from .conftest import act, committed, user_of


def _play_until_autopilot_moved(game, moves_wanted=12):
    engine = game.engine_obj
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.FINISHED or game.moves.filter(channel=Move.AUTOPILOT).count() >= moves_wanted:
            return
        seat = game.to_act[0]
        act(game, seat, engine.legal_moves(game.state_cache, seat)[-1])


def _check_moves(game, level):
    engine = game.engine_obj
    made = differs = 0
    for move in game.moves.filter(channel=Move.AUTOPILOT).order_by("seq"):
        before = services.replay(game, upto=move.seq - 1)
        if len(engine.legal_moves(before, move.seat)) > 1:
            expected = choose_move(engine, before, move.seat, level, seed=game.pk * 8 + move.seat)
            assert move.text == expected
            differs += move.text != (engine.default_move(before, move.seat) or engine.legal_moves(before, move.seat)[0])
            made += 1
        assert move.user is None
    return made, differs


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["basic", "random"])
def test_the_autopilot_plays_the_configured_bot_level(started_game, settings, level):
    settings.HANSEWEB_AUTOPILOT_LEVEL = level
    game, users = started_game("hansa", 3)
    with committed():
        services.resign(game.pk, user_of(game, 1))
    _play_until_autopilot_moved(game)
    made, differs = _check_moves(game, level)
    assert made >= 3
    assert differs >= 1  # not the spec's default moves any more


@pytest.mark.django_db
def test_a_game_with_autopilot_moves_verifies(started_game, client):
    game, users = started_game("zanzibar", 3)
    with committed():
        services.resign(game.pk, user_of(game, 2))
    engine = game.engine_obj
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            break
        seat = game.to_act[0]
        act(game, seat, engine.legal_moves(game.state_cache, seat)[0])
    assert game.status == Game.FINISHED
    assert game.moves.filter(channel=Move.AUTOPILOT, seat=2).exists()
    client.force_login(users[0])
    data = client.get(f"/games/{game.pk}/export.json").json()
    report = verify(data)
    assert report.ok, report.text()


@pytest.mark.django_db
def test_the_autopilot_decides_in_the_worker_not_in_the_request_that_makes_its_seat_due(
        started_game, client, settings, monkeypatch):
    """A player's move on the page that makes the resigned seat due only queues the bots' task
    (after the commit, on the bots' queue); the decision is the worker's."""
    from games import tasks

    settings.HANSEWEB_BOT_QUEUE = "bots"
    settings.HANSEWEB_BOT_DELAY_SECONDS = 3
    game, users = started_game("hansa", 3)
    with committed():
        services.resign(game.pk, user_of(game, 1))  # the worker (in-process here) plays on at once
    game.refresh_from_db()
    assert 1 not in game.to_act
    queued = []
    monkeypatch.setattr(tasks.play_bots, "apply_async", lambda args, **options: queued.append((args, options)))
    decide = services.autopilot_move

    def not_in_a_request(*args, **kwargs):
        raise AssertionError("the autopilot decided inside the web request")

    monkeypatch.setattr(services, "autopilot_move", not_in_a_request)
    engine = game.engine_obj
    for _ in range(200):  # the humans play until the resigned seat is due
        game.refresh_from_db()
        if 1 in game.to_act:
            break
        seat = game.to_act[0]
        client.force_login(user_of(game, seat))
        with committed():
            response = client.post(f"/games/{game.pk}/move/", {"move": engine.legal_moves(game.state_cache, seat)[0],
                                                               "seq": game.move_count})
        assert response.status_code == 302
    assert game.status == Game.RUNNING and 1 in game.to_act
    due_at = game.move_count
    assert queued and queued[-1] == ((game.pk, due_at), {"countdown": 3, "queue": "bots"})
    assert not game.moves.filter(channel=Move.AUTOPILOT, seq__gt=due_at).exists()
    # the worker's task decides, through the write path, channel autopilot
    calls = []
    monkeypatch.setattr(services, "autopilot_move", lambda *a, **k: calls.append(a[2]) or decide(*a, **k))
    with committed():
        made = tasks.play_bots(game.pk, due_at)
    game.refresh_from_db()
    assert made >= 1 and calls and set(calls) == {1}
    assert 1 not in game.to_act or game.status == Game.FINISHED
    after = list(game.moves.filter(seq__gt=due_at).order_by("seq"))
    assert after and all(m.channel == Move.AUTOPILOT and m.seat == 1 and m.user is None for m in after)
