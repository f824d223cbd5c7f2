"""Conventions and overview (HANSE-0, HANSE-1)."""
from games.engines.die_hanse.board import BOARD

from .helpers import clear_sea, game, illegal, put, ship_moves, turn_of


def test_sources_s1_wins_reentering_same_harbour():  # HANSE-0.1
    s = game(3, seed=1)
    clear_sea(s)
    turn_of(s, 0)
    put(s, 0, "bergen")
    assert "sail red bergen" in ship_moves(s, 0, "red")  # S1, not S2's "another harbour"


def test_must_not_rules_raise():  # HANSE-0.2 HANSE-8.7
    s = game(3, seed=1)
    illegal(s, 0, "discard salt")


def test_glossary_halves_and_partners():  # HANSE-0.5 HANSE-1.1 HANSE-0.4
    s = game(5, seed=1)
    from games.engines.die_hanse.state import holders, partner, ships_of
    assert ships_of(s, 0) == [0, 4]
    assert holders(s, 4) == (4, 0)
    assert partner(s, 4, 0) == 4 and partner(s, 0, 0) == 1


def test_salt_goes_out_goods_come_home():  # HANSE-1.2 HANSE-1.3
    assert BOARD.home["salt"] == "luebeck"
    assert set(BOARD.tree["salt"]) == {"fish", "grain"}
    s = game(3, seed=1)
    assert all(g != "salt" for st in s["store"] for g in st["goods"])
