"""Issue 24 item 8: table talk that feels alive. The status the page polls carries the chat's
version (for who may read the chat), so an open page shows a new line without reload; a chat line
is mailed by itself to "every decision" readers when no turn mail carried it within the window;
on a phone the chat is a thumb away (a fixed jump link)."""
import os
from datetime import timedelta

import pytest
from playwright.sync_api import expect
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import chat
from games.models import Game, Seat
from games.tasks import send_chat_news
from hanseweb.accounts.models import User

from .conftest import act, committed, user_of
from .factories import UserFactory
from .test_browser import CHROMIUM, browser  # noqa: F401  (the fixture)
from .test_browser_replay import _login


def _say(game, seat, text):
    with committed():
        return chat.post(game.pk, user_of(game, seat), text)


def _chat_mails(user):
    return [m for m in mail.outbox if m.to == [user.email] and "Table talk in" in m.subject]


# --- the status the page polls ---------------------------------------------------------------------

@pytest.mark.django_db
def test_status_carries_the_chat_version_for_readers_only(client, started_game):
    game, users = started_game("hansa", 3)
    Game.objects.filter(pk=game.pk).update(listed=False)
    client.force_login(users[0])
    with CaptureQueriesContext(connection) as q:
        before = client.get(f"/games/{game.pk}/status/").json()
    assert len(q.captured_queries) <= 3  # the session and user look-ups, and the one status query
    assert [s for s in q.captured_queries if "games_game" in s["sql"]].__len__() == 1
    assert before["chat"]
    _say(game, 1, "hello")
    after = client.get(f"/games/{game.pk}/status/").json()
    assert after["chat"] != before["chat"] and after["version"] == before["version"]
    for outsider in (UserFactory(), None):  # not at this unlisted table: no chat version (or no game at all)
        if outsider is None:
            client.logout()
        else:
            client.force_login(outsider)
        response = client.get(f"/games/{game.pk}/status/")
        assert response.status_code == 404 or "chat" not in response.json()
    Game.objects.filter(pk=game.pk).update(listed=True)
    assert "chat" in client.get(f"/games/{game.pk}/status/").json()  # a listed game's chat is public


# --- mail ----------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_chat_line_alone_is_mailed_to_every_decision_readers_after_the_window(started_game, settings):
    settings.HANSEWEB_CHAT_MAIL_AFTER_MINUTES = 15
    game, users = started_game("hansa", 3)
    waiting = [n for n in range(3) if n not in game.to_act]
    author, reader = waiting[0], game.to_act[0]
    digest_reader = waiting[1]
    User.objects.filter(pk=user_of(game, digest_reader).pk).update(notify=User.NOTIFY_DIGEST)
    mail.outbox = []
    _say(game, author, "Shall we speed up?")
    with committed():
        assert send_chat_news(now=timezone.now() + timedelta(minutes=5)) == 0  # inside the window: waits
    assert mail.outbox == []
    with committed():
        assert send_chat_news(now=timezone.now() + timedelta(minutes=16)) == 1
    (message,) = _chat_mails(user_of(game, reader))
    assert "Shall we speed up?" in message.body and "Shall we speed up?" in message.alternatives[0][0]
    assert f"/games/{game.pk}/#chat" in message.body
    assert not _chat_mails(user_of(game, author))  # the author is not told their own line
    assert not _chat_mails(user_of(game, digest_reader))  # the digest carries it
    with committed():
        assert send_chat_news(now=timezone.now() + timedelta(minutes=30)) == 0  # told once
    # the next turn mail does not tell it again
    seat = Seat.objects.get(game=game, number=reader)
    assert chat.said_since(game, seat)["lines"] == []


