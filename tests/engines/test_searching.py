"""A bot's search (``games.engines.searching``): inside it ``apply`` takes a listed move as it is
and log events carry no text; the states it makes are the same, and nothing outside a search (the
write path, another thread) is touched."""
import json
import threading

import pytest

from games.bots import choose_move
from games.engines import IllegalMove, get_engine
from games.engines.rng import Rng
from games.engines.searching import SEARCHING, searching

from .playout import play_bots

SLUGS = ["hansa", "die-hanse", "zanzibar", "hansa-teutonica"]


def _without_log(state: dict) -> str:
    return json.dumps({k: v for k, v in state.items() if k != "log"}, sort_keys=True, default=repr)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_searched_state_is_the_played_one_but_for_the_log_texts(slug):
    engine = get_engine(slug)
    rng = Rng(99)
    texts = []

    def pick(state, seat):
        moves = engine.legal_moves(state, seat)
        move = moves[rng.below(len(moves))]
        played = engine.apply(state, seat, move)
        with searching():
            searched = engine.apply(state, seat, move)
        assert _without_log(searched) == _without_log(played), (slug, move)
        assert len(searched["log"]) == len(played["log"])
        assert all(ev["text"] == "" and "msg" not in ev for ev in searched["log"])
        assert [ev.get("only") for ev in searched["log"]] == [ev.get("only") for ev in played["log"]]
        texts.extend(ev["text"] for ev in played["log"] if ev["text"])
        return move

    play_bots(engine, engine.setup(3, 4711, {}), pick, 120)
    assert len(texts) > 20  # the played states did say what happened


@pytest.mark.parametrize("slug", ["die-hanse", "zanzibar", "hansa-teutonica"])
def test_outside_a_search_apply_still_refuses_what_is_not_listed(slug):
    engine = get_engine(slug)
    state = engine.setup(3, 4711, {})
    seat = engine.to_act(state)[0]
    with pytest.raises(IllegalMove):
        engine.apply(state, seat, "no such move")
    with pytest.raises(IllegalMove):
        engine.apply(state, (seat + 1) % 3 if slug != "die-hanse" else seat + 7, engine.legal_moves(state, seat)[0])
    with searching():
        pass
    with pytest.raises(IllegalMove):  # the search left nothing behind
        engine.apply(state, seat, "no such move")


def test_a_bot_decision_leaves_no_search_behind_and_another_thread_sees_none():
    engine = get_engine("hansa-teutonica")
    state = engine.setup(2, 5, {})
    seen = []

    def other_thread():
        seen.append(SEARCHING.get())
        s = engine.setup(2, 6, {})
        seat = engine.to_act(s)[0]
        seen.append(engine.apply(s, seat, engine.legal_moves(s, seat)[0])["log"][0]["text"])

    with searching():
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert seen[0] is False and seen[1]  # a web request served meanwhile logs its texts
    seat = engine.to_act(state)[0]
    move = choose_move(engine, state, seat, "strong", seed=3)
    assert SEARCHING.get() is False
    after = engine.apply(state, seat, move)
    assert after["log"] and all(ev["text"] for ev in after["log"])
