"""Random games for 2-5 players (the shared contract test runs more of them)."""
import pytest

from games.engines.zanzibar import ENGINE
from tests.engines.playout import play_random


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_with_a_winner(players):  # ZAN-1.1 ZAN-4.3 ZAN-17.5
    def check(state, seat, legal):
        occ = state["occ"]
        pieces = [tuple(v) for v in occ.values()]
        assert len(pieces) == len(set(pieces))  # one place per merchant, one merchant per place
        if state["phase"] != "window":
            assert len(ENGINE.to_act(state)) == 1  # only the set-aside window is simultaneous
        assert all(len(h) <= 2 for h in state["_hand"])
    for seed in range(3):
        state, moves = play_random(ENGINE, players, seed, check=check)
        res = ENGINE.result(state)
        assert state["finished"] and len(state["scored"][state["finished"][0]]) + \
            state["aside_n"][state["finished"][0]] == 10
        best = max(res["scores"])
        winners = [s for s in range(players) if res["ranking"][s] == 1]
        assert len(winners) >= 1 and all(res["scores"][s] == best for s in winners)
        assert len(state["occ"]) == players * len(ENGINE.setup(players, 1, {})["unplaced"][0])
