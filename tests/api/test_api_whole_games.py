"""Whole games played over HTTP through the JSON API only, by a client that knows one URL: the
OpenAPI document's (tests/api/openapi_client.py finds every path and schema in it, and checks
every request and answer against it). The players' programs see only what the API answers: their
games, their view, their legal moves with the stale token, and the log."""
import json
import random

import pytest

from games import history, presentation, services
from games.engines import get_engine
from games.models import Game, Move
from hanseweb.accounts.models import User
from hanseweb.api.models import ApiToken

from .openapi_client import OpenApiClient

OPENAPI = "/api/v1/openapi.json"


def _bot(live_server, user, name="bot"):
    _, token = ApiToken.issue(user, name)
    return OpenApiClient(live_server.url, OPENAPI, token=token)


def _play(bots: list[OpenApiClient], chooser: random.Random, max_moves: int) -> tuple[int, int]:
    """Play the game the bots find in their games list until it ends or ``max_moves`` moves were
    made. Each step: the bot whose turn its view says it is picks one of its legal moves and
    submits it with the view's ``seq``. Returns (game id, moves made)."""
    mine = [bot.call("list_my_games", status="running") for bot in bots]
    assert all(answer.status == 200 and len(answer.json) == 1 for answer in mine), mine
    game_id = mine[0].json[0]["id"]
    assert {answer.json[0]["id"] for answer in mine} == {game_id}
    seats = {}
    for bot in bots:
        view = bot.call("get_game", game_id=game_id)
        assert view.status == 200 and not view.json["spectator"]
        seats[view.json["my_seat"]] = bot
    assert sorted(seats) == list(range(len(bots)))
    body_fields = set(bots[0].body_schema("submit_move")["required"])
    made, current = 0, 0
    while made < max_moves:
        view = seats[current].call("get_game", game_id=game_id).json
        if view["status"] == "finished":
            break
        if not view["my_turn"]:
            assert not view["legal_moves"]
            current = chooser.choice(view["to_act"])
            continue
        assert view["legal_moves"], view["prompt"]
        choice = chooser.choice(view["legal_moves"])
        values = {"move": choice["move"], "seq": view["seq"]}
        done = seats[current].call("submit_move", {k: values[k] for k in body_fields}, game_id=game_id)
        assert done.status == 200, done.json
        assert done.json["seq"] >= view["seq"] + 1
        made += 1
    return game_id, made


def _whole_log(bot: OpenApiClient, game_id: int) -> list[dict]:
    """Every log line, page by page from the newest, following ``older``."""
    pages, before = [], None
    while True:
        params = {"game_id": game_id, "limit": 50}
        if before is not None:
            params["before"] = before
        answer = bot.call("get_log", **params)
        assert answer.status == 200
        pages.append(answer.json["lines"])
        before = answer.json["older"]
        if before is None:
            break
    return [line for page in reversed(pages) for line in page]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug,players,cap", [
    ("hansa", 3, None), ("zanzibar", 3, None), ("die-hanse", 3, None), ("hansa-teutonica", 3, 300),
])
def test_a_whole_game_through_the_api_by_a_client_that_reads_only_the_openapi_document(
        live_server, started_game, settings, slug, players, cap):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "api_per_user": "100000/m", "api_per_ip": "100000/m"}
    game, users = started_game(slug, players)
    User.objects.filter(pk__in=[u.pk for u in users]).update(notify=User.NOTIFY_OFF)  # bots read no mail
    bots = [_bot(live_server, user) for user in users]
    game_id, made = _play(bots, random.Random(7), max_moves=cap or 5000)
    assert game_id == game.pk
    game.refresh_from_db()
    engine = get_engine(slug)
    assert game.move_count == made == Move.objects.filter(game=game).count()
    assert set(Move.objects.filter(game=game).values_list("channel", flat=True)) == {Move.WEB}
    if cap is None:
        assert game.status == Game.FINISHED
        final = bots[0].call("get_game", game_id=game_id).json
        assert final["result"] == json.loads(json.dumps(engine.result(game.state_cache)))
        assert final["legal_moves"] == [] and final["my_turn"] is False
    else:
        assert made == cap and game.status == Game.RUNNING
    assert json.dumps(services.replay(game), sort_keys=True) == json.dumps(game.state_cache, sort_keys=True)
    # the log read page by page through the API is each seat's log, as the log page reads it
    names = presentation.player_names(game)
    for seat, bot in enumerate(bots):
        lines = _whole_log(bot, game_id)
        expected = history.recent(game, seat, names, limit=game.move_count + 1).lines
        assert [(line["seq"], line["text"]) for line in lines] == [(line["seq"], line["text"]) for line in expected]
