"""Plain-text rendering of a view for emails.

``_`` translates a text (the presentation layer passes the viewer's language; English without)."""
from __future__ import annotations

from ..i18n import N_, render  # noqa: F401
from .board import BOARD, GOOD_NAMES, the_ship


def _capital(text: str) -> str:
    """A phrase at the start of a line: "Das rote Schiff", "Het rode schip"."""
    return text[:1].upper() + text[1:]


def _name(names, seat, _=render):
    if seat is None:
        return "-"
    try:
        return str(names[seat])
    except (IndexError, KeyError, TypeError):
        return _("Player {n}").format(n=seat + 1)


def _fill(text: str, names) -> str:
    for i in range(len(names or [])):
        text = text.replace("{p%d}" % i, _name(names, i))
    return text


def _stones(half: dict, _=render) -> str:
    goods = half["goods"]
    if not goods:
        return _("empty")
    if "values" in half:
        return ", ".join("%s(%d)" % (_(GOOD_NAMES.get(g, g)), v) for g, v in zip(goods, half["values"]))
    return ", ".join(_(GOOD_NAMES.get(g, g)) for g in goods)


def render_text(view: dict, names, _=render) -> str:
    you = view.get("you")
    name = lambda s: _name(names, s, _)  # noqa: E731
    good = lambda g: _(GOOD_NAMES.get(g, g))  # noqa: E731
    harbour = lambda h: _(BOARD.harbour_name[h])  # noqa: E731
    lines = ["Die Hanse — " + _("{n} players").format(n=view["players"])]
    w = view["wind"]
    lines.append(_("Wind: North Sea {north}, Baltic {baltic}.").format(north=w["north"], baltic=w["baltic"]))
    if view.get("blockade"):
        b = view["blockade"]
        lines.append(_("Blockade: {target}.").format(target=_("the Sund") if b == "sund" else harbour(b)))
    if view.get("pirate"):
        lines.append(_("Pirate ship at {field}.").format(field=_(BOARD.field_words(BOARD.by_label[view["pirate"]]))))
    lines.append("")
    lines.append(_("Ships (stern holder / bow holder):"))
    for sh in view["ships"]:
        extra = " " + _("(sits out its next move)") if sh["skip"] else ""
        lines.append("  " + _("{ship}: {field}; stern ({stern}): {stern_goods}; bow ({bow}): {bow_goods}").format(
            ship=_capital(_(the_ship(sh["name"]))), field=_(BOARD.field_words(sh["hex"])), stern=name(sh["stern"]["seat"]),
            stern_goods=_stones(sh["stern"], _), bow=name(sh["bow"]["seat"]), bow_goods=_stones(sh["bow"], _)) + extra)
    lines.append("")
    lines.append(_("Storages:"))
    for p, st in enumerate(view["storages"]):
        slots = []
        for s in st["slots"]:
            g = good(s["good"])
            if s["filled"]:
                slots.append("[%s%s]" % (g, "=%d" % s["value"] if "value" in s else ""))
            else:
                slots.append("( %s )" % g)
        sp = view["special"][p]
        cards = [_(c) for c, k in ((N_("Privilege"), "privilege"), (N_("Kaperbrief"), "kaperbrief")) if sp[k]]
        lines.append("  " + _("{name}: {slots}  special cards: {cards}").format(
            name=name(p), slots=" ".join(slots), cards=", ".join(cards) or _("none")))
    lines.append("")
    pools = []
    for h in ("luebeck", "bergen", "danzig", "stockholm", "nowgorod", "london", "bremen"):
        goods = view["pools"].get(h, {})
        pools.append("%s: %s" % (harbour(h), ", ".join("%d %s" % (c, good(g)) for g, c in goods.items()) or _("none")))
    lines.append(_("Goods in the harbours: {pools}.").format(pools="; ".join(pools)))
    lines.append(_("Draw pile {n} cards; discarded {d}.").format(n=view["deck"], d=len(view["discard"])))
    for ht in view.get("hansetage", []):
        lines.append(_("Hansetag called by {name}: round 2 is turns {a}–{b}.").format(
            name=name(ht["caller"]), a=ht["round2_turns"][0] + 1, b=ht["round2_turns"][1] + 1))
    if you is not None and "hand" in view:
        lines.append("")
        lines.append(_("Your harbour cards: {cards}.").format(
            cards="; ".join(_(c.get("title_msg") or c["title"]) for c in view["hand"])))
        d = view.get("phase", {}).get("drawing")
        if d and "values" in d:
            lines.append(_("You drew {good} of values {values}.").format(good=good(d["good"]),
                                                                        values=", ".join(map(str, d["values"]))))
    lines.append("")
    if view["over"] and view.get("result"):
        res = view["result"]
        lines.append(_("Game over. Final scores:"))
        for p, score in enumerate(res["scores"]):
            parts = ", ".join("%s %d" % (_(k), v) for k, v in res["breakdown"][p].items() if v)
            lines.append("  %d. %s: %d (%s)" % (res["ranking"][p], name(p), score, parts or "0"))
    else:
        lines.append(_("Waiting for: {names}.").format(names=", ".join(name(s) for s in view["to_act"])))
        if view.get("prompt"):
            lines.append(_fill(_(view.get("prompt_msg") or view["prompt"]), names))
    return "\n".join(lines) + "\n"
