"""Undo within one's own turn (DESIGN.md): a logged move ``undo`` takes back the seat's last step
while that step revealed nothing hidden and nobody else has had to act since."""
import json

import pytest

from games import services
from games.models import Move

from .conftest import act, user_of


def _dump(state):
    return json.dumps(state, sort_keys=True)


def _to_phase_three(game):
    """Play a 2-player Hansa game to the first active player's actions (placement, then fill)."""
    engine = game.engine_obj
    while True:
        game.refresh_from_db()
        seat = game.to_act[0]
        state = game.state_cache
        if state["phase"] == "actions":
            return seat
        moves = engine.legal_moves(state, seat)
        act(game, seat, "no fill" if "no fill" in moves else moves[0])


def _at_a_ship_move(started_game):
    """A 2-player Hansa game at its first player's actions: (game, seat, state dump, a ship move)."""
    game, _ = started_game("hansa", 2)
    seat = _to_phase_three(game)
    move = next(m for m in game.engine_obj.legal_moves(game.state_cache, seat) if m.startswith("move "))
    return game, seat, _dump(game.state_cache), move


@pytest.mark.django_db
def test_a_ship_move_is_taken_back(started_game):
    game, seat, before, move = _at_a_ship_move(started_game)
    act(game, seat, move)
    game.refresh_from_db()
    assert services.can_undo(game, seat) and not services.can_undo(game, 1 - seat)
    act(game, seat, "UNDO")
    game.refresh_from_db()
    assert _dump(game.state_cache) == before
    last = game.moves.order_by("-seq")[0]
    assert (last.text, last.seat, last.channel) == ("undo", seat, Move.WEB)
    # the log stays append-only and replays to the same state
    assert _dump(services.replay(game)) == before
    # one step only: nothing more to undo now
    with pytest.raises(services.GameError, match="nothing to undo"):
        act(game, seat, "undo")


@pytest.mark.django_db
def test_no_undo_once_another_seat_must_act_or_after_a_reveal(started_game):
    game, _ = started_game("hansa", 2)
    engine = game.engine_obj
    # placement hands the decision to the other seat: not undoable
    first = game.to_act[0]
    act(game, first, engine.legal_moves(game.state_cache, first)[0])
    game.refresh_from_db()
    with pytest.raises(services.GameError):
        services.submit_move(game.pk, user_of(game, first), "undo", expected_seq=game.move_count)
    # a fill turns hidden tiles face up: not undoable
    while game.state_cache["phase"] != "fill" or "fill" not in engine.legal_moves(game.state_cache, game.to_act[0]):
        seat = game.to_act[0]
        moves = engine.legal_moves(game.state_cache, seat)
        choice = next((m for m in moves if m.startswith("buy")), None) or ("end" if "end" in moves else moves[0])
        act(game, seat, choice)
        game.refresh_from_db()
    seat = game.to_act[0]
    act(game, seat, "fill")
    game.refresh_from_db()
    assert not services.can_undo(game, seat)
    with pytest.raises(services.GameError, match="nothing to undo"):
        act(game, seat, "undo")


@pytest.mark.django_db
def test_undo_is_rebuilt_from_the_log_when_the_snapshot_is_stale(started_game):
    from games.models import Game

    game, seat, before, move = _at_a_ship_move(started_game)
    act(game, seat, move)
    Game.objects.filter(pk=game.pk).update(state_cache=None, state_seq=None, undo_state=None, undo_seat=None)
    act(game, seat, "undo")
    game.refresh_from_db()
    assert _dump(game.state_cache) == before


@pytest.mark.django_db
def test_the_undo_step_is_the_snapshot_the_row_held_copied_in_the_database(started_game):
    # an undoable move from a current snapshot: the row copies its old snapshot to undo_state
    # (not a second copy sent); from a stale snapshot the rebuilt step is sent as a value
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import Game

    game, seat, before, move = _at_a_ship_move(started_game)
    with CaptureQueriesContext(connection) as ctx:
        act(game, seat, move)
    updates = [q["sql"] for q in ctx.captured_queries if 'UPDATE "games_game"' in q["sql"]]
    assert len(updates) == 1 and '"undo_state" = "state_cache"' in updates[0]
    game.refresh_from_db()
    assert (_dump(game.undo_state), game.undo_seat) == (before, seat) and _dump(game.state_cache) != before
    act(game, seat, "undo")
    game.refresh_from_db()
    assert _dump(game.state_cache) == before

    # the same move again, but the stored snapshot is stale: the step is rebuilt and sent
    Game.objects.filter(pk=game.pk).update(state_seq=None)
    with CaptureQueriesContext(connection) as ctx:
        act(game, seat, move)
    updates = [q["sql"] for q in ctx.captured_queries if 'UPDATE "games_game"' in q["sql"]]
    assert len(updates) == 1 and '"undo_state" = "state_cache"' not in updates[0] and '"undo_state" = ' in updates[0]
    game.refresh_from_db()
    assert _dump(game.undo_state) == before


@pytest.mark.django_db
def test_the_game_page_offers_undo_only_when_possible(client, started_game):
    game, _ = started_game("hansa", 2)
    seat = _to_phase_three(game)
    client.force_login(user_of(game, seat))
    assert 'value="undo"' not in client.get(f"/games/{game.pk}/").content.decode()
    move = next(m for m in game.engine_obj.legal_moves(game.state_cache, seat) if m.startswith("move "))
    act(game, seat, move)
    assert 'value="undo"' in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_after_undos_the_log_and_the_news_still_line_up(client, started_game):
    """An undone step leaves the log (its events are not shown); the undo says a step was taken
    back; the step that stands carries its own move's number and time."""
    from django.core import mail

    game, _ = started_game("hansa", 2)
    seat = _to_phase_three(game)
    engine = game.engine_obj
    move = next(m for m in engine.legal_moves(game.state_cache, seat) if m.startswith("move "))
    act(game, seat, move)
    act(game, seat, "undo")
    act(game, seat, move)
    game.refresh_from_db()
    last = game.moves.get(seq=game.move_count)
    assert last.text == move
    client.force_login(user_of(game, seat))
    lines = client.get(f"/games/{game.pk}/").context["log"]
    ship = [line for line in lines if "moves the ship" in line["text"]]
    assert len(ship) == 1 and ship[0]["seq"] == last.seq and ship[0]["at"] == last.created_at
    took_back = [line for line in lines if "took back" in line["text"]]
    assert [line["seq"] for line in took_back] == [game.move_count - 1]
    # the other player's next turn mail tells about the ship move
    mail.outbox = []
    act(game, seat, "end")
    game.refresh_from_db()
    other_seat = game.to_act[0]
    other = user_of(game, other_seat)
    (turn,) = [m for m in mail.outbox if m.to == [other.email]]
    assert "moves the ship" in turn.body
    # and the player who undid gets the other's whole turn in their next mail
    mover = user_of(game, seat)
    mail.outbox = []
    while game.to_act == [other_seat]:
        moves = engine.legal_moves(game.state_cache, other_seat)
        act(game, other_seat, "no fill" if "no fill" in moves else ("end" if "end" in moves else moves[0]))
        game.refresh_from_db()
    (turn,) = [m for m in mail.outbox if m.to == [mover.email]]
    news = turn.body.split("Since your last turn:")[1].split("\n\n")[0]
    assert f"{other.display_name} ends the actions" in news
