"""Action 4: Move / Liber Sophiae (HT-7.6, HT-D-10): move up to L own pieces to empty
spaces anywhere, or swap an own trader with an own merchant for 2 of the moves.

Decomposition: choose a target route (``to <route>``), then bring own pieces there one
by one (``from <route> <kind>``); ``elsewhere`` picks another target route; ``swap a b``
exchanges an own trader on route a with an own merchant on route b."""
from __future__ import annotations

from .board import side_of
from .state import P, KIND, KIND_BY_WORD, R, level, log, wspace
from ..i18n import N_, lit, msg, say  # noqa: F401


def _own(s: dict, seat: int):
    t, m = f"{seat}t", f"{seat}m"
    out_t, out_m = [], []
    spaces = s["spaces"]
    for r in side_of(s).routes:  # the board's order, not the state's keys' (menus must not change with it)
        sp = spaces[r]
        if t in sp:
            out_t.append(r)
        if m in sp:
            out_m.append(r)
    return out_t, out_m


def _targets(s: dict, seat: int, ot, om) -> list[str]:
    """Routes with an empty space that some own piece elsewhere could move to."""
    src = set(ot)
    src.update(om)
    if not src:
        return []
    only = next(iter(src)) if len(src) == 1 else None
    spaces = s["spaces"]
    return [r for r in side_of(s).routes if r != only and None in spaces[r]]


def _swaps(ot, om) -> list[str]:
    return [f"swap {a} {b}" for a in ot for b in om if a != b]


def available(s: dict, seat: int) -> bool:
    t, m = f"{seat}t", f"{seat}m"
    own = 0
    empty = 0
    for sp in s["spaces"].values():
        if t in sp or m in sp:
            own += 1
            if None in sp:
                empty += 1
        elif None in sp:
            return own > 0 or any(t in x or m in x for x in s["spaces"].values())
    if own == 0:
        return False
    if own >= 2 and empty:
        return True
    ot, om = _own(s, seat)
    if not ot and not om:
        return False
    if _targets(s, seat, ot, om):
        return True
    return level(s["p"][seat], "liber") >= 2 and bool(_swaps(ot, om))


def start(s: dict, seat: int) -> None:
    s["step"] = {"a": "move", "left": level(s["p"][seat], "liber"), "moved": 0, "tgt": None}


def options(s: dict, seat: int) -> list[str]:
    st = s["step"]
    ot, om = _own(s, seat)
    tgt = st["tgt"]
    if tgt is not None:
        out = [f"from {r} trader" for r in ot if r != tgt] + [f"from {r} merchant" for r in om if r != tgt]
        return out + ["elsewhere", "done"]
    out = ["to " + r for r in _targets(s, seat, ot, om)]
    if st["left"] >= 2:
        out += _swaps(ot, om)
    out.append("done" if st["moved"] else "cancel")
    return out


def apply(s: dict, seat: int, words: list[str]) -> None:
    st = s["step"]
    w = words[0]
    if w == "to":
        st["tgt"] = words[1]
        return
    if w == "elsewhere":
        st["tgt"] = None
        _maybe_finish(s, seat)
        return
    if w == "done":
        s["step"] = None
        return
    if st["moved"] == 0:
        s["used"] += 1  # the action is committed with its first move
    if w == "from":
        k = KIND_BY_WORD[words[2]]
        frm, tgt = words[1], st["tgt"]
        sp = wspace(s, frm)
        sp[sp.index(f"{seat}{k}")] = None
        dst = wspace(s, tgt)
        dst[dst.index(None)] = f"{seat}{k}"
        st["left"] -= 1
        st["moved"] += 1
        log(s, seat, msg(N_("{player} moves a {piece} from {frm} to {to}"), player=P(seat), piece=KIND[k], frm=R(s, frm), to=R(s, tgt)))
        if None not in dst:
            st["tgt"] = None
    elif w == "swap":
        a, b = words[1], words[2]
        sa, sb = wspace(s, a), wspace(s, b)
        ia, ib = sa.index(f"{seat}t"), sb.index(f"{seat}m")
        sa[ia], sb[ib] = f"{seat}m", f"{seat}t"
        st["left"] -= 2
        st["moved"] += 2
        log(s, seat, msg(N_("{player} swaps a trader on {a} with a merchant on {b}"), player=P(seat), a=R(s, a), b=R(s, b)))
    _maybe_finish(s, seat)


def _maybe_finish(s: dict, seat: int) -> None:
    st = s["step"]
    if st["left"] <= 0:
        s["step"] = None
    elif st["tgt"] is None and st["moved"] and options(s, seat) == ["done"]:
        s["step"] = None
    elif st["tgt"] is not None and options(s, seat) == ["elsewhere", "done"]:
        st["tgt"] = None
        _maybe_finish(s, seat)
