"""Practice games with bots (issue 30): "New game" seats bots with a level each; the bots move in
the bots' task through the one write path (channel ``bot``), a few seconds after their turn comes;
the game is marked as practice; bots get no mail."""
import pytest

from games import services
from games.bots import choose_move
from games.engines.fairness import verify
from games.models import Game, Move
from hanseweb.mail.models import OutboundEmail

from .conftest import committed
from .factories import UserFactory


def _create(client, user, **extra):
    client.force_login(user)
    data = {"engine": "hansa", "title": "Practice", "players": "3", "listed": "invite", "seat_order": "random",
            "move_deadline_hours": "", "opt_start_player": "random", "seat_ask_losses": "False", "create": "1"}
    data.update(extra)
    with committed():
        return client.post("/games/new/", data)


@pytest.mark.django_db
def test_a_practice_game_with_two_bots_is_played_to_the_end_through_the_pages(client, settings):
    alice = UserFactory()
    response = _create(client, alice, bot_1="basic", bot_2="random")
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.status == Game.RUNNING  # the bots took their seats: the table was full
    levels = sorted(s.bot for s in game.seats.all())
    assert levels == ["", "basic", "random"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Practice game with bots (unrated)" in page and "Bot 1 (bot: basic)" in page
    me = game.seats.get(user=alice).number
    engine = game.engine_obj
    for _ in range(600):
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            break
        assert game.to_act == [me] or me in game.to_act  # the bots have moved already
        moves = engine.legal_moves(game.state_cache, me)
        with committed():
            response = client.post(f"/games/{game.pk}/move/", {"move": moves[0], "seq": game.move_count})
        assert response.status_code == 302
    assert game.status == Game.FINISHED
    bot_moves = game.moves.filter(channel=Move.BOT)
    assert bot_moves.exists() and not bot_moves.filter(seat=me).exists()
    assert set(game.moves.exclude(seat=me).values_list("channel", flat=True)) == {Move.BOT}
    # each bot move is the bot's own decision from its seat's view
    checked = 0
    for move in bot_moves.order_by("seq")[:15]:
        before = services.replay(game, upto=move.seq - 1)
        seat = game.seats.get(number=move.seat)
        assert move.text == choose_move(engine, before, move.seat, seat.bot, seed=game.pk * 8 + move.seat)
        checked += 1
    assert checked
    # bots get no mail: only the human player's address is ever written to
    assert set(OutboundEmail.objects.values_list("to", flat=True)) <= {alice.email}
    data = client.get(f"/games/{game.pk}/export.json").json()
    assert verify(data).ok, verify(data).text()


@pytest.mark.django_db
def test_the_bots_task_is_queued_after_the_delay_on_the_bots_queue(client, settings, monkeypatch):
    settings.HANSEWEB_BOT_QUEUE = "bots"
    settings.HANSEWEB_BOT_DELAY_SECONDS = 4
    queued = []
    from games import tasks

    monkeypatch.setattr(tasks.play_bots, "apply_async", lambda args, **options: queued.append((args, options)))
    _create(client, UserFactory(), players="2", bot_1="strong")
    game = Game.objects.get()
    assert game.status == Game.RUNNING
    if game.seats.get(bot="strong").number in game.to_act:
        assert queued == [((game.pk, game.move_count), {"countdown": 4, "queue": "bots"})]
    else:
        assert queued == []  # the human starts: nothing to do for the bot yet


@pytest.mark.django_db
def test_too_many_bots_or_an_unknown_level_is_refused(client):
    alice = UserFactory()
    response = _create(client, alice, players="2", bot_1="basic", bot_2="basic")
    assert response.status_code == 200 and "room for at most 1 bot besides you" in response.content.decode()
    response = _create(client, alice, bot_1="grandmaster")
    assert response.status_code == 200 and not Game.objects.exists()
