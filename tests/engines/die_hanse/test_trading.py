"""Harbour procedure and trading (HANSE-8)."""
from collections import Counter

from games.engines.die_hanse.harbour import trade_options

from .helpers import (E, cargo, clear_sea, enter, finish_windows, game, hand, illegal, keep_all, play, storage,
                      top, turn_of)


def _setup():
    s = game(4, seed=3)
    clear_sea(s)
    turn_of(s, 0)
    return s


def test_trade_salt_for_stockfish_in_bergen():  # HANSE-T-10 HANSE-8.5 HANSE-8.6 HANSE-8.6.1 HANSE-8.6.2 HANSE-8.6.3 HANSE-5.3.2 HANSE-8.3
    s = _setup()
    s["_pools"]["bergen"]["fish"] = [1, 2, 3, 3]  # every draw of three offers a choice
    lub = len(s["_pools"]["luebeck"]["salt"])
    s = enter(s, 0, 0, "bergen")
    assert top(s)["stage"] == "mover" and E.to_act(s) == [0]
    s = play(s, 0, "trade", "trade 2 salt fish")
    assert len(s["_pools"]["luebeck"]["salt"]) == lub + 1  # the first salt went home before the first draw
    draw = top(s)["draw"]
    assert len(draw["vals"]) == 3 and E.to_act(s) == [0]
    # only seat 0 sees the drawn values
    assert "values" in E.view(s, 0)["phase"]["drawing"]
    assert "values" not in E.view(s, 1)["phase"]["drawing"]
    s = play(s, 0, "keep %d" % min(draw["vals"]))
    # two went back (1 + 2 = 3 left), then the second exchange drew those three
    assert len(top(s)["draw"]["vals"]) == 3 and len(s["_pools"]["bergen"]["fish"]) == 0
    s = keep_all(s, 0)
    assert len(s["_pools"]["luebeck"]["salt"]) == lub + 2
    assert sorted(g for g, _ in s["cargo"][0][0]) == ["fish", "fish", "salt"]
    assert len(s["_pools"]["bergen"]["fish"]) == 2
    v0 = E.view(s, 0)["ships"][0]["stern"]
    v1 = E.view(s, 1)["ships"][0]["stern"]
    assert "values" in v0 and "values" not in v1
    assert v1["goods"] == v0["goods"]


def test_exchange_tree():  # HANSE-T-11 HANSE-8.5 HANSE-3.10 HANSE-8.4
    s = _setup()
    cargo(s, 0, stern=[["salt", 0], ["fish", 2], ["grain", 1]])
    opts = trade_options(s, 0, 0, "stockholm")
    assert "trade 1 fish ore" in opts and not any("salt ore" in o for o in opts)
    assert "trade 1 grain grain" in trade_options(s, 0, 0, "danzig")
    assert not any("fish cloth" in o for o in trade_options(s, 0, 0, "london"))
    s = enter(s, 0, 0, "stockholm")
    s = play(s, 0, "trade")
    illegal(s, 0, "trade 1 salt ore")
    s = keep_all(play(s, 0, "trade 1 fish ore"), 0)
    assert sorted(g for g, _ in s["cargo"][0][0]) == ["grain", "ore", "salt"]


def test_no_transfers_between_halves():  # HANSE-T-12 HANSE-8.7
    s = _setup()
    s = enter(s, 0, 0, "bergen")
    for text in ("move salt bow", "give salt blue", "transfer salt", "trade 1 salt fish bow"):
        illegal(s, 0, text)
    assert all(m.split()[0] in ("trade", "done") for m in E.legal_moves(s, 0))


def test_discard_only_in_luebeck():  # HANSE-T-13 HANSE-8.8.2 HANSE-D-14
    s = _setup()
    cargo(s, 0, stern=[["fish", 2], ["salt", 0], ["salt", 0]])
    s1 = enter(s, 0, 0, "danzig")
    illegal(s1, 0, "discard")
    illegal(s1, 0, "discard fish")
    bergen = len(s["_pools"]["bergen"]["fish"])
    s2 = enter(s, 0, 0, "luebeck")
    s2 = play(s2, 0, "discard", "discard fish")
    assert len(s2["_pools"]["bergen"]["fish"]) == bergen + 1
    assert [g for g, _ in s2["cargo"][0][0]] == ["salt", "salt"]
    s2 = play(s2, 0, "discard", "discard salt")  # any stone counts as surplus
    assert [g for g, _ in s2["cargo"][0][0]] == ["salt"]


