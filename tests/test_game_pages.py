"""Lobby, create, join by link, the game page for players and spectators, moves through forms."""
import json
import re

import pytest
from django.test import Client

from games import services
from games.models import Game

from .conftest import act, committed, user_of
from .factories import UserFactory


@pytest.mark.django_db
def test_create_join_by_link_and_autostart(client):
    alice, bob, carol = UserFactory.create_batch(3)
    client.force_login(alice)
    assert client.get("/games/new/?engine=hansa").status_code == 200
    with committed():
        response = client.post("/games/new/", {
            "engine": "hansa", "title": "Club night", "players": "3", "listed": "invite",
            "seat_order": "random", "move_deadline_hours": "48", "opt_start_player": "random",
            "seat_ask_losses": "False", "create": "1",
        })
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert (game.title, game.players, game.listed, game.move_deadline_hours) == ("Club night", 3, False, 48)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert game.invite_code in page and "Waiting for players (1/3)" in page
    # an invite-only game is not listed for others
    client.force_login(bob)
    assert "Club night" not in client.get("/").content.decode()
    # without the link, the private game is not shown at all (docs/visibility.md) and a forged
    # join is refused
    assert client.get(f"/games/{game.pk}/").status_code == 404
    response = client.post(f"/games/{game.pk}/join/", {"seat_ask_losses": "False"})
    assert response.status_code == 302 and game.seats.count() == 1
    assert "by invitation only" in client.get("/").content.decode()  # the refusal, shown on the next page
    response = client.get(f"/join/{game.invite_code}/")
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    with committed():
        client.post(f"/games/{game.pk}/join/", {"seat_ask_losses": "True"})
    client.force_login(carol)
    client.get(f"/join/{game.invite_code}/")
    with committed():
        response = client.post(f"/games/{game.pk}/join/", {"seat_ask_losses": "False"}, follow=True)
    assert "The game has started" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.RUNNING
    assert sorted(s.number for s in game.seats.all()) == [0, 1, 2]
    assert game.seats.get(user=bob).options == {"ask_losses": True}
    # a fourth player cannot join a started game
    client.force_login(UserFactory())
    response = client.post(f"/games/{game.pk}/join/", {"seat_ask_losses": "False"}, follow=True)
    assert "already started" in response.content.decode()
    assert client.get("/join/not-a-code/").status_code == 404


@pytest.mark.django_db
def test_player_moves_with_a_button_and_sees_errors(client, started_game):
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    client.force_login(player)
    page = client.get(f"/games/{game.pk}/").content.decode()
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    assert f'value="{legal[0]}"' in page and 'name="seq" value="0"' in page
    with committed():
        response = client.post(f"/games/{game.pk}/move/", {"move": legal[0].upper(), "seq": "0"}, follow=True)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.move_count == 1 and game.moves.get().text == legal[0]
    # the same form again is stale
    response = client.post(f"/games/{game.pk}/move/", {"move": legal[0], "seq": "0"}, follow=True)
    assert "moved on" in response.content.decode()
    # the wrong seat, garbage and a missing field change nothing
    next_legal = game.engine_obj.legal_moves(game.state_cache, game.to_act[0])
    response = client.post(f"/games/{game.pk}/move/", {"move": next_legal[0], "seq": "1"}, follow=True)
    assert "not your turn" in response.content.decode()
    client.force_login(user_of(game, game.to_act[0]))
    response = client.post(f"/games/{game.pk}/move/", {"move": "launch rockets", "seq": "1"}, follow=True)
    assert "Not accepted" in response.content.decode()
    response = client.post(f"/games/{game.pk}/move/", {"move": "x"}, follow=True)
    assert "move number was missing" in response.content.decode()
    game.refresh_from_db()
    assert game.move_count == 1


@pytest.mark.django_db
def test_spectator_sees_the_public_view_without_move_forms(client, started_game):
    game, _ = started_game("hansa", 2)
    response = client.get(f"/games/{game.pk}/")
    page = response.content.decode()
    assert response.status_code == 200
    assert response.context["view"]["you"] is None
    assert 'id="move-form"' not in page
    assert str(game.seed) not in page
    response = client.post(f"/games/{game.pk}/move/", {"move": "place riga", "seq": "0"})
    assert response.status_code == 302 and "/login/" in response.url
    status = json.loads(client.get(f"/games/{game.pk}/status/").content)
    # a listed game's table talk is public: its version comes with the status (the page fetches new lines)
    assert isinstance(status.pop("chat"), str)
    assert status == {"move_count": 0, "status": "running", "seats": 2, "version": f"0:running:{game.to_act[0]}:2:0"}


