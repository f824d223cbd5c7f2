"""Components and setup (HANSE-2, HANSE-4)."""
from collections import Counter

from games.engines.die_hanse.board import BOARD
from games.engines.die_hanse.state import ships_of

from .helpers import E, game


def _pool_counts(state):
    return {h: {g: len(v) for g, v in p.items() if v} for h, p in state["_pools"].items()}


def test_four_player_pools_and_salt():  # HANSE-T-1 HANSE-2.5 HANSE-4.2 HANSE-4.8 HANSE-D-1
    s = game(4)
    pools = _pool_counts(s)
    assert pools["luebeck"] == {"salt": 12}
    assert pools["danzig"] == {"grain": 26}
    assert pools["bergen"] == {"fish": 26}
    for h, g in (("bremen", "beer"), ("london", "cloth"), ("stockholm", "ore"), ("nowgorod", "fur")):
        assert pools[h] == {g: 14}
    for seat in range(4):
        for ship in ships_of(s, seat):
            half = s["cargo"][ship][0 if ship == seat else 1]
            assert [g for g, _ in half] == ["salt"] * 3
    assert Counter(s["_pools"]["bergen"]["fish"]) == {1: 12, 2: 8, 3: 6}
    assert Counter(s["_pools"]["bremen"]["beer"]) == {2: 4, 3: 6, 4: 4}


def test_stone_table_totals_144():  # HANSE-2.5 HANSE-D-1 HANSE-CD-0
    total = sum(sum(v.values()) for v in BOARD.stones.values())
    assert total == 144
    assert sum(BOARD.stones["fish"].values()) == 26
    assert sum(BOARD.stones["grain"].values()) == 26


def test_six_players_empty_salt_pool():  # HANSE-T-2 HANSE-4.8
    s = game(6)
    assert not s["_pools"]["luebeck"]["salt"]
    assert sum(len(h) for ship in s["cargo"] for h in ship) == 36
    # a refill in Lübeck before any salt was traded away adds nothing
    from games.engines.die_hanse.harbour import refill
    s["cargo"][0][0] = s["cargo"][0][0][:1]
    refill(s, 0, 0)
    assert len(s["cargo"][0][0]) == 1


def test_salt_pool_table_for_every_player_count():  # HANSE-4.8 HANSE-4.1
    for n, pool, deck in ((3, 18, 40), (4, 12, 37), (5, 6, 34), (6, 0, 31)):
        s = game(n)
        assert len(s["_pools"]["luebeck"]["salt"]) == pool
        assert len(s["_deck"]) == deck == 50 - 3 * n - 1
        assert len(s["ships"]) == n and len(s["store"]) == n


def test_cargo_halves_shared_with_neighbours():  # HANSE-T-3 HANSE-4.7 HANSE-1.1 HANSE-0.4
    s = game(4)
    # Red = seat 0 keeps the red stern and gets the blue bow (ship 3, right neighbour)
    assert ships_of(s, 0) == [0, 3]
    from games.engines.die_hanse.state import holders
    assert holders(s, 0) == (0, 1)
    assert holders(s, 3) == (3, 0)
    moves = E.legal_moves(s, 0)
    assert sorted(moves) == ["sail orange", "sail red"]


def test_five_player_hands():  # HANSE-T-4 HANSE-4.4 HANSE-2.6 HANSE-5.2
    s = game(5)
    for hand in s["_hands"]:
        types = sorted(BOARD.cards[c]["type"] for c in hand)
        assert len(hand) == 3
        assert types.count("wind") == 1 and types.count("new_goods") == 1
    assert BOARD.cards[s["wind"]]["type"] == "wind"
    assert len(s["_deck"]) == 34
    everything = s["_deck"] + [c for h in s["_hands"] for c in h] + [s["wind"]]
    assert sorted(everything) == sorted(BOARD.card_order)


def test_special_cards_and_storages_dealt():  # HANSE-4.3 HANSE-4.5 HANSE-2.4 HANSE-CD-7 HANSE-CD-8
    s = game(6)
    assert all(sp == {"privilege": True, "kaperbrief": True} for sp in s["special"])
    cards = [st["card"] for st in s["store"]]
    assert len(set(cards)) == 6
    for st in s["store"]:
        assert st["goods"] == BOARD.storage[st["card"]] and len(st["goods"]) == 6
    assert len(set(tuple(g) for g in BOARD.storage.values())) == 10


def test_start_player_is_seat_zero_ships_in_luebeck():  # HANSE-4.6 HANSE-D-3 HANSE-4.8 HANSE-4.9 HANSE-6.1
    s = game(3)
    assert E.to_act(s) == [0]
    assert all(sh["at"] == BOARD.luebeck for sh in s["ships"])
    assert s["pirate"] is None and s["blockade"] is None


def test_setup_depends_on_seed_only():  # HANSE-4.2 HANSE-5.4
    a, b, c = game(4, seed=5), game(4, seed=5), game(4, seed=6)
    assert a == b
    assert a != c


def test_figures_and_cargo_capacity():  # HANSE-2.2 HANSE-2.3 HANSE-0.5
    s = game(6)
    assert len(s["ships"]) == 6
    assert all(len(h) <= 3 for ship in s["cargo"] for h in ship)
    assert "pirate" in s and "blockade" in s
