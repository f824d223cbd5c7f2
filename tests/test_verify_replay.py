"""manage.py verify_replay reports every game, goes on after a failure, and finds each kind of damage."""
import pytest
from django.core.management import call_command

from games.models import Game, Move, Seat

from .conftest import act


def _play(game, moves=3):
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.to_act[0]
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    game.refresh_from_db()
    return game


def _verify(capsys, *ids):
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_replay", *ids)
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def _damage_snapshot(game):
    Game.objects.filter(pk=game.pk).update(state_cache=dict(game.state_cache, ship="nowhere"))


def _damage_gap(game):
    # a legal move logged with a number skipped; move_count agrees with the rows, no snapshot
    seat = game.to_act[0]
    Move.objects.create(game=game, seq=game.move_count + 2, seat=seat,
                        text=game.engine_obj.legal_moves(game.state_cache, seat)[0], channel=Move.WEB)
    Game.objects.filter(pk=game.pk).update(move_count=game.move_count + 1, state_cache=None, state_seq=None)


def _damage_count(game):
    Game.objects.filter(pk=game.pk).update(move_count=game.move_count + 5)


def _damage_replay(game):
    Move.objects.create(game=game, seq=game.move_count + 1, seat=game.to_act[0], text="fly to the moon", channel=Move.WEB)
    Game.objects.filter(pk=game.pk).update(move_count=game.move_count + 1, state_cache=None, state_seq=None)


def _damage_seat(game):
    Seat.objects.filter(game=game, number=1).delete()


@pytest.mark.django_db
@pytest.mark.parametrize("damage,expected", [
    (_damage_snapshot, ["cached snapshot differs from the replayed log (at move 3)"]),
    (_damage_gap, ["seq is not 1..4 without gaps: missing 4"]),
    (_damage_count, ["move_count is 8 but the log has 3 moves"]),
    (_damage_replay, ["replay fails: IllegalMove"]),
    (_damage_seat, ["seats: expected numbers 0..1, found [0]", "replay fails"]),
])
def test_each_kind_of_damage_is_reported_and_the_others_still_checked(started_game, capsys, damage, expected):
    games = [_play(started_game("hansa", 2)[0]) for _ in range(3)]
    assert call_command("verify_replay") is None
    out = capsys.readouterr().out
    assert "3 games checked, 0 differ" in out and all(f"game {g.pk} (hansa, running, 3 moves): ok" in out for g in games)

    broken = games[0]  # the first one checked: the others must still be checked after it
    damage(broken)
    code, out, err = _verify(capsys)
    assert code == 1
    assert f"game {broken.pk} " in err and "FAILED" in err
    lines = [line for line in err.splitlines() if line.startswith(f"  - game {broken.pk}: ")]
    assert len(lines) == len(expected)
    for line, words in zip(lines, expected):
        assert words in line
    for game in games[1:]:
        assert f"game {game.pk} (hansa, running, 3 moves): ok" in out
    assert "3 games checked, 1 differ" in out


@pytest.mark.django_db
def test_several_broken_games_are_all_reported(started_game, capsys):
    games = [_play(started_game("hansa", 2)[0], moves=2) for _ in range(3)]
    _damage_count(games[0])
    _damage_replay(games[2])
    code, out, err = _verify(capsys)
    assert code == 1 and "3 games checked, 2 differ" in out
    assert f"game {games[0].pk}: move_count is 7" in err and f"game {games[2].pk}: replay fails" in err
    assert f"game {games[1].pk} (hansa, running, 2 moves): ok" in out


@pytest.mark.django_db
def test_an_unknown_game_id_is_a_failure(started_game, capsys):
    game = _play(started_game("hansa", 2)[0], moves=1)
    code, out, err = _verify(capsys, game.pk, 999999)
    assert code == 1 and "game 999999: no such started game" in err and "1 games checked, 0 differ" in out
