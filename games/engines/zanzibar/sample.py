"""Determinization (games/engines/sampling.py). Hidden (ZAN-16, ZAN-C3): the order of every deck,
other seats' hands and set-aside cards, and during the set-aside window other seats' answers
(their set-aside count and deck size). A seat's cards not in sight (hand, deck, set aside) are
its deck's cards that are not on its scored pile, so for another seat the sample deals that set,
shuffled, into a hand of the seen size, the set-aside count, and the deck; for the seat itself it
shuffles its own (known) deck. In the window another seat is sampled as having kept its cards (the
view cannot tell it from a seat that set one aside and drew a replacement)."""
from __future__ import annotations

from ..sampling import copy, new_rng


def bot_view(state: dict, seat: int) -> dict:
    out = {k: copy(v) for k, v in state.items() if not k.startswith("_") and k != "log"}
    out["log"] = []
    n = state["players"]
    window = state["phase"] == "window"
    out["own"] = {"hand": list(state["_hand"][seat]), "aside": list(state["_aside"][seat]),
                  "deck": sorted(state["_deck"][seat])}
    unseen, hands = [], []
    for p in range(n):
        cards = state["_hand"][p] + state["_deck"][p] + state["_aside"][p]
        unseen.append(sorted(cards) if p != seat else [])
        hands.append(len(state["_hand"][p]))
    out["unseen"] = unseen
    out["hand_sizes"] = hands
    if window:
        out["aside_n"] = [a if p == seat else 0 for p, a in enumerate(state["aside_n"])]
    return out


def sample_state(view: dict, seat: int, rng) -> dict:
    state = {k: copy(v) for k, v in view.items() if k not in ("own", "unseen", "hand_sizes")}
    n = view["players"]
    hands, decks, asides = [], [], []
    for p in range(n):
        if p == seat:
            hands.append(list(view["own"]["hand"]))
            asides.append(list(view["own"]["aside"]))
            decks.append(rng.shuffle(view["own"]["deck"]))
            continue
        cards = rng.shuffle(view["unseen"][p])
        h, a = view["hand_sizes"][p], view["aside_n"][p]
        hands.append(cards[:h])
        asides.append(cards[h:h + a])
        decks.append(cards[h + a:])
    state["_hand"], state["_deck"], state["_aside"] = hands, decks, asides
    state["_rng"] = new_rng(rng)
    return state
