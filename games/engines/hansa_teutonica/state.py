"""Game state: setup (HT-5), cheap copying, small helpers shared by the action modules.

State layout (JSON): see docs/hansa-teutonica.md. Pieces on route spaces are strings
``"<seat><t|m>"`` ("2m" = a merchant of seat 2); houses hold a seat number or None.
"""
from __future__ import annotations

from ..events import event
from ..rng import Rng, seed_state
from .board import ABILITIES, SIDES, START_MARKERS, START_SUPPLY, SUPPLY_MARKERS, TRACKS, route_name, side_of
from ..i18n import N_, lit, msg, say  # noqa: F401


def setup_state(players: int, seed: int, options: dict) -> dict:
    side_key = "45" if players >= 4 else "23"  # HT-5.1
    side = SIDES[side_key]
    rng = Rng(seed_state(seed))
    two = players == 2
    if two:
        placer = rng.below(2)  # HT-D-22
        start = 1 - placer  # HT-13.2
    else:
        placer = None
        start = rng.below(players)  # HT-5.4
    # HT-5.2 starting markers on the taverns, the rest shuffled face down
    taverns = sorted(side.tavern)
    start_markers = rng.shuffle(START_MARKERS)
    markers = {r: m for r, m in zip(taverns, start_markers)}
    supply = rng.shuffle(SUPPLY_MARKERS)
    ps = []
    for seat in range(players):
        pos = (seat - start) % players
        sup_t, sup_m, stock_t = START_SUPPLY[pos]
        ps.append({
            "stock": [stock_t, 0],
            "supply": [sup_t, sup_m],
            "pp": 0,
            "dev": {a: 0 for a in ABILITIES},
            "markers": [],  # [type, used, claimed_in_current_action]
            "drawn": 0,
        })
    s = {
        "game": "hansa-teutonica",
        "np": players,
        "side": side_key,
        "two": two,
        "n": 0,
        "phase": "pawn" if two else "turn",
        "start": start,
        "placer": placer,
        "active": start,
        "acts": TRACKS["actiones"][0],
        "used": 0,
        "free_used": False,
        "step": None,
        "rep": None,
        "spaces": {r: [None] * side.nspaces[r] for r in side.routes},
        "houses": {c: [None] * len(side.houses[c]) for c in side.cities},
        "extras": {},
        "coellen": [None] * len(side.coellen_fields),
        "markers": markers,
        "p": ps,
        "completed": 0,
        "ew": [],
        "pawn": None,
        "end": False,
        "ended_by": [],
        "auto": [bool(o.get("auto_replace", False)) for o in options["seats"]],
        "log": [],
        "_rng": rng.state,
        "_supply": supply,
        "_drawn": [],
    }
    return s


def clone(s: dict) -> dict:
    """A copy deep enough that apply never touches its input."""
    n = dict(s)
    n["spaces"] = dict(s["spaces"])  # route lists are copied on write (wspace)
    # houses, extras and coellen are copied on write (see mutable())
    n["markers"] = dict(s["markers"])
    # a player's "dev" and "markers" are replaced, never changed in place (set_dev, mark_used)
    n["p"] = [{
        "stock": p["stock"][:],
        "supply": p["supply"][:],
        "pp": p["pp"],
        "dev": p["dev"],
        "markers": p["markers"],
        "drawn": p["drawn"],
    } for p in s["p"]]
    n["ew"] = s["ew"][:]
    n["ended_by"] = s["ended_by"][:]
    n["log"] = []  # a state carries only the events of the step that made it
    n["_supply"] = s["_supply"][:]
    n["_drawn"] = s["_drawn"][:]
    if s["step"] is not None:
        n["step"] = dict(s["step"])
    if s["rep"] is not None:
        n["rep"] = dict(s["rep"])
    return n


def mutable(s: dict, key: str):
    """Copy-on-write for the rarely changed parts (houses, extras, coellen): call before
    changing them, so the input state of apply is never touched."""
    v = s[key]
    if key == "coellen":
        s[key] = v[:]
    else:
        s[key] = {k: x[:] for k, x in v.items()}
    return s[key]


def wspace(s: dict, route: str) -> list:
    """The spaces of ``route``, copied so that they may be changed (copy-on-write)."""
    sp = s["spaces"][route][:]
    s["spaces"][route] = sp
    return sp


def mark_used(p: dict, i: int) -> None:
    """Turn marker i face down (used), replacing the list (copy-on-write)."""
    ms = [m[:] for m in p["markers"]]
    ms[i][1] = True
    p["markers"] = ms


def P(seat) -> str:
    """The placeholder of a player's name in a log text (filled by the presentation layer)."""
    return "{p%d}" % seat


def log(s: dict, seat, text, only=None, redacted=None) -> None:
    s["log"].append(event(s["n"], seat, text, only, redacted))


KIND = {"t": N_("trader"), "m": N_("merchant")}
KIND_IDX = {"t": 0, "m": 1}


def pieces(t: int, m: int):
    """``t`` traders and ``m`` merchants in words, one/many forms, zero left out (docs/i18n.md)."""
    parts = []
    if t:
        parts.append(msg(N_("1 trader"), n=t) if t == 1 else msg(N_("{n} traders"), n=t))
    if m:
        parts.append(msg(N_("1 merchant"), n=m) if m == 1 else msg(N_("{n} merchants"), n=m))
    if not parts:
        return N_("nothing")
    if len(parts) == 1:
        return parts[0]
    return msg(N_("{a} and {b}"), a=parts[0], b=parts[1])


def province(pid):
    """A 2-player province (``p07``) in words, ``province 7``: the number the board prints in it."""
    digits = "".join(ch for ch in str(pid or "") if ch.isdigit())
    return msg(N_("province {n}"), n=int(digits)) if digits else lit(pid)


def R(s: dict, rid: str):
    """A route in a log text: the board's names of its two cities, shown as they are."""
    return lit(route_name(side_of(s), rid))
KIND_BY_WORD = {"trader": "t", "merchant": "m"}


def level(p: dict, ability: str):
    return TRACKS[ability][p["dev"][ability]]


def full(p: dict, ability: str) -> bool:
    return p["dev"][ability] >= len(TRACKS[ability]) - 1


def total(pair) -> int:
    return pair[0] + pair[1]
