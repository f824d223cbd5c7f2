"""The chat through the JSON API: the same readers, texts and refusals as the game page
(``games.chat``), private notes never exposed."""
import pytest

from games import chat
from games.models import ChatMessage, Game
from hanseweb.api.models import ApiToken

from ..conftest import user_of
from ..factories import UserFactory


def _auth(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture
def table(started_game):
    game, users = started_game("zanzibar", 3)
    tokens = {seat: ApiToken.issue(user_of(game, seat), "bot")[1] for seat in range(3)}
    return game, tokens


@pytest.mark.django_db
def test_players_write_and_read_the_chat_and_spectators_of_listed_games_read_it(client, table):
    game, tokens = table
    response = client.post(f"/api/v1/games/{game.pk}/chat", {"text": "Good luck <all>!"},
                           content_type="application/json", **_auth(tokens[0]))
    assert response.status_code == 201, response.content
    said = response.json()
    assert said["text"] == "Good luck <all>!" and said["own"] and said["channel"] == "api"
    assert ChatMessage.objects.get(pk=said["id"]).channel == ChatMessage.API
    lines = client.get(f"/api/v1/games/{game.pk}/chat", **_auth(tokens[1])).json()
    assert [(line["author"], line["text"], line["own"]) for line in lines] == [
        (user_of(game, 0).display_name, "Good luck <all>!", False)]
    stranger = ApiToken.issue(UserFactory(), "x")[1]
    assert client.get(f"/api/v1/games/{game.pk}/chat", **_auth(stranger)).status_code == 200  # listed game
    refused = client.post(f"/api/v1/games/{game.pk}/chat", {"text": "hi"}, content_type="application/json",
                          **_auth(stranger))
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    Game.objects.filter(pk=game.pk).update(listed=False)  # private now (docs/visibility.md): as if not there
    assert client.get(f"/api/v1/games/{game.pk}/chat", **_auth(stranger)).status_code == 404
    assert ChatMessage.objects.count() == 1


@pytest.mark.django_db
def test_hidden_messages_and_notes_stay_private(client, table):
    game, tokens = table
    message = chat.post(game.pk, user_of(game, 1), "rude words")
    chat.save_note(game.pk, user_of(game, 2), "SECRET-NOTE-7")
    staff = UserFactory(is_staff=True)
    chat.hide(game.pk, message.pk, staff, "language")
    for seat in range(3):
        body = client.get(f"/api/v1/games/{game.pk}/chat", **_auth(tokens[seat])).content.decode()
        assert "SECRET-NOTE-7" not in body
        line = client.get(f"/api/v1/games/{game.pk}/chat", **_auth(tokens[seat])).json()[0]
        assert line["hidden"] and (line["text"] == "rude words") == (seat == 1)
    for path in ("", "/moves", "/log"):
        assert "SECRET-NOTE-7" not in client.get(f"/api/v1/games/{game.pk}{path}", **_auth(tokens[0])).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{"text": ""}, {"text": "a\x00b"}, {"text": "x" * 5000}, {"text": 5}, {"words": "hi"}])
def test_bad_chat_input_is_refused_and_nothing_is_said(client, table, body):
    game, tokens = table
    response = client.post(f"/api/v1/games/{game.pk}/chat", body, content_type="application/json", **_auth(tokens[0]))
    assert response.status_code == 400, response.content
    assert response.json()["code"] in ("malformed", "refused")
    assert ChatMessage.objects.count() == 0


@pytest.mark.django_db
def test_chat_throttle_answers_429(client, table, settings):
    game, tokens = table
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "chat_per_user": "2/h"}
    codes = [client.post(f"/api/v1/games/{game.pk}/chat", {"text": f"m{i}"}, content_type="application/json",
                         **_auth(tokens[0])).status_code for i in range(3)]
    assert codes == [201, 201, 429]
    assert ChatMessage.objects.count() == 2
