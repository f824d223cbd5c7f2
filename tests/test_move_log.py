"""The move log is append-only, replayable, and guarded against stale and concurrent moves."""
import json
import threading

import pytest
from django.db import IntegrityError, InternalError, connection, transaction

from games import services
from games.models import AppendOnlyError, Game, Move

from .conftest import act, user_of


def _first_legal(game, seat):
    state = services.current_state(game)
    return game.engine_obj.legal_moves(state, seat)[0]


def _active(game):
    game.refresh_from_db()
    return game.to_act[0]


@pytest.mark.django_db
def test_moves_get_consecutive_sequence_numbers_and_channel(started_game):
    game, users = started_game("hansa", 3)
    for _ in range(4):
        seat = _active(game)
        act(game, seat, _first_legal(game, seat))
    rows = list(game.moves.order_by("seq"))
    assert [m.seq for m in rows] == [1, 2, 3, 4]
    assert all(m.channel == Move.WEB and m.user_id for m in rows)
    assert all(m.text == m.text.strip().lower() for m in rows)


@pytest.mark.django_db
def test_database_refuses_update_and_delete_of_moves(started_game):
    game, _ = started_game("hansa", 2)
    seat = _active(game)
    act(game, seat, _first_legal(game, seat))
    move = game.moves.get()
    for sql in (f"UPDATE games_move SET text = 'forged' WHERE id = {move.pk}",
                f"DELETE FROM games_move WHERE id = {move.pk}"):
        with pytest.raises((IntegrityError, InternalError)) as excinfo:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql)
        assert "append-only" in str(excinfo.value)
    with pytest.raises((IntegrityError, InternalError)):
        with transaction.atomic():
            Move.objects.filter(pk=move.pk).update(text="forged")
    assert Move.objects.get(pk=move.pk).text == move.text


@pytest.mark.django_db
def test_model_layer_refuses_changes_too(started_game):
    game, _ = started_game("hansa", 2)
    seat = _active(game)
    act(game, seat, _first_legal(game, seat))
    move = game.moves.get()
    move.text = "forged"
    with pytest.raises(AppendOnlyError):
        move.save()
    with pytest.raises(AppendOnlyError):
        move.delete()


@pytest.mark.django_db
def test_stale_move_is_rejected_and_changes_nothing(started_game):
    game, _ = started_game("hansa", 3)
    seat = _active(game)
    act(game, seat, _first_legal(game, seat))
    game.refresh_from_db()
    seat = game.to_act[0]
    with pytest.raises(services.StaleMove, match="moved on"):
        services.submit_move(game.pk, user_of(game, seat), _first_legal(game, seat), expected_seq=0)
    game.refresh_from_db()
    assert game.move_count == 1 and game.moves.count() == 1


@pytest.mark.django_db
def test_illegal_garbage_and_wrong_seat_change_nothing(started_game):
    game, users = started_game("hansa", 3)
    seat = _active(game)
    before = json.dumps(game.state_cache, sort_keys=True)
    idle = next(s for s in range(3) if s != seat)
    with pytest.raises(services.GameError, match="not your turn"):
        services.submit_move(game.pk, user_of(game, idle), _first_legal(game, seat), expected_seq=0)
    with pytest.raises(services.GameError, match="Not accepted"):
        services.submit_move(game.pk, user_of(game, seat), "place atlantis", expected_seq=0)
    with pytest.raises(services.GameError, match="empty"):
        services.submit_move(game.pk, user_of(game, seat), "   ", expected_seq=0)
    outsider = users[0].__class__.objects.create_user("outsider@example.com", "x", display_name="Out")
    with pytest.raises(services.GameError, match="not playing"):
        services.submit_move(game.pk, outsider, _first_legal(game, seat), expected_seq=0)
    game.refresh_from_db()
    assert game.move_count == 0 and not game.moves.exists()
    assert json.dumps(game.state_cache, sort_keys=True) == before


@pytest.mark.django_db
def test_state_is_rebuilt_by_replay_and_matches_the_snapshot(started_game):
    game, _ = started_game("hansa", 2)
    for _ in range(12):
        seat = _active(game)
        act(game, seat, _first_legal(game, seat))
    game.refresh_from_db()
    assert json.dumps(services.replay(game), sort_keys=True) == json.dumps(game.state_cache, sort_keys=True)
    # a lost or corrupt snapshot is rebuilt from the log
    Game.objects.filter(pk=game.pk).update(state_cache=None, state_seq=None)
    game.refresh_from_db()
    seat = game.to_act[0]
    act(game, seat, _first_legal(game, seat))
    game.refresh_from_db()
    assert game.move_count == 13
    assert json.dumps(services.replay(game), sort_keys=True) == json.dumps(game.state_cache, sort_keys=True)


@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_are_serialised(started_game):
    """Two requests with the same expected move number: exactly one is logged, the other is stale."""
    game, _ = started_game("hansa", 3)
    seat = _active(game)
    user = user_of(game, seat)
    legal = game.engine_obj.legal_moves(services.current_state(game), seat)
    barrier = threading.Barrier(2)
    outcomes = []

    def submit(move):
        try:
            barrier.wait()
            services.submit_move(game.pk, user, move, expected_seq=0)
            outcomes.append("ok")
        except services.StaleMove:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(m,)) for m in legal[:2]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok", "stale"]
    game.refresh_from_db()
    assert game.moves.count() == 1 and game.move_count == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_moves_without_expected_seq_are_all_logged_once(started_game):
    """Many requests racing on one game: each accepted move gets its own number, none is lost."""
    game, _ = started_game("hansa", 2)
    seat = _active(game)
    user = user_of(game, seat)
    move = _first_legal(game, seat)
    results = []

    def submit():
        try:
            services.submit_move(game.pk, user, move)
            results.append("ok")
        except services.GameError as exc:
            results.append(str(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game.refresh_from_db()
    assert results.count("ok") == game.moves.count() == game.move_count >= 1
    assert [m.seq for m in game.moves.order_by("seq")] == list(range(1, game.move_count + 1))
    assert json.dumps(services.replay(game), sort_keys=True) == json.dumps(game.state_cache, sort_keys=True)


@pytest.mark.django_db
def test_a_deadline_only_move_cannot_be_sent_by_a_player(started_game):
    """Die Hanse accepts "timeout" from the deadline sweep only (HANSE-C4/C5 need to know)."""
    game, _ = started_game("die-hanse", 3)
    seat = game.to_act[0]
    assert "timeout" not in game.engine_obj.legal_moves(game.state_cache, seat)
    with pytest.raises(services.GameError, match="not one of your choices"):
        services.submit_move(game.pk, user_of(game, seat), "timeout", expected_seq=0)
    game.refresh_from_db()
    assert game.move_count == 0


@pytest.mark.django_db
def test_verify_replay_command_finds_a_snapshot_that_differs(started_game, capsys):
    from django.core.management import call_command

    game, _ = started_game("hansa", 2)
    seat = _active(game)
    act(game, seat, _first_legal(game, seat))
    call_command("verify_replay")
    assert "1 games checked, 0 differ" in capsys.readouterr().out
    broken = dict(game.state_cache, ship="nowhere")
    Game.objects.filter(pk=game.pk).update(state_cache=broken)
    with pytest.raises(SystemExit):
        call_command("verify_replay", game.pk)
    assert "differs" in capsys.readouterr().err
