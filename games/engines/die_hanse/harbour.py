"""The harbour procedure (HANSE-8): trades, Lübeck unloading/discarding/refilling, then the
mandatory harbour card."""
from __future__ import annotations

from itertools import product

from .board import BOARD, GOODS
from .state import P, draw_stones, half, holders, log, pool, return_stone, storage_full
from ..i18n import N_, lit, msg, say  # noqa: F401

ORDER = {g: i for i, g in enumerate(GOODS)}


def new_frame(state: dict, ship: int, hexid: str, mover: int) -> dict:
    a, b = holders(state, ship)
    return {"k": "harbour", "ship": ship, "h": BOARD.harbour_at[hexid], "mover": mover,
            "partner": b if mover == a else a, "stage": "mover", "queue": [], "draw": None, "sub": None}


def trader(frame: dict) -> int:
    return frame["mover"] if frame["stage"] == "mover" else frame["partner"]


def offered(state: dict, harbour: str) -> set:
    """HANSE-8.4: goods with at least one stone lying at this harbour."""
    return {g for g, p in state["_pools"][harbour].items() if p}


def trade_options(state: dict, seat: int, ship: int, harbour: str) -> list:
    """Every trade declaration (HANSE-8.5, 8.6.1) as canonical text."""
    stones = half(state, seat, ship)
    counts = {}
    for g, _v in stones:
        counts[g] = counts.get(g, 0) + 1
    here = offered(state, harbour)
    per_type = []
    for g in sorted(counts, key=ORDER.__getitem__):
        targets = [t for t in BOARD.tree.get(g, []) + [g] if t in here]
        targets.sort(key=ORDER.__getitem__)
        if not targets:
            continue
        splits = []
        c = counts[g]
        for combo in product(range(c + 1), repeat=len(targets)):
            if sum(combo) <= c:
                splits.append([(k, g, t) for k, t in zip(combo, targets) if k])
        per_type.append(splits)
    out = []
    for combo in product(*per_type):
        parts = [p for split in combo for p in split]
        if parts:
            out.append("trade " + " ".join(f"{k} {g} {t}" for k, g, t in parts))
    return sorted(out)


def step_moves(state: dict, frame: dict) -> list:
    """The harbour step menu: trades and discards open a small sub-menu (``trade`` / ``discard``)."""
    seat = trader(frame)
    ship, h = frame["ship"], frame["h"]
    if frame["draw"] is not None:
        vals = sorted(set(frame["draw"]["vals"]), reverse=True)
        return [f"keep {v}" for v in vals]
    stones = half(state, seat, ship)
    types = sorted({g for g, _ in stones}, key=ORDER.__getitem__)
    sub = frame.get("sub")
    if sub == "trade":
        return trade_options(state, seat, ship, h) + ["back", "done"]
    if sub == "discard":
        return [f"discard {g}" for g in types] + ["back", "done"]
    moves = []
    if trade_options(state, seat, ship, h):
        moves.append("trade")
    if h == "luebeck":
        st = state["store"][seat]
        fits = [g for g in types if any(sg == g and v is None for sg, v in zip(st["goods"], st["vals"]))]
        if len(fits) > 1 or (fits and sum(1 for s in stones if s[0] == fits[0]) > 1):
            moves.append("unload all")
        moves += [f"unload {g}" for g in fits]
        if types:
            moves.append("discard")
        if len(stones) < 3 and pool(state, "luebeck", "salt"):
            moves.append("refill")
    moves.append("done")
    return moves


def partner_has_nothing(state: dict, frame: dict) -> bool:
    """HANSE-C5: the partner step is skipped when nothing is legal there."""
    if frame["h"] == "luebeck":
        return False
    return not trade_options(state, frame["partner"], frame["ship"], frame["h"])


def apply_step(state: dict, frame: dict, seat: int, move: str) -> None:
    words = move.split()
    ship, h = frame["ship"], frame["h"]
    stones = half(state, seat, ship)
    if words == ["trade"] or words == ["discard"]:
        frame["sub"] = words[0]
        return
    frame["sub"] = None
    if words[0] == "back":
        return
    if words[0] == "keep":
        keep_draw(state, frame, seat, int(words[1]))
        run_queue(state, frame, seat)
    elif words[0] == "trade":
        # HANSE-8.6.1: the announced stones are chosen now, from the half as it is (the lowest of each
        # type); a stone drawn by an earlier exchange of this declaration is never given up by it
        queue = []
        parts = []
        chosen = {}
        for i in range(1, len(words), 3):
            k, g, t = int(words[i]), words[i + 1], words[i + 2]
            if g not in chosen:
                chosen[g] = sorted(v for sg, v in stones if sg == g)
            for _ in range(k):
                queue.append([g, t, chosen[g].pop(0)])
            parts.append(msg(N_("{n} {good} for {other}"), n=k, good=g, other=t))
        log(state, seat, msg(N_("{player} trades {parts} in {harbour}"), player=P(seat), parts=parts,
                             harbour=BOARD.harbour_name[h]))
        frame["queue"] = queue
        run_queue(state, frame, seat)
    elif words == ["unload", "all"]:
        while True:
            st = state["store"][seat]
            fits = [s[0] for s in stones if any(sg == s[0] and v is None for sg, v in zip(st["goods"], st["vals"]))]
            if not fits:
                break
            unload(state, frame, seat, fits[0])
    elif words[0] == "unload":
        unload(state, frame, seat, words[1])
    elif words[0] == "discard":
        g = words[1]
        low = min((i for i, s in enumerate(stones) if s[0] == g), key=lambda i: stones[i][1])
        stone = stones.pop(low)
        return_stone(state, stone[0], stone[1])
        log(state, seat, msg(N_("{player} discards {good} in Lübeck"), player=P(seat), good=g))
    elif words[0] == "refill":
        refill(state, seat, ship)
    elif words[0] in ("done", "timeout"):
        if words[0] == "timeout" and frame["stage"] == "partner" and h == "luebeck":
            refill(state, seat, ship)  # HANSE-14.2 default
        finish_step(state, frame)


