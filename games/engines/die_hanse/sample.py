"""Determinization (games/engines/sampling.py). Hidden (HANSE-5): the order of the harbour-card
deck, other seats' hands, the values of goods stones the seat does not see (the pools, the other
half of each ship it does not hold, other seats' storages, another trader's drawn or announced
stones), other seats' sealed answers in a reaction window, other seats' private settings.

Stone values: a sample takes, per type of goods, all stones of the game (HANSE-2.5's table) but
those whose values the seat sees now, and deals a random subset of them into the hidden places.
It forgets stones the seat once saw and that left the board (fines, pirates), so it knows less
than the seat could, never more. Cards: every card the seat does not see is in the deck or in
another seat's hand (played cards are laid open), so that set is dealt into hands of the seen
sizes and the deck."""
from __future__ import annotations

from collections import Counter

from ..sampling import copy, new_rng
from .board import BOARD


def _trader(frame: dict) -> int:
    return frame["mover"] if frame["stage"] == "mover" else frame["partner"]


def _slots(state: dict, seat: int):
    """Every place of a stone value in ``state``: (good, getter, setter, visible to ``seat``)."""
    n = state["n"]
    for ship, halves in enumerate(state["cargo"]):
        for hi, stones in enumerate(halves):
            mine = (ship + hi) % n == seat
            for stone in stones:
                yield stone[0], stone, 1, mine
    for p, st in enumerate(state["store"]):
        for i, (g, v) in enumerate(zip(st["goods"], st["vals"])):
            if v is not None:
                yield g, st["vals"], i, p == seat
    for f in state["stack"]:
        if f["k"] != "harbour":
            continue
        mine = _trader(f) == seat
        if f["draw"] is not None:
            for i in range(len(f["draw"]["vals"])):
                yield f["draw"]["good"], f["draw"]["vals"], i, mine


def _queues(state: dict, seat: int) -> None:
    """An announced trade's queue names stones still in the trader's half (the lowest of each
    type, HANSE-8.6.1): for another trader, point it at the sampled half's stones."""
    for f in state["stack"]:
        if f["k"] != "harbour" or _trader(f) == seat or not f["queue"]:
            continue
        trader = _trader(f)
        stones = state["cargo"][f["ship"]][0 if f["ship"] == trader else 1]
        free = {}
        for g, v in stones:
            free.setdefault(g, []).append(v)
        for vals in free.values():
            vals.sort()
        for item in f["queue"]:
            if len(item) > 2 and item[2] is not None and free.get(item[0]):
                item[2] = free[item[0]].pop(0)


def bot_view(state: dict, seat: int) -> dict:
    out = {k: copy(v) for k, v in state.items() if not k.startswith("_") and k != "log"}
    out["log"] = []
    n = state["n"]
    out["offer"] = [bool(o) if p == seat else False for p, o in enumerate(state["offer"])]
    seen = Counter()
    for good, holder, i, visible in _slots(out, seat):
        if visible:
            seen[(good, holder[i])] += 1
        else:
            holder[i] = 0  # a hidden value: the sample fills it
    for f in out["stack"]:
        if f["k"] == "harbour" and _trader(f) != seat:
            for item in f["queue"]:
                if len(item) > 2 and item[2] is not None:
                    item[2] = 0  # names a hidden stone of the other trader's half (_queues)
    unseen = {}
    for good, values in BOARD.stones.items():
        bag = []
        for v, c in sorted(values.items()):
            bag += [v] * max(0, c - seen[(good, v)])
        unseen[good] = bag
    out["unseen_stones"] = unseen
    out["pool_sizes"] = {h: {g: len(v) for g, v in sorted(p.items())} for h, p in state["_pools"].items()}
    for f in out["stack"]:  # other seats' sealed answers (HANSE-5.5): sampled as passes
        if f["k"] == "window" and f["stage"] == "ask":
            f["ans"] = {s: (c if s == str(seat) else []) for s, c in f["ans"].items()}
    out["own_hand"] = list(state["_hands"][seat])
    out["hand_sizes"] = [len(h) for h in state["_hands"]]
    out["unseen_cards"] = sorted(state["_deck"] + [c for p in range(n) if p != seat for c in state["_hands"][p]])
    return out


def sample_state(view: dict, seat: int, rng) -> dict:
    state = {k: copy(v) for k, v in view.items()
             if k not in ("unseen_stones", "pool_sizes", "own_hand", "hand_sizes", "unseen_cards")}
    bags = {g: rng.shuffle(vals) for g, vals in sorted(view["unseen_stones"].items())}
    for good, holder, i, visible in _slots(state, seat):
        if not visible:
            holder[i] = bags[good].pop()
    pools = {}
    for h in sorted(view["pool_sizes"]):
        pools[h] = {}
        for g, size in sorted(view["pool_sizes"][h].items()):
            pools[h][g] = [bags[g].pop() for _ in range(size)]
    state["_pools"] = pools
    _queues(state, seat)
    cards = rng.shuffle(view["unseen_cards"])
    hands = []
    for p, size in enumerate(view["hand_sizes"]):
        if p == seat:
            hands.append(list(view["own_hand"]))
        else:
            hands.append(cards[:size])
            cards = cards[size:]
    state["_hands"] = hands
    state["_deck"] = cards
    state["_rng"] = new_rng(rng)
    return state
