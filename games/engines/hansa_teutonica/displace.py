"""Action 3: Displace (HT-7.5) and the victim's re-placement (HT-7.5.3-7.5.5, HT-14.2,
HT-C4, HT-C7): the victim's pending decision in ``to_act``."""
from __future__ import annotations

from .board import side_of
from .rules import allowed_route, place_on, replace_targets
from .state import P, KIND, KIND_BY_WORD, R, log, pieces, wspace
from ..i18n import N_, lit, msg, say  # noqa: F401


def _cost(kind: str) -> int:
    return 1 if kind == "t" else 2  # HT-7.5.2 (b)


def _affordable(s: dict, seat: int, occ) -> bool:
    if occ is None or int(occ[0]) == seat:
        return False
    sup = s["p"][seat]["supply"]
    return sup[0] + sup[1] >= 1 + _cost(occ[1])


def target_routes(s: dict, seat: int) -> list[str]:
    sp = s["spaces"]
    return [r for r in side_of(s).routes
            if allowed_route(s, r) and any(_affordable(s, seat, o) for o in sp[r])]


def available(s: dict, seat: int) -> bool:
    sup = s["p"][seat]["supply"]
    if sup[0] + sup[1] < 2:
        return False
    sp = s["spaces"]
    for r in side_of(s).routes:
        if allowed_route(s, r) and any(_affordable(s, seat, o) for o in sp[r]):
            return True
    return False


def _pay_combos(s: dict, seat: int, kind: str):
    sup = s["p"][seat]["supply"]
    cost = _cost(kind)
    out = []
    for pk, idx in (("t", 0), ("m", 1)):
        if sup[idx] == 0:
            continue
        rem = [sup[0] - (idx == 0), sup[1] - (idx == 1)]
        for pm in range(0, cost + 1):
            pt = cost - pm
            if pt <= rem[0] and pm <= rem[1]:
                out.append(f"with {KIND[pk]} pay {pt}t {pm}m")
    return out


def start(s: dict, seat: int) -> None:
    s["step"] = {"a": "displace"}


def options(s: dict, seat: int) -> list[str]:
    st = s["step"]
    if "r" not in st:
        return ["at " + r for r in target_routes(s, seat)] + ["cancel"]
    if "i" not in st:
        sp = s["spaces"][st["r"]]
        return [f"space {i + 1}" for i, o in enumerate(sp) if _affordable(s, seat, o)] + ["cancel"]
    kind = s["spaces"][st["r"]][st["i"]][1]
    return _pay_combos(s, seat, kind) + ["cancel"]


def apply(s: dict, seat: int, words: list[str]) -> None:
    st = s["step"]
    if words[0] == "at":
        st["r"] = words[1]
        sp = s["spaces"][words[1]]
        idx = [i for i, o in enumerate(sp) if _affordable(s, seat, o)]
        if len({sp[i] for i in idx}) == 1:
            st["i"] = idx[0]  # all targets alike: no need to ask
            _maybe_auto(s, seat)
        return
    if words[0] == "space":
        st["i"] = int(words[1]) - 1
        _maybe_auto(s, seat)
        return
    _commit(s, seat, words)


def _maybe_auto(s: dict, seat: int) -> None:
    st = s["step"]
    kind = s["spaces"][st["r"]][st["i"]][1]
    combos = _pay_combos(s, seat, kind)
    if len(combos) == 1:
        _commit(s, seat, combos[0].split())


def _commit(s: dict, seat: int, words: list[str]) -> None:
    st = s["step"]
    s["step"] = None
    route, i = st["r"], st["i"]
    pk = KIND_BY_WORD[words[1]]
    pt, pm = int(words[3][:-1]), int(words[4][:-1])
    victim_piece = s["spaces"][route][i]
    victim, vk = int(victim_piece[0]), victim_piece[1]
    p = s["p"][seat]
    p["supply"][0 if pk == "t" else 1] -= 1
    p["supply"][0] -= pt
    p["supply"][1] -= pm
    p["stock"][0] += pt
    p["stock"][1] += pm
    wspace(s, route)[i] = f"{seat}{pk}"
    s["used"] += 1
    log(s, seat, msg(N_("{player} displaces the {piece} of {other} on {route} with a {own} and pays {pieces} into the stock"),
                     player=P(seat), piece=KIND[vk], other=P(victim), route=R(s, route), own=KIND[pk], pieces=pieces(pt, pm)))
    s["rep"] = {"v": victim, "r": route, "k": vk, "main": False, "max": 1 if vk == "t" else 2,
                "done": 0, "hold": None, "src": None}
    s["phase"] = "replace"
    if not replace_targets(s, route):  # HT-D-9
        s["p"][victim]["stock"][0 if vk == "t" else 1] += 1
        log(s, victim, msg(N_("No empty space anywhere: the displaced {piece} of {player} goes to stock"), piece=KIND[vk], player=P(victim)))
        _finish(s)
        return
    if s["auto"][victim]:
        while s["phase"] == "replace":
            rep_apply(s, victim, rep_default(s).split())