@pytest.mark.django_db
def test_no_chat_mail_when_a_turn_mail_carried_it_within_the_window(started_game, settings):
    game, users = started_game("hansa", 3)
    mover = game.to_act[0]
    nxt_candidates = [n for n in range(3) if n != mover]
    _say(game, nxt_candidates[1], "watch this")
    mail.outbox = []
    while game.to_act == [mover]:  # a move: the next player's turn mail carries the line
        act(game, mover, game.engine_obj.legal_moves(game.state_cache, mover)[0])
        game.refresh_from_db()
    nxt = game.to_act[0]
    turn = [m for m in mail.outbox if m.to == [user_of(game, nxt).email] and "Your turn" in m.subject]
    if nxt != nxt_candidates[1]:
        assert turn and "watch this" in turn[-1].body
    mail.outbox = []
    with committed():
        send_chat_news(now=timezone.now() + timedelta(minutes=settings.HANSEWEB_CHAT_MAIL_AFTER_MINUTES + 1))
    assert not _chat_mails(user_of(game, nxt))  # already told by the turn mail


@pytest.mark.django_db
def test_muted_and_debounced_readers_get_no_chat_mail(started_game, settings):
    game, users = started_game("hansa", 3)
    chat.set_muted(game.pk, user_of(game, 1), True)
    User.objects.filter(pk=user_of(game, 2).pk).update(notify=User.NOTIFY_DEBOUNCED)
    _say(game, 0, "anyone?")
    mail.outbox = []
    with committed():
        send_chat_news(now=timezone.now() + timedelta(minutes=settings.HANSEWEB_CHAT_MAIL_AFTER_MINUTES + 1))
    assert not _chat_mails(user_of(game, 1)) and not _chat_mails(user_of(game, 2))


@pytest.mark.django_db
def test_chat_mail_is_in_the_readers_language(started_game, settings):
    game, users = started_game("hansa", 2)
    reader = user_of(game, 1)
    User.objects.filter(pk=reader.pk).update(language="de")
    _say(game, 0, "Moin")
    mail.outbox = []
    with committed():
        send_chat_news(now=timezone.now() + timedelta(minutes=settings.HANSEWEB_CHAT_MAIL_AFTER_MINUTES + 1))
    (message,) = [m for m in mail.outbox if m.to == [reader.email]]
    assert "Tischgespräch" in message.subject and "Moin" in message.body
    from .test_i18n import assert_no_english

    assert_no_english(message.body, "chat mail (de)", [u.display_name for u in users] + [game.title, reader.email])


# --- the page, in Chromium -------------------------------------------------------------------------

browser_only = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}")


@browser_only
@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_a_new_chat_line_arrives_without_reload(width, browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game("hansa", 3)
    reader = game.to_act[0]
    writer = next(n for n in range(3) if n != reader)
    page = _login(browser, live_server, users[reader], width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.__sameDocument = 1")
    page.click("details.type-move summary")
    page.fill("details.type-move input[name=move]", "half typed")
    _say(game, writer, "A new line, live")
    page.wait_for_selector("#chat .chat-messages li:has-text('A new line, live')", timeout=15000)
    assert page.evaluate("window.__sameDocument") == 1  # not reloaded
    assert page.locator("details.type-move input[name=move]").input_value() == "half typed"
    assert page.get_attribute("#chat .chat-messages", "aria-live") == "polite"
    jump = page.locator(".chat-jump")
    if width == 390:  # out of the way while typing (the keyboard is up on a phone)
        expect(jump).to_have_css("visibility", "hidden")  # polls (wait_for_function's eval is refused by the CSP)
    page.evaluate("document.activeElement.blur()")
    expect(jump).to_have_css("visibility", "visible")
    assert jump.is_visible()
    if width == 390:  # a thumb's reach: fixed at the bottom of the screen
        box = jump.bounding_box()
        assert box["y"] + box["height"] <= 900 and box["y"] > 900 * 0.7, box
        assert "(1)" in jump.inner_text()  # the new line, not in view
        jump.click()
        expect(page.locator("#chat")).to_be_in_viewport()
    page.context.close()
