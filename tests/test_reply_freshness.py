"""Old reply addresses (issue 27): "say:" lines and "vacation N" / "back" are taken from a reply
address only while its game runs, and only from the seat's current mail or for
HANSEWEB_REPLY_COMMAND_DAYS days after the mail; and the ESP's SPF/DKIM verdict, where its inbound
post gives one, stops a forged sender before anything is read."""
import json

import pytest
from django.core import mail

from games import email_replies, services
from games.chat import ChatMessage
from games.models import Game
from hanseweb.accounts import vacation
from hanseweb.mail import authentication
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail

from .conftest import act, committed, user_of

DOMAIN = "play.hanseweb.test"


@pytest.fixture(autouse=True)
def reply_domain(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN


def _reply(user, to, text, **extra):
    mail.outbox = []
    with committed():
        row = store(sender=user.email, recipients=[to], subject="Re: your turn", text=text, **extra)
    row.refresh_from_db()
    user.refresh_from_db()
    return row


@pytest.fixture
def used_address(started_game):
    """A three-player Hansa game whose first seat has moved since its first turn mail (address at move 0)."""
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    game.refresh_from_db()
    player = user_of(game, seat)
    assert not services.decision_current(game.seats.get(number=seat), 0, game.move_count)
    return game, seat, player, email_replies.reply_address(game.pk, seat, 0)


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["say: hello from an old mail", "vacation 5", "back"])
def test_an_old_used_address_takes_no_chat_and_no_vacation_command(used_address, settings, text):
    game, seat, player, old = used_address
    settings.HANSEWEB_REPLY_COMMAND_DAYS = 0  # the mail is older than that
    row = _reply(player, old, text)
    assert row.status == InboundEmail.REJECTED and "too old" in row.outcome
    assert ChatMessage.objects.count() == 0
    assert player.vacation_until is None and player.vacation_days_used == 0
    (answer,) = mail.outbox  # the player (the account's own address) is told, nothing changed
    assert "too old" in answer.body and "Nothing was changed" in answer.body


@pytest.mark.django_db
def test_a_used_address_works_for_chat_for_the_days_allowed(used_address, settings):
    game, seat, player, old = used_address
    settings.HANSEWEB_REPLY_COMMAND_DAYS = 3
    row = _reply(player, old, "say: still here")
    assert row.status == InboundEmail.ACCEPTED and ChatMessage.objects.get().text == "still here"


@pytest.mark.django_db
def test_the_current_address_takes_chat_and_vacation_however_old_the_mail(started_game, settings):
    settings.HANSEWEB_REPLY_COMMAND_DAYS = 0
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    current = email_replies.reply_address(game.pk, seat, game.move_count)
    assert _reply(player, current, "say: hi").status == InboundEmail.ACCEPTED
    row = _reply(player, current, "vacation 2")
    assert row.status == InboundEmail.ACCEPTED and vacation.is_away(player) and player.vacation_days_used == 2


@pytest.mark.django_db
def test_no_chat_or_vacation_by_mail_once_the_game_is_over(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    current = email_replies.reply_address(game.pk, seat, game.move_count)
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    for text in ("say: gg", "vacation 3"):
        row = _reply(player, current, text)
        assert row.status == InboundEmail.REJECTED and "too old" in row.outcome
    assert ChatMessage.objects.count() == 0 and player.vacation_until is None


# --- the ESP's verdict -------------------------------------------------------------------------

def _mailgun(spf, dkim):
    return {"esp": "mailgun", "headers": [["X-Mailgun-Spf", spf], ["X-Mailgun-Dkim-Check-Result", dkim]]}


def _ses(spf, dkim):
    notification = {"notificationType": "Received", "receipt": {"spfVerdict": {"status": spf},
                                                                "dkimVerdict": {"status": dkim}}}
    envelope = {"Type": "Notification", "Message": json.dumps(notification)}
    return {"esp": "amazon_ses", "raw": json.dumps(envelope).encode(), "raw_content_type": "application/json"}


def _sendgrid(spf, dkim):
    boundary = "xYzZY"
    fields = {"SPF": spf, "dkim": dkim, "from": "x"}
    body = "".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n" for k, v in fields.items())
    return {"esp": "sendgrid", "raw": (body + f"--{boundary}--\r\n").encode(),
            "raw_content_type": f"multipart/form-data; boundary={boundary}"}


@pytest.mark.parametrize("extra, expected", [
    (_mailgun("Fail", "Fail"), "fail"), (_mailgun("SoftFail", "None"), "fail"), (_mailgun("Pass", "Fail"), "pass"),
    (_mailgun("Fail", "Pass"), "pass"), ({"esp": "mailgun", "headers": []}, None),
    (_ses("FAIL", "FAIL"), "fail"), (_ses("PASS", "FAIL"), "pass"), (_ses("GRAY", "GRAY"), "fail"),
    (_sendgrid("fail", "{@example.com : fail}"), "fail"), (_sendgrid("softfail", "none"), "fail"),
    (_sendgrid("fail", "{@example.com : pass}"), "pass"),
    ({"esp": "postmark", "headers": [["X-Mailgun-Spf", "Fail"], ["X-Mailgun-Dkim-Check-Result", "Fail"]]}, None),
    ({"esp": "stdin", "headers": [["Authentication-Results", "mx; spf=fail; dkim=fail"]]}, None),
])
def test_the_verdict_is_read_from_the_esps_own_fields(extra, expected):
    row = InboundEmail(sender="a@example.com", **{"headers": [], "raw": b"", "raw_content_type": "", **extra})
    assert authentication.verdict(row) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("extra", [_mailgun("Fail", "Fail"), _ses("FAIL", "FAIL"), _sendgrid("fail", "none")])
def test_a_reply_the_esp_says_is_forged_changes_nothing_and_is_not_answered(started_game, extra):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    current = email_replies.reply_address(game.pk, seat, game.move_count)
    row = _reply(player, current, "1\nsay: forged\n", **extra)
    assert row.status == InboundEmail.REJECTED and "forged" in row.outcome
    game.refresh_from_db()
    assert game.move_count == 0 and ChatMessage.objects.count() == 0 and mail.outbox == []


@pytest.mark.django_db
def test_a_reply_the_esp_vouches_for_is_played(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    row = _reply(player, email_replies.reply_address(game.pk, seat, game.move_count), "1", **_mailgun("Pass", "Pass"))
    assert row.status == InboundEmail.ACCEPTED
