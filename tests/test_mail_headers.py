"""Mail headers done right: List-Id per game, one conversation per game and seat (In-Reply-To /
References to a fixed thread root), Auto-Submitted on every mail, and auto-replies recognised on
inbound and ignored without an answer. Headers are read with Python's own mail parser from the
message as it is sent."""
import base64
import email
import email.policy
import json

import pytest
from django.core import mail
from django.test import Client

from games import email_replies
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail, OutboundEmail

from .conftest import act, committed, user_of

DOMAIN = "play.hanseweb.test"
SECRET = "hook:secret"


@pytest.fixture(autouse=True)
def site(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN
    settings.SITE_URL = "https://Hanseweb.Example:8443"
    settings.DEFAULT_FROM_EMAIL = "Hanseweb <games@hanseweb.example>"
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": SECRET}


def _parsed(message):
    return email.message_from_bytes(message.message().as_bytes(), policy=email.policy.default)


def _mails_to(user):
    return [_parsed(m) for m in mail.outbox if m.to == [user.email]]


@pytest.mark.django_db
def test_one_game_is_one_conversation_per_seat(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    root = f"<game-{game.pk}.seat-{seat}@hanseweb.example>"
    (first,) = _mails_to(player)
    assert first["List-Id"] == f'"Test hansa" <game-{game.pk}.hanseweb.example>'
    assert first["Auto-Submitted"] == "auto-generated"
    assert first["Message-ID"] == root and first["In-Reply-To"] is None and first["References"] is None
    # the answer to a reply and the next turn mail thread under the same root
    mail.outbox = []
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    with committed():
        row = store(sender=player.email, recipients=[email_replies.reply_address(game.pk, seat, 0)],
                    subject="Re: your turn", text=move)
    row.refresh_from_db()
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    later = _mails_to(player)
    assert later
    for message in later:
        assert message["In-Reply-To"] == root and message["References"] == root
        assert message["Message-ID"] != root and message["Auto-Submitted"] == "auto-generated"
        assert message["List-Id"] == f'"Test hansa" <game-{game.pk}.hanseweb.example>'
    # every seat of the game has its own thread root, all in the game's one list
    game.refresh_from_db()
    other = next(n for n in range(3) if n != seat)
    from games.notifications import thread_of
    from hanseweb.mail.outbox import thread_root

    assert thread_root(thread_of(game, other)["thread"]) == f"<game-{game.pk}.seat-{other}@hanseweb.example>" != root


@pytest.mark.django_db
def test_every_mail_is_auto_submitted_and_account_mail_has_no_list_id():
    from hanseweb.mail.outbox import queue_mail

    from .factories import UserFactory

    user = UserFactory()
    with committed():
        queue_mail(to=user.email, user=user, template="accounts/mail/confirm",
                   context={"user": user, "confirm_url": "https://hanseweb.example/c"})
    (message,) = mail.outbox
    parsed = _parsed(message)
    assert parsed["Auto-Submitted"] == "auto-generated" and parsed["List-Id"] is None
    assert parsed["X-Auto-Response-Suppress"] == "OOF, AutoReply" and parsed["In-Reply-To"] is None


AUTO_REPLIES = [
    ([["Auto-Submitted", "auto-replied"]], "Re: Your turn"),
    ([["auto-submitted", "Auto-Generated"]], "Re: Your turn"),
    ([["X-Autoreply", "yes"]], "Re: Your turn"),
    ([["X-Autorespond", "Ich bin im Urlaub"]], "Re: Your turn"),
    ([["Precedence", "auto_reply"]], "Re: Your turn"),
    ([["Precedence", "bulk"]], "Re: Your turn"),
    ([["Precedence", "junk"]], "Re: Your turn"),
    ([["X-Auto-Response-Suppress", "All"]], "Re: Your turn"),
    ([], "Automatic reply: Your turn in Test hansa"),
    ([], "Out of Office: Your turn"),
    ([], "Abwesend: Ihr Zug"),
    ([], "Automatische Antwort: Your turn"),
    ([], "Automatisch antwoord: Your turn"),
    ([], "Vacation reply"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("headers,subject", AUTO_REPLIES)
def test_auto_replies_are_recorded_and_ignored_without_an_answer(started_game, headers, subject):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    mail.outbox = []
    with committed():  # an out-of-office note quoting the turn mail: its first line looks like a move
        row = store(sender=player.email, recipients=[email_replies.reply_address(game.pk, seat, 0)],
                    subject=subject, text=f"{legal[0]}\nI am away until Monday.", headers=headers)
    row.refresh_from_db()
    assert row.status == InboundEmail.IGNORED and row.outcome.startswith("auto-reply ignored")
    assert row.headers == headers
    assert mail.outbox == [] and game.moves.count() == 0


@pytest.mark.django_db
def test_a_person_s_reply_is_not_taken_for_an_auto_reply(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    with committed():
        row = store(sender=player.email, recipients=[email_replies.reply_address(game.pk, seat, 0)],
                    subject="Re: Your turn (back from vacation)", text=legal[0],
                    headers=[["Auto-Submitted", "no"], ["Precedence", "normal"], ["X-Mailer", "Thunderbird"]])
    row.refresh_from_db()
    assert row.status == InboundEmail.ACCEPTED, row.outcome


@pytest.mark.django_db
def test_the_esp_webhook_stores_the_headers_and_an_out_of_office_note_is_ignored(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    mail.outbox = []
    payload = {
        "FromFull": {"Email": player.email, "Name": "Player"},
        "ToFull": [{"Email": email_replies.reply_address(game.pk, seat, 0), "Name": ""}],
        "Subject": "Re: Your turn", "TextBody": legal[0],
        "Headers": [{"Name": "Auto-Submitted", "Value": "auto-replied (vacation)"},
                    {"Name": "X-Bad", "Value": "nul \u0000 inside"}],
    }
    auth = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(SECRET.encode()).decode()}
    with committed():
        response = Client().post("/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json",
                                 **auth)
    assert response.status_code == 200
    row = InboundEmail.objects.get()
    assert ["Auto-Submitted", "auto-replied (vacation)"] in row.headers
    assert all("\x00" not in value for _, value in row.headers)
    assert row.status == InboundEmail.IGNORED and "auto-reply ignored (Auto-Submitted" in row.outcome
    assert mail.outbox == [] and game.moves.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [None, "junk", [["only-one"]], [[1, 2]], [["Auto-Submitted"]], [None]])
def test_malformed_headers_change_nothing_else(headers):
    with committed():
        row = store(sender="x@example.test", recipients=[], subject="s", text="t", headers=headers)
    row.refresh_from_db()
    assert row.status == InboundEmail.IGNORED and "not addressed" in row.outcome
