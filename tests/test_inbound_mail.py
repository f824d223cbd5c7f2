"""The inbound webhook keeps every mail an ESP posts, whatever its bytes, and answers 200 only once
the mail is stored: NUL bytes, invalid UTF-8, huge bodies, missing fields, HTML-only replies,
the ESP's spam verdict. Posted through anymail's real Postmark and Mailgun inbound views."""
import base64
import hashlib
import hmac
import json
import time

import pytest
from django.core import mail
from django.test import Client

from hanseweb.mail.models import InboundEmail

from .conftest import committed, user_of

DOMAIN = "play.hanseweb.test"
SECRET = "hook:secret"
AUTH = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(SECRET.encode()).decode()}
POSTMARK = "/anymail/postmark/inbound/"


@pytest.fixture(autouse=True)
def replies_on(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": SECRET}


@pytest.fixture
def turn(started_game):
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    reply_to = [m for m in mail.outbox if m.to == [player.email]][-1].extra_headers["Reply-To"]
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    mail.outbox = []
    return game, seat, player, reply_to, legal


def _postmark(player_email, reply_to, **fields):
    payload = {
        "FromFull": {"Email": player_email, "Name": "Player"},
        "ToFull": [{"Email": reply_to, "Name": ""}],
        "Subject": "Re: your turn", "TextBody": "", "Headers": [],
    }
    payload.update(fields)
    return payload


def _post(body, content_type="application/json", auth=True):
    if not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    with committed():
        return Client().post(POSTMARK, body, content_type=content_type, **(AUTH if auth else {}))


@pytest.mark.django_db
def test_nul_bytes_in_body_and_subject_are_stored_and_the_move_is_played(turn):
    game, seat, player, reply_to, legal = turn
    body = json.dumps(_postmark(player.email, reply_to, Subject="Re: \x00your turn",
                                TextBody=f"{legal[1]}\x00\n\n> old \x00text"))
    assert "\\u0000" in body
    response = _post(body)
    assert response.status_code == 200
    row = InboundEmail.objects.get()
    assert row.subject == "Re: your turn" and "\x00" not in row.text
    assert bytes(row.raw) == body.encode() and row.esp == "Postmark"  # the post, byte for byte
    assert row.status == InboundEmail.ACCEPTED
    game.refresh_from_db()
    assert game.moves.get().text == legal[1]


@pytest.mark.django_db
def test_lone_surrogates_in_the_json_are_kept(turn):
    """JSON may carry lone surrogates (\\ud800), which no UTF-8 text holds: anymail cannot build a
    message from them, so the post is kept as unreadable, byte for byte, and acknowledged."""
    game, seat, player, reply_to, legal = turn
    body = json.dumps(_postmark(player.email, reply_to, Subject="Re: \udcff\ud800", TextBody=f"{legal[0]}\n\udcfe"))
    assert "\\ud800" in body
    assert _post(body).status_code == 200
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.UNREADABLE and "UnicodeEncodeError" in row.outcome
    assert bytes(row.raw) == body.encode()
    assert game.moves.count() == 0 and mail.outbox == []


@pytest.mark.django_db
def test_a_post_that_is_not_utf8_is_kept_as_unreadable_and_acknowledged(turn):
    game, seat, player, reply_to, legal = turn
    body = json.dumps(_postmark(player.email, reply_to, TextBody="MARK")).encode().replace(b"MARK", b"\xff\xfe\x00\xc3")
    response = _post(body)
    assert response.status_code == 200  # kept: the ESP must not retry it forever
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.UNREADABLE and "UnicodeDecodeError" in row.outcome
    assert bytes(row.raw) == body and row.raw_content_type == "application/json"
    assert mail.outbox == [] and game.moves.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("body", [b"", b"not json at all", b"[1, 2, 3]", b'{"RecordType": "Bounce"}', b"\x00" * 64])
def test_broken_payloads_are_kept_as_unreadable(turn, body):
    response = _post(body)
    assert response.status_code == 200
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.UNREADABLE and bytes(row.raw) == body and row.outcome.startswith("could not be read")


@pytest.mark.django_db
@pytest.mark.parametrize("missing", ["FromFull", "ToFull", "Subject", "TextBody", "Headers", "everything"])
def test_missing_fields_are_stored_and_processed_without_an_error(turn, missing):
    game, seat, player, reply_to, legal = turn
    payload = {} if missing == "everything" else _postmark(player.email, reply_to, TextBody=legal[0])
    payload.pop(missing, None)
    assert _post(payload).status_code == 200
    row = InboundEmail.objects.get()
    assert row.status != InboundEmail.PENDING and row.processed_at is not None
    if missing in ("FromFull", "ToFull", "TextBody", "everything"):
        assert row.status in (InboundEmail.IGNORED, InboundEmail.REJECTED)
        assert game.moves.count() == 0
    else:
        assert row.status == InboundEmail.ACCEPTED


@pytest.mark.django_db
def test_a_huge_body_is_stored_whole_in_raw_and_read_from_its_top(turn, settings):
    game, seat, player, reply_to, legal = turn
    text = legal[0] + "\n\n" + ("> quoted original line\n" * 250_000)  # ~6 MB: above Django's 2.5 MB form limit
    body = json.dumps(_postmark(player.email, reply_to, TextBody=text))
    assert len(body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert _post(body).status_code == 200
    row = InboundEmail.objects.get()
    assert len(bytes(row.raw)) == len(body.encode()) and len(row.text) == 20000
    assert row.status == InboundEmail.ACCEPTED


@pytest.mark.django_db
def test_a_post_over_the_inbound_limit_is_refused_and_not_stored(turn, settings):
    game, seat, player, reply_to, legal = turn
    settings.HANSEWEB_INBOUND_MAX_BYTES = 10_000
    response = _post(_postmark(player.email, reply_to, TextBody="x" * 20_000))
    assert response.status_code == 413 and b"at most 10000 bytes" in response.content
    assert InboundEmail.objects.count() == 0


@pytest.mark.django_db
def test_anonymous_or_wrongly_signed_posts_are_refused_and_not_stored(turn):
    game, seat, player, reply_to, legal = turn
    payload = _postmark(player.email, reply_to, TextBody=legal[0] + "\x00")
    assert _post(payload, auth=False).status_code == 400
    with committed():
        response = Client().post(POSTMARK, json.dumps(payload), content_type="application/json",
                                 HTTP_AUTHORIZATION="Basic " + base64.b64encode(b"hook:wrong").decode())
    assert response.status_code == 400
    assert _post(b"\xff\xfe garbage", auth=False).status_code == 400
    assert InboundEmail.objects.count() == 0 and game.moves.count() == 0


@pytest.mark.django_db
def test_an_html_only_reply_is_read_as_text(turn):
    game, seat, player, reply_to, legal = turn
    html = (f'<div dir="ltr"><b>{legal[2]}</b></div><br><div class="gmail_quote"><div class="gmail_attr">'
            f"On Mon, 23 Nov 2026 at 10:00, Hanseweb &lt;noreply@hanseweb.localhost&gt; wrote:<br></div>"
            f'<blockquote class="gmail_quote"><p>Hello,</p><ul><li><code>{legal[0]}</code></li></ul></blockquote></div>')
    assert _post(_postmark(player.email, reply_to, TextBody=" \r\n \n", HtmlBody=html)).status_code == 200
    row = InboundEmail.objects.get()
    assert row.text.strip().startswith(legal[2]) and "<" not in row.text.split("\n")[0]
    assert row.status == InboundEmail.ACCEPTED
    game.refresh_from_db()
    assert game.moves.get().text == legal[2]


@pytest.mark.django_db
def test_mail_the_esp_marks_as_spam_is_recorded_but_neither_played_nor_answered(turn):
    game, seat, player, reply_to, legal = turn
    headers = [{"Name": "X-Spam-Status", "Value": "Yes"}, {"Name": "X-Spam-Score", "Value": "7.5"}]
    assert _post(_postmark(player.email, reply_to, TextBody=legal[0], Headers=headers)).status_code == 200
    row = InboundEmail.objects.get()
    assert row.spam_detected is True and row.spam_score == 7.5
    assert row.status == InboundEmail.IGNORED and "spam" in row.outcome and "7.5" in row.outcome
    assert mail.outbox == [] and game.moves.count() == 0
    # the same mail without the verdict is played
    InboundEmail.objects.all().delete()
    headers = [{"Name": "X-Spam-Status", "Value": "No"}, {"Name": "X-Spam-Score", "Value": "0.1"}]
    assert _post(_postmark(player.email, reply_to, TextBody=legal[0], Headers=headers)).status_code == 200
    row = InboundEmail.objects.get()
    assert row.spam_detected is False and row.status == InboundEmail.ACCEPTED


@pytest.mark.django_db
def test_a_reply_with_a_forged_token_from_a_registered_sender_is_not_answered(turn):
    game, seat, player, reply_to, legal = turn
    local, domain = reply_to.split("@")
    forged = local[:-4] + ("aaaa" if not local.endswith("aaaa") else "bbbb") + "@" + domain
    assert _post(_postmark(player.email, forged, TextBody=legal[0])).status_code == 200
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.REJECTED and "not answered" in row.outcome
    assert mail.outbox == [] and game.moves.count() == 0


@pytest.mark.django_db
def test_mailgun_raw_mime_with_invalid_utf8_is_stored_and_read(turn, settings):
    """Another ESP, raw MIME in a multipart form post, signed instead of basic auth, with bytes that
    are not UTF-8 in a part that says it is."""
    game, seat, player, reply_to, legal = turn
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": "signing-key"}  # no basic auth: the signature only
    mime = (f"From: Player <{player.email}>\r\nTo: {reply_to}\r\nSubject: Re: \xff turn\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            f"{legal[0]}\r\n\r\nbroken \xff\xfe bytes\r\n").encode("latin-1")
    timestamp, token = str(int(time.time())), "a" * 50
    signature = hmac.new(b"signing-key", f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    fields = {"timestamp": timestamp, "token": token, "signature": signature, "recipient": reply_to,
              "sender": player.email}
    boundary = b"hanseweb-test-boundary"
    body = b"".join(
        b"--" + boundary + b'\r\nContent-Disposition: form-data; name="' + name.encode() + b'"\r\n\r\n' + value + b"\r\n"
        for name, value in [*((k, v.encode()) for k, v in fields.items()), ("body-mime", mime)]
    ) + b"--" + boundary + b"--\r\n"
    assert b"\xff\xfe" in body
    with committed():
        response = Client().post("/anymail/mailgun/inbound_mime/", body,
                                 content_type="multipart/form-data; boundary=" + boundary.decode())
    assert response.status_code == 200, response.content
    row = InboundEmail.objects.get()
    assert row.esp == "Mailgun" and row.raw_content_type.startswith("multipart/form-data") and bytes(row.raw) == body
    assert row.sender == player.email and row.status == InboundEmail.ACCEPTED
    game.refresh_from_db()
    assert game.moves.get().text == legal[0]
    # a wrong signature is refused, nothing stored
    with committed():
        response = Client().post("/anymail/mailgun/inbound_mime/", {**fields, "signature": "0" * 64, "body-mime": "x"})
    assert response.status_code == 400 and InboundEmail.objects.count() == 1


@pytest.mark.django_db
def test_store_keeps_any_text_in_every_field():
    """NUL and lone surrogates in every field (PostgreSQL's text and JSON refuse both)."""
    from hanseweb.mail.inbound import store

    with committed():
        row = store(sender="A\x00@x.test\udcff", recipients=["play+1-0-0-\x00@x.test", "\ud800"],
                    subject="s\x00\udcff" * 500, text="t\x00" * 50_000, raw=b"\x00\xff")
    row.refresh_from_db()
    assert row.sender == "a@x.test\ufffd" and row.recipients == ["play+1-0-0-@x.test", "\ufffd"]
    assert len(row.subject) == 300 and "\x00" not in row.subject and len(row.text) == 20000
    assert bytes(row.raw) == b"\x00\xff" and row.status == InboundEmail.IGNORED
