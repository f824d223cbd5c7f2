"""Review: the assignment step reaches exactly the outcomes of the spec's full order
A1 - A7 (ZAN-13.4) under the scoring limit (ZAN-11.7) and the set-aside quota (ZAN-12.1),
for random hands, decks and counts of scored / set-aside cards, 2 - 5 players."""
import copy
import itertools
import random

from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.turns import start_turn

CARDS = ["cinnamon", "ginger", "vanilla", "pepper", "clove", "north", "south", "east", "west", "central"]


def spec_outcomes(hand, deck, scored, aside, limit, quota):
    """(hand, deck, new set-asides, new scorings) after every legal assignment step."""
    outs = set()
    for decl in itertools.product("SAK", repeat=len(hand)):  # A1: SCORE | SET_ASIDE | KEEP
        n_score, n_aside = decl.count("S"), decl.count("A")
        if scored + n_score > limit or aside + n_aside > quota:
            continue
        scorings = tuple(sorted(c for c, d in zip(hand, decl) if d == "S"))
        set_aside = [c for c, d in zip(hand, decl) if d == "A"]
        kept = [c for c, d in zip(hand, decl) if d == "K"]
        drawn = deck[:n_score + n_aside]  # A4

        def a5(h, dk, asd, drew):
            outs.add((tuple(sorted(h)), tuple(dk), tuple(sorted(asd)), scorings))
            if drew and aside + len(asd) < quota:  # A5: may set any hand card aside, draw 1
                for c in h:
                    a5([x for x in h if x != c] + dk[:1], dk[1:], asd + [c], bool(dk))

        a5(kept + drawn, deck[len(drawn):], set_aside, bool(drawn))
    return outs


def engine_outcomes(state, seat):
    before_aside, before_scored = len(state["_aside"][seat]), len(state["scored"][seat])
    outs = set()

    def rec(s):
        if s["active"] != seat or s["phase"] not in ("assign", "a5"):
            outs.add((tuple(sorted(s["_hand"][seat])), tuple(s["_deck"][seat]),
                      tuple(sorted(s["_aside"][seat][before_aside:])),
                      tuple(sorted(e["card"] for e in s["scored"][seat][before_scored:]))))
            return
        for m in ENGINE.legal_moves(s, seat):
            rec(ENGINE.apply(s, seat, m))

    rec(state)
    return outs


def test_assignment_step_matches_the_spec_order():  # ZAN-13.4 ZAN-11.7 ZAN-12.1 ZAN-12.2 ZAN-12.3
    rnd = random.Random(7)
    for _ in range(150):
        players = rnd.choice([2, 3, 4, 5])
        limit, quota = (9, 1) if players <= 3 else (8, 2)
        cards = rnd.sample(CARDS, 10)
        aside = rnd.randint(0, quota)
        hand_size = rnd.choice([1, 2, 2])
        rest = 10 - aside - hand_size
        scored = rnd.randint(max(0, rest - 8), min(limit, rest))
        aside_cards, hand = cards[:aside], cards[aside:aside + hand_size]
        scored_cards = cards[aside + hand_size:aside + hand_size + scored]
        deck = cards[aside + hand_size + scored:]
        s = copy.deepcopy(ENGINE.setup(players=players, seed=1, options={"start_player": 0}))
        s["unplaced"] = [[] for _ in range(players)]
        s["occ"] = {"n1": [0, 2]}
        s["_hand"][0], s["_deck"][0], s["_aside"][0] = hand, deck, aside_cards
        s["aside_n"][0] = aside
        s["scored"][0] = [{"card": c, "count": 0, "points": 0} for c in scored_cards]
        start_turn(s, 0)
        s = ENGINE.apply(s, 0, "done")  # no movement
        assert engine_outcomes(s, 0) == spec_outcomes(hand, deck, scored, aside, limit, quota)
