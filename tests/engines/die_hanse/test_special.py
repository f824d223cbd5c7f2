"""Privilege card, Kaperbrief and reaction windows (HANSE-10, override 1 of rules/README, C4, C5)."""
from .helpers import E, clear_sea, game, hand, illegal, play, put, top, turn_of


def _setup(n=4, offer=()):
    s = game(n, seed=9, offer=offer)
    clear_sea(s)
    turn_of(s, 0)
    return s


def test_mover_is_always_offered_others_only_with_the_setting():  # HANSE-10.4 HANSE-10.4.1 HANSE-10.4.2 HANSE-14.3 HANSE-A-3 HANSE-10.4.4
    s = _setup()
    s2 = play(s, 0, "stay red")
    assert top(s2)["k"] == "window" and E.to_act(s2) == [0]
    assert E.legal_moves(s2, 0) == ["pass", "declare privilege", "declare kaperbrief", "declare both"]
    s = _setup(offer=(2,))
    s2 = play(s, 0, "stay red")
    assert sorted(E.to_act(s2)) == [0, 2]
    s["special"][0] = {"privilege": False, "kaperbrief": False}
    s3 = play(s, 0, "stay red")
    assert E.to_act(s3) == [2]  # a player without special cards is skipped
    assert E.seat_option_specs[0]["key"] == "offer_special_cards"
    assert E.seat_option_specs[0]["default"] is False


def test_declarations_are_sealed():  # HANSE-5.5 HANSE-14.3
    s = _setup(offer=(1,))
    s = play(s, 0, "stay red", "declare privilege")
    v1 = E.view(s, 1)
    assert "declared" not in v1["phase"] and v1["phase"]["answered"] == [0]
    assert E.view(s, 0)["phase"]["your_answer"] == ["privilege"]
    s = play(s, 1, "pass")
    assert E.view(s, 1)["phase"]["declared"] == {"0": ["privilege"]}


def test_privilege_extra_move_during_another_turn():  # HANSE-T-35 HANSE-10.2.1 HANSE-10.4.5 HANSE-D-23 HANSE-10.4.3
    s = _setup(offer=(0,))
    turn_of(s, 2, turn=2)
    s = play(s, 2, "stay green")
    assert sorted(E.to_act(s)) == [0, 2]
    s = play(s, 2, "pass")
    s = play(s, 0, "declare privilege")
    assert E.legal_moves(s, 0) == ["privilege move", "privilege card"]
    s = play(s, 0, "privilege move")
    assert top(s)["k"] == "xmove" and E.to_act(s) == [0]
    put(s, 0, "f12")
    hand(s, 0, "wind 3 3", "hansetag", "blockade sund")
    s = play(s, 0, "sail red bremen")
    assert top(s)["k"] == "harbour" and top(s)["mover"] == 0 and E.to_act(s) == [0]
    s = play(s, 0, "done")
    if top(s)["stage"] == "partner":
        s = play(s, 1, "done")
    s = play(s, 0, "play wind 3 3")
    # a new window opens with seat 0 as the last mover
    assert top(s)["k"] == "window" and top(s)["last"] == 0 and E.to_act(s) == [0]
    assert s["special"][0]["privilege"] is False
    s = play(s, 0, "pass")
    assert top(s)["k"] == "turn" and E.to_act(s) == [2] and top(s)["done"] == [2]


def test_resolution_clockwise_from_the_last_mover():  # HANSE-T-36 HANSE-10.4.3
    s = _setup(n=5, offer=(0, 1, 4))
    turn_of(s, 3, turn=3)
    s = play(s, 3, "stay orange")
    for seat in (1, 4, 0):
        s = play(s, seat, "declare kaperbrief")
    s = play(s, 3, "pass")
    assert top(s)["queue"] == [4, 0, 1]
    assert E.to_act(s) == [4]


