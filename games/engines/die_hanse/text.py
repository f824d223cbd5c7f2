"""Plain-text rendering of a view for emails."""
from __future__ import annotations

from .board import BOARD, GOOD_NAMES
from ..i18n import N_, render  # noqa: F401


def _name(names, seat):
    if seat is None:
        return "-"
    try:
        return str(names[seat])
    except (IndexError, KeyError, TypeError):
        return "player %d" % (seat + 1)


def _fill(text: str, names) -> str:
    for i in range(len(names or [])):
        text = text.replace("{p%d}" % i, _name(names, i))
    return text


def _stones(half: dict) -> str:
    goods = half["goods"]
    if not goods:
        return "empty"
    if "values" in half:
        return ", ".join("%s(%d)" % (g, v) for g, v in zip(goods, half["values"]))
    return ", ".join(goods)


def render_text(view: dict, names, _=render) -> str:
    you = view.get("you")
    lines = ["Die Hanse — %d players" % view["players"]]
    w = view["wind"]
    lines.append("Wind: North Sea %d, Baltic %d." % (w["north"], w["baltic"]))
    if view.get("blockade"):
        b = view["blockade"]
        lines.append("Blockade: %s." % ("the Sund" if b == "sund" else BOARD.harbour_name[b]))
    if view.get("pirate"):
        lines.append("Pirate ship at %s." % view["pirate"])
    lines.append("")
    lines.append("Ships (stern holder / bow holder):")
    for sh in view["ships"]:
        where = sh["at"]
        extra = " (sits out its next move)" if sh["skip"] else ""
        lines.append("  %-7s at %-10s stern %s: %s | bow %s: %s%s" % (
            sh["name"], where, _name(names, sh["stern"]["seat"]), _stones(sh["stern"]),
            _name(names, sh["bow"]["seat"]), _stones(sh["bow"]), extra))
    lines.append("")
    lines.append("Storages:")
    for p, st in enumerate(view["storages"]):
        slots = []
        for s in st["slots"]:
            g = GOOD_NAMES[s["good"]]
            if s["filled"]:
                slots.append("[%s%s]" % (g, "=%d" % s["value"] if "value" in s else ""))
            else:
                slots.append("( %s )" % g)
        sp = view["special"][p]
        cards = [c for c, k in (("Privilege", "privilege"), ("Kaperbrief", "kaperbrief")) if sp[k]]
        lines.append("  %s: %s  special cards: %s" % (_name(names, p), " ".join(slots), ", ".join(cards) or "none"))
    lines.append("")
    pools = []
    for h in ("luebeck", "bergen", "danzig", "stockholm", "nowgorod", "london", "bremen"):
        goods = view["pools"].get(h, {})
        pools.append("%s: %s" % (BOARD.harbour_name[h], ", ".join("%d %s" % (c, g) for g, c in goods.items()) or "none"))
    lines.append("Goods in the harbours: " + "; ".join(pools) + ".")
    lines.append("Draw pile %d cards; discarded %d." % (view["deck"], len(view["discard"])))
    for ht in view.get("hansetage", []):
        lines.append("Hansetag called by %s: round 2 is turns %d–%d." % (
            _name(names, ht["caller"]), ht["round2_turns"][0] + 1, ht["round2_turns"][1] + 1))
    if you is not None and "hand" in view:
        lines.append("")
        lines.append("Your harbour cards: " + "; ".join(c["title"] for c in view["hand"]) + ".")
        d = view.get("phase", {}).get("drawing")
        if d and "values" in d:
            lines.append("You drew %s of values %s." % (d["good"], ", ".join(map(str, d["values"]))))
    lines.append("")
    if view["over"] and view.get("result"):
        res = view["result"]
        lines.append("Game over. Final scores:")
        for p, score in enumerate(res["scores"]):
            parts = ", ".join("%s %d" % (k, v) for k, v in res["breakdown"][p].items() if v)
            lines.append("  %d. %s: %d (%s)" % (res["ranking"][p], _name(names, p), score, parts or "0"))
    else:
        lines.append("Waiting for: %s." % ", ".join(_name(names, s) for s in view["to_act"]))
        if view.get("prompt"):
            lines.append(_fill(view["prompt"], names))
    return "\n".join(lines) + "\n"