@pytest.mark.django_db
def test_no_page_shows_the_seed_or_hidden_state(client, started_game):
    game, users = started_game("hansa", 3)
    hidden = json.dumps({k: v for k, v in game.state_cache.items() if k.startswith("_")})
    for user in [None, *users]:
        client.logout()
        if user:
            client.force_login(user)
        response = client.get(f"/games/{game.pk}/")  # the first view of this version: rendered
        page = response.content.decode()
        assert str(game.seed) not in page
        assert "_rng" not in page and "_stacks" not in page
        assert not any(key.startswith("_") for key in response.context["view"])
        assert client.get(f"/games/{game.pk}/").content.decode().count(str(game.seed)) == 0  # and from the cache
    assert len(hidden) > 2


@pytest.mark.django_db
def test_resign_needs_confirmation(client, started_game):
    game, users = started_game("hansa", 3)
    client.force_login(users[0])
    response = client.post(f"/games/{game.pk}/resign/", {}, follow=True)
    assert "confirm" in response.content.decode()
    with committed():
        client.post(f"/games/{game.pk}/resign/", {"confirm": "yes"})
    game.refresh_from_db()
    seat = game.seats.get(user=users[0])
    assert seat.resigned and game.status == Game.RUNNING  # two players play on
    assert seat.number not in game.to_act


@pytest.mark.django_db
def test_lobby_lists_my_turn_first(client, started_game):
    game, users = started_game("hansa", 2)
    mover = user_of(game, game.to_act[0])
    client.force_login(mover)
    page = client.get("/").content.decode()
    assert "your turn" in page and game.title in page


