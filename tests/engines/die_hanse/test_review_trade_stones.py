"""Review: the stones given up in a trade are the ones announced (HANSE-8.6.1, 8.6.2, C6)."""
from .helpers import E, cargo, clear_sea, enter, game, play, top, turn_of


def _setup():
    s = game(4, seed=3)
    clear_sea(s)
    turn_of(s, 0)
    return s


def test_same_type_trade_gives_up_both_announced_stones():  # HANSE-8.6.1 HANSE-8.6.2 HANSE-C6
    s = _setup()
    s["_pools"]["danzig"]["grain"] = [2]
    cargo(s, 0, stern=[["grain", 1], ["grain", 3], ["salt", 0]])
    s = enter(s, 0, 0, "danzig")
    s = play(s, 0, "trade", "trade 2 grain grain")
    # the grain 1 went home first, so the draw offers the 2 and the 1
    assert sorted(top(s)["draw"]["vals"]) == [1, 2]
    s = E.apply(s, 0, "keep 2")
    # the second exchange gives up the other announced stone (the grain 3), not the grain just drawn:
    # the supply is then the returned 1 and 3
    assert sorted(top(s)["draw"]["vals"]) == [1, 3]
    assert sorted(v for g, v in s["cargo"][0][0] if g == "grain") == [2]


def test_chain_in_one_declaration_gives_up_the_announced_fish():  # HANSE-8.6.1 HANSE-C6
    s = _setup()
    s["_pools"]["stockholm"]["fish"] = [1, 1, 1]  # Neue Waren fish lying in Stockholm
    s["_pools"]["stockholm"]["ore"] = [4] * 6
    cargo(s, 0, stern=[["salt", 0], ["fish", 3], ["grain", 2]])
    s = enter(s, 0, 0, "stockholm")
    s = play(s, 0, "trade", "trade 1 salt fish 1 fish ore")
    # the fish 3 was announced for ore; the fish 1 drawn for the salt stays in the half
    assert top(s)["draw"] is None
    fish = sorted(v for g, v in s["cargo"][0][0] if g == "fish")
    assert fish == [1]
    assert sorted(g for g, _ in s["cargo"][0][0]) == ["fish", "grain", "ore"]
    assert 3 in s["_pools"]["bergen"]["fish"]
