"""Turn and result mails: queued in the move's transaction, sent by the task, from the seat's view."""
from datetime import timedelta

import pytest
from django.utils import timezone
from django.core import mail

from games import services
from hanseweb.accounts.models import User
from hanseweb.mail.models import OutboundEmail
from hanseweb.mail.tasks import sweep_outbox

from .conftest import act, committed, user_of


def _mails_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


@pytest.mark.django_db
def test_start_mails_only_the_seat_that_must_act(started_game):
    game, users = started_game("hansa", 3)
    first = game.to_act[0]
    to_first = _mails_to(user_of(game, first))
    assert len(to_first) == 1
    msg = to_first[0]
    assert "Your turn in Test hansa" in msg.subject
    assert f"/games/{game.pk}/" in msg.body
    assert "place " in msg.body  # the legal moves as a menu
    html = msg.alternatives[0][0]
    assert msg.alternatives[0][1] == "text/html" and "Open the game" in html
    assert msg.extra_headers["List-Unsubscribe"].startswith("<http")
    assert msg.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    others = [u for u in users if u != user_of(game, first)]
    assert all(not _mails_to(u) for u in others)
    assert OutboundEmail.objects.filter(sent_at__isnull=False).count() == 1


@pytest.mark.django_db
def test_next_seat_is_mailed_once_with_what_happened(started_game):
    game, users = started_game("hansa", 3)
    first = game.to_act[0]
    legal = game.engine_obj.legal_moves(game.state_cache, first)
    act(game, first, legal[0])
    game.refresh_from_db()
    second = game.to_act[0]
    assert second != first
    msgs = _mails_to(user_of(game, second))
    assert len(msgs) == 1
    city = legal[0].split()[1]
    assert "Since your last turn" in msgs[0].body
    assert user_of(game, first).display_name in msgs[0].body
    assert city.lower() in msgs[0].body.lower()


@pytest.mark.django_db
def test_no_mail_while_the_same_seat_keeps_deciding(started_game):
    """A turn is many small decisions; the player is mailed when it starts, not at every step."""
    game, _ = started_game("hansa", 2)
    engine = game.engine_obj
    # finish initial placement
    while game.state_cache["phase"] == "place":
        seat = game.to_act[0]
        act(game, seat, engine.legal_moves(game.state_cache, seat)[0])
        game.refresh_from_db()
    seat = game.to_act[0]
    user = user_of(game, seat)
    before = len(_mails_to(user))
    for _ in range(3):
        game.refresh_from_db()
        if game.to_act != [seat]:
            break
        moves = engine.legal_moves(game.state_cache, seat)
        act(game, seat, next((m for m in moves if not m.startswith("end")), moves[0]))
    assert len(_mails_to(user)) == before


@pytest.mark.django_db
def test_notification_preference_off_sends_nothing(started_game):
    game, users = started_game("hansa", 2)
    game.refresh_from_db()
    first = game.to_act[0]
    other = 1 - first
    User.objects.filter(pk=user_of(game, other).pk).update(notify=User.NOTIFY_OFF)
    mail.outbox = []
    act(game, first, game.engine_obj.legal_moves(game.state_cache, first)[0])
    assert not mail.outbox


@pytest.mark.django_db
def test_one_click_unsubscribe_from_the_header(client, started_game):
    game, _ = started_game("hansa", 2)
    msg = mail.outbox[0]
    url = msg.extra_headers["List-Unsubscribe"].strip("<>")
    path = url.split("://", 1)[1].split("/", 1)[1]
    response = client.post("/" + path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert User.objects.get(email=msg.to[0]).notify == User.NOTIFY_OFF
    assert client.post("/accounts/unsubscribe/forged-token/").status_code == 400


@pytest.mark.django_db
def test_failed_send_stays_in_the_outbox_and_the_sweep_retries(started_game, settings):
    settings.EMAIL_BACKEND = "tests.failing_backend.EmailBackend"
    game, _ = started_game("hansa", 2)
    row = OutboundEmail.objects.get(kind="your_turn")
    assert row.sent_at is None and row.attempts == 1 and "refused" in row.last_error
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    OutboundEmail.objects.filter(pk=row.pk).update(  # queued two minutes ago, its backoff over
        created_at=timezone.now() - timedelta(minutes=2), next_attempt_at=timezone.now() - timedelta(seconds=1))
    with committed():
        assert sweep_outbox() == 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_result_mail_to_every_player_on_resignation(started_game):
    game, users = started_game("hansa", 2)
    mail.outbox = []
    with committed():
        services.resign(game.pk, users[0])
    game.refresh_from_db()
    assert game.status == game.FINISHED
    assert game.result["ended_by"] == "resignation"
    subjects = sorted((m.to[0], m.subject) for m in mail.outbox)
    assert [to for to, _ in subjects] == sorted(u.email for u in users)
    assert all("is over" in s for _, s in subjects)


@pytest.mark.django_db
def test_a_broker_outage_does_not_fail_the_move_and_the_mail_waits(started_game, monkeypatch):
    from hanseweb.mail import tasks

    game, _ = started_game("hansa", 2)
    seat = game.to_act[0]

    def broker_down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(tasks.send_email, "delay", broker_down)
    mail.outbox = []
    act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    game.refresh_from_db()
    assert game.move_count == 1
    waiting = OutboundEmail.objects.get(sent_at__isnull=True)
    assert waiting.kind == "your_turn" and not mail.outbox
    monkeypatch.undo()
    OutboundEmail.objects.filter(pk=waiting.pk).update(  # queued two minutes ago, its backoff over
        created_at=timezone.now() - timedelta(minutes=2), next_attempt_at=timezone.now() - timedelta(seconds=1))
    with committed():
        assert sweep_outbox() == 1
    assert len(mail.outbox) == 1
