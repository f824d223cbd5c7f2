"""Initial state (HANSE-4)."""
from __future__ import annotations

from ..rng import seed_state, shuffled
from .board import BOARD


def new_state(players: int, seed: int, options: dict) -> dict:
    rng = seed_state(seed)
    n = players
    # HANSE-4.2 goods pools, HANSE-2.5 stone table
    pools = {h: {} for h in BOARD.harbours}
    for good, values in BOARD.stones.items():
        stones = [v for v, c in sorted(values.items()) for _ in range(c)]
        rng, stones = shuffled(rng, stones)
        pools[BOARD.home[good]][good] = stones
    # HANSE-4.8: 3 salt per half
    salt = pools["luebeck"]["salt"]
    cargo = []
    for _ in range(n):
        halves = []
        for _h in range(2):
            halves.append([["salt", salt.pop()] for _ in range(3)])
        cargo.append(halves)
    # HANSE-4.4 harbour cards
    by_type = {"wind": [], "new_goods": [], "other": []}
    for cid in BOARD.card_order:
        t = BOARD.cards[cid]["type"]
        by_type[t if t in ("wind", "new_goods") else "other"].append(cid)
    piles = {}
    for key in ("wind", "new_goods", "other"):
        rng, piles[key] = shuffled(rng, by_type[key])
    hands = [[piles["wind"].pop(), piles["new_goods"].pop(), piles["other"].pop()] for _ in range(n)]
    wind = piles["wind"].pop()
    rng, deck = shuffled(rng, piles["wind"] + piles["new_goods"] + piles["other"])
    # HANSE-4.5 storage cards
    rng, storages = shuffled(rng, BOARD.storage_order)
    store = [{"card": storages[i], "goods": list(BOARD.storage[storages[i]]), "vals": [None] * 6}
             for i in range(n)]
    offer = [bool(s.get("offer_special_cards", False)) for s in options["seats"]]
    luebeck = BOARD.luebeck
    return {
        "game": "die-hanse",
        "n": n,
        "seq": 0,
        "turn": 0,
        "ships": [{"at": luebeck, "dir": 0, "skip": False} for _ in range(n)],
        "cargo": cargo,
        "store": store,
        "special": [{"privilege": True, "kaperbrief": True} for _ in range(n)],
        "wind": wind,
        "discard": [],
        "blockade": None,
        "pirate": None,
        "hansetage": [],
        "final": None,
        "over": False,
        "offer": offer,
        "limit": options.get("round_limit", 60),
        "timeouts": [0] * n,
        "stack": [{"k": "turn", "seat": 0, "done": [], "stage": "move"}],
        "log": [],
        "_rng": rng,
        "_deck": deck,
        "_hands": hands,
        "_pools": pools,
    }
