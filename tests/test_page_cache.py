"""A repeated view of a started game's page is the whole page from the cache (one version query
and one cache round trip), yet never stale and never another viewer's: each response has its own
working CSRF token, and a move, a chat message, a flash message or a new display name shows at
once (issue "A game page costs the same at move 4,000 as at move 4")."""
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game

from .conftest import committed, user_of

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _client(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_repeated_view_is_served_whole_from_the_cache_with_this_requests_csrf_token(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = _client(user_of(game, seat))
    url = f"/games/{game.pk}/"
    first = player.get(url)
    with CaptureQueriesContext(connection) as ctx:
        second = player.get(url)
    assert first.status_code == second.status_code == 200
    assert first.templates and not second.templates  # the second one was not rendered
    # the session, its user and the page's version: nothing about the game's state or its chat
    assert len(ctx) == 3, [q["sql"][:90] for q in ctx.captured_queries]
    assert '"games_seat"' in ctx.captured_queries[-1]["sql"]
    assert not any("state_cache" in q["sql"] or "games_chat" in q["sql"] for q in ctx.captured_queries)
    html = second.content.decode()
    assert "\x00" not in html
    tokens = set(TOKEN.findall(html))
    assert len(tokens) == 1 and tokens != set(TOKEN.findall(first.content.decode()))  # masked anew each time
    # the page's forms work with the token it carries: a move from the cached page is accepted
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    with committed():
        response = player.post(f"/games/{game.pk}/move/", {"move": move, "seq": game.move_count,
                                                            "csrfmiddlewaretoken": tokens.pop()})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.move_count == 1 and game.moves.get().text == move


@pytest.mark.django_db
def test_the_cached_page_is_never_stale_nor_another_viewers(started_game):
    game, _ = started_game("hansa", 3)
    url = f"/games/{game.pk}/"
    seat = game.to_act[0]
    mover, other = user_of(game, seat), user_of(game, (seat + 1) % 3)
    player, watcher = _client(mover), _client(other)
    for client in (player, watcher):
        client.get(url), client.get(url)  # both views cached
    # each viewer its own page (its own hand and name in the header)
    assert mover.display_name in player.get(url).content.decode().split("<main>")[0]
    assert mover.display_name not in watcher.get(url).content.decode().split("<main>")[0]
    # a table-talk message shows at once
    with committed():
        watcher.post(f"/games/{game.pk}/chat/post/", {"text": "ahoy there", "csrfmiddlewaretoken":
                                                     TOKEN.findall(watcher.get(url).content.decode())[0]})
    assert "ahoy there" in player.get(url).content.decode()
    # a new display name shows in the header
    mover.display_name = "Renamed Rita"
    mover.save(update_fields=["display_name"])
    assert "Renamed Rita" in player.get(url).content.decode()
    # a flash message (a refused move) shows on the page it leads back to, then the page is
    # served from the cache again
    token = TOKEN.findall(player.get(url).content.decode())[0]
    followed = player.post(f"/games/{game.pk}/move/", {"move": "nonsense", "seq": game.move_count,
                                                       "csrfmiddlewaretoken": token}, follow=True)
    assert "Not accepted" in followed.content.decode() and followed.templates
    again = player.get(url)
    assert "Not accepted" not in again.content.decode() and not again.templates
    # a move shows on the other seat's page at once (a new version)
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    with committed():
        player.post(f"/games/{game.pk}/move/", {"move": move, "seq": game.move_count, "csrfmiddlewaretoken": token})
    game.refresh_from_db()
    assert game.move_count >= 1
    assert f'data-version="{game.move_count}:' in watcher.get(url).content.decode()
    assert Game.objects.get(pk=game.pk).move_count == game.move_count


@pytest.mark.django_db
def test_a_query_string_or_a_spectator_gets_a_page_of_its_own(client, started_game):
    game, _ = started_game("hansa", 3)
    url = f"/games/{game.pk}/"
    player = _client(user_of(game, 0))
    player.get(url), player.get(url)
    assert player.get(url + "?x=1").templates  # not the cached page: the path shows in the language form
    client.get(url)
    spectator = client.get(url)
    html = spectator.content.decode()
    assert spectator.status_code == 200 and not spectator.templates
    assert user_of(game, 0).display_name not in html.split("<main>")[0]  # nobody's header
    assert "Log in" in html
