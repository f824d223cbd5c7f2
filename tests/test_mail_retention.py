"""Retention (docs/configuration.md "Retention"): the hourly ``delete_old_mail`` deletes outbox rows
sent or given up longer ago than HANSEWEB_OUTBOX_RETENTION_DAYS and received mail done with longer
ago than the inbound retention (never under HANSEWEB_INBOUND_DEDUP_DAYS), in batches; never mail
still to send or to process, never a mail a newer copy still points at, never the move log."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import Move
from hanseweb.mail import inbound
from hanseweb.mail.models import InboundEmail, OutboundEmail
from hanseweb.mail.tasks import delete_old_mail, inbound_retention_days


def _out(n, *, created, sent=None, given_up=None, reason="") -> list[int]:
    rows = OutboundEmail.objects.bulk_create([
        OutboundEmail(to=f"p{i}@example.com", kind="your_turn", subject="s", text="t",
                      message_id=f"<{created.timestamp()}.{sent}.{given_up}.{reason}.{i}@test>", sent_at=sent,
                      given_up_at=given_up, given_up_reason=reason) for i in range(n)])
    ids = [row.pk for row in rows]
    OutboundEmail.objects.filter(pk__in=ids).update(created_at=created)
    return ids


def _in(received, *, status=InboundEmail.ACCEPTED, message_id="", repeat_of=None) -> InboundEmail:
    row = InboundEmail.objects.create(sender="p@example.com", recipients=["m@hanseweb.localhost"], subject="Re",
                                      text="pass", status=status, message_id=message_id, repeat_of=repeat_of,
                                      processed_at=None if status == InboundEmail.PENDING else received)
    InboundEmail.objects.filter(pk=row.pk).update(received_at=received)
    return row


@pytest.mark.django_db
def test_old_sent_and_given_up_mail_goes_in_batches_unsent_mail_stays(settings):
    settings.HANSEWEB_OUTBOX_RETENTION_DAYS = 30
    settings.HANSEWEB_TASK_BATCH_SIZE, settings.HANSEWEB_TASK_SECONDS = 7, 0
    now = timezone.now()
    old, recent = now - timedelta(days=31), now - timedelta(days=29)
    gone = _out(20, created=old - timedelta(days=1), sent=old) + \
        _out(2, created=old, given_up=old, reason=OutboundEmail.FAILED) + \
        _out(2, created=old, given_up=old, reason=OutboundEmail.OBSOLETE)
    kept = _out(3, created=old, sent=recent) + _out(2, created=old, given_up=recent, reason=OutboundEmail.FAILED) + \
        _out(3, created=now - timedelta(days=400))  # never sent, never given up: still to send (or to give up)

    runs = [delete_old_mail(now=now)["outbox"] for _ in range(5)]

    assert runs == [7 + 4, 7, 6, 0, 0]  # a batch of each kind a run
    assert not OutboundEmail.objects.filter(pk__in=gone).exists()
    assert sorted(OutboundEmail.objects.values_list("pk", flat=True)) == sorted(kept)


@pytest.mark.django_db
def test_received_mail_is_kept_as_long_as_a_repeat_may_come(settings):
    settings.HANSEWEB_INBOUND_RETENTION_DAYS = 2  # shorter than the de-duplication window: that wins
    assert inbound_retention_days() == settings.HANSEWEB_INBOUND_DEDUP_DAYS == 7
    now = timezone.now()
    old, recent = now - timedelta(days=8), now - timedelta(days=6)
    done = [_in(old), _in(old, status=InboundEmail.REJECTED), _in(old, status=InboundEmail.UNREADABLE)]
    original = _in(old, message_id="<a@x>")
    old_repeat = _in(old, status=InboundEmail.REPEAT, message_id="<a@x>", repeat_of=original)
    pending = _in(now - timedelta(days=300), status=InboundEmail.PENDING)
    within = _in(recent, message_id="<b@x>")
    still_repeated = _in(old, message_id="<c@x>")
    new_repeat = _in(recent, status=InboundEmail.REPEAT, message_id="<c@x>", repeat_of=still_repeated)

    assert delete_old_mail(now=now)["inbound"] == 5
    assert set(InboundEmail.objects.values_list("pk", flat=True)) == \
        {pending.pk, within.pk, still_repeated.pk, new_repeat.pk}
    assert not InboundEmail.objects.filter(pk__in=[r.pk for r in done] + [original.pk, old_repeat.pk]).exists()
    # a copy of a mail received 6 days ago arriving now is still told apart as a repeat
    again = inbound.store(sender="p@example.com", recipients=["m@hanseweb.localhost"], subject="Re", text="pass",
                          headers=[["Message-ID", "<b@x>"]])
    assert again.status == InboundEmail.REPEAT and again.repeat_of_id == within.pk
    # once the newer copy is old enough too, both go
    assert delete_old_mail(now=now + timedelta(days=2))["inbound"] == 2
    assert not InboundEmail.objects.filter(pk__in=[still_repeated.pk, new_repeat.pk]).exists()


@pytest.mark.django_db
def test_retention_never_touches_the_move_log(started_game, settings):
    game, _ = started_game("hansa", 2)
    moves = Move.objects.count()
    _out(3, created=timezone.now() - timedelta(days=400), sent=timezone.now() - timedelta(days=400))
    assert delete_old_mail()["outbox"] == 3
    assert Move.objects.count() == moves


def test_the_beat_runs_the_retention_hourly():
    entry = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "hanseweb.mail.tasks.delete_old_mail"]
    assert len(entry) == 1 and entry[0]["schedule"] == timedelta(hours=1)
