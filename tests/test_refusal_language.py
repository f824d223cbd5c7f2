"""Issue 24 item 1: every refusal a player can see is in the reader's language, whichever engine
made it and whichever channel carries it (the page's message, the answer to a mail, the API's
``detail``)."""
import json

import pytest
from django.core import mail
from django.utils import translation

from games import services
from games.engines import get_engine
from hanseweb.api.models import ApiToken
from hanseweb.mail.inbound import store

from .conftest import act, committed, user_of

DOMAIN = "play.hanseweb.test"


def _refusal(game, seat, text, language, expected_seq=None):
    game.refresh_from_db()
    with translation.override(language), pytest.raises(services.GameError) as info:
        services.submit_move(game.pk, user_of(game, seat), text,
                             expected_seq=game.move_count if expected_seq is None else expected_seq)
    return str(info.value)


@pytest.mark.django_db
@pytest.mark.parametrize("language, words", [("de", ["unbekannter Zug", "„verzonden“"]),
                                             ("nl", ["onbekende zet", "'verzonden'"])])
def test_hansa_typo_in_the_readers_language(started_game, language, words):
    game, _ = started_game("hansa", 3)
    text = _refusal(game, game.to_act[0], "verzonden", language)
    for word in words:
        assert word in text, text
    assert "unknown move" not in text and "moves are" not in text
    assert game.move_count == 0


@pytest.mark.django_db
@pytest.mark.parametrize("language, word", [("de", "Die Partie ist weitergegangen"), ("nl", "Het spel is verdergegaan")])
def test_stale_move_in_the_readers_language(started_game, language, word):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    act(game, seat, move)
    game.refresh_from_db()
    nxt = game.to_act[0]
    # a page made at move 0 for the seat now to act is stale once that seat's decision has changed
    text = _refusal(game, nxt, game.engine_obj.legal_moves(game.state_cache, nxt)[0], language, expected_seq=0)
    assert word in text and "moved on" not in text, text


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["hansa-teutonica", "die-hanse", "zanzibar"])
def test_other_engines_refuse_in_german(started_game, slug):
    game, _ = started_game(slug, 3)
    seat = game.to_act[0]
    text = _refusal(game, seat, "qqqq zzzz", "de")
    assert text.startswith("Nicht angenommen:"), text
    for english in ("is not possible now", "is not a legal move", "Possible moves", "you can:", "I do not understand"):
        assert english not in text, text


@pytest.mark.django_db
def test_engine_refusal_text_is_still_english_without_a_translator():
    """The engine contract: ``str(exc)`` stays the English text."""
    engine = get_engine("hansa")
    state = engine.setup(3, 1, {})
    seat = engine.to_act(state)[0]
    with pytest.raises(Exception) as info:
        engine.canonical(state, seat, "verzonden")
    assert str(info.value).startswith("unknown move 'verzonden'; moves are: place")


@pytest.mark.django_db
def test_api_detail_in_the_accounts_language(client, started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    user = user_of(game, seat)
    user.language = "nl"
    user.save(update_fields=["language"])
    token = ApiToken.issue(user, "bot")[1]
    response = client.post(f"/api/v1/games/{game.pk}/moves", json.dumps({"move": "verzonden", "seq": game.move_count}),
                           content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert "onbekende zet" in detail and "unknown move" not in detail, detail


@pytest.mark.django_db
def test_mail_answer_in_the_readers_language(settings, started_game):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    user = user_of(game, seat)
    user.language = "de"
    user.save(update_fields=["language"])
    reply_to = [m for m in mail.outbox if m.to == [user.email]][-1].extra_headers["Reply-To"]
    mail.outbox = []
    with committed():
        store(sender=user.email, recipients=[reply_to], subject="Re: dein Zug", text="verzonden\n")
    answer = [m for m in mail.outbox if m.to == [user.email]][-1]
    assert "unbekannter Zug" in answer.body and "unknown move" not in answer.body, answer.body


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["nl", "de"])
@pytest.mark.parametrize("slug", ["hansa", "hansa-teutonica", "die-hanse", "zanzibar"])
def test_the_pages_refusal_has_no_english_and_shows_notation_as_notation(client, started_game, slug, language):
    from .test_i18n import assert_no_english, visible_text

    game, users = started_game(slug, 3)
    seat = game.to_act[0]
    user = user_of(game, seat)
    user.language = language
    user.save(update_fields=["language"])
    client.force_login(user)
    typed = "qq <b>zz</b>"
    response = client.post(f"/games/{game.pk}/move/", {"move": typed, "seq": game.move_count, "typed": "1"})
    assert response.status_code == 302
    html = client.get(f"/games/{game.pk}/").content.decode()
    start = html.index('id="refused"')
    alert = html[html.rindex("<div", 0, start):html.index("</div>", start) + 6]
    assert "<b>" not in alert  # what was typed is escaped (Hansa names only the first word)
    assert "&lt;b&gt;zz&lt;/b&gt;" in alert or (slug == "hansa" and "qq" in alert)
    assert '<code class="notation">' in alert
    assert_no_english(visible_text(alert), f"refusal {slug} ({language})", [u.display_name for u in users])
    # what was typed is back in its field, escaped
    assert 'value="qq &lt;b&gt;zz&lt;/b&gt;"' in html
    game.refresh_from_db()
    assert game.move_count == 0