@pytest.mark.django_db
def test_leave_and_cancel_an_open_game(client):
    creator, other = UserFactory.create_batch(2)
    client.force_login(creator)
    with committed():
        client.post("/games/new/", {"engine": "hansa", "title": "Short-lived", "players": "3", "listed": "open",
                                    "seat_order": "random", "opt_start_player": "random",
                                    "seat_ask_losses": "False", "create": "1"})
    game = Game.objects.get()
    client.force_login(other)
    client.post(f"/games/{game.pk}/join/", {"seat_ask_losses": "False"})
    assert game.seats.count() == 2
    assert client.post(f"/games/{game.pk}/cancel/").url == f"/games/{game.pk}/"  # not the creator
    assert client.post(f"/games/{game.pk}/leave/").url == "/"
    assert game.seats.count() == 1
    client.force_login(creator)
    response = client.post(f"/games/{game.pk}/leave/", follow=True)
    assert "cancel it instead" in response.content.decode()
    assert client.post(f"/games/{game.pk}/cancel/").url == "/"
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["hansa", "hansa-teutonica", "die-hanse", "zanzibar"])
def test_create_form_offers_each_games_variants_and_settings(client, slug):
    from games.engines import get_engine

    engine = get_engine(slug)
    client.force_login(UserFactory())
    form = client.get(f"/games/new/?engine={slug}").context["form"]
    data = {name: field.initial for name, field in form.fields.items() if field.initial is not None}
    data.update(engine=slug, title=f"{slug} night", players=str(engine.max_players), create="1")
    for spec in engine.option_specs:  # the last choice of every variant, to see it arrive typed
        data[f"opt_{spec['key']}"] = str(spec["choices"][-1][0])
    with committed():
        response = client.post("/games/new/", data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    game = Game.objects.get()
    assert game.players == engine.max_players
    assert game.options == {spec["key"]: spec["choices"][-1][0] for spec in engine.option_specs}
    assert set(game.seats.get().options) == {spec["key"] for spec in engine.seat_option_specs}


@pytest.mark.django_db
def test_a_variant_that_does_not_fit_the_player_count_is_refused_at_creation(client):
    client.force_login(UserFactory())
    response = client.post("/games/new/", {
        "engine": "hansa", "title": "", "players": "2", "listed": "open", "seat_order": "random",
        "opt_start_player": "3", "seat_ask_losses": "False", "create": "1",
    })
    assert response.status_code == 200 and not Game.objects.exists()
    assert response.context["form"].errors["opt_start_player"] == [
        "Seat 4 is not at the table: a 2-player game has seats 1 to 2."]


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players,offered", [("hansa", 2, 2), ("hansa", 3, 3), ("zanzibar", 4, 4), ("zanzibar", 5, 5)])
def test_start_player_choices_fit_the_player_count(client, slug, players, offered):
    import re

    client.force_login(UserFactory())
    if players == 2:
        page = client.get(f"/games/new/?engine={slug}").content.decode()  # the form starts at 2 players
    else:  # the form shown again for another player count (no script: "Show options for this game")
        page = client.post(f"/games/new/?engine={slug}", {"engine": slug, "players": str(players), "switch": "1"}).content.decode()
    select = page.split('name="opt_start_player"', 1)[1].split("</select>", 1)[0]
    enabled = re.findall(r'<option value="(\w+)"(?![^>]*disabled)[^>]*>', select)
    disabled = re.findall(r'<option value="(\w+)"[^>]*disabled[^>]*>', select)
    assert enabled == ["random"] + [str(i) for i in range(offered)]
    assert disabled == [str(i) for i in range(offered, 5 if slug == "zanzibar" else 4)]
    assert "data-seat-choice" in page  # the page's script keeps them in step with the player count
    if players == (5 if slug == "zanzibar" else 4):
        return  # every seat fits
    # a seat beyond the table is refused whatever the page offered, with the reason
    response = client.post("/games/new/", {"engine": slug, "title": "", "players": str(players), "listed": "open",
                                           "seat_order": "random", "opt_start_player": str(players), "create": "1"})
    assert response.status_code == 200 and not Game.objects.exists()
    assert f"Seat {players + 1} is not at the table" in response.content.decode()


@pytest.mark.django_db
def test_the_creator_sets_the_seat_order_and_starts(client):
    alice, bob, carol = UserFactory.create_batch(3)
    client.force_login(alice)
    with committed():
        client.post("/games/new/", {"engine": "hansa", "title": "Ordered", "players": "3", "listed": "open",
                                    "seat_order": "creator", "opt_start_player": "0",
                                    "seat_ask_losses": "False", "create": "1"})
    game = Game.objects.get()
    for user in (bob, carol):
        client.force_login(user)
        with committed():
            client.post(f"/games/{game.pk}/join/", {"seat_ask_losses": "False"})
    game.refresh_from_db()
    assert game.status == Game.OPEN  # full, but waits for the creator
    order = [carol.pk, alice.pk, bob.pk]
    post = {f"seat_{i}": str(uid) for i, uid in enumerate(order)}
    response = client.post(f"/games/{game.pk}/start/", post, follow=True)  # carol is not the creator
    assert "Only the creator" in response.content.decode()
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="start-form"' in page
    response = client.post(f"/games/{game.pk}/start/", {**post, "seat_2": str(carol.pk)}, follow=True)
    assert "every player exactly once" in response.content.decode()
    with committed():
        client.post(f"/games/{game.pk}/start/", post)
    game.refresh_from_db()
    assert game.status == Game.RUNNING
    assert [s.user_id for s in game.seats.order_by("number")] == order
    assert game.state_cache["start"] == 0 and game.to_act == [0]  # carol, appointed start player


@pytest.mark.django_db
def test_actions_on_a_game_that_does_not_exist_are_answered_not_crashed(client):
    client.force_login(UserFactory())
    for action in ("leave", "cancel", "resign", "join", "start", "move"):
        response = client.post(f"/games/999999/{action}/", {"confirm": "yes", "move": "x", "seq": "0"})
        assert response.status_code in (302, 404), action
    assert client.get("/games/999999/").status_code == 404


@pytest.mark.django_db
def test_an_expired_form_gets_a_clear_page(started_game):
    from django.test import Client

    game, users = started_game("hansa", 2)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user_of(game, game.to_act[0]))
    response = client.post(f"/games/{game.pk}/move/", {"move": "place riga", "seq": "0"})
    assert response.status_code == 403 and "This form has expired" in response.content.decode()
    game.refresh_from_db()
    assert game.move_count == 0


@pytest.mark.django_db
def test_anyone_can_find_running_listed_games_to_watch(client, started_game):
    game, users = started_game("hansa", 2)
    page = client.get("/").content.decode()
    assert "Games being played" in page and game.title in page
    client.force_login(users[0])  # a player finds it under their own games instead
    assert "Games being played" not in client.get("/").content.decode()


def _body(html: str) -> str:
    """The page without what differs per request (CSRF tokens, the CSP nonce) or per emptied cache
    (the table talk's version, a token made anew when the cache has none)."""
    html = re.sub(r' data-chat-version="[^"]*"', "", html)
    return re.sub(r' nonce="[^"]+"', "", re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html))


