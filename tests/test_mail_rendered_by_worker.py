"""Turn mails are queued in the move's transaction and rendered by the worker that sends them
(``outbox.queue_rendered_later``): the player who moved does not wait for the next player's mail,
and no mail can be lost (the row exists from the commit on)."""
from datetime import timedelta
import hashlib
import random

import pytest
from django.utils import timezone
from django.core import mail

from games import services
from games.models import Game
from hanseweb.mail import renderers
from hanseweb.mail.models import OutboundEmail
from hanseweb.mail.tasks import send_email, sweep_outbox

from .conftest import act, committed, user_of

pytestmark = pytest.mark.mail_png  # the board's PNG is what these tests check (conftest no_mail_png)


def _move_without_sending(game, seat, move):
    """Submit a move whose on-commit callbacks (the send tasks) do not run: a worker not there yet."""
    game.refresh_from_db()
    return services.submit_move(game.pk, user_of(game, seat), move, expected_seq=game.move_count)


@pytest.mark.django_db
def test_the_move_queues_the_turn_mail_unrendered_and_the_worker_renders_it(started_game):
    game, users = started_game("hansa", 3)
    mover = game.to_act[0]
    state = services.current_state(game)
    _move_without_sending(game, mover, "end" if "end" in game.engine_obj.legal_moves(state, mover) else
                          game.engine_obj.legal_moves(state, mover)[0])
    game.refresh_from_db()
    (row,) = OutboundEmail.objects.filter(kind="your_turn", sent_at__isnull=True)
    assert row.text == "" and row.subject == "" and row.render["name"] == "games.your_turn"
    assert row.render["params"]["seq"] == game.move_count
    assert row.to == user_of(game, game.to_act[0]).email
    mail.outbox = []
    assert send_email(row.pk) == "sent"
    row.refresh_from_db()
    assert row.render is None and row.sent_at is not None
    assert row.subject.startswith("[Hanseweb] Your turn in") and "it is your turn" in row.text
    (message,) = mail.outbox
    assert message.subject == row.subject and message.body == row.text
    assert {k: message.extra_headers[k] for k in row.headers} == row.headers
    assert "List-Unsubscribe" in message.extra_headers and "List-Id" in message.extra_headers


@pytest.mark.django_db
def test_a_mail_rendered_after_the_game_moved_on_shows_the_game_as_it_was(started_game, settings):
    """The mail about move m shows the menu of move m and binds its reply address to m, even when
    the game has moved on before the worker renders it (a slow queue, or a fast opponent)."""
    settings.HANSEWEB_REPLY_DOMAIN = "play.example.org"
    game, users = started_game("hansa", 3)
    engine = game.engine_obj
    rng = random.Random(4)
    # play until a turn mail is queued and then one more move is made before anything is sent
    for _ in range(200):
        game.refresh_from_db()
        state = services.current_state(game)
        seat = engine.to_act(state)[0]
        before = OutboundEmail.objects.filter(kind="your_turn").count()
        _move_without_sending(game, seat, rng.choice(engine.legal_moves(state, seat)))
        if OutboundEmail.objects.filter(kind="your_turn").count() > before:
            break
    row = OutboundEmail.objects.filter(kind="your_turn").latest("pk")
    at = row.render["params"]["seq"]
    game.refresh_from_db()
    expected_state = services.current_state(game)
    expected_menu = engine.legal_moves(expected_state, row.render["params"]["seat"])
    # the game moves on before the worker renders
    seat = engine.to_act(expected_state)[0]
    _move_without_sending(game, seat, rng.choice(engine.legal_moves(expected_state, seat)))
    game.refresh_from_db()
    assert game.move_count == at + 1
    assert send_email(row.pk) == "sent"
    row.refresh_from_db()
    assert f"-{at}-" in row.headers["Reply-To"]  # the reply address binds to move ``at``
    for move in expected_menu:
        assert move in row.text


@pytest.mark.django_db
def test_a_failed_render_keeps_the_row_for_the_sweep(started_game, monkeypatch):
    game, users = started_game("hansa", 2)
    mover = game.to_act[0]
    state = services.current_state(game)
    real = renderers.get("games.your_turn")
    monkeypatch.setitem(renderers._renderers, "games.your_turn", lambda params: 1 / 0)
    _move_without_sending(game, mover, game.engine_obj.legal_moves(state, mover)[0])
    row = OutboundEmail.objects.filter(kind="your_turn", sent_at__isnull=True).latest("pk")
    assert send_email(row.pk) == "failed"
    row.refresh_from_db()
    assert row.sent_at is None and row.render is not None and "ZeroDivisionError" in row.last_error
    monkeypatch.setitem(renderers._renderers, "games.your_turn", real)
    OutboundEmail.objects.filter(pk=row.pk).update(  # queued two minutes ago, its backoff over
        created_at=timezone.now() - timedelta(minutes=2), next_attempt_at=timezone.now() - timedelta(seconds=1))
    mail.outbox = []
    with committed():
        assert sweep_outbox() >= 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.render is None and "it is your turn" in row.text


@pytest.mark.django_db
def test_an_unknown_renderer_is_an_error_not_a_silent_drop(started_game):
    game, users = started_game("hansa", 2)
    row = OutboundEmail.objects.create(to="x@example.com", kind="your_turn", subject="", text="",
                                       message_id="<unknown-renderer@hanseweb.localhost>",
                                       render={"name": "no.such.renderer", "params": {}})
    assert send_email(row.pk) == "failed"
    row.refresh_from_db()
    assert row.sent_at is None and "no mail renderer named 'no.such.renderer'" in row.last_error
    assert Game.objects.filter(pk=game.pk).exists()


@pytest.mark.django_db
def test_a_turn_mail_goes_to_the_render_queue_first_then_is_sent(started_game, settings, monkeypatch):
    """With HANSEWEB_RENDER_QUEUE the row's first task is ``render_email`` on that queue, which
    makes the text and the board's PNG and then hands the row to ``send_email``."""
    from django.core.cache import cache

    from hanseweb.mail import tasks
    from hanseweb.mail.images import svg_to_png

    settings.HANSEWEB_RENDER_QUEUE = "render-here"
    handed = []
    real = tasks.render_email.apply_async
    monkeypatch.setattr(tasks.render_email, "apply_async",
                        lambda args, queue=None, **kw: (handed.append(queue), real(args, queue=queue, **kw))[1])
    game, _ = started_game("hansa", 2)
    seat = game.to_act[0]
    made = []
    real_png = svg_to_png
    monkeypatch.setattr(tasks, "svg_to_png", lambda svg: (made.append(len(svg)), real_png(svg))[1])
    act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    row = OutboundEmail.objects.filter(kind="your_turn").latest("pk")
    assert handed and set(handed) == {"render-here"}
    assert row.sent_at is not None and row.render is None and row.attempts == 1 and "your turn" in row.text.lower()
    assert made, "the render task made the board's PNG"
    assert cache.get("hanseweb:png:" + hashlib.sha256(row.inline_svg.encode()).hexdigest())
