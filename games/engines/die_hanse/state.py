"""Small helpers on the state dict shared by the rule modules."""
from __future__ import annotations

from ..events import event
from ..rng import randbelow
from .board import BOARD, SHIP_NAMES
from ..i18n import N_, lit, msg, say  # noqa: F401


def copy_state(state: dict) -> dict:
    """Copy for ``apply`` (hand-written for speed). Immutable leaves are shared: log events and the
    ``[good, value]`` stone pairs are never mutated in place, only added to or removed from lists."""
    out = dict(state)
    out["log"] = []  # a state carries only the events of the step that made it
    out["ships"] = [dict(sh) for sh in state["ships"]]
    out["cargo"] = [[list(h) for h in ship] for ship in state["cargo"]]
    out["store"] = [{"card": st["card"], "goods": st["goods"], "vals": list(st["vals"])} for st in state["store"]]
    out["special"] = [dict(sp) for sp in state["special"]]
    out["discard"] = list(state["discard"])
    out["hansetage"] = [_copy(h) for h in state["hansetage"]]
    out["final"] = dict(state["final"]) if state["final"] else None
    out["offer"] = list(state["offer"])
    out["timeouts"] = list(state["timeouts"])
    out["stack"] = [_copy(f) for f in state["stack"]]
    out["_deck"] = list(state["_deck"])
    out["_hands"] = [list(h) for h in state["_hands"]]
    out["_pools"] = {h: {g: list(v) for g, v in p.items()} for h, p in state["_pools"].items()}
    return out


def _copy(obj):
    """Fast deep copy of a JSON-like structure (dict/list/scalars)."""
    if isinstance(obj, dict):
        return {k: _copy(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_copy(v) for v in obj]
    return obj


def rand(state: dict, n: int) -> int:
    state["_rng"], v = randbelow(state["_rng"], n)
    return v


def P(seat) -> str:
    """The placeholder of a player's name in a log text (filled by the presentation layer)."""
    return "{p%d}" % seat


def log(state: dict, seat, text, only=None, redacted=None) -> None:
    state["log"].append(event(state["seq"], seat, text, only, redacted))


def ship_name(s: int) -> str:
    return SHIP_NAMES[s]


def holders(state: dict, ship: int) -> tuple[int, int]:
    """(stern holder, bow holder) of a ship (HANSE-4.7)."""
    return ship, (ship + 1) % state["n"]


def ships_of(state: dict, seat: int) -> list[int]:
    """The two ships in which ``seat`` holds a half: its own (stern), its right neighbour's (bow)."""
    return [seat, (seat - 1) % state["n"]]


def half_index(state: dict, seat: int, ship: int) -> int:
    return 0 if ship == seat else 1


def half(state: dict, seat: int, ship: int) -> list:
    return state["cargo"][ship][half_index(state, seat, ship)]


def partner(state: dict, ship: int, seat: int) -> int:
    a, b = holders(state, ship)
    return b if seat == a else a


def occupancy(state: dict) -> dict:
    occ = {}
    for i, sh in enumerate(state["ships"]):
        occ.setdefault(sh["at"], []).append(i)
    return occ


def blocked_hexes(state: dict) -> frozenset:
    b = state["blockade"]
    if b is None:
        return frozenset()
    if b == "sund":
        return BOARD.sund_set
    return frozenset([BOARD.harbours[b]])


def pool(state: dict, harbour: str, good: str) -> list:
    return state["_pools"][harbour].setdefault(good, [])


def return_stone(state: dict, good: str, value: int) -> None:
    """A stone goes face down to its home pool (HANSE-8.6.2)."""
    pool(state, BOARD.home[good], good).append(value)


def draw_stones(state: dict, harbour: str, good: str, k: int) -> list:
    p = pool(state, harbour, good)
    out = []
    for _ in range(min(k, len(p))):
        i = rand(state, len(p))
        p[i], p[-1] = p[-1], p[i]
        out.append(p.pop())
    return out


def top(state: dict):
    return state["stack"][-1] if state["stack"] else None


def has_special(state: dict, seat: int) -> bool:
    sp = state["special"][seat]
    return sp["privilege"] or sp["kaperbrief"]


def storage_full(state: dict, seat: int) -> bool:
    return all(v is not None for v in state["store"][seat]["vals"])
