"""``list_my_games`` kept whole in the cache (issue 26, ``hanseweb.pagecache``): its version is the
page's own rows, read as plain values in one query, so a repeated request is that query and one
cache round trip; every fact the list shows, changed through the write path, is seen at once, each
account has its own lists, and the token is checked before anything is served."""
import pytest
from django.core.cache import cache

from games import services
from games.models import Game
from hanseweb.api import games as api_games
from hanseweb.api.models import ApiToken

from ..conftest import committed
from ..factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _list_cache(settings, monkeypatch):
    settings.HANSEWEB_LIST_CACHE_SECONDS = 300
    assert settings.REDIS_URL
    cache.clear()
    made = []
    real = api_games._games_page

    def counted(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(api_games, "_games_page", counted)
    return made


def _get(client, token, url="/api/v1/games"):
    response = client.get(url, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200, response.content
    return response


def _two_player_game(creator, other, title="G") -> Game:
    with committed():
        game = services.create_game(creator=creator, engine="zanzibar", title=title, players=2,
                                    seat_order=Game.SEAT_ORDER_JOINED)
        services.join_game(game.pk, other)
    game.refresh_from_db()
    return game


def test_a_repeated_list_is_the_kept_page_with_its_next_page_headers(client, _list_cache):
    me = UserFactory()
    _row, token = ApiToken.issue(me, "t")
    for i in range(3):
        _two_player_game(me, UserFactory(), title=f"G{i}")
    first = _get(client, token, "/api/v1/games?limit=2")
    again = _get(client, token, "/api/v1/games?limit=2")
    assert len(_list_cache) == 1  # made once
    assert again.content == first.content and again["Content-Type"] == first["Content-Type"]
    assert again["X-Next-Cursor"] == first["X-Next-Cursor"] and again["Link"] == first["Link"]
    assert 'rel="next"' in again["Link"]


def test_each_account_has_its_own_list(client):
    ann, bob = UserFactory(), UserFactory()
    _two_player_game(ann, UserFactory(), title="Ann's game")
    _two_player_game(bob, UserFactory(), title="Bob's game")
    _row, ann_token = ApiToken.issue(ann, "a")
    _row, bob_token = ApiToken.issue(bob, "b")
    assert [g["title"] for g in _get(client, ann_token).json()] == ["Ann's game"]
    assert [g["title"] for g in _get(client, bob_token).json()] == ["Bob's game"]
    assert [g["title"] for g in _get(client, ann_token).json()] == ["Ann's game"]


def test_a_revoked_token_gets_no_kept_list(client):
    me = UserFactory()
    row, token = ApiToken.issue(me, "t")
    _two_player_game(me, UserFactory())
    _get(client, token)
    row.revoke()
    response = client.get("/api/v1/games", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"


def test_a_move_turns_the_list_round(client):
    me, other = UserFactory(), UserFactory()
    game = _two_player_game(me, other)
    _row, token = ApiToken.issue(me, "t")
    [before] = _get(client, token).json()
    assert _get(client, token).json() == [before]
    mover = me if before["my_turn"] else other
    seat = services.seat_of(game, mover).number
    with committed():
        services.submit_move(game.pk, mover, game.engine_obj.legal_moves(game.state_cache, seat)[0],
                             expected_seq=game.move_count)
    [after] = _get(client, token).json()
    assert after["move_count"] == before["move_count"] + 1 and after["last_move_at"] != before["last_move_at"]
    game.refresh_from_db()
    assert after["my_turn"] == (services.seat_of(game, me).number in game.to_act)


def test_joining_ending_and_handing_over_a_game_show_at_once(client):
    me, other, heir = UserFactory(), UserFactory(), UserFactory()
    _row, token = ApiToken.issue(me, "t")
    _row, heir_token = ApiToken.issue(heir, "h")
    assert _get(client, token).json() == []
    assert _get(client, token, "/api/v1/games?status=finished").json() == []
    game = _two_player_game(other, me)  # joined: it starts
    [row] = _get(client, token).json()
    assert row["id"] == game.pk and row["status"] == "running" and row["my_seat"] is not None
    with committed():
        services.take_over_seat(game.pk, me, heir)
    assert _get(client, token).json() == []
    assert [g["id"] for g in _get(client, heir_token).json()] == [game.pk]
    with committed():
        services.resign(game.pk, other)
    [ended] = _get(client, heir_token, "/api/v1/games?status=finished").json()
    assert ended["id"] == game.pk and ended["status"] == "finished" and not ended["my_turn"]
