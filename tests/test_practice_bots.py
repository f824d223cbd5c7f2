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
    # nobody to invite: the bots took every other seat
    assert "the bots have taken their seats and the game has begun" in page and "Share the join link" not in page
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
def test_a_game_with_a_seat_left_for_a_player_asks_for_the_join_link(client):
    _create(client, UserFactory(), bot_1="basic")
    game = Game.objects.get()
    assert game.status == Game.OPEN
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Share the join link below" in page and "the bots have taken their seats" not in page


@pytest.mark.django_db
def test_too_many_bots_or_an_unknown_level_is_refused(client):
    alice = UserFactory()
    response = _create(client, alice, players="2", bot_1="basic", bot_2="basic")
    assert response.status_code == 200 and "room for at most 1 bot besides you" in response.content.decode()
    response = _create(client, alice, bot_1="grandmaster")
    assert response.status_code == 200 and not Game.objects.exists()


def _human_to_act(client, user, **extra):
    """A 2-player practice game against a basic bot, at a decision of the human."""
    _create(client, user, players="2", bot_1="basic", **extra)
    game = Game.objects.get()
    me = game.seats.get(user=user).number
    assert game.to_act == [me]  # the bot, if it started, has moved (tasks run in-process)
    return game, me


def _move(client, game, me):
    moves = game.engine_obj.legal_moves(game.state_cache, me)
    with committed():
        return client.post(f"/games/{game.pk}/move/", {"move": moves[0], "seq": game.move_count})


@pytest.mark.django_db
def test_a_broker_that_is_down_when_a_player_moves_leaves_the_bot_to_the_sweep(client, settings, caplog):
    """The player's move stands and the page answers as usual; the bot's task, refused by the
    broker (a Redis URL on a closed port), is queued again by the bots' sweep once the bot counts
    as stalled and the broker is back."""
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks

    from .test_redis_down import broker_down

    settings.HANSEWEB_BOT_QUEUE = "bots"
    game, me = _human_to_act(client, UserFactory())
    with broker_down(settings):
        before, made = timezone.now(), game.move_count
        assert _move(client, game, me).status_code == 302
    game.refresh_from_db()
    assert game.move_count == made + 1 and game.to_act != [me]  # the move stands; the bot is to act
    bot = game.seats.get(bot="basic").number
    assert game.to_act == [bot] and not game.moves.filter(seq__gt=made).exclude(seat=me).exists()
    stall = timedelta(seconds=settings.HANSEWEB_BOT_STALL_SECONDS)
    assert before + stall <= game.bots_due_at <= timezone.now() + stall
    assert "could not enqueue games.tasks.play_bots" in caplog.text
    with committed():
        assert tasks.sweep_bots(now=game.bots_due_at - timedelta(seconds=1)) == 0  # not stalled yet
    game.refresh_from_db()
    assert game.to_act == [bot]
    with committed():
        assert tasks.sweep_bots(now=game.bots_due_at) == 1
    game.refresh_from_db()
    assert game.moves.filter(channel=Move.BOT, seat=bot, seq__gt=made + 1).exists()
    assert game.to_act == [me] or game.status == Game.FINISHED
    assert game.bots_due_at is None  # nothing for a bot to do: the sweep no longer reads the game
    with committed():
        assert tasks.sweep_bots(now=timezone.now() + 2 * stall) == 0


@pytest.mark.django_db
def test_the_sweep_queues_a_stalled_game_once_a_period_and_forgets_one_whose_bots_are_not_due(client, settings,
                                                                                                monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks

    queued = []
    game, me = _human_to_act(client, UserFactory())
    assert game.bots_due_at is None
    Game.objects.filter(pk=game.pk).update(bots_due_at=timezone.now() - timedelta(minutes=5))  # as of old
    monkeypatch.setattr(tasks.play_bots, "apply_async", lambda args, **options: queued.append(args))
    monkeypatch.setattr(tasks.play_bots, "delay", lambda *args: queued.append(args))
    with committed():
        assert tasks.sweep_bots() == 0  # the human is to act: nothing to queue, and the time is cleared
    game.refresh_from_db()
    assert game.bots_due_at is None and queued == []
    assert _move(client, game, me).status_code == 302  # the bot is due: its task is queued (and held here)
    game.refresh_from_db()
    assert queued == [(game.pk, game.move_count)] and game.bots_due_at is not None
    later = game.bots_due_at
    with committed():
        assert tasks.sweep_bots(now=later) == 1
        assert tasks.sweep_bots(now=later) == 0  # queued once a period, however often the beat runs
    game.refresh_from_db()
    stall = timedelta(seconds=settings.HANSEWEB_BOT_STALL_SECONDS)
    assert queued[-1] == (game.pk, game.move_count) and len(queued) == 2 and game.bots_due_at == later + stall


@pytest.mark.django_db
def test_a_bot_that_fails_to_decide_takes_the_default_move(client, monkeypatch, caplog):
    """A fault in a bot's code does not stall the table: the seat takes the spec's default move,
    through the write path (channel ``bot``), and the fault is logged with the game and the seat."""
    import games.bots

    game, me = _human_to_act(client, UserFactory())

    def broken(*args, **kwargs):
        raise RuntimeError("a fault in the bot")

    monkeypatch.setattr(games.bots, "choose_move", broken)
    before = game.move_count
    assert _move(client, game, me).status_code == 302
    game.refresh_from_db()
    bot = game.seats.get(bot="basic").number
    made = list(game.moves.filter(seq__gt=before + 1).order_by("seq"))
    assert made and all(m.seat == bot and m.channel == Move.BOT for m in made)
    engine = game.engine_obj
    for m in made:
        state = services.replay(game, upto=m.seq - 1)
        assert m.text == (engine.default_move(state, bot) or engine.legal_moves(state, bot)[0])
    assert game.to_act == [me] or game.status == Game.FINISHED
    assert f"the bot of game {game.pk} seat {bot} failed to decide" in caplog.text


@pytest.mark.django_db
def test_the_migration_marks_running_games_whose_bots_are_due(client):
    """Games that were running when ``bots_due_at`` came (migration games/0020) are due at once."""
    import importlib

    from django.apps import apps

    game, me = _human_to_act(client, UserFactory())
    Game.objects.filter(pk=game.pk).update(to_act=[1 - me], bots_due_at=None)  # as if the bot were due
    importlib.import_module("games.migrations.0020_bots_due").due_now(apps, None)
    game.refresh_from_db()
    assert game.bots_due_at is not None
    Game.objects.filter(pk=game.pk).update(to_act=[me], bots_due_at=None)  # the human's turn: not due
    importlib.import_module("games.migrations.0020_bots_due").due_now(apps, None)
    game.refresh_from_db()
    assert game.bots_due_at is None