# ---------------------------------------------------------------- re-placement
def _source(s: dict) -> str:
    """HT-D-7: stock, then personal supply, then the victim's own pieces on the board."""
    p = s["p"][s["rep"]["v"]]
    if p["stock"][0] + p["stock"][1]:
        return "stock"
    if p["supply"][0] + p["supply"][1]:
        return "supply"
    return "board"


def _free_spaces(s: dict) -> int:
    """Empty spaces a re-placed piece could ever use (every route but the origin, HT-D-8)."""
    origin = s["rep"]["r"]
    return sum(sp.count(None) for r, sp in s["spaces"].items() if r != origin)


def _lifts(s: dict) -> list[str]:
    rep = s["rep"]
    v = str(rep["v"])
    out = []
    # after lifting, the vacated space counts as empty (HT-C7); a space vacated on the
    # origin is no target, so lifting there needs a free space elsewhere for the lifted
    # piece and, while it is unplaced, one more for the displaced piece (HT-7.5.3)
    need = 1 if rep["main"] else 2
    from_origin_ok = _free_spaces(s) >= need
    for r in side_of(s).routes:
        sp = s["spaces"][r]
        for k in ("t", "m"):
            if v + k in sp:
                if from_origin_ok or r != rep["r"]:
                    out.append(f"lift {r} {KIND[k]}")
    return out


def rep_options(s: dict) -> list[str]:
    rep = s["rep"]
    if rep["hold"] is not None:
        return ["to " + r for r in replace_targets(s, rep["r"])]
    out = []
    if not rep["main"]:
        out.append("pick displaced")
    if rep["done"] < rep["max"] and replace_targets(s, rep["r"]):
        src = _source(s)
        p = s["p"][rep["v"]]
        if src == "board":
            out += _lifts(s)
        elif not rep["main"] and _free_spaces(s) < 2:
            pass  # HT-7.5.3: an extra may not take the displaced piece's last space
        else:
            pool = p[src]
            if pool[0]:
                out.append("pick trader")
            if pool[1]:
                out.append("pick merchant")
    if rep["main"]:
        out.append("done")
    return out


def rep_default(s: dict) -> str:
    """HT-14.2 default: the displaced piece, then as many extras as the stock alone gives
    (traders first), each on the lowest-id legal space."""
    rep = s["rep"]
    if rep["hold"] is not None:
        return "to " + replace_targets(s, rep["r"])[0]
    if not rep["main"]:
        return "pick displaced"
    p = s["p"][rep["v"]]
    if rep["done"] < rep["max"] and replace_targets(s, rep["r"]) and p["stock"][0] + p["stock"][1]:
        return "pick trader" if p["stock"][0] else "pick merchant"
    return "done"


def rep_apply(s: dict, seat: int, words: list[str]) -> None:
    rep = s["rep"]
    w = words[0]
    if w == "pick":
        if words[1] == "displaced":
            rep["hold"], rep["src"] = rep["k"], "displaced"
        else:
            k = KIND_BY_WORD[words[1]]
            src = _source(s)
            s["p"][seat][src][0 if k == "t" else 1] -= 1
            rep["hold"], rep["src"] = k, src
        return
    if w == "lift":
        route, k = words[1], KIND_BY_WORD[words[2]]
        sp = wspace(s, route)
        sp[sp.index(f"{seat}{k}")] = None
        rep["hold"], rep["src"] = k, "board"
        log(s, seat, msg(N_("{player} lifts a {piece} from {route}"), player=P(seat), piece=KIND[k], route=R(s, route)))
        return
    if w == "to":
        k = rep["hold"]
        i = place_on(s, words[1], f"{seat}{k}")
        if rep["src"] == "displaced":
            said = msg(N_("{player} re-places the displaced {piece} on {route} (space {n})"), player=P(seat), piece=KIND[k],
                       route=R(s, words[1]), n=i + 1)
        else:
            key = {"stock": N_("{player} re-places an extra {piece} from the stock on {route} (space {n})"),
                   "supply": N_("{player} re-places an extra {piece} from the supply on {route} (space {n})")}
            said = msg(key.get(rep["src"], N_("{player} re-places an extra {piece} on {route} (space {n})")),
                       player=P(seat), piece=KIND[k], route=R(s, words[1]), n=i + 1)
        log(s, seat, said)
        if rep["src"] == "displaced":
            rep["main"] = True
        else:
            rep["done"] += 1
        rep["hold"] = rep["src"] = None
        if rep["main"] and (rep["done"] >= rep["max"] or not replace_targets(s, rep["r"])):
            _finish(s)
        elif not rep["main"] and not replace_targets(s, rep["r"]):
            s["p"][seat]["stock"][0 if rep["k"] == "t" else 1] += 1  # HT-D-9
            log(s, seat, msg(N_("No empty space left: the displaced {piece} of {player} goes to stock"), piece=KIND[rep["k"]], player=P(seat)))
            _finish(s)
        return
    if w == "done":
        _finish(s)


def _finish(s: dict) -> None:
    s["rep"] = None
    s["phase"] = "turn"
