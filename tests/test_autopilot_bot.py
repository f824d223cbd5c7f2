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
