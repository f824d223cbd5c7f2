"""Deadlines play the spec's default decision; resigned seats are played by autopilot."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Move
from games.tasks import sweep_deadlines

from .conftest import act, committed, user_of


@pytest.mark.django_db
def test_deadline_is_set_when_a_decision_is_due(started_game):
    game, _ = started_game("hansa", 2, deadline=24)
    assert game.deadline_at is not None
    assert timedelta(hours=23) < game.deadline_at - timezone.now() <= timedelta(hours=24)
    game2, _ = started_game("hansa", 2)
    assert game2.deadline_at is None


@pytest.mark.django_db
def test_sweep_plays_the_default_move_after_the_deadline(started_game):
    game, _ = started_game("hansa", 3, deadline=24)
    seat = game.to_act[0]
    expected = game.engine_obj.default_move(game.state_cache, seat)
    assert sweep_deadlines() == 0  # not yet due
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    with committed():
        made = sweep_deadlines()
    game.refresh_from_db()
    assert made == 1
    first = game.moves.get(seq=1)
    assert (first.seat, first.text, first.channel, first.user) == (seat, expected, Move.TIMEOUT, None)
    assert seat not in game.to_act and game.deadline_at > timezone.now()


@pytest.mark.django_db
def test_resigned_seat_is_played_by_autopilot_and_ranked_last(started_game):
    game, users = started_game("hansa", 3)
    quitter = user_of(game, 1)
    with committed():
        services.resign(game.pk, quitter)
    engine = game.engine_obj
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            break
        assert 1 not in game.to_act
        seat = game.to_act[0]
        moves = engine.legal_moves(game.state_cache, seat)
        # play purposefully enough to reach the end: fill, buy, build, then end
        choice = next((m for p in ("fill", "buy", "build", "sell", "place", "discard", "lose", "end")
                       for m in moves if m.startswith(p) and m != "no fill"), moves[0])
        act(game, seat, choice)
    assert game.status == Game.FINISHED
    assert game.moves.filter(channel=Move.AUTOPILOT, seat=1).exists()
    assert game.result["resigned"] == [1]
    assert game.result["ranking"][1] == max(game.result["ranking"])
    assert game.result["ranking"][1] > max(game.result["ranking"][0], game.result["ranking"][2])


@pytest.mark.django_db
def test_resign_twice_or_from_a_finished_game_is_refused(started_game):
    game, users = started_game("hansa", 2)
    with committed():
        services.resign(game.pk, users[0])
    with pytest.raises(services.GameError):
        services.resign(game.pk, users[0])
    with pytest.raises(services.GameError):
        services.resign(game.pk, users[1])
    game.refresh_from_db()
    quitter_seat = game.seats.get(user=users[0]).number
    expected = [2, 1] if quitter_seat == 0 else [1, 2]
    assert game.result["ranking"] == expected


@pytest.mark.django_db
def test_admin_shows_moves_read_only(client, started_game, make_user):
    game, _ = started_game("hansa", 2)
    act(game, game.to_act[0], game.engine_obj.legal_moves(game.state_cache, game.to_act[0])[0])
    admin = make_user(is_staff=True, is_superuser=True)
    client.force_login(admin)
    move = game.moves.get()
    assert client.get("/admin/games/move/").status_code == 200
    page = client.get(f"/admin/games/move/{move.pk}/change/")
    assert page.status_code == 200 and b'name="text"' not in page.content
    assert client.post(f"/admin/games/move/{move.pk}/delete/", {"post": "yes"}).status_code == 403
    game_page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert move.text in game_page and str(game.seed) not in game_page
    assert Move.objects.filter(pk=move.pk).exists()


@pytest.mark.django_db
def test_one_reminder_per_decision_when_the_deadline_is_near(started_game):
    from django.core import mail

    from games.tasks import send_reminders

    game, _ = started_game("hansa", 2, deadline=24)
    seat = game.to_act[0]
    player = user_of(game, seat)
    mail.outbox = []
    assert send_reminders() == 0  # 24 h left: too early
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(hours=5))
    with committed():
        assert send_reminders() == 1
        assert send_reminders() == 0  # once per decision
    (reminder,) = mail.outbox
    assert reminder.to == [player.email] and "Reminder" in reminder.subject
    assert game.engine_obj.default_move(game.state_cache, seat) in reminder.body
    # the next decision gets its own reminder
    act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(hours=1))
    mail.outbox = []
    with committed():
        assert send_reminders() == 1
    assert mail.outbox[0].to == [user_of(game, game.to_act[0]).email]
