"""The outbox: plain-text mails are not HTML-escaped."""
import pytest
from django.core import mail

from .conftest import committed

AWKWARD_TITLE = "Tom's <Hanse> & Co"
AWKWARD_NAME = "O'Brien & <Co>"


@pytest.mark.django_db
def test_text_and_subject_are_not_html_escaped_but_the_html_part_is(started_game):
    game, users = started_game("hansa", 2)
    game.title = AWKWARD_TITLE
    game.save(update_fields=["title"])
    for user in users:
        user.display_name = AWKWARD_NAME
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
