"""Determinization (games/engines/sampling.py). Hidden (HT-6.2.1, HT-D-2, HT-D-4): the order of the
bonus-marker supply and the markers drawn face down, which only the drawer sees, and only once
its turn has ended (the "markers" phase); other seats' re-placement settings are private. The
view gives the make-up of supply and unplaced drawn markers together, so a sample shuffles that
make-up into a drawn part of the seen size and the supply."""
from __future__ import annotations

from ..sampling import copy, new_rng


def _sees_drawn(state: dict, seat: int) -> bool:
    return state["phase"] == "markers" and seat == state["active"]


def bot_view(state: dict, seat: int) -> dict:
    out = {k: copy(v) for k, v in state.items() if not k.startswith("_") and k != "log"}
    out["log"] = []
    out["auto"] = [bool(a) if p == seat else False for p, a in enumerate(state["auto"])]
    sees = _sees_drawn(state, seat)
    out["known_drawn"] = list(state["_drawn"]) if sees else None
    out["drawn_count"] = len(state["_drawn"])
    out["unseen"] = sorted(state["_supply"] + ([] if sees else state["_drawn"]))
    out["supply_count"] = len(state["_supply"])
    return out


def sample_state(view: dict, seat: int, rng) -> dict:
    state = {k: copy(v) for k, v in view.items()
             if k not in ("known_drawn", "drawn_count", "unseen", "supply_count")}
    pool = rng.shuffle(view["unseen"])
    if view["known_drawn"] is not None:
        state["_drawn"] = list(view["known_drawn"])
        state["_supply"] = pool
    else:
        k = view["drawn_count"]
        state["_drawn"] = pool[:k]
        state["_supply"] = pool[k:]
    state["_rng"] = new_rng(rng)
    return state
