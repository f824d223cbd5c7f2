"""Views and information visibility (§15, HANSA-D-15, HANSA-D-16, HANSA-15.1)."""
import json

from games.engines.hansa.board import BOARD

from .helpers import ENGINE, give, new, playing, set_stalls

REQUIRED = {"game", "players", "you", "to_act", "prompt", "log", "over", "result"}


def _strip(v):
    v = dict(v)
    for k in ("you", "prompt", "prompt_msg", "settings"):
        v.pop(k, None)
    return v


def test_views_carry_the_required_and_game_keys():  # HANSA-15.1 HANSA-2.3 HANSA-2.4
    s = playing(ship="danzig", coins=[4, 1, 0])
    set_stalls(s, "danzig", [2, 1, 0])
    give(s, 0, "orange/2")
    v = ENGINE.view(s, 0)
    assert REQUIRED <= set(v)
    for key in ("phase", "ship", "end_triggered", "start_player", "removed_colours", "stacks", "cities", "seats"):
        assert key in v
    me = v["seats"][0]
    assert me["coins"] == 4 and me["tiles"] == ["orange/2"] and me["sold"] == []
    assert me["supply"] == 13 and me["stalls"] == {"danzig": 2}
    assert v["ship"] == "danzig"
    danzig = next(c for c in v["cities"] if c["id"] == "danzig")
    assert danzig["stalls"] == [2, 1, 0] and len(danzig["slots"]) == 2
    json.dumps(v)


def test_stack_contents_are_hidden_counts_are_public():  # HANSA-D-15 HANSA-15.1
    s = new(players=4, seed=8)
    for seat in (None, 0, 1, 2, 3):
        v = ENGINE.view(s, seat)
        assert v["stacks"] == [13, 13, 13, 13, 13]
        text = json.dumps(v)
        assert "_stacks" not in text and "_rng" not in text
        # no tile of the stacks is named anywhere (no slot shows it, no log mentions it)
        shown = {c for city in v["cities"] for c in city["slots"] if c}
        assert sum(len(city["slots"]) for city in v["cities"]) == 13
        assert len(shown) <= 13


def test_sold_piles_are_public():  # HANSA-D-16 HANSA-15.1
    s = playing(ship="danzig", coins=[3, 3, 3])
    set_stalls(s, "danzig", [1, 0, 0])
    give(s, 0, "orange/1", "orange/3")
    s = ENGINE.apply(s, 0, "sell orange/1 orange/3")
    for seat in (None, 1, 2):
        v = ENGINE.view(s, seat)
        assert v["seats"][0]["sold"] == ["orange/1", "orange/3"]
        assert v["seats"][0]["sold_points"] == 2 + 4


def test_every_seat_sees_the_same_facts():  # HANSA-15.1
    s = playing(ship="danzig", coins=[3, 3, 3], ask=[True, False, False])
    views = [_strip(ENGINE.view(s, seat)) for seat in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)


def test_own_settings_only():  # HANSA-C1
    s = playing(ask=[True, False, False])
    assert ENGINE.view(s, 0)["settings"] == {"ask_losses": True}
    assert "ask_losses" not in json.dumps(_strip(ENGINE.view(s, 1)))


def test_prompt_says_what_to_decide():  # HANSA-16.2
    s = new(players=2, start=1)
    assert "Initial placement" in ENGINE.view(s, 1)["prompt"]
    assert ENGINE.view(s, 0)["prompt"] == ""
    s = playing(ship="danzig")
    assert "Phase 3" in ENGINE.view(s, 0)["prompt"]


def test_log_events_use_seat_placeholders():  # HANSA-15.1
    s = new(players=3, start=0)
    s = ENGINE.apply(s, 0, "place danzig")
    ev = ENGINE.view(s, 1)["log"][-1]
    assert ev == {"n": 1, "seat": 0, "text": "{p0} places 2 stalls in Danzig.",
                  # the message key and parameters the page translates (docs/i18n.md)
                  "msg": {"key": "{player} places {n} stalls in {city}.",
                          "params": {"player": "{p0}", "n": 2, "city": "Danzig"}}}


def test_bank_is_unlimited():  # HANSA-14.1 HANSA-D-14 HANSA-2.5
    s = playing(ship="kalmar", coins=[20, 30, 3])
    set_stalls(s, "kalmar", [0, 2, 0])
    s = ENGINE.apply(s, 0, "buy " + BOARD.tile_text(s["slots"][BOARD.city_slots["kalmar"][0]]))
    assert s["coins"] == [19, 31, 3] and sum(s["coins"]) > 22
