"""Hidden information and views (HANSE-5, HANSE-14.10)."""
import json

from games.engines.die_hanse.svg import SEAT_COLOURS, render_svg
from games.engines.die_hanse.text import render_text

from .helpers import E, cargo, clear_sea, enter, game, keep_all, play, play_card, storage, turn_of

NAMES = ["Ann", "<Bob>", "Cy", "Di"]


def _setup():
    s = game(4, seed=41)
    clear_sea(s)
    turn_of(s, 0)
    return s


def test_own_values_only():  # HANSE-T-41 HANSE-5 HANSE-5.3 HANSE-5.3.3 HANSE-D-4 HANSE-5.2 HANSE-14.10
    s = _setup()
    cargo(s, 1, stern=[["grain", 3]], bow=[["fish", 2]])
    storage(s, 1, ["grain", "beer", "ore", "fish", "fur", "cloth"], [2, None, None, None, None, None])
    v = E.view(s, 1)
    assert v["ships"][1]["stern"]["values"] == [3]
    assert "values" not in v["ships"][1]["bow"] and v["ships"][1]["bow"]["goods"] == ["fish"]
    assert v["storages"][1]["slots"][0]["value"] == 2
    assert "value" not in E.view(s, 2)["storages"][1]["slots"][0]
    assert [c["card"] for c in v["hand"]] and "hand" not in E.view(s, None)
    text = json.dumps(v)
    assert "_deck" not in text and "_pools" not in text and "_hands" not in text
    from games.engines.die_hanse.cards import card_text
    for other in (0, 1, 2, 3):
        assert [c["card"] for c in E.view(s, other)["hand"]] == [card_text(c) for c in s["_hands"][other]]
    assert v["pools"]["danzig"] == {"grain": 26}  # counts only, never values
    assert v["hand_sizes"] == [3, 3, 3, 3] and isinstance(v["deck"], int)


def test_public_facts_in_every_view():  # HANSE-5.1 HANSE-3.9
    s = _setup()
    s["blockade"] = "london"
    v = E.view(s, None)
    for key in ("ships", "storages", "pools", "wind", "blockade", "special", "hand_sizes", "deck", "discard",
                "hansetage", "final", "phase", "game", "players", "you", "to_act", "prompt", "log", "over",
                "result"):
        assert key in v
    assert v["blockade"] == "london" and v["you"] is None and v["prompt"] == ""
    assert all("skip" in sh for sh in v["ships"])


def test_draw_values_private_and_remembered():  # HANSE-5.3.2 HANSE-D-5 HANSE-5.4 HANSE-D-7 HANSE-14.10
    s = _setup()
    s["_pools"]["bergen"]["fish"] = [1, 1, 2, 3]
    s = enter(s, 0, 0, "bergen")
    s = play(s, 0, "trade", "trade 1 salt fish")
    assert len(s["_pools"]["bergen"]["fish"]) == 1  # a sample of three was drawn
    s = keep_all(s, 0)
    mine = [e["text"] for e in E.view(s, 0)["log"]]
    theirs = [e["text"] for e in E.view(s, 1)["log"]]
    assert any("value" in t for t in mine)
    assert not any("value" in t for t in theirs) and any("keeps one fish" in t for t in theirs)


def test_unseen_placements_stay_hidden():  # HANSE-5.3.4 HANSE-5.3.1 HANSE-5.3.5
    s = _setup()
    s = play_card(s, 0, "goods 3 grain london")
    for seat in (None, 0, 1, 2, 3):
        v = E.view(s, seat)
        assert v["pools"]["london"] == {"cloth": 14, "grain": 3}
        assert not any("value" in e["text"] for e in v["log"] if "grain" in e["text"])


def test_views_are_json_and_render():  # HANSE-14.10 HANSE-BD-9
    s = _setup()
    s = play(s, 0, "sail red")
    for seat in (None, 0, 1, 2, 3):
        v = E.view(s, seat)
        json.dumps(v)
        text = render_text(v, NAMES)
        assert "Wind" in text and "Ann" in text
        svg = render_svg(v, NAMES, E.legal_moves(s, seat) if seat is not None else ())
        assert svg.startswith("<svg") and svg.endswith("</svg>")
        assert "<Bob>" not in svg and "&lt;Bob&gt;" in svg
    svg = render_svg(E.view(s, 0), NAMES, E.legal_moves(s, 0))
    assert 'class="hex sea legal"' in svg and 'data-move="sail red ' in svg
    assert len(SEAT_COLOURS) == 6
    assert "Your harbour cards" in render_text(E.view(s, 0), NAMES)


def test_svg_harbour_click_moves():  # HANSE-7.5
    s = _setup()
    s = play(s, 0, "sail red")
    legal = E.legal_moves(s, 0)
    svg = render_svg(E.view(s, 0), NAMES, legal)
    for m in legal:
        if m.startswith("sail red ") and m.split()[2] != "toward":
            assert 'data-move="%s"' % m in svg
    s0 = _setup()
    svg0 = render_svg(E.view(s0, 0), NAMES, E.legal_moves(s0, 0))
    assert 'data-move="sail red"' in svg0  # first click: the ship


def test_final_view_text_shows_scores():  # HANSE-13.3
    s = _setup()
    s["over"] = True
    text = render_text(E.view(s, 2), NAMES)
    assert "Game over" in text and "unused privilege 1" in text


def test_no_view_leaks_along_a_random_game():  # HANSE-5.3.3 HANSE-5.3.2 HANSE-5.2 HANSE-14.10
    import random
    s = game(4, seed=77, offer=(1, 2))
    r = random.Random(77)
    for _ in range(700):
        if s["over"]:
            break
        for seat in (None, 0, 1, 2, 3):
            v = E.view(s, seat)
            for ship in v["ships"]:
                for side in ("stern", "bow"):
                    assert ("values" in ship[side]) == (ship[side]["seat"] == seat)
            for p, st in enumerate(v["storages"]):
                assert all(("value" in sl) <= (p == seat) for sl in st["slots"])
            d = v["phase"].get("drawing")
            if d:
                assert ("values" in d) == (d["seat"] == seat)
            if v["phase"]["kind"] == "window" and v["phase"]["stage"] == "ask":
                assert "declared" not in v["phase"]
            assert ("hand" in v) == (seat is not None)
        seat = r.choice(E.to_act(s))
        s = E.apply(s, seat, r.choice(E.legal_moves(s, seat)))
