"""The API's refusals: every bad request gets a JSON error ``{code, detail}`` with its HTTP status,
and changes nothing (no move logged, the game row as it was). Stale tokens (409), revoked
tokens (401), throttling (429 with Retry-After)."""
import json

import pytest
from django.test import Client

from games import services
from games.models import Game, Move
from hanseweb.api.models import ApiToken

from ..conftest import act, user_of


def _auth(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def _snapshot(game):
    game = Game.objects.get(pk=game.pk)
    return (game.move_count, json.dumps(game.state_cache, sort_keys=True), list(game.to_act),
            list(Move.objects.filter(game=game).values_list("seq", "text")),
            sorted(game.seats.values_list("number", "decision_seq", "seen_seq")))


def _post(client, game_id, body, token, content_type="application/json"):
    raw = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(f"/api/v1/games/{game_id}/moves", raw, content_type=content_type, **_auth(token))


def _error(response, status, code):
    assert response.status_code == status, (response.status_code, response.content)
    assert response["Content-Type"].startswith("application/json")
    data = response.json()
    assert data["code"] == code and isinstance(data["detail"], str) and data["detail"], data
    return data


@pytest.fixture
def game_and_tokens(started_game):
    game, users = started_game("hansa", 3)
    mover = game.to_act[0]
    waiting = next(s for s in range(3) if s not in game.to_act)
    tokens = {seat: ApiToken.issue(user_of(game, seat), "bot")[1] for seat in range(3)}
    return game, mover, waiting, tokens


@pytest.mark.django_db
def test_a_legal_move_with_the_current_seq_is_made(client, game_and_tokens):
    game, mover, _, tokens = game_and_tokens
    legal = client.get(f"/api/v1/games/{game.pk}/moves", **_auth(tokens[mover])).json()
    response = _post(client, game.pk, {"move": legal["legal_moves"][0]["move"], "seq": legal["seq"]}, tokens[mover])
    assert response.status_code == 200, response.content
    assert response.json()["seq"] == 1 and response.json()["move"] == legal["legal_moves"][0]["move"]
    move = Move.objects.get(game=game)
    assert (move.seq, move.seat, move.channel, move.user_id) == (1, mover, Move.WEB, user_of(game, mover).pk)


@pytest.mark.django_db
def test_a_stale_seq_is_refused_with_409_and_changes_nothing(client, game_and_tokens):
    game, mover, _, tokens = game_and_tokens
    seen = client.get(f"/api/v1/games/{game.pk}", **_auth(tokens[mover])).json()
    # the seat decides on the page meanwhile: its decision moves on
    made = seen["legal_moves"][0]["move"]
    act(game, mover, made)
    game.refresh_from_db()
    before = _snapshot(game)
    legal_now = services.current_state(game)
    engine = game.engine_obj
    pool = engine.legal_moves(legal_now, mover) if mover in game.to_act else [m["move"] for m in seen["legal_moves"]]
    # not the move just made: a re-post of that one is answered "already made" (tests/test_repost.py)
    candidates = [m for m in pool if m != made]
    data = _error(_post(client, game.pk, {"move": candidates[0], "seq": seen["seq"]}, tokens[mover]), 409, "stale")
    assert "moved on" in data["detail"]
    assert _snapshot(game) == before
    # a seq from the future is no token of this game either
    _error(_post(client, game.pk, {"move": candidates[0], "seq": game.move_count + 5}, tokens[mover]), 409, "stale")
    assert _snapshot(game) == before


@pytest.mark.django_db
def test_bad_requests_get_a_json_error_and_change_nothing(client, game_and_tokens, make_user, settings):
    game, mover, waiting, tokens = game_and_tokens
    token = tokens[mover]
    before = _snapshot(game)
    legal = client.get(f"/api/v1/games/{game.pk}/moves", **_auth(token)).json()
    good = legal["legal_moves"][0]["move"]
    seq = legal["seq"]
    cases = [
        # (body, content type, status, code)
        ("{not json", "application/json", 400, "malformed"),
        (b"\xff\xfe\x00garbage", "application/json", 400, "malformed"),
        ('{"move": "x\x00", "seq": 0}', "application/json", 400, "malformed"),  # a raw NUL in the JSON text
        ("", "application/json", 400, "malformed"),
        ("[1, 2]", "application/json", 400, "malformed"),
        ('"move"', "application/json", 400, "malformed"),
        ({"move": good}, None, 400, "malformed"),
        ({"seq": seq}, None, 400, "malformed"),
        ({"move": good, "seq": str(seq)}, None, 400, "malformed"),
        ({"move": good, "seq": True}, None, 400, "malformed"),
        ({"move": good, "seq": 1.5}, None, 400, "malformed"),
        ({"move": good, "seq": -1}, None, 400, "malformed"),
        ({"move": good, "seq": 10**30}, None, 400, "malformed"),
        ({"move": 42, "seq": seq}, None, 400, "malformed"),
        ({"move": [good], "seq": seq}, None, 400, "malformed"),
        ({"move": None, "seq": seq}, None, 400, "malformed"),
        ({"move": good, "seq": seq, "sequence": seq}, None, 400, "malformed"),
        ({"move": "", "seq": seq}, None, 400, "malformed"),
        ({"move": "   ", "seq": seq}, None, 400, "malformed"),
        ({"move": good + "\u0000", "seq": seq}, None, 400, "malformed"),  # NUL as a JSON escape
        ({"move": good + "\u200b", "seq": seq}, None, 400, "malformed"),
        ({"move": "x" * 201, "seq": seq}, None, 400, "malformed"),
        ({"move": "x" * 20000, "seq": seq}, None, 413, "too_large"),
        ({"move": "xyzzy", "seq": seq}, None, 422, "illegal"),
        ({"move": "undo", "seq": seq}, None, 422, "illegal"),
    ]
    for body, content_type, status, code in cases:
        response = _post(client, game.pk, body, token, content_type=content_type or "application/json")
        _error(response, status, code)
        assert _snapshot(game) == before, body
    # not this account's game, not its turn, no such game, an id no database has, a path that is none
    _error(_post(client, game.pk, {"move": good, "seq": seq}, ApiToken.issue(make_user(), "x")[1]), 403, "forbidden")
    _error(_post(client, game.pk, {"move": good, "seq": seq}, tokens[waiting]), 409, "not_your_turn")
    _error(_post(client, 10**12, {"move": good, "seq": seq}, token), 404, "not_found")
    _error(client.get(f"/api/v1/games/{10**12}", **_auth(token)), 404, "not_found")
    _error(client.get(f"/api/v1/games/{10**30}", **_auth(token)), 400, "malformed")
    _error(client.get("/api/v1/games/abc", **_auth(token)), 400, "malformed")
    _error(client.get(f"/api/v1/games/{game.pk}/log?before=-3", **_auth(token)), 400, "malformed")
    _error(client.get(f"/api/v1/games/{game.pk}/log?limit=100000", **_auth(token)), 400, "malformed")
    _error(client.get("/api/v1/games?status=lost", **_auth(token)), 400, "malformed")
    _error(client.get("/api/v1/no/such/path", **_auth(token)), 404, "not_found")
    _error(client.get("/api/v1/games/", **_auth(token)), 404, "not_found")
    for response in (client.delete(f"/api/v1/games/{game.pk}", **_auth(token)), client.put("/api/v1/games", **_auth(token)),
                     client.post("/api/v1/games", "{}", content_type="application/json", **_auth(token))):
        _error(response, 405, "method_not_allowed")
        assert response["Allow"] == "GET"
    _error(_post(client, game.pk, "move=a&seq=0", token, content_type="application/x-www-form-urlencoded"), 400, "malformed")
    assert _snapshot(game) == before
    # a finished game takes no more moves: 409
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    _error(_post(client, game.pk, {"move": good, "seq": seq}, token), 409, "not_running")
    Game.objects.filter(pk=game.pk).update(status=Game.RUNNING)
    # a resigned seat is not a seat that plays: 403
    services.resign(game.pk, user_of(game, waiting))
    after_resign = _snapshot(game)
    _error(_post(client, game.pk, {"move": good, "seq": seq}, tokens[waiting]), 403, "forbidden")
    assert _snapshot(game) == after_resign


@pytest.mark.django_db
def test_no_token_a_bad_token_or_another_scheme_is_401(client, game_and_tokens):
    game, mover, _, tokens = game_and_tokens
    for headers in ({}, {"HTTP_AUTHORIZATION": "Bearer"}, {"HTTP_AUTHORIZATION": "Bearer hw_" + "A" * 43},
                    {"HTTP_AUTHORIZATION": "Bearer " + "\u00e9" * 50}, {"HTTP_AUTHORIZATION": f"Basic {tokens[mover]}"},
                    {"HTTP_AUTHORIZATION": f"Token {tokens[mover]}"}):
        _error(client.get("/api/v1/games", **headers), 401, "unauthorized")
        _error(client.post(f"/api/v1/games/{game.pk}/moves", "{}", content_type="application/json", **headers),
               401, "unauthorized")
    # the session of a logged-in browser is no API credential (and so no cross-site request can use it)
    client.force_login(user_of(game, mover))
    _error(client.get("/api/v1/games"), 401, "unauthorized")


@pytest.mark.django_db
def test_a_revoked_token_is_refused_with_401(client, game_and_tokens):
    game, mover, _, tokens = game_and_tokens
    row = ApiToken.objects.get(user=user_of(game, mover))
    assert client.get("/api/v1/games", **_auth(tokens[mover])).status_code == 200
    row.revoke()
    before = _snapshot(game)
    _error(client.get("/api/v1/games", **_auth(tokens[mover])), 401, "unauthorized")
    legal = game.engine_obj.legal_moves(services.current_state(game), mover)
    _error(_post(client, game.pk, {"move": legal[0], "seq": game.move_count}, tokens[mover]), 401, "unauthorized")
    assert _snapshot(game) == before
    # an account that is closed (inactive) has no working tokens either
    other = ApiToken.issue(user_of(game, mover), "again")[1]
    assert client.get("/api/v1/games", **_auth(other)).status_code == 200
    type(user_of(game, mover)).objects.filter(pk=user_of(game, mover).pk).update(is_active=False)
    _error(client.get("/api/v1/games", **_auth(other)), 401, "unauthorized")


@pytest.mark.django_db
def test_each_account_is_throttled_with_429_and_retry_after(client, game_and_tokens, settings):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "api_per_user": "5/h"}
    game, mover, waiting, tokens = game_and_tokens
    second = ApiToken.issue(user_of(game, mover), "second")[1]
    for _ in range(3):
        assert client.get("/api/v1/games", **_auth(tokens[mover])).status_code == 200
    for _ in range(2):  # the account's other token counts towards the same limit
        assert client.get(f"/api/v1/games/{game.pk}", **_auth(second)).status_code == 200
    before = _snapshot(game)
    legal = game.engine_obj.legal_moves(services.current_state(game), mover)
    response = _post(client, game.pk, {"move": legal[0], "seq": game.move_count}, tokens[mover])
    _error(response, 429, "throttled")
    assert 1 <= int(response["Retry-After"]) <= 3600
    _error(client.get("/api/v1/games", **_auth(second)), 429, "throttled")
    assert _snapshot(game) == before
    # another account is not held back
    assert client.get("/api/v1/games", **_auth(tokens[waiting])).status_code == 200


