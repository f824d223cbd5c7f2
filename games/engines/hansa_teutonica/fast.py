"""A quick legality check for the most frequent moves, so that ``apply`` need not rebuild
the whole list of legal moves. It may only answer True for a move that ``legal_moves``
lists (tests/engines/hansa_teutonica/test_fast.py checks this); any other answer falls
back to the full list."""
from __future__ import annotations

from . import assign, displace, move, place

_KIND = {"trader": "t", "merchant": "m"}


def quick_ok(s: dict, seat: int, text: str) -> bool:
    if s["phase"] != "turn" or seat != s["active"]:
        return False
    st = s["step"]
    if st is None:
        if text == "end":
            return True
        if s["acts"] - s["used"] <= 0:
            return False
        if text == "assign":
            return assign.available(s, seat)
        if text == "place":
            return place.available(s, seat)
        if text == "move":
            return move.available(s, seat)
        if text == "displace":
            return displace.available(s, seat)
        return False
    if st["a"] != "move":
        return False
    words = text.split(" ")
    tgt = st["tgt"]
    spaces = s["spaces"]
    if tgt is not None:
        if text in ("elsewhere", "done"):
            return True
        if len(words) == 3 and words[0] == "from" and words[2] in _KIND:
            r = words[1]
            return r != tgt and r in spaces and f"{seat}{_KIND[words[2]]}" in spaces[r] and None in spaces[tgt]
        return False
    if text == "done":
        return st["moved"] > 0
    if len(words) == 2 and words[0] == "to":
        r = words[1]
        if r not in spaces or None not in spaces[r]:
            return False
        t, m = f"{seat}t", f"{seat}m"
        return any(k != r and (t in sp or m in sp) for k, sp in spaces.items())
    return False
