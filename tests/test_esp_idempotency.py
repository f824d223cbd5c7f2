"""Issue 29.4: where the ESP takes an idempotency key, every attempt of one outbox row sends the
same key (its Message-ID), so the ESP can recognise a repeat after a worker died mid-send. Against
a real HTTP server standing in for Resend's API (anymail's Resend backend, ``RESEND_API_URL``)."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from hanseweb.mail.models import OutboundEmail
from hanseweb.mail.outbox import queue_mail
from hanseweb.mail.tasks import send_email

from .conftest import committed
from .factories import UserFactory


@pytest.fixture
def resend_api():
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            seen.append((self.path, dict(self.headers), json.loads(body)))
            answer = json.dumps({"id": f"resend-{len(seen)}"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", seen
    server.shutdown()


@pytest.mark.django_db
def test_every_attempt_of_a_row_carries_the_same_idempotency_key(resend_api, settings):
    url, seen = resend_api
    settings.EMAIL_BACKEND = "hanseweb.mail.backends.ResendEmailBackend"
    settings.ANYMAIL = {**settings.ANYMAIL, "RESEND_API_KEY": "re_test", "RESEND_API_URL": url}
    user = UserFactory()
    with committed():
        row = queue_mail(to=user.email, user=user, template="accounts/mail/confirm",
                         context={"user": user, "confirm_url": "http://x/"}, kind="confirm")
    row.refresh_from_db()
    assert row.sent_at is not None and row.esp_message_id == "resend-1"
    # the worker died before recording it: the row is sent again (as after the lease)
    OutboundEmail.objects.filter(pk=row.pk).update(sent_at=None)
    assert send_email(row.pk) == "sent"
    (path1, headers1, body1), (path2, headers2, body2) = seen
    assert path1 == path2 == "/emails"
    key = "hanseweb-" + row.message_id.strip("<>")
    assert headers1["Idempotency-Key"] == headers2["Idempotency-Key"] == key
    assert body1["headers"]["Message-ID"] == body2["headers"]["Message-ID"] == row.message_id
    other = UserFactory()
    with committed():
        second = queue_mail(to=other.email, user=other, template="accounts/mail/confirm",
                            context={"user": other, "confirm_url": "http://x/"}, kind="confirm")
    assert seen[-1][1]["Idempotency-Key"] == "hanseweb-" + second.message_id.strip("<>") != key