@pytest.mark.django_db
def test_the_openapi_document_and_failed_authentications_are_throttled_per_address(client, settings):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "api_per_ip": "3/h"}
    for _ in range(3):
        assert client.get("/api/v1/openapi.json").status_code == 200
    response = client.get("/api/v1/openapi.json")
    _error(response, 429, "throttled")
    assert int(response["Retry-After"]) >= 1
    _error(client.get("/api/v1/docs"), 429, "throttled")
    other = Client(REMOTE_ADDR="10.9.8.7")
    for _ in range(3):
        _error(other.get("/api/v1/games", HTTP_AUTHORIZATION="Bearer hw_" + "B" * 43), 401, "unauthorized")
    response = other.get("/api/v1/games", HTTP_AUTHORIZATION="Bearer hw_" + "B" * 43)
    _error(response, 429, "throttled")
    assert int(response["Retry-After"]) >= 1


@pytest.mark.django_db
def test_the_openapi_document_lists_the_operations_with_bearer_auth(client):
    doc = client.get("/api/v1/openapi.json").json()
    ops = {spec["operationId"]: (method, path) for path, item in doc["paths"].items() for method, spec in item.items()}
    assert ops == {
        "list_my_games": ("get", "/api/v1/games"), "get_game": ("get", "/api/v1/games/{game_id}"),
        "list_my_moves": ("get", "/api/v1/games/{game_id}/moves"),
        "submit_move": ("post", "/api/v1/games/{game_id}/moves"), "get_log": ("get", "/api/v1/games/{game_id}/log"),
        "get_chat": ("get", "/api/v1/games/{game_id}/chat"), "post_chat": ("post", "/api/v1/games/{game_id}/chat"),
    }
    assert any(s.get("type") == "http" and s.get("scheme") == "bearer" for s in doc["components"]["securitySchemes"].values())
    submit = doc["paths"]["/api/v1/games/{game_id}/moves"]["post"]
    assert {"200", "400", "401", "403", "404", "409", "422", "429"} <= set(submit["responses"])
    page = client.get("/api/v1/docs")
    assert page.status_code == 200 and b"/api/v1/openapi.json" in page.content
