"""Information visibility (ZAN-16, ZAN-D-14, ZAN-D-28)."""
import json

from games.engines.events import visible
from games.engines.zanzibar import ENGINE

from .helpers import finish_placement, game, play, scenario
from tests.engines.playout import play_random


def _keys(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _keys(v)


def test_private_view_is_public_state_plus_own_cards():  # ZAN-16.1 ZAN-0.2
    s = finish_placement(game(3, seed=5))
    for seat in range(3):
        s = play(s, seat, "keep")
    for seat in (0, 1, 2):
        v = ENGINE.view(s, seat)
        assert [c["card"] for c in v["hand"]] == s["_hand"][seat]
        text = json.dumps(v)
        assert not any(str(k).startswith("_") for k in _keys(v))
        # the server MUST NOT send deck order: the own deck is listed sorted, others not at all
        assert v["deck_cards"] == sorted(s["_deck"][seat])
        for other in (0, 1, 2):
            if other != seat:
                assert all(f"you drew {c}" not in text for c in s["_hand"][other])
        assert v["hand_counts"] == [2, 2, 2] and v["deck_counts"] == [8, 8, 8]
    spectator = ENGINE.view(s, None)
    assert spectator["hand"] is None and spectator["set_aside"] is None and spectator["deck_cards"] is None


def test_hand_shows_tables_and_current_count():  # ZAN-16.1 ZAN-11.3
    s = scenario({"green-2": "n2", "green-3": "w1"}, hands={3: ["clove", "north"]})
    v = ENGINE.view(s, 3)
    clove = v["hand"][0]
    assert clove == {"card": "clove", "kind": "spice", "table": [-6, -5, -2, 1, 5, 9, 9],
                     "count_now": 2, "points_now": -2}
    assert [c["card"] for c in ENGINE.view(s, 0)["hand"]] == s["_hand"][0]


def test_everything_revealed_at_game_end():  # ZAN-D-28
    state, _ = play_random(ENGINE, 3, 21)
    v = ENGINE.view(state, 0)
    assert v["over"] and v["revealed"] is not None
    for seat in range(3):
        assert v["revealed"][seat]["hand"] == state["_hand"][seat]
        assert v["revealed"][seat]["set_aside"] == state["_aside"][seat]
        assert v["revealed"][seat]["deck"] == state["_deck"][seat]
    running = ENGINE.view(finish_placement(game(3)), 0)
    assert running["revealed"] is None


def test_log_events_filtered_per_seat():  # ZAN-16.1 ZAN-D-14
    s = scenario({"red-2": "n2"}, players=4, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger", "vanilla"]})
    events = []
    s = play(s, 0, "done", "set aside north", "done", events=events)
    mine = [e["text"] for e in visible(events, 0)]
    theirs = [e["text"] for e in visible(events, 2)]
    assert "you set north aside" in mine and "you drew ginger" in mine
    assert "{p0} set a card aside without scoring it" in theirs and "{p0} drew 1 card" in theirs
    assert not any("north" in t or "ginger" in t for t in theirs)


def test_public_facts_in_every_view():  # ZAN-16.1 ZAN-8.3
    s = scenario({"green-3": "n1", "red-5": "n2"}, active=3)
    s = play(s, 3, "move 3", "to n2")
    v = ENGINE.view(s, 0)
    assert v["to_act"] == [3] and v["moving"] == {"num": 3, "path": ["n1"]}
    assert v["pending"] == {"kind": "push", "at": "n2", "piece": [0, 5], "options": ["n3", "z2"]}
    assert v["moved"] == s["moved"] and v["scores"] == s["score"]
    assert {"game", "players", "you", "to_act", "prompt", "log", "over", "result"} <= set(v)
    assert v["prompt"] == ""  # red has nothing to decide during green's turn
