"""Board layout (issue 12): on the Hansa map no route lane runs over a city name and the cities
sit at their real relative places (the board data's projection of latitude and longitude); on
the Die Hanse map no two labels overlap (Lübeck/Helgoland) and no label is cut to an
abbreviation (no `sal0`, `26fi`)."""
import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from games.engines import get_engine
from games.engines.die_hanse import svg as dh_svg
from games.engines.die_hanse.board import BOARD as DH, GOOD_NAMES
from games.engines.hansa import geo
from games.engines.hansa import svg as hansa_svg
from games.engines.hansa.board import BOARD as HANSA

from .test_board_contrast import _positions

NS = "{http://www.w3.org/2000/svg}"


def _box(t: ET.Element):
    size = float(t.get("font-size"))
    return geo.text_box(float(t.get("x")), float(t.get("y")), "".join(t.itertext()), size,
                        t.get("text-anchor") or "start")


def test_hansa_cities_sit_where_they_are_on_the_map():
    import json
    with open(HANSA.__class__.__module__ and hansa_svg.__file__.replace("svg.py", "board.json")) as f:
        cities = json.load(f)["cities"]
    for c in cities:
        x, y = geo.project(c["lon"], c["lat"])
        assert (x, y) == pytest.approx(HANSA.pos[c["id"]], abs=1.0), c["id"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hansa_route_lanes_never_run_over_a_city_name(players):
    engine = get_engine("hansa")
    names = {HANSA.city_names[c] for c in HANSA.city_ids}
    for state in _positions("hansa", players, 4, seed=players):
        root = ET.fromstring(hansa_svg.render_svg(engine.view(state, 0), [f"P{i}" for i in range(players)]))
        lanes = [geo.route_points(p.get("d")) for p in root.iter(f"{NS}path") if p.get("class") == "route"]
        assert len(lanes) == len(HANSA.routes)
        labels = [t for t in root.iter(f"{NS}text") if "".join(t.itertext()) in names and t.get("fill") != "none"]
        assert {"".join(t.itertext()) for t in labels} == names
        for t in labels:
            box = _box(t)
            assert not any(geo.hits(box, lane, pad=2) for lane in lanes), "".join(t.itertext())
            assert box[0] >= hansa_svg.LEFT and box[2] <= HANSA.width  # inside the board


@pytest.mark.parametrize("players", [3, 6])
def test_die_hanse_map_labels_do_not_overlap_and_are_whole_words(players):
    engine = get_engine("die-hanse")
    for state in _positions("die-hanse", players, 3, seed=players):
        svg = dh_svg.render_svg(engine.view(state, 0), [f"P{i}" for i in range(players)])
        root = ET.fromstring(svg)
        map_h = float(root.find(f"{NS}rect").get("height"))
        labels = [t for t in root.iter(f"{NS}text") if t.get("fill") != "none" and float(t.get("y")) < map_h
                  and len("".join(t.itertext())) > 2]
        for a, b in itertools.combinations(labels, 2):
            ba, bb = _box(a), _box(b)
            shrink = 3  # text_box is generous on every side
            overlap = (ba[0] + shrink < bb[2] - shrink and bb[0] + shrink < ba[2] - shrink
                       and ba[1] + shrink < bb[3] - shrink and bb[1] + shrink < ba[3] - shrink)
            assert not overlap, ("".join(a.itertext()), "".join(b.itertext()))
        words = set(GOOD_NAMES.values()) | set(DH.harbour_name.values()) | {"bow", "stern"}
        for t in root.iter(f"{NS}text"):
            text = "".join(t.itertext())
            assert not re.fullmatch(r"\d+[a-z]{1,3}|[a-z]{3,4}\d*", text) or text in words, text
