"""Plain-text picture of a view, for emails.

``_`` translates a text (the presentation layer passes the viewer's language; English without)."""
from __future__ import annotations

from ..i18n import N_, render  # noqa: F401
from .board import ABILITY_NAMES, MARKER_NAMES
from .state import pieces, province

_PRIVILEGE = [N_("white"), N_("orange"), N_("pink"), N_("black")]


def _name(names, seat, _=render) -> str:
    if seat is None:
        return "-"
    try:
        return str(names[seat])
    except (IndexError, KeyError, TypeError):
        return _("Player {n}").format(n=seat + 1)


def _piece(p, names, _=render) -> str:
    if p is None:
        return _("empty")
    key = N_("trader of {name}") if p["kind"] == "trader" else N_("merchant of {name}")
    return _(key).format(name=_name(names, p["seat"], _))


def _house(n: int, h: dict, name, _=render) -> str:
    """A Kontor house in words: its number, colour and shape, the gold coin, who holds it."""
    shape = _("square") if h["shape"] == "square" else _("round")
    what = (_("house {n} ({colour}, {shape}, gold coin)") if h["coin"] else _("house {n} ({colour}, {shape})")).format(
        n=n, colour=_(h["colour"]), shape=shape)
    who = name(h["occupant"]) if h["occupant"] is not None else _("free")
    return f"{what}: {who}"


def render_text(view: dict, names, _=render) -> str:
    lines = []
    n = view["players"]
    names = list(names) if names else [_("Player {n}").format(n=i + 1) for i in range(n)]
    name = lambda s: _name(names, s, _)  # noqa: E731
    side = _("({side} player board)").format(side=view["side"])
    lines.append(f"HANSA TEUTONICA {side}")
    if view["over"]:
        lines.append(_("The game is over."))
    else:
        lines.append(_("Turn of {name}: {used} of {allowed} actions used.").format(
            name=name(view["active"]), used=view["actions"]["used"], allowed=view["actions"]["allowed"]))
    if view.get("two_player"):
        lines.append(_("Pawn: {province}.").format(province=_(province(view["pawn"])) if view.get("pawn") else _("(not yet placed)")))
    lines.append(_("Completed cities: {n}/10. Bonus markers in supply: {supply}.").format(
        n=view["completed_cities"], supply=view["bonus_supply"]))
    lines.append("")
    lines.append(_("PLAYERS"))
    for d in view["desks"]:
        i = d["seat"]
        ab = ", ".join(
            f"{_(ABILITY_NAMES[a])} "
            f"{('C' if x['level'] == 99 else x['level']) if a != 'privilegium' else _(_PRIVILEGE[x['level'] - 1])}"
            for a, x in d["abilities"].items())
        mk = ", ".join(_(MARKER_NAMES[m["type"]]) + (" " + _("(used)") if m["used"] else "") for m in d["markers"]) \
            or _("none")
        lines.append("- " + _("{name}: {pp} PP; supply: {supply}; stock: {stock}").format(
            name=name(i), pp=d["pp"], supply=_(pieces(d["supply"]["traders"], d["supply"]["merchants"])),
            stock=_(pieces(d["stock"]["traders"], d["stock"]["merchants"]))))
        lines.append(f"    {ab}")
        line = "    " + _("markers: {markers}").format(markers=mk)
        if d["drawn"]:
            line += "; " + _("{n} drawn face down").format(n=d["drawn"])
        if d["east_west"]:
            line += "; " + _("East-West #{n}").format(n=d["east_west"])
        lines.append(line)
    lines.append("")
    lines.append(_("CITIES (Kontor houses from left to right)"))
    for c in view["cities"]:
        hs = "; ".join(_house(k + 1, h, name, _) for k, h in enumerate(c["houses"]))
        extra = ("; " + _("Extra Kontors: {names}").format(names=", ".join(name(x) for x in c["extras"]))) if c["extras"] else ""
        ab = f" ({_(ABILITY_NAMES[c['ability']])})" if c["ability"] else ""
        ctl = " " + _("controlled by {name}").format(name=name(c["controller"])) if c["controller"] is not None else ""
        lines.append(f"  {c['name']}{ab}: {hs}{extra}{ctl}")
    cf = ", ".join(f"{_(f['colour'])} {f['points']}: {name(f['occupant']) if f['occupant'] is not None else _('free')}"
                   for f in view["coellen"])
    lines.append("  " + _("Coellen prestige box: {fields}").format(fields=cf))
    lines.append("")
    lines.append(_("ROUTES (spaces from left to right; bonus marker)"))
    for r in view["routes"]:
        sp = ", ".join(_piece(p, names, _) for p in r["spaces"])
        mk = "; " + _("bonus marker: {marker}").format(marker=_(MARKER_NAMES[r["marker"]])) if r["marker"] else ""
        lines.append(f"  {r.get('name') or r['id']}: {sp}{mk}")
    if view.get("your_drawn_markers"):
        lines.append("")
        lines.append(_("Your drawn markers to place: {markers}").format(
            markers=", ".join(_(MARKER_NAMES[m]) for m in view["your_drawn_markers"])))
    if view.get("result"):
        lines.append("")
        lines.append(_("FINAL SCORES"))
        res = view["result"]
        for i in range(n):
            parts = ", ".join(f"{_(k)} {v}" for k, v in res["breakdown"][i].items())
            lines.append(f"  {res['ranking'][i]}. {name(i)}: {res['scores'][i]} ({parts})")
    if view["prompt"]:
        lines.append("")
        lines.append(_("YOUR DECISION: {prompt}").format(prompt=_(view.get("prompt_msg") or view["prompt"])))
    return "\n".join(lines) + "\n"
