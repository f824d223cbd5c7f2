"""The lobby kept whole per version and viewer (hanseweb/pagecache.py, issue 26): a repeated view
is the kept page, and every fact the lobby shows changes it once changed through the product's
own write path (games.views._lobby_version, the scope "names", the time left filled in as served)."""
import zoneinfo
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Game

from .conftest import act, committed, count_calls, rename_on_profile, user_of
from .factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("list_cache")]


@pytest.fixture
def made(monkeypatch):
    """How many times the lobby was really made (not taken from the cache)."""
    from games import views

    return count_calls(monkeypatch, views, "_lobby")


def _lobby(client) -> str:
    page = client.get("/")
    assert page.status_code == 200
    return page.content.decode()


def _seen_twice(client, made) -> str:
    """The lobby, viewed twice: the second view is the kept page (not made again)."""
    first = _lobby(client)
    before = made["n"]
    _lobby(client)
    assert made["n"] == before
    return first


def test_a_repeated_view_is_the_kept_page_read_with_the_version_query_only(client, started_game, made):
    game, users = started_game("hansa", 3, deadline=24)
    client.force_login(users[0])
    _lobby(client)
    assert made["n"] == 1
    with CaptureQueriesContext(connection) as ctx:
        html = _lobby(client)
    assert made["n"] == 1
    # the session, the user, the lobby's version: nothing else
    assert len(ctx.captured_queries) <= 3, [q["sql"][:120] for q in ctx.captured_queries]
    assert game.title in html


def test_a_move_changes_who_is_to_act_and_the_move_count(client, started_game, made):
    game, users = started_game("hansa", 3, deadline=24)
    watcher = UserFactory()
    mover = game.to_act[0]
    player = user_of(game, mover)
    client.force_login(player)
    html = _seen_twice(client, made)
    assert "your turn" in html
    client.force_login(watcher)
    assert "move 0" in _seen_twice(client, made)  # the games being played
    act(game, mover, game.engine_obj.legal_moves(game.state_cache, mover)[0])
    game.refresh_from_db()
    html = _lobby(client)
    assert "move 0" not in html and "move 1" in html
    client.force_login(player)
    while mover in game.to_act:  # the rest of the mover's turn (a Hansa turn is several actions)
        act(game, mover, game.engine_obj.legal_moves(game.state_cache, mover)[0])
        game.refresh_from_db()
    html = _lobby(client)
    assert "your turn" not in html
    assert user_of(game, game.to_act[0]).display_name in html.split("to act:")[1].split("</span>")[0]


def test_a_game_finishing_moves_it_to_the_finished_list(client, started_game, made):
    game, users = started_game("hansa", 2)
    client.force_login(users[0])
    assert "<h2>Finished</h2>" not in _seen_twice(client, made)
    with committed():
        services.resign(game.pk, users[1])
    html = _lobby(client)
    assert "<h2>Finished</h2>" in html and game.title in html.split("<h2>Finished</h2>")[1]


def test_a_resignation_in_a_running_game_changes_the_turn_shown(client, started_game, made):
    game, users = started_game("hansa", 3)
    first = game.to_act[0]
    player = user_of(game, first)
    client.force_login(player)
    assert "your turn" in _seen_twice(client, made)
    with committed():
        services.resign(game.pk, player)
    assert "your turn" not in _lobby(client)


def test_a_name_change_of_another_player_is_seen(client, started_game, made):
    game, users = started_game("hansa", 3)
    client.force_login(users[0])
    assert users[1].display_name in _seen_twice(client, made)
    rename_on_profile(client.__class__, users[1], "Renamed Rieke")
    assert "Renamed Rieke" in _lobby(client)


def test_joining_and_a_new_open_game_change_the_open_list(client, made):
    viewer, creator, joiner = UserFactory(), UserFactory(), UserFactory()
    client.force_login(viewer)
    assert "No open games right now." in _seen_twice(client, made)
    with committed():
        game = services.create_game(creator=creator, engine="hansa", title="Come and play", players=3)
    html = _lobby(client)
    assert "Come and play" in html and "1/3 joined" in html
    _seen_twice(client, made)
    with committed():
        services.join_game(game.pk, joiner)
    assert "2/3 joined" in _lobby(client)
    # the joiner's own lobby: the game is theirs now, waiting for players
    client.force_login(joiner)
    html = _seen_twice(client, made)
    assert "Waiting for players" in html and "Come and play" in html.split("Waiting for players")[1].split("<h2>")[0]
    with committed():
        services.leave_game(game.pk, joiner)
    assert "Waiting for players" not in _lobby(client)


def test_a_takeover_changes_the_names(client, started_game, made):
    game, users = started_game("hansa", 3)
    newcomer = UserFactory(display_name="Nora Newcomer")
    client.force_login(users[0])
    assert "Nora Newcomer" not in _seen_twice(client, made)
    with committed():
        services.take_over_seat(game.pk, users[2], newcomer)
    assert "Nora Newcomer" in _lobby(client)


def test_language_and_time_zone_switches_and_logging_out(client, started_game, made):
    game, users = started_game("hansa", 3, deadline=24)
    player = users[0]
    client.force_login(player)
    assert "Your games" in _seen_twice(client, made)
    client.post("/language/", {"language": "nl", "next": "/"})
    assert "Je spellen" in _lobby(client)
    client.post("/language/", {"language": "en", "next": "/"})
    assert "Your games" in _lobby(client)
    game.refresh_from_db()
    html = _seen_twice(client, made)
    assert "UTC" in html.split('class="deadline"')[1].split("<time")[0]
    client.post("/accounts/profile/", {"display_name": player.display_name, "language": "en",
                                       "time_zone": "Asia/Tokyo", "notify": player.notify,
                                       "digest_hour": player.digest_hour or 8})
    tokyo = timezone.localtime(game.deadline_at, zoneinfo.ZoneInfo("Asia/Tokyo"))
    shown = _lobby(client).split('class="deadline"')[1].split("<time")[0]
    assert tokyo.strftime("%H:%M") in shown and "JST" in shown
    client.logout()
    assert "Play Hanseatic trading games at your own pace" in _lobby(client)


def test_the_time_left_is_as_of_the_view(client, started_game, made, monkeypatch):
    game, users = started_game("hansa", 3, deadline=24)
    client.force_login(users[0])
    html = _seen_twice(client, made)
    assert "23 h" in html
    later = timezone.now() + timedelta(hours=5)
    monkeypatch.setattr("games.views.timezone.now", lambda: later)
    html = _lobby(client)
    assert made["n"] == 1  # the kept page, with the time left as of now
    assert "18 h" in html and "23 h" not in html
