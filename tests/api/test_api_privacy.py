"""The API shows each seat exactly what the game page shows it, and nothing more.

For every game, at several points of a game, for each seat and for a stranger (an account with a
token but no seat, and the page's anonymous visitor): the API's view is ``engine.view(state,
seat)`` and the game page's view for the same viewer, its text view, legal moves and labels are
the page's, its log is the page's log and holds no private line of another seat, and no hidden
key (``_…``) or the seed appears anywhere in any answer.
"""
import json
import random

import pytest

from games import presentation, services
from games.engines import available_slugs, get_engine
from games.engines.events import visible
from games.models import Game, Move
from hanseweb.api.models import ApiToken

from ..conftest import act, user_of
from ..factories import UserFactory


def _json(value):
    return json.loads(json.dumps(value))


def _keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _api(client, token, path):
    response = client.get(path, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200, response.content
    return response


def _page(client, user, pk):
    client.logout()
    if user is not None:
        client.force_login(user)
    # a query string: the page is rendered (a repeated plain view is the whole page from the
    # cache, which has no template context to compare with)
    response = client.get(f"/games/{pk}/?rendered=1")
    assert response.status_code == 200
    return response.context


def _check_viewer(client, game, seat, user, token, names):
    """One viewer (``seat`` None: a stranger) against the engine and the game page."""
    engine = game.engine_obj
    state = services.current_state(game)
    response = _api(client, token, f"/api/v1/games/{game.pk}")
    body = response.content.decode()
    data = response.json()
    assert data["spectator"] is (seat is None) and data["my_seat"] == seat
    expected = _json(engine.view(state, seat))
    assert data["view"] == expected
    page = _page(client, user, game.pk)
    assert _json(dict(page["view"])) == expected
    assert data["view_text"] == page["view_text"] == presentation.view_text(game.engine, expected, names)
    # the page's choices: those beside the board (legal_groups) and, when the board offers 6 or
    # more targets, those chosen on the board, listed folded under it (board_groups, buttons with
    # form="move-form"); together they are the API's, each once, each part in the API's order
    api_moves = [(m["move"], m["label"], m["kind"]) for m in data["legal_moves"]]
    side_moves = [(m["move"], m["label"], g["kind"]) for g in page["legal_groups"] for m in g["moves"]]
    board_moves = [(m["move"], m["label"], g["kind"]) for g in page["board_groups"] for m in g["moves"]]
    assert sorted(api_moves) == sorted(side_moves + board_moves)
    for part in (side_moves, board_moves):
        assert [m for m in api_moves if m in part] == part
    assert page["board_choice_count"] == len(board_moves)
    if seat is None or seat not in game.to_act:
        assert data["legal_moves"] == []
    else:
        assert [m["move"] for m in data["legal_moves"]] == engine.legal_moves(state, seat)
    assert data["seq"] == game.move_count and data["can_undo"] == page["can_undo"]
    assert data["prompt"] == page["prompt"]
    assert [(p["seat"], p["name"], p["to_act"]) for p in data["players"]] == \
        [(p["seat"].number, p["name"], p["to_act"]) for p in page["players"]]
    moves = _api(client, token, f"/api/v1/games/{game.pk}/moves").json()
    assert moves == {k: data[k] for k in moves}
    # the log: the page's lines for this viewer, and no private line of another seat
    log = _api(client, token, f"/api/v1/games/{game.pk}/log")
    lines = log.json()["lines"]
    assert [(line["seq"], line["text"]) for line in lines] == \
        [(line["seq"], line["text"]) for line in reversed(page["log"])]
    texts = {line["text"] for line in lines}
    mine = set()
    events = list(game.setup_events or [])
    for move in Move.objects.filter(game=game):
        events += move.events or []
    mine = {ev["text"] for ev in visible(events, seat)}
    for ev in events:
        if ev.get("only") is not None and seat not in ev["only"] and ev["text"] not in mine:
            assert presentation.fill_names(ev["text"], names) not in texts, (seat, ev)
    for answer in (body, moves, log.content.decode()):
        text = answer if isinstance(answer, str) else json.dumps(answer)
        assert str(game.seed) not in text or game.status == Game.FINISHED
    assert not [k for k in _keys(data) if k.startswith("_")]
    return data


PLAYERS = [(slug, max(get_engine(slug).min_players, 3)) for slug in available_slugs()]


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players", PLAYERS)
def test_each_seat_and_a_stranger_see_through_the_api_exactly_what_the_page_shows_them(
        client, started_game, settings, slug, players):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "api_per_user": "100000/m"}
    game, users = started_game(slug, players)
    stranger = UserFactory()
    tokens = {seat: ApiToken.issue(user_of(game, seat), "bot")[1] for seat in range(players)}
    tokens[None] = ApiToken.issue(stranger, "watcher")[1]
    owners = {seat: user_of(game, seat) for seat in range(players)}
    chooser = random.Random(11)
    engine = game.engine_obj
    names = presentation.player_names(game)
    differs = 0
    for checkpoint in (0, 10, 35):
        while game.move_count < checkpoint and game.status == Game.RUNNING:
            seat = chooser.choice(game.to_act)
            act(game, seat, chooser.choice(engine.legal_moves(game.state_cache, seat)))
            game.refresh_from_db()
        game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
        views = {}
        for seat in [*range(players), None]:
            views[seat] = _check_viewer(client, game, seat, owners.get(seat), tokens[seat], names)
        # the anonymous page shows the stranger's view
        assert _json(dict(_page(client, None, game.pk)["view"])) == views[None]["view"]
        differs += len({json.dumps(v["view"], sort_keys=True) for v in views.values()}) > 1
    if slug != "hansa":  # hidden hands: what the seats see differs at some point
        assert differs


@pytest.mark.django_db
def test_an_open_game_shows_who_joined_and_no_view(client, make_user):
    creator, other = make_user(), make_user()
    game = services.create_game(creator=creator, engine="zanzibar", title="Open", players=3)
    token = ApiToken.issue(other, "bot")[1]
    data = _api(client, token, f"/api/v1/games/{game.pk}").json()
    assert data["status"] == "open" and data["view"] is None and data["legal_moves"] == [] and data["spectator"]
    assert [p["name"] for p in data["players"]] == [creator.display_name]
    response = client.get(f"/api/v1/games/{game.pk}/log", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 409 and response.json()["code"] == "not_running"


@pytest.mark.django_db
def test_my_games_lists_only_mine_with_my_seat_and_turn_first(client, started_game, make_user):
    game, users = started_game("hansa", 2)
    other, _ = started_game("zanzibar", 2)
    mover = game.to_act[0]
    user = user_of(game, mover)
    token = ApiToken.issue(user, "bot")[1]
    rows = _api(client, token, "/api/v1/games").json()
    assert [(r["id"], r["my_seat"], r["my_turn"], r["status"]) for r in rows] == [(game.pk, mover, True, "running")]
    assert _api(client, token, "/api/v1/games?status=finished").json() == []
    assert _api(client, ApiToken.issue(make_user(), "x")[1], "/api/v1/games").json() == []
