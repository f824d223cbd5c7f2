"""``list_my_games`` a page at a time (issue 26): keyset pagination on the game's id, newest
first; ``X-Next-Cursor`` and ``Link: <...>; rel="next"`` lead to the next page; walking them
lists each of my games exactly once (also while games go on between pages), with or without a
status filter; a page costs the same queries for a player of N games as for one of 3N."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game
from hanseweb.api.models import ApiToken

from ..factories import UserFactory

pytestmark = pytest.mark.django_db


def games_of(user, running: int, finished: int, open_: int) -> dict[int, str]:
    """``user``'s games through the write path, created in a shuffled order of statuses:
    {game id: status}."""
    made = {}
    kinds = ["running"] * running + ["finished"] * finished + ["open"] * open_
    kinds = kinds[::2] + kinds[1::2]  # the statuses interleaved in creation order
    for i, kind in enumerate(kinds):
        game = services.create_game(creator=user, engine="hansa", title=f"Game {i}", players=2 if kind != "open" else 3,
                                    options={}, seat_order=Game.SEAT_ORDER_JOINED)
        if kind != "open":
            services.join_game(game.pk, UserFactory())
        if kind == "finished":
            services.resign(game.pk, user)
        game.refresh_from_db()
        assert game.status == kind
        made[game.pk] = kind
    return made


def _get(client, token, url):
    response = client.get(url, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200, response.content
    return response


def walk(client, token, first_url) -> list[list[dict]]:
    """Every page from ``first_url``, following X-Next-Cursor and checking Link says the same."""
    pages, url = [], first_url
    while url:
        response = _get(client, token, url)
        pages.append(response.json())
        cursor = response.headers.get("X-Next-Cursor")
        if cursor is None:
            assert "Link" not in response.headers
            url = None
        else:
            link = response.headers["Link"]
            assert link.startswith("<http://testserver/api/v1/games?") and link.endswith('>; rel="next"')
            assert f"cursor={cursor}" in link
            url = link[len("<http://testserver"):-len('>; rel="next"')]
        assert len(pages) < 50, "the cursor does not end"
    return pages


def test_walking_the_cursor_lists_every_game_once(client):
    user = UserFactory()
    made = games_of(user, running=4, finished=5, open_=2)
    token = ApiToken.issue(user, "bot")[1]
    pages = walk(client, token, "/api/v1/games?limit=3")
    assert [len(p) for p in pages] == [3, 3, 3, 2]
    seen = [row["id"] for page in pages for row in page]
    assert sorted(seen) == sorted(made) and len(seen) == len(set(seen))
    # newest first across pages; on each page the games waiting for me come first
    assert [max(r["id"] for r in p) for p in pages] == sorted((max(r["id"] for r in p) for p in pages), reverse=True)
    for page in pages:
        waiting = [r["my_turn"] for r in page]
        assert waiting == sorted(waiting, reverse=True)
        assert all(r["status"] == made[r["id"]] for r in page)
    # a status filter walks only those games, each once
    for status in ("finished", "running", "open"):
        pages = walk(client, token, f"/api/v1/games?status={status}&limit=2")
        seen = [row["id"] for page in pages for row in page]
        assert sorted(seen) == sorted(pk for pk, kind in made.items() if kind == status)
        assert len(seen) == len(set(seen))


def test_games_going_on_between_pages_are_neither_skipped_nor_repeated(client):
    user = UserFactory()
    made = games_of(user, running=6, finished=0, open_=0)
    token = ApiToken.issue(user, "bot")[1]
    first = _get(client, token, "/api/v1/games?limit=3")
    # meanwhile: the oldest game (on the next page) ends, a new one starts (before the cursor)
    services.resign(min(made), user)
    newer = games_of(user, running=1, finished=0, open_=0)
    rest = walk(client, token, f"/api/v1/games?limit=3&cursor={first.headers['X-Next-Cursor']}")
    seen = [r["id"] for r in first.json()] + [r["id"] for page in rest for r in page]
    assert sorted(seen) == sorted(made) and len(seen) == len(set(seen))
    assert not set(newer) & set(seen)  # newer than the first page: on a fresh walk, not this one
    assert next(r for page in rest for r in page if r["id"] == min(made))["status"] == "finished"


def test_a_page_costs_the_same_queries_for_n_and_3n_games(client):
    counts = {}
    for n, label in ((4, "N"), (12, "3N")):
        user = UserFactory()
        games_of(user, running=n // 2, finished=n - n // 2, open_=0)
        token = ApiToken.issue(user, "bot")[1]
        for url in ("/api/v1/games?limit=5", "/api/v1/games?status=finished&limit=5", "/api/v1/games?status=running"):
            _get(client, token, url)  # the token's last-used minute is written once
            with CaptureQueriesContext(connection) as ctx:
                response = _get(client, token, url)
            counts[(url, label)] = len(ctx.captured_queries)
            rows = response.json()
            assert len(rows) <= 5 or "limit" not in url
            assert not any("state_cache" in q["sql"] or "undo_state" in q["sql"] for q in ctx.captured_queries)
        assert len(_get(client, token, "/api/v1/games?limit=5").json()) == min(5, n)
    for url in ("/api/v1/games?limit=5", "/api/v1/games?status=finished&limit=5", "/api/v1/games?status=running"):
        assert counts[(url, "N")] == counts[(url, "3N")], counts


def test_bad_cursor_or_limit_is_malformed_and_documented(client):
    user = UserFactory()
    token = ApiToken.issue(user, "bot")[1]
    for query in ("cursor=0", "cursor=x", "limit=0", "limit=201", "cursor=-5"):
        response = client.get(f"/api/v1/games?{query}", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code == 400 and response.json()["code"] == "malformed", query
    document = client.get("/api/v1/openapi.json").json()
    operation = document["paths"]["/api/v1/games"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    (cursor,) = [s for s in params["cursor"]["schema"]["anyOf"] if s["type"] == "integer"]
    assert cursor["minimum"] == 1 and params["limit"]["schema"]["maximum"] == 200
    assert set(operation["responses"]["200"]["headers"]) == {"X-Next-Cursor", "Link"}