def test_kaperbrief_plays_a_card_and_privilege_removes_blockade():  # HANSE-T-37 HANSE-10.2.2 HANSE-10.3.3 HANSE-10.2.3 HANSE-10.3.2 HANSE-14.8 HANSE-A-8
    s = _setup(offer=(1, 2))
    hand(s, 1, "blockade london", "wind 3 3", "hansetag")
    s = play(s, 0, "stay red", "pass")
    s = play(s, 1, "declare kaperbrief")
    s = play(s, 2, "declare privilege")
    assert E.to_act(s) == [1]
    s = play(s, 1, "kaperbrief card")
    assert top(s)["k"] == "cardplay"
    assert E.default_move(s, 1) == "play blockade london"
    s = play(s, 1, "play blockade london")
    assert s["blockade"] == "london" and len(s["_hands"][1]) == 3
    assert E.to_act(s) == [2]
    assert "privilege unblock" in E.legal_moves(s, 2)
    s = play(s, 2, "privilege unblock")
    assert s["blockade"] is None and not s["special"][2]["privilege"]


def test_timeout_at_resolution_keeps_the_card():  # HANSE-T-45 HANSE-C4 HANSE-D-22 HANSE-D-21 HANSE-10.3.4
    s = _setup(offer=(2,))
    s = play(s, 0, "stay red", "pass")
    s = play(s, 2, "declare kaperbrief")
    assert "withdraw" not in " ".join(E.legal_moves(s, 2))
    illegal(s, 2, "withdraw")
    assert E.default_move(s, 2) == "timeout"
    s = play(s, 2, "timeout")
    assert s["special"][2]["kaperbrief"] is True
    s["over"] = True
    assert E.result(s)["breakdown"][2]["unused kaperbrief"] == 2


def test_opt_in_lapses_after_two_timeouts():  # HANSE-C5
    s = _setup(offer=(3,))
    s = play(s, 0, "stay red")
    s = play(s, 0, "pass")
    s = play(s, 3, "timeout")
    assert s["offer"][3] is True
    s = play(s, 0, "stay orange", "pass", )
    s = play(s, 3, "timeout")
    assert s["offer"][3] is False
    assert E.view(s, 3)["options"] == {"offer_special_cards": False}


def test_special_card_used_once():  # HANSE-10.1 HANSE-10.2 HANSE-10.3
    s = _setup()
    s = play(s, 0, "stay red", "declare both")
    legal = E.legal_moves(s, 0)
    assert "privilege card" in legal and "kaperbrief raid gotland" in legal
    s = play(s, 0, "privilege card", "play " + E.legal_moves(play(s, 0, "privilege card"), 0)[0].split(" ", 1)[1])
    while top(s)["k"] not in ("window", "turn"):
        seat = E.to_act(s)[0]
        s = play(s, seat, E.default_move(s, seat))
    assert not s["special"][0]["privilege"]
    assert all(not m.startswith("privilege") for m in E.legal_moves(s, 0))


def test_skip_flag_ship_cannot_make_the_extra_move():  # HANSE-10.2.1 HANSE-9.6.3
    s = _setup()
    s["ships"][0]["skip"] = True
    s["ships"][3]["skip"] = True
    s = play(s, 0, "wait red")
    s["ships"][0]["skip"] = True  # e.g. a second storm
    s = play(s, 0, "declare privilege")
    assert "privilege move" not in E.legal_moves(s, 0)
    assert "privilege card" in E.legal_moves(s, 0)


def test_extra_move_partner_gets_harbour_step():  # HANSE-10.2.1 HANSE-14.3
    s = _setup()
    s = play(s, 0, "stay red", "declare privilege", "privilege move")
    put(s, 3, "d1")
    s = play(s, 0, "sail orange bergen", "done")
    assert E.to_act(s) == [3] and top(s)["stage"] == "partner"


def test_final_filler_may_still_play_special_cards():  # HANSE-D-39
    s = _setup()
    s["final"] = {"f": 0, "partner": 1, "t": 0, "ship": 0}
    s = play(s, 0, "stay red")
    assert "declare privilege" in E.legal_moves(s, 0)