def unload(state: dict, frame: dict, seat: int, g: str) -> None:
    """HANSE-8.8.1: the best stone of that type onto an empty slot showing it."""
    ship = frame["ship"]
    stones = half(state, seat, ship)
    best = max((i for i, s in enumerate(stones) if s[0] == g), key=lambda i: stones[i][1])
    stone = stones.pop(best)
    st = state["store"][seat]
    slot = next(i for i, (sg, v) in enumerate(zip(st["goods"], st["vals"])) if sg == g and v is None)
    st["vals"][slot] = stone[1]
    log(state, seat, msg(N_("{player} unloads {good} into storage"), player=P(seat), good=g))
    if state["final"] is None and storage_full(state, seat):
        # HANSE-13.1: first filler, completing ship and partner
        p = holders(state, ship)[1] if seat == ship else holders(state, ship)[0]
        state["final"] = {"f": seat, "partner": p, "t": state["turn"], "ship": ship}
        log(state, seat, msg(N_("{player}'s storage is full: the game ends after one more turn for the others"), player=P(seat)))


def refill(state: dict, seat: int, ship: int) -> None:
    stones = half(state, seat, ship)
    salt = pool(state, "luebeck", "salt")
    k = 0
    while len(stones) < 3 and salt:
        stones.append(["salt", salt.pop()])
        k += 1
    if k:
        log(state, seat, msg(N_("{player} takes {n} salt"), player=P(seat), n=k))


def finish_step(state: dict, frame: dict) -> None:
    if frame["stage"] == "mover":
        frame["stage"] = "partner"
        if partner_has_nothing(state, frame):
            frame["stage"] = "card"
    else:
        frame["stage"] = "card"


def run_queue(state: dict, frame: dict, seat: int) -> None:
    """HANSE-C6: exchanges one at a time; an empty target supply cancels the rest into that type."""
    ship, h = frame["ship"], frame["h"]
    stones = half(state, seat, ship)
    while frame["queue"]:
        g, t, v = (frame["queue"].pop(0) + [None])[:3]  # (states saved before the value was kept: None)
        if not pool(state, h, t):
            left = [q for q in frame["queue"] if q[1] == t]
            frame["queue"] = [q for q in frame["queue"] if q[1] != t]
            log(state, seat, msg(N_("no {good} left in {harbour}: {n} exchange(s) cancelled"), good=t,
                                 harbour=BOARD.harbour_name[h], n=len(left) + 1))
            continue
        if v is None:
            v = min(s[1] for s in stones if s[0] == g)
        stone = stones.pop(next(i for i, s in enumerate(stones) if s[0] == g and s[1] == v))
        return_stone(state, stone[0], stone[1])
        vals = draw_stones(state, h, t, 3)
        frame["draw"] = {"good": t, "vals": vals}
        if len(set(vals)) == 1:
            keep_draw(state, frame, seat, vals[0])
            continue
        log(state, seat, msg(N_("{player} draws {good}: {values}"), player=P(seat), good=t, values=lit(", ".join(map(str, vals)))),
            only=[seat], redacted=msg(N_("{player} draws {n} {good}"), player=P(seat), n=len(vals), good=t))
        return


def keep_draw(state: dict, frame: dict, seat: int, value: int) -> None:
    d = frame["draw"]
    vals = list(d["vals"])
    vals.remove(value)
    half(state, seat, frame["ship"]).append([d["good"], value])
    pool(state, frame["h"], d["good"]).extend(vals)
    frame["draw"] = None
    log(state, seat, msg(N_("{player} keeps a {good} of value {value}"), player=P(seat), good=d["good"], value=value),
        only=[seat], redacted=msg(N_("{player} keeps one {good}"), player=P(seat), good=d["good"]))


def default(state: dict, frame: dict) -> str:
    if frame["draw"] is not None:
        return "keep %d" % max(frame["draw"]["vals"])
    if frame["stage"] == "partner":
        return "timeout"
    return "done"
