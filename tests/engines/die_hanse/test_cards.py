"""Harbour cards (HANSE-9)."""
from games.engines.die_hanse.board import BOARD
from games.engines.die_hanse.movement import destinations, storm_harbours

from .helpers import (E, card_id, clear_sea, finish_windows, game, hx, illegal, play, play_card, put, top,
                      turn_of, wind)


def _setup(n=4):
    s = game(n, seed=11)
    clear_sea(s)
    turn_of(s, 0)
    return s


def test_reshuffle_discard_when_deck_is_empty():  # HANSE-T-16 HANSE-8.10
    s = _setup()
    pile = [c for c in BOARD.card_order if c not in s["_hands"][0] and c != s["wind"]][:12]
    s["_deck"] = []
    s["discard"] = list(pile)
    s = play_card(s, 0, "hansetag") if "hansetag" not in [BOARD.cards[c]["type"] for c in pile] else s
    assert len(s["_hands"][0]) == 3
    assert s["wind"] not in s["_deck"]
    assert len(s["_deck"]) + len(s["discard"]) == 12
    assert any("shuffled" in ev["text"] for ev in s["log"])


def test_wind_replaces_the_current_wind():  # HANSE-T-17 HANSE-9.1 HANSE-7.2
    s = _setup()
    wind(s, 4, 4)
    old = s["wind"]
    s = play_card(s, 0, "wind 5 2")
    assert old in s["discard"] and BOARD.cards[s["wind"]]["baltic"] == 2
    put(s, 0, "l6")
    assert E.view(s, 0)["wind"] == {"north": 5, "baltic": 2, "card": "wind 5 2"}
    from .test_movement import _ball
    assert all(_ball(hx("l6"), 2).get(h) is not None for h in destinations(s, 0) if h in BOARD.open_sea)


def test_sund_blockade_moves_the_stone_and_displaces():  # HANSE-T-18 HANSE-9.2 HANSE-9.2.1 HANSE-9.2.2 HANSE-D-16 HANSE-14.5 HANSE-A-5
    s = _setup()
    s["blockade"] = "bergen"
    put(s, 1, "h6")
    put(s, 2, "h7")
    s = play_card(s, 0, "blockade sund")
    assert s["blockade"] == "sund"
    assert top(s)["k"] == "place" and E.to_act(s) == [0]
    legal = E.legal_moves(s, 0)
    targets = {m.split()[2] for m in legal}
    assert not targets & {"h6", "i6", "h7"}
    assert all(BOARD.kind[BOARD.by_label[t]] in ("sea", "bay") for t in targets)
    assert E.default_move(s, 0) == legal[0] and legal[0].startswith("place blue")
    first = legal[0]
    s = play(s, 0, first)
    assert first.split()[2] not in {m.split()[2] for m in E.legal_moves(s, 0)}
    s = play(s, 0, E.legal_moves(s, 0)[0])
    assert s["ships"][1]["at"] != s["ships"][2]["at"]
    assert not {s["ships"][1]["at"], s["ships"][2]["at"]} & set(BOARD.sund)


def test_luebeck_blockade_displaces_three_ships():  # HANSE-T-20 HANSE-9.2.2 HANSE-D-17 HANSE-C9 HANSE-9.2.3
    s = _setup()
    s = play_card(s, 0, "blockade luebeck")
    while top(s)["k"] == "place":
        s = play(s, 0, E.legal_moves(s, 0)[0])
    spots = [sh["at"] for sh in s["ships"]]
    assert len(set(spots)) == 4 and BOARD.luebeck not in spots
    assert hx("h8") in spots and hx("i8") in spots  # the two adjacent fields (the bay counts)
    for i in range(4):
        assert BOARD.luebeck not in destinations(s, i)


def test_blockade_ends_only_by_card_or_special():  # HANSE-9.2.6 HANSE-9.2.1
    s = _setup()
    s = play_card(s, 0, "blockade danzig")
    s = play_card(s, 0, "blockade london")
    assert s["blockade"] == "london"
    s = play_card(s, 0, "wind 3 3")
    assert s["blockade"] == "london"