@pytest.mark.django_db
def test_a_cached_page_body_belongs_to_one_viewer_and_one_version(client, started_game):
    from django.core.cache import cache

    from .conftest import act

    game, users = started_game("zanzibar", 3)
    viewers = [None, *users]

    def page(user):
        client.logout()
        if user:
            client.force_login(user)
        return _body(client.get(f"/games/{game.pk}/").content.decode())

    fresh = {}
    for user in viewers:  # each viewer's page rendered with an empty cache
        cache.clear()
        fresh[user] = page(user)
    assert len(set(fresh.values())) == len(viewers)  # every seat sees its own page
    for user in viewers:  # filled in another order, each viewer still gets exactly its own
        page(user)
    for user in reversed(viewers):
        assert page(user) == fresh[user]
    # a move, a new name: the page follows at once
    seat = game.to_act[0]
    act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    game.refresh_from_db()
    assert page(users[1]) != fresh[users[1]]
    assert f'data-version="{game.move_count}:' in page(None)
    users[1].display_name = "Renamed Rita"
    users[1].save()
    assert "Renamed Rita" in page(users[2])
    # the CSRF token of a cached page is the requester's own: its form works
    client.force_login(user_of(game, game.to_act[0]))
    client.get(f"/games/{game.pk}/")
    html = client.get(f"/games/{game.pk}/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    move = re.search(r'name="move" value="([^"]+)" class="move"', html).group(1)
    seq = re.search(r'name="seq" value="(\d+)"', html).group(1)
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    with committed():
        strict.post(f"/games/{game.pk}/move/", {"move": move, "seq": seq, "csrfmiddlewaretoken": token})
    assert game.moves.order_by("-seq").first().text == move


@pytest.mark.django_db
def test_zanzibar_players_table_says_hidden_for_sealed_counts(client, started_game):
    """In the set-aside window the others' deck and set-aside counts are sealed (ZAN-C3): the table
    says so instead of printing None."""
    game, users = started_game("zanzibar", 3)
    while game.state_cache["phase"] == "place":  # place the merchants: then the window opens
        seat = game.to_act[0]
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
        game.refresh_from_db()
    assert game.state_cache["phase"] == "window"
    client.force_login(users[0])
    page = client.get(f"/games/{game.pk}/").content.decode()
    table = page.split("<h2>Players</h2>", 1)[1].split("</table>", 1)[0]
    rows = [r.replace('aria-hidden="true"', "") for r in table.split("<tr>")[2:]]  # the swatch's mark: not for readers
    assert len(rows) == 3 and "None" not in table
    mine = next(r for r in rows if users[0].display_name in r)
    assert "hidden" not in mine
    assert sum("hidden" in r for r in rows) == 2 and all(r.count("hidden") == 2 for r in rows if r is not mine)


@pytest.mark.django_db
def test_the_join_link_of_a_full_game_says_it_is_full(client, started_game):
    # running: all seats taken
    game, users = started_game("hansa", 2)
    client.force_login(UserFactory())
    page = client.get(f"/join/{game.invite_code}/", follow=True).content.decode()
    assert "This game is full: it has started with all its players. You can watch it." in page
    assert 'id="join-form"' not in page
    # a player of the game opening the link again is not told it is full
    client.force_login(users[1])
    assert "is full" not in client.get(f"/join/{game.invite_code}/", follow=True).content.decode()
    # open but full (the creator sets the order and has not started yet): no join form either
    alice, bob, outsider = UserFactory.create_batch(3)
    with committed():
        open_game = services.create_game(creator=alice, engine="hansa", title="Waiting", players=2,
                                         seat_order=Game.SEAT_ORDER_CREATOR, listed=False)
        services.join_game(open_game.pk, bob, invite_code=open_game.invite_code)
    assert open_game.seats.count() == 2 and Game.objects.get(pk=open_game.pk).status == Game.OPEN
    client.force_login(outsider)
    page = client.get(f"/join/{open_game.invite_code}/", follow=True).content.decode()
    assert page.count("This game is full: every seat is taken.") == 2  # the notice and the waiting card
    assert 'id="join-form"' not in page
    response = client.post(f"/games/{open_game.pk}/join/", {"seat_ask_losses": "False"}, follow=True)
    assert "This game is full." in response.content.decode() and open_game.seats.count() == 2
    # finished
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    page = client.get(f"/join/{game.invite_code}/", follow=True).content.decode()
    assert "This game is over, so it cannot be joined" in page


def test_a_finished_hansa_page_does_not_say_final_round():
    from django.template.loader import render_to_string

    from games.engines import get_engine
    from tests.engines.playout import play_random

    engine = get_engine("hansa")
    state, moves = play_random(engine, 3, seed=9)
    finished = engine.view(state, None)
    assert finished["end_triggered"] and finished["over"]
    assert "final round" not in render_to_string("games/engines/hansa.html", {"view": finished, "players": []})
    state = engine.setup(players=3, seed=9, options={})
    for seat, move in moves:
        state = engine.apply(state, seat, move)
        if state["end_triggered"]:
            break
    playing = engine.view(state, None)
    assert "final round" in render_to_string("games/engines/hansa.html", {"view": playing, "players": []})
