"""Issue 24 item 10: a GET on a form's address is a page, not a blank 405; one name ("Take back")
for every way back; a rules summary per title in three languages, linked from the game page and
the turn mail."""
import pytest
from django.core import mail
from django.utils import translation

from games import presentation
from games.engines import available_slugs, get_engine

from .conftest import user_of
from .factories import UserFactory
from .test_i18n import assert_no_english, visible_text

LANGS = ["en", "nl", "de"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_get_on_a_post_only_address_is_a_friendly_page(client, started_game, lang):
    game, users = started_game("hansa", 3)
    client.force_login(users[0])
    users[0].language = lang
    users[0].save(update_fields=["language"])
    for url in (f"/games/{game.pk}/move/", f"/games/{game.pk}/resign/", f"/games/{game.pk}/chat/post/"):
        response = client.get(url)
        assert response.status_code == 405
        assert "POST" in response["Allow"]
        html = response.content.decode()
        assert response["Content-Type"].startswith("text/html")
        assert f'href="/games/{game.pk}/"' in html  # the way back to the game
        text = visible_text(html)
        assert {"en": "This address is for a form", "nl": "Dit adres is voor een formulier",
                "de": "Diese Adresse ist für ein Formular"}[lang] in text
        if lang != "en":
            assert_no_english(text, f"405 {url} ({lang})", [users[0].display_name, users[0].email])
    assert game.moves.count() == 0


@pytest.mark.django_db
def test_organiser_address_and_anonymous_get_are_friendly_too(client):
    response = client.get("/seasons/1/organise/start/")
    assert response.status_code in (302, 405)  # organiser pages ask for a login first
    client.force_login(UserFactory())
    response = client.get("/seasons/1/organise/start/")
    assert response.status_code == 405 and b'href="/seasons/1/"' in response.content


def test_machine_addresses_keep_their_own_405(rf):
    from django.http import HttpResponseNotAllowed

    from hanseweb.method_not_allowed import FriendlyMethodNotAllowedMiddleware

    middleware = FriendlyMethodNotAllowedMiddleware(lambda request: HttpResponseNotAllowed(["POST"]))
    for path in ("/api/v1/games/1/moves", "/anymail/mailgun/inbound/"):
        assert middleware(rf.get(path)).content == b""
    # a POST answered 405 (a form's address that takes only GET) is left alone too
    assert middleware(rf.post("/games/1/")).content == b""


def test_one_name_for_going_back():
    """The site's undo and the engines' in-decision ways back all read "Take back …"."""
    from games.engines.die_hanse import labels as dh_labels
    from games.engines.hansa_teutonica import labels as ht_labels

    for lang, word in (("en", "Take back"), ("nl", "terugnemen"), ("de", "zurücknehmen")):
        with translation.override(lang):
            said = [dh_labels.label({}, "back", [], _=presentation.tr),
                    ht_labels.label({}, "cancel", [], _=presentation.tr),
                    str(presentation.GROUP_NAMES["back"]), str(presentation.GROUP_NAMES["cancel"])]
            for text in said:
                assert word.lower() in text.lower(), (lang, said)
            for old in ("Go back a step", "Cancel this action", "Een stap terug", "Diese Aktion abbrechen"):
                assert old not in said


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", available_slugs())
def test_rules_summary_page_per_title_and_language(client, slug, lang):
    response = client.get(f"/rules/{slug}/?game=7", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    html = response.content.decode()
    text = visible_text(html)
    assert get_engine(slug).name in text
    assert len(text) > 800  # a summary, not a stub
    assert 'href="/games/7/"' in html
    if lang != "en":
        assert_no_english(text, f"rules {slug} ({lang})", [get_engine(slug).name])


@pytest.mark.django_db
def test_rules_of_an_unknown_title_is_404(client):
    assert client.get("/rules/monopoly/").status_code == 404


@pytest.mark.django_db
def test_game_page_and_turn_mail_link_the_rules(client, started_game):
    game, users = started_game("zanzibar", 3)
    seat = game.to_act[0]
    user = user_of(game, seat)
    client.force_login(user)
    assert f'href="/rules/zanzibar/?game={game.pk}"' in client.get(f"/games/{game.pk}/").content.decode()
    turn = [m for m in mail.outbox if m.to == [user.email]][-1]
    assert f"/rules/zanzibar/?game={game.pk}" in turn.body
    assert f"/rules/zanzibar/?game={game.pk}" in turn.alternatives[0][0]
