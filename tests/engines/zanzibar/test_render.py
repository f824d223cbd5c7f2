"""Text and SVG presentation built from views only."""
import re

from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.svg import SEAT_COLOURS, render_svg
from games.engines.zanzibar.text import render_text

from .helpers import game, play, scenario

NAMES = ["Ann", "Bob", "Cy", "<b>Di</b>", "Eve"]


def test_text_shows_hand_only_to_its_owner():  # ZAN-16.1
    s = scenario({"green-2": "n2", "red-3": "w1"}, hands={3: ["clove", "north"], 0: ["pepper", "east"]})
    mine = render_text(ENGINE.view(s, 3), NAMES)
    assert "clove (spice): now 1 -> -5" in mine and "table 0:-6 1:-5 2:-2 3:+1" in mine
    other = render_text(ENGINE.view(s, 0), NAMES)
    assert "clove (spice)" not in other and "pepper (spice)" in other
    # places and merchants in words, never their ids (issue 24, item 3)
    assert "North 2 (clove): merchant 2 of <b>Di</b>" in mine and "Move up to 3 more merchants" in mine
    assert "green-2" not in mine and "n2 " not in mine


def test_svg_marks_legal_targets():  # ZAN-17.3
    s = scenario({"green-3": "n1", "red-5": "n2"})
    v = ENGINE.view(s, 3)
    svg = render_svg(v, NAMES, ENGINE.legal_moves(s, 3))
    assert svg.startswith("<svg") and 'viewBox="0 0 1000 ' in svg and svg.endswith("</svg>")
    assert 'class="legal" data-move="move 3"' in svg
    s = play(s, 3, "move 3")
    svg = render_svg(ENGINE.view(s, 3), NAMES, ENGINE.legal_moves(s, 3))
    moves = set(re.findall(r'data-move="([^"]+)"', svg))
    assert moves == {m for m in ENGINE.legal_moves(s, 3) if m.startswith("to")}
    s = play(s, 3, "to n2")  # red-5 has two free neighbours: a push choice
    svg = render_svg(ENGINE.view(s, 3), NAMES, ENGINE.legal_moves(s, 3))
    assert set(re.findall(r'data-move="([^"]+)"', svg)) == set(ENGINE.legal_moves(s, 3))


def test_svg_placement_tray_and_escaping():  # ZAN-6.1
    s = game(4, start=3)
    svg = render_svg(ENGINE.view(s, 3), NAMES[:4], ENGINE.legal_moves(s, 3))
    assert set(re.findall(r'data-move="([^"]+)"', svg)) == {"place 2", "place 3", "place 4", "place 5", "place 6"}
    assert "<b>Di</b>" not in svg and "&lt;b&gt;Di&lt;/b&gt;" in svg
    assert len(SEAT_COLOURS) == 5


def test_text_shows_result_after_the_game():  # ZAN-15.1
    from tests.engines.playout import play_random
    state, _ = play_random(ENGINE, 2, 8)
    text = render_text(ENGINE.view(state, None), NAMES[:2])
    assert "Result:" in text and "start 10" in text


def test_rendering_never_fails_during_random_games():  # ZAN-16.1
    from tests.engines.playout import play_random
    for players in (2, 4, 5):
        seen = []

        def check(state, seat, legal):
            if len(seen) % 7 == 0:
                for viewer in [None, *range(players)]:
                    v = ENGINE.view(state, viewer)
                    mine = ENGINE.legal_moves(state, viewer) if viewer is not None else []
                    assert render_text(v, NAMES[:players])
                    svg = render_svg(v, NAMES[:players], mine)
                    assert set(re.findall(r'data-move="([^"]+)"', svg)) <= set(mine)
            seen.append(1)
        play_random(ENGINE, players, 40 + players, check=check)
        assert seen
