"""Action 1: Assign / Bursa (HT-7.3, HT-D-5). The player takes min(Bursa, stock) pieces
and chooses the mix of traders and merchants."""
from __future__ import annotations

from .state import P, level, log, pieces
from ..i18n import N_, lit, msg, say  # noqa: F401


def available(s: dict, seat: int) -> bool:
    st = s["p"][seat]["stock"]
    return st[0] + st[1] > 0  # HT-D-5


def combos(s: dict, seat: int) -> list[tuple[int, int]]:
    p = s["p"][seat]
    st_t, st_m = p["stock"]
    k = min(level(p, "bursa"), st_t + st_m)
    return [(k - m, m) for m in range(min(st_m, k), -1, -1) if k - m <= st_t][::-1]


def text(t: int, m: int) -> str:
    return f"take {t}t {m}m"


def start(s: dict, seat: int) -> None:
    cs = combos(s, seat)
    if len(cs) == 1:
        do(s, seat, *cs[0])
    else:
        s["step"] = {"a": "assign"}


def options(s: dict, seat: int) -> list[str]:
    return [text(t, m) for t, m in combos(s, seat)] + ["cancel"]


def apply(s: dict, seat: int, words: list[str]) -> None:
    t, m = int(words[1][:-1]), int(words[2][:-1])
    s["step"] = None
    do(s, seat, t, m)


def do(s: dict, seat: int, t: int, m: int) -> None:
    p = s["p"][seat]
    p["stock"][0] -= t
    p["stock"][1] -= m
    p["supply"][0] += t
    p["supply"][1] += m
    s["used"] += 1
    log(s, seat, msg(N_("{player} takes income: {pieces} from the stock to the supply"), player=P(seat), pieces=pieces(t, m)))
