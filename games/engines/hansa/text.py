"""Plain-text rendering of a Hansa view for emails.

``_`` translates a text (the presentation layer passes the viewer's language; English without)."""
from __future__ import annotations

from ..i18n import N_, render
from .board import BOARD
from .state import A_TILE

PHASES = {"place": N_("initial placement"), "start": N_("waiting for a loss choice before the next turn"),
          "fill": N_("phase 2 (warehouses)"), "actions": N_("phase 3 (actions)"), "discard": N_("phase 4 (tax and toll)"),
          "final": N_("waiting for loss choices before the final scoring"), "over": N_("game over")}


def _name(names, seat, _=render) -> str:
    if seat is None:
        return "-"
    if names and 0 <= seat < len(names):
        return str(names[seat])
    return _("Player {n}").format(n=seat + 1)


def _tile(tile: str, _) -> str:
    """A goods tile in words, the colour inflected ("grünes Plättchen mit 3 Fässern"), never ``green/3``."""
    colour, _sep, value = tile.partition("/")
    try:
        return _(A_TILE[(colour, int(value) == 1)]).format(n=value)
    except (KeyError, ValueError):
        return f"{_(colour)} {value}"


def render_text(view: dict, names=None, _=render) -> str:
    names = list(names or [])
    out = []
    n = view["players"]
    colour = {p["seat"]: _(p["colour"]) for p in view["seats"]}
    city = lambda c: _(BOARD.city_names.get(c, c))  # noqa: E731
    ship = city(view["ship"])
    out.append(f"HANSA - {_(PHASES.get(view['phase'], view['phase']))}")
    if view["phase"] not in ("over",):
        out.append(_("Turn: {name} ({colour}). The ship is in {city}.").format(
            name=_name(names, view["active"], _), colour=colour[view["active"]], city=ship))
    out.append(_("Start player: {start}; the last player in turn order is {last}.").format(
        start=_name(names, view["start_player"], _), last=_name(names, view["last_player"], _)))
    stacks = ", ".join(str(c) for c in view["stacks"])  # tiles left in each stack
    out.append(_("Supply stacks (front to back): {stacks}").format(stacks=stacks))
    if view["end_triggered"] and not view["over"]:
        out.append(_("The last stack has been opened: this is the final round."))
    if view["removed_colours"]:
        out.append(_("Colours not in this game: {colours}").format(colours=", ".join(_(c) for c in view["removed_colours"])))
    out.append("")
    out.append(_("CITIES (fill number, warehouses, stalls, routes out)"))
    for c in view["cities"]:
        slots = "; ".join(_tile(t, _) if t else _("empty warehouse") for t in c["slots"])
        stalls = ", ".join(f"{colour[p]} {k}" for p, k in enumerate(c["stalls"]) if k) or _("no stalls")
        routes = ", ".join(city(r) for r in c["routes_to"])
        mark = " <- " + _("ship") if c["id"] == view["ship"] else ""
        out.append(f"{c['fill_number']} {_(c['name'])}: {slots}; {stalls}; " + _("to {cities}").format(cities=routes) + mark)
    out.append("")
    out.append(_("PLAYERS"))
    none = _("none")
    for p in view["seats"]:
        seat = p["seat"]
        who = _name(names, seat, _) + (" " + _("(you)") if seat == view["you"] else "")
        where = ", ".join(f"{city(c)} {k}" for c, k in p["stalls"].items()) or none
        coins = (_("1 coin") if p["coins"] == 1 else _("{n} coins").format(n=p["coins"]))
        out.append(_("{who} [{colour}]: {coins}; face-up: {tiles}; sold: {sold} ({points} pts); stalls in supply "
                     "{supply}; stalls on the board: {where}").format(
            who=who, colour=_(p["colour"]), coins=coins, tiles=", ".join(_tile(t, _) for t in p["tiles"]) or none,
            sold=", ".join(_tile(t, _) for t in p["sold"]) or none, points=p["sold_points"], supply=p["supply"],
            where=where))
        if p["owes"]:
            out.append("   " + _("still to choose a tile to lose: {owed}").format(
                owed=", ".join(f"{k} {_(c)}" for c, k in p["owes"].items())))
    if view.get("result"):
        out.append("")
        out.append(_("FINAL SCORE"))
        r = view["result"]
        for seat in sorted(range(n), key=lambda s: r["ranking"][s]):
            parts = ", ".join(f"{_(k)} {v}" for k, v in r["breakdown"][seat].items())
            out.append(_("{place}. {name}: {score} points ({parts}; {stalls} stalls on the board)").format(
                place=r["ranking"][seat], name=_name(names, seat, _), score=r["scores"][seat], parts=parts,
                stalls=r["stalls_on_board"][seat]))
    out.append("")
    if view["to_act"]:
        out.append(_("Waiting for: {names}").format(names=", ".join(_name(names, s, _) for s in view["to_act"])))
    if view.get("prompt"):
        out.append(_("YOU: {prompt}").format(prompt=_(view.get("prompt_msg") or view["prompt"])))
    if view.get("settings") is not None:
        mode = _("ask me") if view["settings"].get("ask_losses") else _("automatic (lowest barrel value)")
        out.append(_("Your setting for tile losses: {mode}.").format(mode=mode))
    return "\n".join(out) + "\n"
