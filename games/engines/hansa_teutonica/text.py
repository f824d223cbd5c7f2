"""Plain-text picture of a view, for emails."""
from __future__ import annotations

from .board import ABILITY_NAMES, MARKER_NAMES
from ..i18n import N_, render  # noqa: F401

_ABBR = {"trader": "T", "merchant": "M"}


def _name(names, seat) -> str:
    if seat is None:
        return "-"
    try:
        return str(names[seat])
    except (IndexError, KeyError, TypeError):
        return f"player {seat + 1}"


def _piece(p, names) -> str:
    if p is None:
        return "."
    return f"{_ABBR[p['kind']]}:{_name(names, p['seat'])}"


def render_text(view: dict, names, _=render) -> str:
    lines = []
    n = view["players"]
    names = list(names) if names else [f"player {i + 1}" for i in range(n)]
    lines.append(f"HANSA TEUTONICA ({view['side']} player board)")
    if view["over"]:
        lines.append("The game is over.")
    else:
        act = view["active"]
        lines.append(f"Turn of {_name(names, act)}: {view['actions']['used']} of "
                     f"{view['actions']['allowed']} actions used.")
    if view.get("two_player"):
        lines.append(f"Pawn in province {view.get('pawn') or '(not yet placed)'}.")
    lines.append(f"Completed cities: {view['completed_cities']}/10. Bonus markers in supply: {view['bonus_supply']}.")
    lines.append("")
    lines.append("PLAYERS")
    for d in view["desks"]:
        i = d["seat"]
        ab = ", ".join(f"{ABILITY_NAMES[a]} {('C' if x['level'] == 99 else x['level']) if a != 'privilegium' else ['white', 'orange', 'pink', 'black'][x['level'] - 1]}"
                       for a, x in d["abilities"].items())
        mk = ", ".join(MARKER_NAMES[m["type"]] + (" (used)" if m["used"] else "") for m in d["markers"]) or "none"
        lines.append(f"- {_name(names, i)}: {d['pp']} PP; supply {d['supply']['traders']}T+{d['supply']['merchants']}M, "
                     f"stock {d['stock']['traders']}T+{d['stock']['merchants']}M")
        lines.append(f"    {ab}")
        lines.append(f"    markers: {mk}" + (f"; {d['drawn']} drawn face down" if d["drawn"] else "")
                     + (f"; East-West #{d['east_west']}" if d["east_west"] else ""))
    lines.append("")
    lines.append("CITIES (houses left to right: W/O/P/B colour, s square, o round, $ gold coin;"
                 " + extra Kontors)")
    for c in view["cities"]:
        hs = " ".join(
            f"[{h['colour'][0].upper()}{'o' if h['shape'] == 'round' else 's'}{'$' if h['coin'] else ''}:"
            f"{_name(names, h['occupant']) if h['occupant'] is not None else '_'}]"
            for h in c["houses"])
        extra = (" + " + ", ".join(_name(names, x) for x in c["extras"])) if c["extras"] else ""
        ab = f" ({ABILITY_NAMES[c['ability']]})" if c["ability"] else ""
        ctl = f" controlled by {_name(names, c['controller'])}" if c["controller"] is not None else ""
        lines.append(f"  {c['name']}{ab}: {hs}{extra}{ctl}")
    cf = ", ".join(f"{f['colour']} {f['points']}: {_name(names, f['occupant']) if f['occupant'] is not None else 'free'}"
                   for f in view["coellen"])
    lines.append(f"  Coellen prestige box: {cf}")
    lines.append("")
    lines.append("ROUTES (T trader, M merchant, . empty; <marker>)")
    for r in view["routes"]:
        sp = " ".join(_piece(p, names) for p in r["spaces"])
        mk = f"  <{MARKER_NAMES[r['marker']]}>" if r["marker"] else ""
        lines.append(f"  {r['id']}: {sp}{mk}")
    if view.get("your_drawn_markers"):
        lines.append("")
        lines.append("Your drawn markers to place: " + ", ".join(MARKER_NAMES[m] for m in view["your_drawn_markers"]))
    if view.get("result"):
        lines.append("")
        lines.append("FINAL SCORES")
        res = view["result"]
        for i in range(n):
            parts = ", ".join(f"{k} {v}" for k, v in res["breakdown"][i].items())
            lines.append(f"  {res['ranking'][i]}. {_name(names, i)}: {res['scores'][i]} ({parts})")
    if view["prompt"]:
        lines.append("")
        lines.append("YOUR DECISION: " + view["prompt"])
    return "\n".join(lines) + "\n"
