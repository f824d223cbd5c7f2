"""Plain-text rendering of a Hansa view for emails."""
from __future__ import annotations


from .board import BOARD

PHASES = {"place": "initial placement", "start": "waiting for a loss choice before the next turn",
          "fill": "phase 2 (warehouses)", "actions": "phase 3 (actions)", "discard": "phase 4 (tax and toll)",
          "final": "waiting for loss choices before the final scoring", "over": "game over"}


def _name(names, seat) -> str:
    if seat is None:
        return "-"
    if names and 0 <= seat < len(names):
        return str(names[seat])
    return f"Player {seat + 1}"


def render_text(view: dict, names=None) -> str:
    names = list(names or [])
    out = []
    n = view["players"]
    colour = {p["seat"]: p["colour"] for p in view["seats"]}
    ship = BOARD.city_names.get(view["ship"], view["ship"])
    out.append(f"HANSA - {PHASES.get(view['phase'], view['phase'])}")
    if view["phase"] not in ("over",):
        out.append(f"Turn: {_name(names, view['active'])} ({colour[view['active']]}). The ship is in {ship}.")
    out.append(f"Start player: {_name(names, view['start_player'])}; the last player in turn order is "
               f"{_name(names, view['last_player'])}.")
    stacks = " ".join(f"S{i + 1}:{c}" for i, c in enumerate(view["stacks"]))
    out.append(f"Supply stacks (front to back): {stacks}")
    if view["end_triggered"] and not view["over"]:
        out.append("The last stack has been opened: this is the final round.")
    if view["removed_colours"]:
        out.append("Colours not in this game: " + ", ".join(view["removed_colours"]))
    out.append("")
    out.append("CITIES (fill number, warehouses, stalls, routes out)")
    for c in view["cities"]:
        slots = " ".join(f"[{t or '  -  '}]" for t in c["slots"])
        stalls = ", ".join(f"{colour[p]} {k}" for p, k in enumerate(c["stalls"]) if k) or "no stalls"
        routes = ", ".join(BOARD.city_names.get(r, r) for r in c["routes_to"])
        mark = " <- ship" if c["id"] == view["ship"] else ""
        out.append(f"{c['fill_number']} {c['name']:<11}{slots:<30} {stalls}; to {routes}{mark}")
    out.append("")
    out.append("PLAYERS")
    for p in view["seats"]:
        seat = p["seat"]
        who = _name(names, seat) + (" (you)" if seat == view["you"] else "")
        where = ", ".join(f"{BOARD.city_names.get(c, c)} {k}" for c, k in p["stalls"].items()) or "none"
        coins = f"{p['coins']} coin{'' if p['coins'] == 1 else 's'}"
        out.append(f"{who} [{p['colour']}]: {coins}; face-up: {', '.join(p['tiles']) or 'none'}; "
                   f"sold: {', '.join(p['sold']) or 'none'} ({p['sold_points']} pts); stalls in supply "
                   f"{p['supply']}; stalls on the board: {where}")
        if p["owes"]:
            out.append("   still to choose a tile to lose: "
                       + ", ".join(f"{k} {c}" for c, k in p["owes"].items()))
    if view.get("result"):
        out.append("")
        out.append("FINAL SCORE")
        r = view["result"]
        for seat in sorted(range(n), key=lambda s: r["ranking"][s]):
            parts = ", ".join(f"{k} {v}" for k, v in r["breakdown"][seat].items())
            out.append(f"{r['ranking'][seat]}. {_name(names, seat)}: {r['scores'][seat]} points ({parts}; "
                       f"{r['stalls_on_board'][seat]} stalls on the board)")
    out.append("")
    if view["to_act"]:
        out.append("Waiting for: " + ", ".join(_name(names, s) for s in view["to_act"]))
    if view.get("prompt"):
        out.append("YOU: " + view["prompt"])
    if view.get("settings") is not None:
        mode = "ask me" if view["settings"].get("ask_losses") else "automatic (lowest barrel value)"
        out.append(f"Your setting for tile losses: {mode}.")
    return "\n".join(out) + "\n"