def test_harbour_card_even_without_trade():  # HANSE-T-14 HANSE-8.2 HANSE-8.10 HANSE-6.3
    s = _setup()
    hand(s, 0, "wind 3 3", "hansetag", "blockade sund")
    s = enter(s, 0, 0, "london")
    s = play(s, 0, "done")
    if top(s)["stage"] == "partner":
        s = play(s, 1, "done")
    assert top(s)["stage"] == "card" and E.to_act(s) == [0]
    assert set(E.legal_moves(s, 0)) == {"play wind 3 3", "play hansetag", "play blockade sund"}
    illegal(s, 0, "done")
    deck = len(s["_deck"])
    s = play(s, 0, "play wind 3 3")
    assert len(s["_hands"][0]) == 3 and len(s["_deck"]) == deck - 1


def test_partner_trades_after_mover_before_card():  # HANSE-T-15 HANSE-8.2 HANSE-14.2 HANSE-A-2 HANSE-6.5
    s = _setup()
    s = enter(s, 1, 1, "danzig")  # ship 1: seats 1 (stern) and 2 (bow)
    assert E.to_act(s) == [1]
    s = play(s, 1, "done")
    assert E.to_act(s) == [2] and top(s)["stage"] == "partner"
    assert E.default_move(s, 2) == "timeout"
    s2 = play(s, 2, "timeout")  # times out: no trades
    assert [g for g, _ in s2["cargo"][1][1]] == ["salt"] * 3
    assert top(s2)["stage"] == "card" and E.to_act(s2) == [1]


def test_partner_step_skipped_when_nothing_to_do():  # HANSE-C5 HANSE-14.2
    s = _setup()
    cargo(s, 1, bow=[["beer", 3]])
    s = enter(s, 1, 1, "danzig")
    s = play(s, 1, "done")
    assert top(s)["stage"] == "card" and E.to_act(s) == [1]


def test_same_type_trade_returns_first():  # HANSE-D-12 HANSE-C6 HANSE-8.6.3
    s = _setup()
    cargo(s, 0, stern=[["grain", 1], ["salt", 0], ["salt", 0]])
    s["_pools"]["danzig"]["grain"] = [1, 2, 3, 3]
    before = len(s["_pools"]["danzig"]["grain"])
    s = enter(s, 0, 0, "danzig")
    s = play(s, 0, "trade", "trade 1 grain grain")
    # the given grain went back before the draw of three
    assert len(s["_pools"]["danzig"]["grain"]) == before + 1 - 3
    s = keep_all(s, 0)
    assert len(s["_pools"]["danzig"]["grain"]) == before
    assert Counter(g for g, _ in s["cargo"][0][0]) == {"grain": 1, "salt": 2}


def test_exhausted_supply_cancels_remaining_exchanges():  # HANSE-D-13 HANSE-8.6.4 HANSE-C6 HANSE-8.6.5
    s = _setup()
    s["_pools"]["london"]["fur"] = [3]
    cargo(s, 0, stern=[["fish", 1], ["fish", 2], ["salt", 0]])
    s = enter(s, 0, 0, "london")
    s = play(s, 0, "trade", "trade 2 fish fur")
    s = keep_all(s, 0)
    goods = Counter(g for g, _ in s["cargo"][0][0])
    assert goods == {"fur": 1, "fish": 1, "salt": 1}
    assert len(s["cargo"][0][0]) == 3
    assert any("cancelled" in ev["text"] for ev in s["log"])


def test_new_goods_then_trade_and_return_home():  # HANSE-T-21 HANSE-9.3 HANSE-8.4 HANSE-8.6.2 HANSE-5.3.4
    s = _setup()
    hand(s, 0, "goods 2 fur bremen", "wind 3 3", "hansetag")
    s = enter(s, 0, 0, "london")
    s = play(s, 0, "done")
    if top(s)["k"] == "harbour" and top(s)["stage"] == "partner":
        s = play(s, 1, "done")
    nov = len(s["_pools"]["nowgorod"]["fur"])
    s = play(s, 0, "play goods 2 fur bremen")
    assert len(s["_pools"]["bremen"]["fur"]) == 2 and len(s["_pools"]["nowgorod"]["fur"]) == nov - 2
    view = E.view(s, 0)
    assert view["pools"]["bremen"] == {"beer": 14, "fur": 2}
    s = finish_windows(s)
    cargo(s, 2, stern=[["fish", 1], ["fur", 2]])
    s = enter(s, 2, 2, "bremen")
    opts = trade_options(s, 2, 2, "bremen")
    assert "trade 1 fish fur" in opts and "trade 1 fur fur" in opts
    s = keep_all(play(s, 2, "trade", "trade 1 fur fur"), 2)
    assert len(s["_pools"]["nowgorod"]["fur"]) == nov - 2 + 1  # the given fur went to Nowgorod