def test_storm_into_the_bay():  # HANSE-T-32 HANSE-9.6.4 HANSE-9.6 HANSE-9.6.1 HANSE-9.6.2 HANSE-7.4.3 HANSE-7.7.5
    s = game(5, seed=2)
    clear_sea(s)
    turn_of(s, 0)
    put(s, 0, "c4")
    put(s, 1, "d7")
    put(s, 2, "e9")
    put(s, 3, "london")
    put(s, 4, "canal2", 1)
    s = play_card(s, 0, "storm north bay")
    bay = BOARD.bays["north"]
    assert [sh["at"] for sh in s["ships"][:3]] == [bay] * 3
    assert s["ships"][3]["at"] == hx("london") and s["ships"][4]["at"] == hx("canal2")
    assert not any(f["k"] == "window" for f in s["stack"])  # HANSE-9.6.4: not a move


def _tie_field():
    for h in BOARD.open_sea:
        if BOARD.sea[h] == "baltic" and storm_harbours({"blockade": None}, h) == ["danzig", "stockholm"]:
            return h
    raise AssertionError("no tie field")


def test_storm_nearest_open_harbour_and_tie():  # HANSE-T-33 HANSE-9.6.3 HANSE-D-19 HANSE-14.6 HANSE-A-6 HANSE-D-11 HANSE-C8
    field = _tie_field()
    s = _setup()
    s["ships"][0]["at"] = field
    s["blockade"] = "stockholm"
    s2 = play_card(s, 1, "storm baltic harbour")
    assert s2["ships"][0]["at"] == BOARD.harbours["danzig"] and s2["ships"][0]["skip"]
    assert not any(f["k"] == "harbour" for f in s2["stack"])  # no trading on arrival
    s["blockade"] = None
    s3 = play_card(s, 1, "storm baltic harbour")
    assert top(s3)["k"] == "storm" and E.to_act(s3) == [1]
    assert E.legal_moves(s3, 1) == ["storm red danzig", "storm red stockholm"]
    assert E.default_move(s3, 1) == "storm red danzig"
    s3 = play(s3, 1, "storm red stockholm")
    assert s3["ships"][0]["at"] == BOARD.harbours["stockholm"]


def test_storm_distance_never_through_the_canal():  # HANSE-C8 HANSE-D-19
    s = _setup()
    # from the Wismar mouth the canal would lead to Bremen quickly; it does not count
    assert "bremen" not in storm_harbours(s, hx("j8"))


def test_skip_flag_forfeits_the_next_slot():  # HANSE-T-46 HANSE-D-20 HANSE-9.6.3 HANSE-7.8
    s = _setup()
    put(s, 1, "e9")
    s = play_card(s, 0, "storm north harbour")
    assert s["ships"][1]["skip"] and BOARD.kind[s["ships"][1]["at"]] == "harbour"
    turn_of(s, 1, turn=1)
    legal = E.legal_moves(s, 1)
    assert sorted(legal) == ["sail red", "wait blue"]
    s = play(s, 1, "wait blue")
    assert not s["ships"][1]["skip"]
    assert top(s)["k"] == "window"  # the reaction window still opens
    s = finish_windows(s)
    turn_of(s, 2, turn=2)
    assert "sail blue" in E.legal_moves(s, 2)


def test_storm_affects_bays_not_harbours():  # HANSE-9.6.1
    s = _setup()
    put(s, 0, "h8")  # Lübecker Bucht
    put(s, 1, "danzig")
    s = play_card(s, 0, "storm baltic bay")
    assert s["ships"][0]["at"] == hx("h8") and s["ships"][1]["at"] == hx("danzig")


def test_pirate_and_hansetag_cards_start_their_procedures():  # HANSE-9.4 HANSE-9.5
    s = _setup()
    put(s, 0, "e5")
    s2 = play_card(s, 0, "pirates gotland 4")
    assert top(s2)["k"] == "pirate" and s2["pirate"] == BOARD.islands["gotland"] and top(s2)["pts"] == 4
    s3 = play_card(s, 0, "hansetag")
    assert len(s3["hansetage"]) == 1 and s3["hansetage"][0]["q"] == 0


def test_new_goods_takes_what_is_there():  # HANSE-9.3
    s = _setup()
    s["_pools"]["danzig"]["grain"] = [1]
    s = play_card(s, 0, "goods 3 grain london")
    assert len(s["_pools"]["london"]["grain"]) == 1 and not s["_pools"]["danzig"]["grain"]


def test_card_ids_map_to_texts():  # HANSE-CD-1 HANSE-CD-2
    assert BOARD.cards[card_id("wind 5 2")]["north"] == 5
    assert BOARD.cards[card_id("goods 2 fur bremen")]["stones"] == 2
    s = _setup()
    illegal(s, 0, "play wind 9 9")
