"""text.py and svg.py: built only from a view (HANSA-15.1)."""
import xml.etree.ElementTree as ET

from games.engines.hansa.board import BOARD
from games.engines.hansa.svg import SEAT_COLOURS, render_svg
from games.engines.hansa.text import render_text

from .helpers import ENGINE, give, new, playing, set_stalls

NAMES = ["Anna", "Bob", "<Cleo & Co>"]
SVG = "{http://www.w3.org/2000/svg}"


def _state():
    s = playing(ship="kopenhagen", coins=[3, 1, 0])
    set_stalls(s, "danzig", [2, 1, 0])
    give(s, 0, "orange/2")
    return s


def test_text_shows_board_holdings_and_prompt():  # HANSA-15.1 HANSA-D-15 HANSA-D-16
    s = _state()
    text = render_text(ENGINE.view(s, 0), NAMES)
    for needle in ("Kopenhagen", "Tønsberg", "Anna (you)", "<Cleo & Co>", "orange tile with 2 barrels", "(front to back): ", "YOU: Phase 3",
                   "Bob [olive]: 1 coin;"):
        assert needle in text
    assert "grey 2, olive 1" in text          # stalls in Danzig


def test_text_after_the_end_shows_the_ranking():  # HANSA-13.3
    from tests.engines.playout import play_random
    s, _ = play_random(ENGINE, 3, seed=9)
    text = render_text(ENGINE.view(s, None), NAMES)
    assert "FINAL SCORE" in text and "1. " in text


def test_svg_is_well_formed_escaped_and_marks_legal_cities():  # HANSA-3.4 HANSA-10.3a
    s = _state()
    v = ENGINE.view(s, 0)
    svg = render_svg(v, NAMES, ENGINE.legal_moves(s, 0))
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg" and root.get("viewBox")
    assert "&lt;Cleo &amp; Co&gt;" in svg
    legal = {g.get("data-move") for g in root.iter(SVG + "g") if g.get("class") == "legal"}
    buys = {m for m in ENGINE.legal_moves(s, 0) if m.startswith("buy")}
    assert buys and legal == {"move danzig", "move lubeck", "move tonsberg"} | buys
    routes = [p for p in root.iter(SVG + "path") if p.get("class") == "route"]
    assert len(routes) == len(BOARD.routes) and all(p.get("marker-end") for p in routes)
    curved = [p for p in routes if " Q" in p.get("d")]
    assert len(curved) == len(BOARD.curved) == 8   # the routes of the six listed crossings
    names = {t.text for t in root.iter(SVG + "text")}
    assert {BOARD.city_names[c] for c in BOARD.city_ids} <= names


def test_svg_placement_targets_and_stack_counts():  # HANSA-6.2 HANSA-D-15
    s = new(players=3, start=0)
    svg = render_svg(ENGINE.view(s, 0), NAMES, ENGINE.legal_moves(s, 0))
    root = ET.fromstring(svg)
    legal = {g.get("data-move") for g in root.iter(SVG + "g") if g.get("class") == "legal"}
    assert "place kopenhagen" not in legal and len(legal) == 8
    texts = [t.text for t in root.iter(SVG + "text")]
    assert texts.count("11") >= 2 and "S5" in texts      # 3 players: 11/11/10/10/10
    assert len(SEAT_COLOURS) == 4


def test_svg_without_legal_marks_nothing():  # HANSA-15.1
    svg = render_svg(ENGINE.view(_state(), None), NAMES)
    assert 'class="legal"' not in svg


def test_final_round_is_announced_only_while_it_is_played():  # HANSA-12.1 HANSA-13.3
    from tests.engines.playout import play_random
    s, moves = play_random(ENGINE, 3, seed=9)
    assert s["end_triggered"] and ENGINE.view(s, None)["over"]
    for seat in (None, 0):
        v = ENGINE.view(s, seat)
        assert "final round" not in render_text(v, NAMES).lower()
        assert "final round" not in render_svg(v, NAMES, []).lower()
    # while the final round is being played it is announced
    state = ENGINE.setup(players=3, seed=9, options={})
    for seat, move in moves:
        state = ENGINE.apply(state, seat, move)
        if state["end_triggered"]:
            break
    v = ENGINE.view(state, None)
    assert not v["over"]
    assert "final round" in render_text(v, NAMES) and "final round" in render_svg(v, NAMES, [])
