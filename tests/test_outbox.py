"""The outbox: plain-text mails are not HTML-escaped, and every row has one fixed Message-ID."""
from datetime import timedelta

import pytest
from django.utils import timezone
from django.core import mail

from hanseweb.mail.models import OutboundEmail
from hanseweb.mail.tasks import send_email, sweep_outbox

from .conftest import committed, user_of
from .factories import UserFactory

AWKWARD_TITLE = "Tom's <Hanse> & Co"
AWKWARD_NAME = "O'Brien & <Co>"


@pytest.mark.django_db
def test_text_and_subject_are_not_html_escaped_but_the_html_part_is(started_game):
    game, users = started_game("hansa", 2)
    game.title = AWKWARD_TITLE
    game.save(update_fields=["title"])
    to_act = game.seats.get(number=game.to_act[0]).user_id
    for i, user in enumerate(users):  # display names are unique: the others get a number
        user.display_name = AWKWARD_NAME if user.pk == to_act else f"{AWKWARD_NAME} {i}"
        user.save(update_fields=["display_name"])
    mail.outbox = []
    from games import notifications

    seat = game.seats.select_related("user").get(number=game.to_act[0])
    with committed():
        notifications.your_turn(game, [seat.number])
    (message,) = mail.outbox
    assert message.subject == f"[Hanseweb] Your turn in {AWKWARD_TITLE} (Hansa)"
    assert f'it is your turn in "{AWKWARD_TITLE}"' in message.body
    assert f"Hello {AWKWARD_NAME}," in message.body
    assert "&#x27;" not in message.body + message.subject and "&amp;" not in message.body + message.subject
    assert "&lt;" not in message.body + message.subject
    html = message.alternatives[0][0]
    assert "Tom&#x27;s &lt;Hanse&gt; &amp; Co" in html and "O&#x27;Brien &amp; &lt;Co&gt;" in html
    assert AWKWARD_TITLE not in html  # the raw text never reaches the html part


@pytest.mark.django_db
def test_account_mails_are_not_escaped_either(client):
    with committed():
        client.post("/accounts/signup/", {
            "email": "obrien@example.com", "display_name": AWKWARD_NAME,
            "password1": "a sturdy passphrase", "password2": "a sturdy passphrase",
        })
    (message,) = mail.outbox
    assert f"Hello {AWKWARD_NAME}," in message.body
    assert "O&#x27;Brien &amp; &lt;Co&gt;" in message.alternatives[0][0]


@pytest.mark.django_db
def test_every_row_gets_its_own_message_id_when_queued(started_game):
    game, users = started_game("hansa", 3)
    rows = list(OutboundEmail.objects.all())
    assert rows and all(r.message_id.startswith("<") and r.message_id.endswith("@hanseweb.localhost>") for r in rows)
    assert len({r.message_id for r in rows}) == len(rows)
    sent = {m.extra_headers["Message-ID"] for m in mail.outbox}
    assert sent == {r.message_id for r in rows}


@pytest.mark.django_db
def test_a_worker_killed_mid_send_leaves_a_trace_and_the_resend_is_counted_as_a_possible_duplicate(settings):
    """The ESP accepted the mail, then the worker died before it recorded the outcome. The attempt
    was recorded (committed) before the mail was handed over, so the row says an attempt began and
    never came back; after the lease, the resend carries the same Message-ID and is counted as a
    possible duplicate (``manage.py mail_status`` reports it)."""
    from io import StringIO

    from django.core.management import call_command

    from hanseweb.mail.outbox import queue_mail

    from .dying_backend import WorkerKilled

    user = UserFactory()
    settings.EMAIL_BACKEND = "tests.dying_backend.EmailBackend"
    with pytest.raises(WorkerKilled), committed():
        row = queue_mail(to=user.email, user=user, template="accounts/mail/confirm",
                         context={"user": user, "confirm_url": "http://x/"}, kind="confirm")
    row = OutboundEmail.objects.get()
    assert row.sent_at is None and row.attempts == 1 and row.sending_since is not None  # the trace
    assert len(mail.outbox) == 1  # it did go out
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    assert send_email(row.pk) == "in flight"  # within the lease: maybe still being sent, left alone
    assert sweep_outbox() == 0
    OutboundEmail.objects.filter(pk=row.pk).update(  # the lease has passed: the worker is gone
        sending_since=timezone.now() - timedelta(seconds=settings.HANSEWEB_MAIL_SEND_LEASE_SECONDS + 1))
    assert sweep_outbox() == 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2 and row.possible_duplicates == 1
    assert row.sending_since is None
    first, second = mail.outbox
    assert first.extra_headers["Message-ID"] == second.extra_headers["Message-ID"] == row.message_id
    assert first.message()["Message-ID"] == row.message_id  # the header really sent
    out = StringIO()
    call_command("mail_status", stdout=out)
    assert "possible duplicates: 1 mails (1 attempts after one that never came back)" in out.getvalue()
    assert f"#{row.pk} confirm to {user.email}" in out.getvalue()


@pytest.mark.django_db
def test_the_sweep_retry_keeps_the_message_id(started_game, settings):
    from hanseweb.mail.tasks import sweep_outbox

    settings.EMAIL_BACKEND = "tests.failing_backend.EmailBackend"
    game, _ = started_game("hansa", 2)
    row = OutboundEmail.objects.get(kind="your_turn")
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    OutboundEmail.objects.filter(pk=row.pk).update(  # queued two minutes ago, its backoff over
        created_at=timezone.now() - timedelta(minutes=2), next_attempt_at=timezone.now() - timedelta(seconds=1))
    with committed():
        assert sweep_outbox() == 1
    (message,) = mail.outbox
    assert message.extra_headers["Message-ID"] == row.message_id
    assert user_of(game, game.to_act[0]).email == message.to[0]


@pytest.mark.django_db(transaction=True)
def test_a_request_publishes_its_mail_tasks_at_the_commit_before_its_response(started_game, monkeypatch, settings):
    """Issue 29.6: a web worker killed after the commit but before its response went out must not
    leave the next turn mail to the sweep (82-92 s): with a broker, the tasks are published at
    the commit, before the response is made. (In-process tasks, the embedded default, still run
    after the response.)"""
    from django.test import Client

    from games import views
    from hanseweb import handover

    game, _ = started_game("hansa", 3)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    published = []
    monkeypatch.setattr(handover, "_publish", lambda task, args, queue, countdown=None: published.append(task.name))
    at_response = []
    real_redirect = views.redirect
    monkeypatch.setattr(views, "redirect", lambda *a, **k: (at_response.append(len(published)), real_redirect(*a, **k))[1])
    seat = game.to_act[0]
    client = Client()
    client.force_login(game.seats.get(number=seat).user)
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    assert client.post(f"/games/{game.pk}/move/", {"move": move, "seq": game.move_count}).status_code == 302
    game.refresh_from_db()
    assert game.move_count == 1
    assert at_response == [1]  # published at the commit, before the response was made
    assert published == ["hanseweb.mail.tasks.render_email"]  # the next seat's turn mail
    settings.CELERY_TASK_ALWAYS_EAGER = True
    published.clear()
    seat = game.to_act[0]
    client.force_login(game.seats.get(number=seat).user)
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    at_response.clear()
    assert client.post(f"/games/{game.pk}/move/", {"move": move, "seq": game.move_count}).status_code == 302
    assert at_response == [0] and published == ["hanseweb.mail.tasks.render_email"]  # in-process: after it
