"""Issue 29.1: mail survives an ESP outage. A mail the ESP refuses is retried with exponential
backoff for as long as it is worth sending (``HANSEWEB_MAIL_RETRY_HOURS``, then it is given up as
failed); a turn mail whose decision has passed is given up as obsolete instead of arriving late;
the operator sees failed and delayed mail (``manage.py mail_status``, the admin, /healthz/full)."""
import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from hanseweb.mail.models import OutboundEmail
from hanseweb.mail.outbox import queue_mail
from hanseweb.mail.tasks import retry_delay, sweep_outbox

from .conftest import act, committed
from .factories import UserFactory

ESP_DOWN = "tests.failing_backend.EmailBackend"
ESP_UP = "anymail.backends.test.EmailBackend"


def _queue(user):
    with committed():
        return queue_mail(to=user.email, user=user, template="accounts/mail/confirm",
                          context={"user": user, "confirm_url": "http://x/"}, kind="confirm")


def _make_due(*pks):
    """Time passes until the rows' next attempt (their backoff is over)."""
    OutboundEmail.objects.filter(pk__in=pks).update(next_attempt_at=timezone.now() - timedelta(seconds=1))


@pytest.mark.django_db
def test_an_outage_of_many_attempts_is_retried_with_backoff_until_the_esp_returns(settings):
    settings.EMAIL_BACKEND = ESP_DOWN
    row = _queue(UserFactory())
    row.refresh_from_db()
    assert row.attempts == 1 and row.sent_at is None and "refused the connection" in row.last_error
    waits = []
    for attempt in range(2, 15):  # far past the old cap of 8 attempts
        waits.append((row.next_attempt_at - timezone.now()).total_seconds())
        _make_due(row.pk)
        assert sweep_outbox() == 1
        row.refresh_from_db()
        assert row.attempts == attempt and row.given_up_at is None and row.sent_at is None
    # exponential: 1, 2, 4, 8, ... minutes between attempts, at most an hour
    expected = [min(3600, 60 * 2 ** n) for n in range(len(waits))]
    assert all(abs(w - e) < 5 for w, e in zip(waits, expected)), (waits, expected)
    assert sweep_outbox() == 0  # not due again before its backoff is over
    settings.EMAIL_BACKEND = ESP_UP
    _make_due(row.pk)
    mail.outbox = []
    assert sweep_outbox() == 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 15 and row.sending_since is None
    (message,) = mail.outbox
    assert message.extra_headers["Message-ID"] == row.message_id


@pytest.mark.django_db
def test_the_sweep_sends_in_the_order_mails_became_due(settings):
    settings.EMAIL_BACKEND = ESP_DOWN
    users = UserFactory.create_batch(3)
    rows = [_queue(u) for u in users]
    now = timezone.now()
    for minutes, row in zip([3, 9, 6], rows):
        OutboundEmail.objects.filter(pk=row.pk).update(next_attempt_at=now - timedelta(minutes=minutes))
    settings.EMAIL_BACKEND = ESP_UP
    mail.outbox = []
    assert sweep_outbox() == 3
    assert [m.to[0] for m in mail.outbox] == [users[1].email, users[2].email, users[0].email]


def test_backoff_doubles_from_a_minute_up_to_an_hour():
    assert [retry_delay(n).total_seconds() for n in (1, 2, 3, 4, 7, 8, 50)] == [60, 120, 240, 480, 3600, 3600, 3600]


@pytest.mark.django_db
def test_a_mail_unsent_after_48_hours_is_given_up_as_failed_and_the_operator_sees_it(settings, admin_client):
    settings.EMAIL_BACKEND = ESP_DOWN
    row = _queue(UserFactory())
    OutboundEmail.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(hours=48, minutes=1),
                                                   next_attempt_at=timezone.now() - timedelta(seconds=1))
    fresh = _queue(UserFactory())  # delayed, not failed
    assert sweep_outbox() == 0
    row.refresh_from_db()
    assert row.given_up_reason == OutboundEmail.FAILED and row.given_up_at is not None and row.sent_at is None
    settings.EMAIL_BACKEND = ESP_UP
    _make_due(row.pk)
    assert sweep_outbox() == 0  # never tried again
    # manage.py mail_status: figures and both rows; exit status 1 (a mail failed today)
    out = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("mail_status", stdout=out)
    assert exited.value.code == 1
    text = out.getvalue()
    assert "given up: failed 1 (in the last day: 1)" in text
    assert f"#{row.pk} confirm to {row.to}" in text and "refused the connection" in text
    assert f"#{fresh.pk} confirm to {fresh.to}" in text and "next attempt in" in text
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("mail_status", "--json", stdout=out)
    figures = json.loads(out.getvalue())
    assert figures["failed"] == 1 and figures["delayed"] == 1 and figures["waiting"] == 1
    # the admin: a filter for failed mail, and where each mail stands
    page = admin_client.get("/admin/mail/outboundemail/?delivery=failed").content.decode()
    assert row.to in page and fresh.to not in page and "failed (given up" in page
    page = admin_client.get("/admin/mail/outboundemail/?delivery=delayed").content.decode()
    assert fresh.to in page and row.to not in page


@pytest.mark.django_db
def test_a_turn_mail_whose_decision_has_passed_is_dropped_as_obsolete(started_game, settings):
    settings.EMAIL_BACKEND = ESP_DOWN
    game, users = started_game("hansa", 3)
    first_seat = game.to_act[0]
    first = OutboundEmail.objects.get(kind="your_turn", to=users[first_seat].email)
    assert first.sent_at is None and first.attempts == 1
    while first_seat in game.to_act:  # the player played their turn on the page: the mail's decision has passed
        act(game, first_seat, game.engine_obj.legal_moves(game.state_cache, first_seat)[0])
        game.refresh_from_db()
    later = OutboundEmail.objects.get(kind="your_turn", to=users[game.to_act[0]].email)
    settings.EMAIL_BACKEND = ESP_UP
    mail.outbox = []
    _make_due(first.pk, later.pk)
    sweep_outbox()
    first.refresh_from_db()
    later.refresh_from_db()
    assert first.given_up_reason == OutboundEmail.OBSOLETE and first.sent_at is None
    assert later.sent_at is not None  # the decision it is about is still open: sent
    assert [m.to for m in mail.outbox] == [[users[game.to_act[0]].email]]


@pytest.mark.django_db
def test_healthz_full_reports_the_backlog(settings):
    settings.EMAIL_BACKEND = ESP_DOWN
    row = _queue(UserFactory())
    response = Client().get("/healthz/full")
    body = response.json()
    assert body["mail"]["waiting"] == 1 and body["mail"]["delayed"] == 1 and not body["mail"]["late"]
    assert body["database"] == "ok"
    OutboundEmail.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(minutes=20))
    response = Client().get("/healthz/full")
    assert response.status_code == 503
    body = response.json()
    assert body["mail"]["late"] and "mail late" in body["problems"] and body["status"] == "degraded"
    assert body["mail"]["oldest_waiting_seconds"] >= 20 * 60