def test_more_than_needed_may_be_acquired():  # HANSE-8.6.6
    s = _setup()
    storage(s, 0, ["ore"] * 6)
    s = enter(s, 0, 0, "bergen")
    assert "trade 3 salt fish" in trade_options(s, 0, 0, "bergen")


def test_unload_refill_in_luebeck():  # HANSE-T-34 HANSE-8.8 HANSE-8.8.1 HANSE-8.8.3 HANSE-8.9 HANSE-14.2
    s = _setup()
    cargo(s, 0, stern=[["beer", 3], ["beer", 4], ["salt", 0]], bow=[["ore", 2], ["salt", 0], ["salt", 0]])
    storage(s, 0, ["beer", "beer", "fish", "grain", "cloth", "fur"])
    storage(s, 1, ["ore", "fish", "grain", "beer", "cloth", "fur"])
    s = enter(s, 0, 0, "luebeck")
    assert "unload beer" in E.legal_moves(s, 0) and "unload all" in E.legal_moves(s, 0)
    s = play(s, 0, "unload beer", "unload beer")
    assert sorted(v for v in s["store"][0]["vals"] if v is not None) == [3, 4]
    assert "unload beer" not in E.legal_moves(s, 0)
    s = play(s, 0, "refill", "done")
    assert [g for g, _ in s["cargo"][0][0]] == ["salt"] * 3
    assert E.to_act(s) == [1]
    s = play(s, 1, "unload ore", "refill", "done")
    assert s["store"][1]["vals"][0] == 2 and len(s["cargo"][0][1]) == 3
    # a stone in storage can never come back out
    assert not any(m.startswith(("load", "take")) for m in E.legal_moves(s, 0))
    assert top(s)["stage"] == "card"


def test_storage_accepts_only_printed_types():  # HANSE-8.9 HANSE-8.8.1
    s = _setup()
    cargo(s, 0, stern=[["cloth", 3], ["fish", 1], ["salt", 0]])
    storage(s, 0, ["fish", "grain", "beer", "ore", "fur", "fur"])
    s = enter(s, 0, 0, "luebeck")
    legal = E.legal_moves(s, 0)
    assert "unload fish" in legal and "unload cloth" not in legal
    illegal(s, 0, "unload cloth")


def test_refill_mover_first_when_salt_is_short():  # HANSE-D-15 HANSE-8.8.3
    s = _setup()
    cargo(s, 0, stern=[], bow=[])
    s["_pools"]["luebeck"]["salt"] = [0, 0]
    s = enter(s, 0, 0, "luebeck")
    s = play(s, 0, "refill", "done")
    assert len(s["cargo"][0][0]) == 2
    assert "refill" not in E.legal_moves(s, 1)
    s = play(s, 1, "timeout")
    assert len(s["cargo"][0][1]) == 0


def test_trades_in_luebeck():  # HANSE-8.8.4
    s = _setup()
    cargo(s, 0, stern=[["fish", 1], ["salt", 0], ["salt", 0]])
    s["_pools"]["luebeck"]["ore"] = [4, 4]
    s = enter(s, 0, 0, "luebeck")
    opts = trade_options(s, 0, 0, "luebeck")
    assert "trade 1 fish ore" in opts and "trade 1 salt salt" in opts


def test_partner_default_refills_in_luebeck():  # HANSE-14.2 HANSE-A-2
    s = _setup()
    cargo(s, 0, bow=[["ore", 2]])
    s = enter(s, 0, 0, "luebeck")
    s = play(s, 0, "done")
    assert E.default_move(s, 1) == "timeout"
    s = play(s, 1, "timeout")
    assert len(s["cargo"][0][1]) == 3 and s["store"][1]["vals"].count(None) == 6
