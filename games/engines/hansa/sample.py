"""Determinization (games/engines/sampling.py): the supply stacks' contents and order are hidden
(HANSA-D-15: the view shows their sizes); other seats' loss settings are private. The tiles in the
stacks are exactly the game's tiles that are nowhere in sight, so a sample deals those, shuffled,
into stacks of the seen sizes."""
from __future__ import annotations

from ..sampling import copy, new_rng
from .board import BOARD


def bot_view(state: dict, seat: int) -> dict:
    out = {k: copy(v) for k, v in state.items() if not k.startswith("_") and k != "log"}
    out["log"] = []
    out["ask"] = [bool(a) if p == seat else False for p, a in enumerate(state["ask"])]
    out["stack_sizes"] = [len(s) for s in state["_stacks"]]
    return out


def sample_state(view: dict, seat: int, rng) -> dict:
    state = {k: copy(v) for k, v in view.items() if k != "stack_sizes"}
    tpc = BOARD.tiles_per_colour
    seen = set(t for t in view["slots"] if t is not None)
    for p in range(view["players"]):
        seen.update(view["tiles"][p])
        seen.update(view["sold"][p])
    seen.update(view["removed"])
    unseen = [c * tpc + k for c in view["colours"] for k in range(tpc) if c * tpc + k not in seen]
    unseen = rng.shuffle(unseen)
    stacks, pos = [], 0
    for size in view["stack_sizes"]:
        stacks.append(unseen[pos:pos + size])
        pos += size
    state["_stacks"] = stacks
    state["_rng"] = new_rng(rng)
    return state
