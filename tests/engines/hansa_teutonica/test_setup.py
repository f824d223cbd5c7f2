"""Setup (HT-5, HT-2, HT-4.4): sides, supplies by seat position, markers, start player."""
from games.engines.hansa_teutonica.state import level

from .helpers import E


def test_five_player_supplies_by_position():  # HT-T-1 HT-5.4 HT-5.3 HT-2.3
    s = E.setup(5, 11, {})
    start = s["start"]
    for pos in range(5):
        p = s["p"][(start + pos) % 5]
        assert p["supply"] == [5 + pos, 1]
        assert p["stock"] == [6 - pos, 0]
        assert p["pp"] == 0
        assert all(v == 0 for v in p["dev"].values())  # 15 traders + 3 merchants still on the desk
        # 27 traders: desk 15 + score marker 1 + supply + stock = 27; merchants 3 + 1 = 4
        assert 15 + 1 + p["supply"][0] + p["stock"][0] == 27
        assert 3 + p["supply"][1] + p["stock"][1] == 4


def test_start_abilities_are_the_rulebook_example():  # HT-T-2 HT-4.4 HT-4.1
    s = E.setup(3, 2, {})
    for p in s["p"]:
        assert level(p, "clavis") == 1
        assert level(p, "actiones") == 2
        assert level(p, "privilegium") == 1  # white only
        assert level(p, "liber") == 2
        assert level(p, "bursa") == 3
    assert s["acts"] == 2


def test_board_side_by_player_count():  # HT-5.1 HT-2.1
    assert E.setup(5, 1, {})["side"] == "45"
    assert E.setup(4, 1, {})["side"] == "45"
    assert E.setup(3, 1, {})["side"] == "23"
    s2 = E.setup(2, 1, {})
    assert s2["side"] == "23" and s2["two"] and s2["phase"] == "pawn"


def test_start_markers_on_taverns_and_hidden_supply():  # HT-5.2 HT-9.1 HT-6.2.1
    seen = set()
    for seed in range(12):
        s = E.setup(3, seed, {})
        assert set(s["markers"]) == {"bremen-osnabruck", "luneburg-perleberg", "goslar-hildesheim"}
        assert sorted(s["markers"].values()) == ["extra", "remove", "swap"]
        assert len(s["_supply"]) == 13
        seen.add(tuple(sorted(s["markers"].items())))
        v = E.view(s, 0)
        assert "_supply" not in v and v["bonus_supply"] == 13
    assert len(seen) > 1  # random assignment


def test_random_start_player_from_seed():  # HT-5.4 HT-0.4
    starts = {E.setup(4, seed, {})["start"] for seed in range(20)}
    assert len(starts) > 1
    s = E.setup(4, 3, {})
    assert E.to_act(s) == [s["start"]]
    assert E.setup(4, 3, {}) == s  # deterministic


def test_completed_cities_marker_starts_at_zero():  # HT-2.5 HT-3.7
    s = E.setup(3, 1, {})
    assert s["completed"] == 0 and E.view(s, None)["completed_cities"] == 0


def test_two_player_material_and_pawn_setup():  # HT-2.6 HT-5.5 HT-13.2 HT-D-22 HT-A-4 HT-14.4
    placers = set()
    for seed in range(10):
        s = E.setup(2, seed, {})
        placers.add(s["placer"])
        assert E.to_act(s) == [s["placer"]]
        assert s["start"] == 1 - s["placer"]
        assert s["p"][s["start"]]["supply"] == [5, 1] and s["p"][s["placer"]]["supply"] == [6, 1]
        moves = E.legal_moves(s, s["placer"])
        assert len(moves) == 18 and moves[0] == "pawn to p01"
        assert E.default_move(s, s["placer"]) == "pawn to p01"
        t = E.apply(s, s["placer"], "pawn to p07")
        assert t["pawn"] == "p07" and E.to_act(t) == [s["start"]]
    assert placers == {0, 1}


def test_five_desks_one_colour_each():  # HT-2.2
    from games.engines.hansa_teutonica.svg import SEAT_COLOURS
    s = E.setup(5, 4, {})
    v = E.view(s, 0)
    assert [d["seat"] for d in v["desks"]] == [0, 1, 2, 3, 4]
    assert len(set(SEAT_COLOURS[:5])) == 5


def test_reconstructed_names_and_values():  # HT-0.1 HT-0.3
    from games.engines.hansa_teutonica.board import SIDES
    side = SIDES["45"]
    assert side.city_name["Lubeck"] == "Lübeck" and side.city_name["Gottingen"] == "Göttingen"
    assert side.city_name["Osnabruck"] == "Osnabrück" and side.city_name["Munster"] == "Münster"
    assert [pts for _, pts in side.coellen_fields] == [7, 8, 9, 11]
