from .helpers import ENGINE


def test_engine_registered_and_plays_a_turn():  # HANSA-1.1
    s = ENGINE.setup(players=2, seed=3, options={"start_player": 0})
    assert ENGINE.to_act(s) == [0]
    assert "place danzig" in ENGINE.legal_moves(s, 0)
    s = ENGINE.apply(s, 0, "place danzig")
    assert ENGINE.to_act(s) == [1]
    assert ENGINE.name == "Hansa" and ENGINE.min_players == 2 and ENGINE.max_players == 4
