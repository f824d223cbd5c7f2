"""Board data (HT-BD-*, HT-3.*, HT-2.*, HT-CD-*): the loaded data and its checks."""
import json
import os

import pytest

from games.engines.hansa_teutonica import board
from games.engines.hansa_teutonica.board import SIDES, TRACKS, BoardError, Side

HERE = os.path.dirname(board.__file__)


def test_both_sides_loaded_with_cities_houses_and_routes():  # HT-BD-1 HT-BD-2 HT-2.1 HT-3.1 HT-3.2
    for key, routes in (("45", 34), ("23", 32)):
        side = SIDES[key]
        assert len(side.cities) == 27 and len(side.routes) == routes
        for c in side.cities:
            assert 1 <= len(side.houses[c]) <= 4
            for shape, colour, coin in side.houses[c]:
                assert shape in ("square", "round") and colour in board.COLOURS and coin in (True, False)
        for r in side.routes:
            assert 2 <= side.nspaces[r] <= 4
            assert len(side.ends[r]) == 2


def test_taverns_on_the_three_named_routes():  # HT-3.3 HT-BD-2
    for side in SIDES.values():
        assert side.tavern == {"bremen-osnabruck", "luneburg-perleberg", "goslar-hildesheim"}


def test_ability_cities_follow_override_2():  # HT-3.4 HT-BD-6
    for side in SIDES.values():
        assert side.ability == {"Groningen": "liber", "Stade": "privilegium", "Lubeck": "bursa",
                                "Gottingen": "actiones", "Halle": "clavis"}


def test_coellen_box_fields():  # HT-3.5 HT-BD-3
    for side in SIDES.values():
        assert side.coellen == "Coellen"
        assert side.coellen_fields == [("white", 7), ("orange", 8), ("pink", 9), ("black", 11)]
        assert side.coellen_route == "coellen-warburg"


def test_east_west_cities_and_awards():  # HT-3.6 HT-BD-4
    for side in SIDES.values():
        assert side.east_west == ["Arnheim", "Stendal"]
    assert board.EW_POINTS == [7, 4, 2]


def test_route_distance_counts_city_hops():  # HT-3.8
    side = SIDES["23"]
    d = side.dist["dortmund-duisburg"]
    assert d["dortmund-duisburg"] == 0
    assert d["arnheim-duisburg"] == 1 and d["dortmund-paderborn"] == 1
    assert d["arnheim-kampen"] == 2 and d["minden-paderborn"] == 2


def test_desk_tracks():  # HT-4.1 HT-CD-2
    assert TRACKS["clavis"] == [1, 2, 2, 3, 4]
    assert TRACKS["actiones"] == [2, 3, 3, 4, 4, 5]
    assert TRACKS["privilegium"] == [1, 2, 3, 4]
    assert TRACKS["liber"] == [2, 3, 4, 5]
    assert TRACKS["bursa"][:3] == [3, 5, 7] and TRACKS["bursa"][3] >= 27
    covering = sum(len(v) - 1 for v in TRACKS.values())
    assert covering == 18  # 15 traders + 3 merchants on the desk


def test_bonus_marker_set():  # HT-2.4 HT-CD-1 HT-9.1
    assert board.MARKER_COUNTS == {"extra": 5, "swap": 2, "plus3": 2, "plus4": 2, "upgrade": 3, "remove": 2}
    assert sum(board.MARKER_COUNTS.values()) == 16
    assert sorted(board.SUPPLY_MARKERS) == sorted(
        ["extra"] * 4 + ["swap"] + ["plus3"] * 2 + ["plus4"] * 2 + ["upgrade"] * 3 + ["remove"])


def test_starting_supply_table():  # HT-CD-3 HT-5.4 HT-0.3
    # the RECONSTRUCTION of the garbled table (HT-0.3 label): 5..9 traders + 1 merchant, stock 6..2
    assert board.START_SUPPLY == [(5, 1, 6), (6, 1, 5), (7, 1, 4), (8, 1, 3), (9, 1, 2)]


def test_two_player_provinces_data():  # HT-BD-8 HT-C5 HT-13.1
    side = SIDES["23"]
    assert len(side.provinces) == 18
    assert {frozenset(x) for x in side.soldiers} == {frozenset(p) for p in [
        ("Osnabruck", "Munster"), ("Munster", "Dortmund"), ("Luneburg", "Brunswick"), ("Brunswick", "Goslar")]}
    assert len(side.edges) == 8
    for r in side.routes:
        assert 1 <= len(set(side.route_provinces[r])) <= 2


def test_canonical_ordering_of_ids():  # HT-BD-9
    side = SIDES["23"]
    assert side.routes == sorted(side.routes)
    assert side.provinces == sorted(side.provinces)
    assert side.cities == sorted(side.cities)


def test_named_cities_exist():  # HT-BD-7
    for c in ["Groningen", "Stade", "Lubeck", "Gottingen", "Halle", "Coellen", "Warburg", "Arnheim", "Stendal",
              "Osnabruck", "Bremen", "Luneburg", "Perleberg", "Hildesheim", "Goslar", "Munster", "Dortmund",
              "Brunswick"]:
        assert c in SIDES["45"].cities and c in SIDES["23"].cities


def test_prestige_track_has_no_cap_and_twenty_ends():  # HT-BD-5 HT-3.7 HT-D-19 HT-11.5
    from games.engines.hansa_teutonica.rules import CITIES_TO_END, WIN_PP, gain_pp
    from .helpers import new
    assert WIN_PP == 20 and CITIES_TO_END == 10
    s = new()
    s["p"][0]["pp"] = 30
    gain_pp(s, 0, 5, "test")
    assert s["p"][0]["pp"] == 35


def _data():
    with open(os.path.join(HERE, "board.json"), encoding="utf-8") as f:
        data = json.load(f)
    with open(os.path.join(HERE, "layout.json"), encoding="utf-8") as f:
        layout = json.load(f)
    return data, layout


def test_data_checks_reject_broken_board():  # HT-BD-10
    data, layout = _data()
    bad = json.loads(json.dumps(data["board_2_3_players"]))
    bad["routes"][0]["start_tavern_bonus"] = True  # a fourth tavern
    with pytest.raises(BoardError):
        Side("23", bad, layout, "routes_2_3", True)
    bad = json.loads(json.dumps(data["board_2_3_players"]))
    bad["cities"]["Halle"].pop("ability_upgrade")
    with pytest.raises(BoardError):
        Side("23", bad, layout, "routes_2_3", True)
    bad = json.loads(json.dumps(data["board_2_3_players"]))
    bad["cities"]["Minden"]["offices"].append(dict(bad["cities"]["Minden"]["offices"][0], position=5))
    with pytest.raises(BoardError):
        Side("23", bad, layout, "routes_2_3", True)
    # the real data passes
    Side("23", data["board_2_3_players"], layout, "routes_2_3", True)
