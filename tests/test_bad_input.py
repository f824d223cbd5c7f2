"""Whatever a form sends (any length, any bytes), the answer is a clear message and nothing changes."""
import pytest

from games.models import Game, Move

from .conftest import user_of

BOUNDARY = "hansewebboundary"


def _multipart(fields: dict[str, bytes]) -> bytes:
    parts = [b"--" + BOUNDARY.encode() + b'\r\nContent-Disposition: form-data; name="' + name.encode() + b'"\r\n\r\n' + value + b"\r\n"
             for name, value in fields.items()]
    return b"".join(parts) + b"--" + BOUNDARY.encode() + b"--\r\n"


@pytest.fixture
def player(client, started_game):
    game, _ = started_game("hansa", 2)
    client.force_login(user_of(game, game.to_act[0]))
    return client, game


def _messages(response):
    return [str(m) for m in response.context["messages"]]


def _unchanged(game):
    assert Game.objects.get(pk=game.pk).move_count == 0 and not Move.objects.filter(game=game).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("move,expected", [
    ("x" * 5000, "That move is too long: 5,000 characters, and a move is at most 200."),
    ("end " * 51, "That move is too long: 203 characters"),
    ("buy\x00 1", "The move contains a NUL byte"),
    ("\x1b[31mend", "invisible control character (U+001B)"),
    ("\u202eend", "invisible control character (U+202E)"),
    ("", "The move was empty"),
])
def test_a_bad_move_text_gets_its_reason(player, move, expected):
    client, game = player
    response = client.post(f"/games/{game.pk}/move/", {"move": move, "seq": "0"}, follow=True)
    assert response.status_code == 200
    assert any(expected in m for m in _messages(response)), _messages(response)
    assert not any("incomplete" in m for m in _messages(response))
    _unchanged(game)


@pytest.mark.django_db
@pytest.mark.parametrize("seq", ["", "\x00", "abc", "-1", "1e9"])
def test_a_garbled_move_number_says_so(player, seq):
    client, game = player
    response = client.post(f"/games/{game.pk}/move/", {"move": "end", "seq": seq}, follow=True)
    assert any("move number was" in m and "reload the game page" in m for m in _messages(response))
    _unchanged(game)


@pytest.mark.django_db
@pytest.mark.parametrize("body,content_type", [
    (b"move=%FF%FEend&seq=0", "application/x-www-form-urlencoded"),
    (b"move=%C3%28&seq=0", "application/x-www-form-urlencoded"),
    (_multipart({"move": b"\xff\xfe end", "seq": b"0"}), f"multipart/form-data; boundary={BOUNDARY}"),
])
def test_bytes_that_are_not_utf8_are_named(player, body, content_type):
    client, game = player
    response = client.post(f"/games/{game.pk}/move/", body, content_type=content_type, follow=True)
    assert response.status_code == 200
    assert any("not valid text (UTF-8)" in m for m in _messages(response)), _messages(response)
    _unchanged(game)


@pytest.mark.django_db
def test_a_huge_request_is_refused_with_a_page_that_says_so(player):
    client, game = player
    response = client.post(f"/games/{game.pk}/move/", {"move": "x" * 3_000_000, "seq": "0"})
    assert response.status_code == 400 and "could not be read" in response.content.decode()
    _unchanged(game)


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["%00", "%FF", "a%00b", "..%2F"])
def test_a_garbled_join_link_is_not_found(client, code):
    response = client.get(f"/join/{code}/")
    assert response.status_code == 404
