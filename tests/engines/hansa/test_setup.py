"""Setup (§2, §4, §5, HANSA-C2, HANSA-16.1)."""
import pytest

from games.engines import IllegalMove
from games.engines.hansa.board import BOARD
from games.engines.hansa.setup import stack_sizes
from games.engines.rng import Rng, seed_state

from .helpers import ENGINE, new


def test_example1_fill_order_on_13_warehouses():  # HANSA-T-01 HANSA-C2 HANSA-5.3 HANSA-3.3
    s = ENGINE.setup(players=4, seed=42, options={"start_player": 0})
    # re-derive the permutation t1..t78 exactly as setup draws it (HANSA-16.1)
    rng = Rng(seed_state(42))
    rng.shuffle(list(range(6)))
    perm = rng.shuffle(list(range(78)))
    expected = ["tonsberg", "tonsberg", "aalborg", "lubeck", "lubeck", "kopenhagen", "stockholm", "kalmar",
                "danzig", "danzig", "reval", "riga", "riga"]
    assert BOARD.slot_city == expected
    assert s["slots"] == perm[:13]  # t1-t2 Tønsberg ... t12-t13 Riga
    v = ENGINE.view(s, None)
    by_city = {c["id"]: c["slots"] for c in v["cities"]}
    assert by_city["tonsberg"] == [BOARD.tile_text(perm[0]), BOARD.tile_text(perm[1])]
    assert by_city["riga"] == [BOARD.tile_text(perm[11]), BOARD.tile_text(perm[12])]
    # stacks: S1 first, first tile dealt is the bottom tile
    assert s["_stacks"][0] == perm[13:26]
    assert s["_stacks"][4] == perm[65:78]
    assert s["ship"] == "kopenhagen"
    assert s["coins"] == [3] * 4 and s["supply"] == [15] * 4


@pytest.mark.parametrize("players,sizes", [(4, [13] * 5), (3, [11, 11, 10, 10, 10]), (2, [8, 8, 8, 8, 7])])
def test_stack_sizes_per_player_count(players, sizes):  # HANSA-C2 HANSA-D-03 HANSA-5.4
    s = ENGINE.setup(players=players, seed=7, options={})
    assert [len(x) for x in s["_stacks"]] == sizes
    assert stack_sizes(64, 5) == [13, 13, 13, 13, 12]  # the spec's W = 14 example


@pytest.mark.parametrize("players,colours", [(2, 4), (3, 5), (4, 6)])
def test_colours_and_tiles_per_player_count(players, colours):  # HANSA-4.1 HANSA-4.3 HANSA-2.1 HANSA-5.1
    s = ENGINE.setup(players=players, seed=11, options={})
    assert len(s["colours"]) == colours and len(s["removed_colours"]) == 6 - colours
    tiles = [t for t in s["slots"]] + [t for st in s["_stacks"] for t in st]
    assert len(tiles) == len(set(tiles)) == 13 * colours
    assert {BOARD.tile_colour(t) for t in tiles} == set(s["colours"])  # removed colours take no part
    for c in s["colours"]:
        values = sorted(BOARD.tile_value(t) for t in tiles if BOARD.tile_colour(t) == c)
        assert values == [1] * 4 + [2] * 5 + [3] * 4 and sum(values) == 26


def test_removed_colours_random_and_public():  # HANSA-D-02 HANSA-4.2
    seen = set()
    for seed in range(30):
        s = ENGINE.setup(players=2, seed=seed, options={})
        seen.add(tuple(s["removed_colours"]))
        v = ENGINE.view(s, 0)
        assert v["removed_colours"] == [BOARD.colour_names[c] for c in s["removed_colours"]]
        assert "not used" in s["log"][0]["text"]
    assert len(seen) > 3


def test_colour_names_come_from_board_data():  # HANSA-2.7 HANSA-D-01
    assert BOARD.colour_names == ["orange", "brown", "red", "green", "blue", "white"]
    assert BOARD.player_colour_names[:3] == ["grey", "olive", "lilac"]  # yellow darkened to olive is named as drawn
    v = ENGINE.view(new(players=4), None)
    assert [p["colour"] for p in v["seats"]] == BOARD.player_colour_names


def test_players_get_stalls_and_coins():  # HANSA-2.2 HANSA-5.6 HANSA-2.3
    s = ENGINE.setup(players=3, seed=1, options={})
    assert s["supply"] == [15, 15, 15] and s["coins"] == [3, 3, 3]
    assert all(sum(c) == 0 for c in s["stalls"].values())


def test_ship_starts_in_kopenhagen():  # HANSA-5.5 HANSA-2.4
    for players in (2, 3, 4):
        assert ENGINE.setup(players=players, seed=3, options={})["ship"] == "kopenhagen"


def test_start_player_random_or_appointed():  # HANSA-5.7 HANSA-D-04
    starts = {ENGINE.setup(players=4, seed=seed, options={})["start"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    s = ENGINE.setup(players=3, seed=9, options={"start_player": 2})
    assert s["start"] == 2 and s["active"] == 2
    assert ENGINE.view(s, None)["start_player"] == 2
    with pytest.raises(IllegalMove):
        ENGINE.setup(players=2, seed=9, options={"start_player": 3})
    with pytest.raises(IllegalMove):
        ENGINE.setup(players=2, seed=9, options={"start_player": "nobody"})


def test_setup_goes_to_initial_placement():  # HANSA-5.8
    s = ENGINE.setup(players=3, seed=2, options={"start_player": 1})
    assert s["phase"] == "place" and ENGINE.to_act(s) == [1]
    assert all(m.startswith("place ") for m in ENGINE.legal_moves(s, 1))


def test_randomness_only_at_setup_and_seeded():  # HANSA-16.1 HANSA-5.2
    a = ENGINE.setup(players=4, seed=123, options={})
    b = ENGINE.setup(players=4, seed=123, options={})
    c = ENGINE.setup(players=4, seed=124, options={})
    assert a == b and a != c
    assert a["_rng"] == b["_rng"]
    # play identical moves: the hidden generator never advances during play
    for _ in range(12):
        seat = ENGINE.to_act(a)[0]
        move = ENGINE.legal_moves(a, seat)[0]
        a = ENGINE.apply(a, seat, move)
    assert a["_rng"] == b["_rng"]


def test_seat_option_ask_losses():  # HANSA-C1
    specs = {s["key"]: s for s in ENGINE.seat_option_specs}
    assert specs["ask_losses"]["default"] is False
    s = ENGINE.setup(players=3, seed=1, options={"seats": [{"ask_losses": True}, {}, {}]})
    assert s["ask"] == [True, False, False]
    assert ENGINE.view(s, 0)["settings"] == {"ask_losses": True}
    assert ENGINE.view(s, 1)["settings"] == {"ask_losses": False}
    assert "settings" not in ENGINE.view(s, None)
