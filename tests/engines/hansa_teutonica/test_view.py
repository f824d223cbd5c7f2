"""Views, hidden information (HT-6, HT-14.6), text and SVG."""
import re
import xml.dom.minidom

from games.engines.hansa_teutonica.svg import SEAT_COLOURS, render_svg
from games.engines.hansa_teutonica.text import render_text

from .helpers import E, RED, BLUE, GREEN, fill, give, legal, new, put, run

KEYS = {"game", "players", "you", "to_act", "prompt", "log", "over", "result"}


def _no_underscore(obj):
    if isinstance(obj, dict):
        return all(not str(k).startswith("_") and _no_underscore(v) for k, v in obj.items())
    if isinstance(obj, list):
        return all(_no_underscore(x) for x in obj)
    return True


def _drawn_state():
    s = new()
    s["markers"]["dortmund-paderborn"] = "plus3"
    s["_supply"] = ["upgrade", "swap"]
    fill(s, "dortmund-paderborn", "0t")
    return run(s, RED, "establish dortmund-paderborn", "nothing")


def test_drawn_marker_hidden_until_placement():  # HT-T-30 HT-6.2 HT-6.2.2 HT-D-2 HT-14.6
    s = _drawn_state()
    for seat in (None, RED, BLUE, GREEN):
        v = E.view(s, seat)
        assert v["your_drawn_markers"] is None
        assert "upgrade" not in str([v["routes"], v["desks"], v["log"]]) and "Upgrade" not in str(v["log"])
        assert v["desks"][RED]["drawn"] == 1
    s = run(s, RED, "end")
    assert E.view(s, RED)["your_drawn_markers"] == ["upgrade"]
    for seat in (None, BLUE, GREEN):
        v = E.view(s, seat)
        assert v["your_drawn_markers"] is None and "Upgrade" not in str(v["log"])
    assert any("Upgrade" in ev["text"] for ev in E.view(s, RED)["log"])
    s = run(s, RED, "on arnheim-duisburg")
    for seat in (None, RED, BLUE, GREEN):
        v = E.view(s, seat)
        assert [r["marker"] for r in v["routes"] if r["id"] == "arnheim-duisburg"] == ["upgrade"]


def test_supply_order_never_shown():  # HT-6.2.1 HT-D-4 HT-6.2.4
    s = _drawn_state()
    v = E.view(s, RED)
    assert v["bonus_supply"] == 1
    assert _no_underscore(v)
    # aggregate make-up only: supply + drawn = upgrade + swap
    claimed = sum(len(d["markers"]) for d in v["desks"])
    on_board = sum(1 for r in v["routes"] if r["marker"])
    assert sum(v["unrevealed_markers"].values()) == 16 - claimed - on_board
    assert "swap" not in str(v["routes"])


def test_public_information():  # HT-6.1 HT-6.3 HT-D-1
    s = give(new(), BLUE, supply=(4, 1), stock=(2, 0))
    s["p"][BLUE]["markers"] = [["swap", True, False]]
    v = E.view(s, GREEN)
    d = v["desks"][BLUE]
    assert d["supply"] == {"traders": 4, "merchants": 1} and d["stock"] == {"traders": 2, "merchants": 0}
    assert d["markers"] == [{"type": "swap", "used": True}]
    assert d["abilities"]["actiones"]["level"] == 2
    assert KEYS <= set(v) and v["game"] == "hansa-teutonica" and v["you"] == GREEN


def test_unplaced_markers_revealed_at_the_end():  # HT-D-3 HT-6.2.3
    s = new()
    s["_drawn"] = ["plus4"]
    s["p"][RED]["drawn"] = 1
    s["phase"] = "over"
    assert E.view(s, BLUE)["revealed_unplaced_markers"] == ["plus4"]


def test_no_other_interaction_needed():  # HT-14.5
    s = new()
    s["p"][BLUE]["pp"] = 3
    s["houses"]["Duisburg"][0] = BLUE
    fill(s, "dortmund-duisburg", "0t")
    s = run(s, RED, "establish dortmund-duisburg")
    assert s["p"][BLUE]["pp"] == 4 and E.to_act(s) == [RED]


def test_text_and_svg_render():  # HT-6.1
    s = give(new(), RED, supply=(3, 1))
    put(s, "arnheim-duisburg", "1t", "2m")
    s["houses"]["Duisburg"][0] = BLUE
    s = run(s, RED, "place", "with trader")
    v = E.view(s, RED)
    txt = render_text(v, ["Ann", "Bob", "<Cy>"])
    assert "Bob" in txt and "YOUR DECISION" in txt and "Arnheim–Duisburg" in txt and "arnheim-duisburg" not in txt
    svg = render_svg(v, ["Ann", "Bob", "<Cy>"], legal(s, RED))
    xml.dom.minidom.parseString(svg)
    assert "&lt;Cy&gt;" in svg and "<Cy>" not in svg
    moves = set(re.findall(r'data-move="([^"]+)"', svg))
    assert "on arnheim-duisburg" in moves and moves <= set(legal(s, RED))
    assert len(SEAT_COLOURS) >= 5


def test_svg_two_player_provinces_legal():  # HT-13.1
    s = new(players=2)
    s = run(s, RED, "pawn")
    v = E.view(s, RED)
    svg = render_svg(v, ["A", "B"], legal(s, RED))
    xml.dom.minidom.parseString(svg)
    moves = set(re.findall(r'data-move="([^"]+)"', svg))
    assert moves and moves <= set(legal(s, RED))
    assert "<title>province 18</title>" in svg and "P18" not in svg  # words, the board's number


def test_svg_city_and_coellen_targets():  # HT-8.8
    s = new()
    s["p"][RED]["dev"]["privilegium"] = 3
    put(s, "coellen-warburg", "0m", "0t", "0t", "0t")
    s = run(s, RED, "establish coellen-warburg")
    svg = render_svg(E.view(s, RED), ["A", "B", "C"], legal(s, RED))
    moves = set(re.findall(r'data-move="([^"]+)"', svg))
    assert "coellen black" in moves and any(m.startswith("kontor") for m in moves)


def test_own_seat_setting_only():  # HT-C4
    s = new(options={"seats": [{"auto_replace": True}, {}, {}]})
    assert E.view(s, RED)["your_settings"] == {"auto_replace": True}
    assert E.view(s, BLUE)["your_settings"] == {"auto_replace": False}
    assert "your_settings" not in E.view(s, None)


def test_svg_develop_and_extra_targets():  # HT-8.7 HT-9.6.1
    s = new()
    s["p"][RED]["markers"] = [["extra", False, False]]
    s["houses"]["Hamburg"][0] = BLUE
    fill(s, "hamburg-lubeck", "0t")
    s = run(s, RED, "establish hamburg-lubeck")
    svg = render_svg(E.view(s, RED), ["A", "B", "C"], legal(s, RED))
    xml.dom.minidom.parseString(svg)
    moves = set(re.findall(r'data-move="([^"]+)"', svg))
    assert {"develop bursa", "extra hamburg trader", "kontor lubeck trader"} <= moves
    assert moves <= set(legal(s, RED))
