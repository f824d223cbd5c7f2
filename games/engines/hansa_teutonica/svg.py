"""One self-contained SVG of a view, drawn from the layout coordinates (layout.json).
Map elements that match the viewer's legal moves get class="legal" data-move="…"."""
from __future__ import annotations

import math
from html import escape

from .. import a11y
from ..colours import OKABE_ITO_DARK, OKABE_ITO_NAMES, ink, mark
from .board import ABILITY_NAMES, MARKER_NAMES, SIDES, TRACKS
from .state import pieces, province
from ..i18n import N_, render  # noqa: F401

# texts translated inside f-strings below (xgettext does not read f-strings)
_EXTRACTED = [N_("pawn"), N_("space {n}"), N_("tavern"), N_("Coellen prestige"), N_("Prestige"), N_("Completed cities")]


# colour-blind-safe (Okabe–Ito, darkened), with the colour's initial in every piece
SEAT_COLOURS = OKABE_ITO_DARK[:5]
SEAT_COLOUR_NAMES = OKABE_ITO_NAMES[:5]
SEAT_CUES = [mark(n) for n in SEAT_COLOUR_NAMES]
PRIV_FILL = {"white": "#ffffff", "orange": "#f5a623", "pink": "#f4a7c0", "black": "#262626"}  # named as drawn (seen_colour)
MARKER_SHORT = {"extra": "K+", "swap": "⇄", "plus3": "+3", "plus4": "+4", "upgrade": "↑", "remove": "×3"}
KIND_WORDS = ("trader", "merchant")
SLOT = 20
MAP_W, MAP_H = 1200, 900


def _e(x) -> str:
    return escape(str(x), quote=True)


def _legal_attr(move) -> str:
    return f' class="legal" data-move="{_e(move)}"' if move else ""


def _name(names, seat):
    try:
        return str(names[seat])
    except (IndexError, KeyError, TypeError):
        return f"player {seat + 1}"


def _piece(x, y, seat, kind, size=7):
    """A trader (square) or merchant (round) in the seat's colour with the colour's initial
    (colours, ink and letter sizes are classes of the board's <style>, to keep the page small)."""
    k = seat % len(SEAT_COLOURS)
    letter = f'<text x="{x:.0f}" y="{y + size * 0.5:.0f}" class="pl k{k} s{size}">{SEAT_CUES[k]}</text>'
    if kind == "merchant":
        return f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{size}" class="pc f{k}"/>{letter}'
    return (f'<rect x="{x - size:.0f}" y="{y - size:.0f}" width="{2 * size}" height="{2 * size}" '
            f'class="pc f{k}"/>{letter}')


PIECE_SIZES = (6, 7, 10, 11)
PIECE_CSS = ("".join(f".f{k}{{fill:{c}}}.k{k}{{fill:{ink(c)}}}" for k, c in enumerate(SEAT_COLOURS))
             + "".join(f".s{n}{{font-size:{n * 1.45:.1f}px}}" for n in PIECE_SIZES)
             + ".pl{text-anchor:middle;font-weight:bold}.ce{fill:#f4f4f4;stroke:#999}"
             ".cl{text-anchor:middle;font-size:16px}")


def _route_move(legal, rid, occ, i, step_route):
    cands = [m for m in legal if rid in m.split() and not m.startswith("swap")]
    if step_route == rid:
        cands += [m for m in legal if m == f"space {i + 1}"]
    if not cands:
        return None
    if occ is not None:
        kinded = [m for m in cands if occ["kind"] in m.split()]
        if kinded:
            return kinded[0]
        plain = [m for m in cands if not any(k in m.split() for k in KIND_WORDS)
                 and not m.startswith(("to ", "on "))]
        if step_route == rid:
            exact = [m for m in plain if m == f"space {i + 1}"]
            if exact:
                return exact[0]
        return plain[0] if plain else None
    free = [m for m in cands if m.startswith(("to ", "on ", "establish "))]
    return free[0] if free else None


def render_svg(view: dict, names, legal=(), _=render) -> str:
    legal = list(legal or ())
    side = SIDES["45" if view["side"] == "4-5" else "23"]
    n = view["players"]
    desk_h = 124
    height = MAP_H + 90 + n * desk_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {MAP_W} {height}" '
           f'width="100%" preserveAspectRatio="xMidYMin meet" font-family="sans-serif" font-size="13"'
           f'{a11y.root_attrs(N_("Hansa Teutonica board"), legal, _)}>',
           a11y.desc(N_("Hansa Teutonica board"), legal, _),
           '<style>.legal{cursor:pointer}.legal rect,.legal circle,rect.legal,circle.legal,text.legal'
           '{stroke:#e6007e;stroke-width:3}.pc{stroke:#000;stroke-width:1.5}'
           '.sp{fill:#fdf6e3;stroke:#8a6d3b}.rt{stroke:#8a6d3b;stroke-width:4}'
           '.nh{fill:none;stroke:#fff;stroke-width:4;stroke-linejoin:round;font-weight:bold}' + PIECE_CSS + '</style>',
           f'<rect x="0" y="0" width="{MAP_W}" height="{MAP_H}" fill="#eef3e2"/>']
    xy = side.xy
    step_route = (view.get("step_detail") or {}).get("route")
    # 2-player provinces, soldiers and edge segments
    if view.get("two_player"):
        for a, b in side.soldiers:
            (x1, y1), (x2, y2) = xy[a], xy[b]
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#8b0000" stroke-width="3" stroke-dasharray="4 6"/>')
        for c, (tx, ty) in side.edges:
            x1, y1 = xy[c]
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{tx}" y2="{ty}" stroke="#999" stroke-width="2" stroke-dasharray="2 6"/>')
        for p in view.get("provinces", []):
            x, y = p["label"]
            mv = next((m for m in legal if m.startswith(("to ", "free ", "pawn to "))
                       and p["id"] in m.split()), None)
            out.append(f'<g{_legal_attr(mv)}><title>{_e(_(province(p["id"])))}</title>'
                       f'<circle cx="{x}" cy="{y}" r="15" fill="#fff" fill-opacity="0.6" stroke="#777"/>'
                       f'<text x="{x}" y="{y + 4}" text-anchor="middle" font-size="12" fill="#444">{_e(p["id"].lstrip("pP0"))}</text></g>')
            if view.get("pawn") == p["id"]:
                out.append(f'<path d="M{x - 9},{y + 30} L{x + 9},{y + 30} L{x + 4},{y + 14} A7,7 0 1 0 {x - 4},{y + 14} Z" '
                           f'fill="#222" stroke="#fff"><title>{_e(_("pawn"))}</title></path>')
    # routes
    for r in view["routes"]:
        (x1, y1), (x2, y2) = xy[r["a"]], xy[r["b"]]
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="rt"/>')
        k = len(r["spaces"])
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        ux, uy = dx / length, dy / length
        margin = min(45, length * 0.25)
        for i, occ in enumerate(r["spaces"]):
            t = margin + (length - 2 * margin) * (i / (k - 1) if k > 1 else 0.5)
            sx, sy = x1 + ux * t, y1 + uy * t
            mv = _route_move(legal, r["id"], occ, i, step_route)
            space = f'<rect x="{sx - 10:.0f}" y="{sy - 10:.0f}" width="20" height="20" rx="4" class="sp"/>'
            if mv is None and occ is None:  # an empty space that is no target: just the square (page size)
                out.append(space)
                continue
            out.append(f'<g{_legal_attr(mv)}><title>{_e(r.get("name") or r["id"])} {_e(_("space {n}").format(n=i + 1))}</title>{space}')
            if occ is not None:
                out.append(_piece(sx, sy, occ["seat"], occ["kind"]))
            out.append('</g>')
        if r["marker"]:
            mx, my = (x1 + x2) / 2 - uy * 22, (y1 + y2) / 2 + ux * 22
            out.append(f'<g><title>{_e(_(MARKER_NAMES[r["marker"]]))}</title><rect x="{mx - 13:.1f}" y="{my - 10:.1f}" width="26" height="20" '
                       f'rx="3" fill="#ffd700" stroke="#000"/><text x="{mx:.1f}" y="{my + 5:.1f}" text-anchor="middle" '
                       f'font-size="12">{_e(MARKER_SHORT[r["marker"]])}</text></g>')
        elif r["tavern"]:
            mx, my = (x1 + x2) / 2 - uy * 22, (y1 + y2) / 2 + ux * 22
            out.append(f'<text x="{mx:.1f}" y="{my:.1f}" font-size="12" fill="#555">{_e(_("tavern"))}</text>')
    # cities
    for c in view["cities"]:
        x, y = xy[c["id"]]
        hs = c["houses"]
        ex = c["extras"]
        w = SLOT * (len(hs) + len(ex)) + 8
        x0 = x - w / 2
        cmoves = [m for m in legal if c["id"].lower() in m.split()]
        first = next((m for m in cmoves if m.startswith("kontor")), None)
        out.append(f'<g><rect x="{x0:.1f}" y="{y - 14:.1f}" width="{w:.1f}" height="28" rx="6" '
                   f'fill="{"#d5e8d4" if c["completed"] else "#f8f1dc"}" stroke="#333"/>')
        name_mv = next((m for m in cmoves if m.startswith("extra")), None)
        if c["ability"] and f"develop {c['ability']}" in legal:
            name_mv = f"develop {c['ability']}"
        out.append(f'<text x="{x:.1f}" y="{y - 19:.1f}" text-anchor="middle" class="nh" aria-hidden="true">{_e(c["name"])}</text>'
                   f'<text x="{x:.1f}" y="{y - 19:.1f}" text-anchor="middle" font-weight="bold"{_legal_attr(name_mv)}>'
                   f'{_e(c["name"])}</text>')
        if c["ability"]:
            out.append(f'<text x="{x:.1f}" y="{y + 27:.1f}" text-anchor="middle" font-size="12" fill="#555">{_e(_(ABILITY_NAMES[c["ability"]]))}</text>')
        out.append('</g>')
        xs = x0 + 4 + SLOT / 2
        for j in range(len(ex) - 1, -1, -1):  # latest extra Kontor is leftmost
            emv = next((m for m in cmoves if m.startswith("extra")), None) if j == len(ex) - 1 else None
            out.append(f'<g{_legal_attr(emv)}><rect x="{xs - 8:.1f}" y="{y - 8:.1f}" width="16" height="16" fill="#ddd" stroke="#333" stroke-dasharray="2 2"/>'
                       + _piece(xs, y, ex[j], "trader", 6) + '</g>')
            xs += SLOT
        next_free = next((i for i, h in enumerate(hs) if h["occupant"] is None), None)
        for i, h in enumerate(hs):
            mv = None
            if i == next_free and first:
                mv = first
            swap = f"use swap {c['id'].lower()} {i + 1}"
            if swap in legal:
                mv = swap
            fill = PRIV_FILL[h["colour"]]
            shape = (f'<circle cx="{xs:.1f}" cy="{y}" r="8" fill="{fill}" stroke="#333"/>' if h["shape"] == "round"
                     else f'<rect x="{xs - 8:.1f}" y="{y - 8:.1f}" width="16" height="16" fill="{fill}" stroke="#333"/>')
            coin = f'<circle cx="{xs + 7:.1f}" cy="{y - 7:.1f}" r="3.5" fill="#d4af37" stroke="#7a5c00"/>' if h["coin"] else ""
            occ = _piece(xs, y, h["occupant"], "trader", 6) if h["occupant"] is not None else ""
            house = _("{city} house {n}: {shape}, {colour}").format(city=c["name"], n=i + 1, shape=_(h["shape"]),
                                                                      colour=_(h["colour"]))
            if h["coin"]:
                house += ", " + _("coin")
            out.append(f'<g{_legal_attr(mv)}><title>{_e(house)}</title>{shape}{coin}{occ}</g>')
            xs += SLOT
        if c["id"] == side.coellen:
            bx, by = x - 60, y + 36
            out.append(f'<text x="{bx}" y="{by - 4}" font-size="12">{_e(_("Coellen prestige"))}</text>')
            for i, f in enumerate(view["coellen"]):
                mv = f"coellen {f['colour']}" if f"coellen {f['colour']}" in legal else None
                fx = bx + i * 30
                out.append(f'<g{_legal_attr(mv)}><rect x="{fx}" y="{by}" width="26" height="22" fill="{PRIV_FILL[f["colour"]]}" stroke="#333"/>'
                           f'<text x="{fx + 13}" y="{by + 15}" text-anchor="middle" font-size="12" '
                           f'fill="{"#fff" if f["colour"] == "black" else "#000"}">{f["points"]}</text>')
                if f["occupant"] is not None:
                    out.append(_piece(fx + 13, by + 11, f["occupant"], "merchant", 6))
                out.append('</g>')
    # tracks
    ty = MAP_H + 10
    top = max([30] + [d["pp"] + 1 for d in view["desks"]])
    step = (MAP_W - 120) / top
    out.append(f'<text x="10" y="{ty + 16}">{_e(_("Prestige"))}</text>')
    for v in range(top + 1):
        out.append(f'<rect x="{100 + v * step:.1f}" y="{ty}" width="{step:.1f}" height="25" fill="{"#f9e79f" if v == 20 else "#fff"}" stroke="#aaa"/>')
        if v % 5 == 0:
            out.append(f'<text x="{100 + v * step + 2:.1f}" y="{ty + 38}" font-size="12">{v}</text>')
    for d in view["desks"]:  # up to three pieces side by side in a cell, in two rows
        col, row = d["seat"] % 3, d["seat"] // 3
        out.append(_piece(100 + d["pp"] * step + step / 2 + (col - 1) * 12, ty + 6 + row * 12, d["seat"], "trader", 6))
    cy = ty + 46
    out.append(f'<text x="10" y="{cy + 16}">{_e(_("Completed cities"))}</text>')
    for v in range(11):
        fill = "#333" if v == view["completed_cities"] else "#fff"
        out.append(f'<rect x="{130 + v * 26}" y="{cy}" width="24" height="22" fill="{fill}" stroke="#aaa"/>'
                   f'<text x="{142 + v * 26}" y="{cy + 15}" text-anchor="middle" font-size="12" fill="{"#fff" if v == view["completed_cities"] else "#000"}">{v}</text>')
    out.append(f'<text x="440" y="{cy + 16}">'
               + _e(_("Bonus supply: {n}   East-West: {names}").format(
                   n=view["bonus_supply"], names=", ".join(_name(names, s) for s in view["east_west"]) or "-"))
               + '</text>')
    # desks: each player's board, with the five ability tracks large enough to read
    for d in view["desks"]:
        i = d["seat"]
        dy = MAP_H + 90 + i * desk_h
        col = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        active = " (" + _("to act") + ")" if i in view["to_act"] else ""
        out.append(f'<rect x="4" y="{dy}" width="{MAP_W - 8}" height="{desk_h - 6}" rx="6" fill="#fff" stroke="{col}" stroke-width="3"/>')
        out.append(_piece(24, dy + 19, i, "trader", 10))
        out.append(f'<text x="42" y="{dy + 25}" font-size="18" font-weight="bold" fill="#111">{_e(_name(names, i))}{_e(active)}: {d["pp"]} PP</text>')
        supply = _("supply: {pieces}").format(pieces=_(pieces(d["supply"]["traders"], d["supply"]["merchants"])))
        stock = _("stock: {pieces}").format(pieces=_(pieces(d["stock"]["traders"], d["stock"]["merchants"])))
        out.append(f'<text x="14" y="{dy + 52}" font-size="15">{_e(supply)}</text>')
        out.append(f'<text x="14" y="{dy + 76}" font-size="15">{_e(stock)}</text>')
        mk = ", ".join(_(MARKER_NAMES[m["type"]]) + (" " + _("(used)") if m["used"] else "") for m in d["markers"]) \
            or _("no markers")
        if d["drawn"]:
            mk += "; " + _("{n} face down").format(n=d["drawn"])
        bonus = _("Bonus markers: {markers}").format(markers=mk)
        out.append(f'<text x="14" y="{dy + 106}" font-size="14">{_e(bonus)}</text>')
        ax = 372
        for a, info in d["abilities"].items():
            vals = TRACKS[a]
            mv = f"use upgrade {a}" if i == view.get("you") and f"use upgrade {a}" in legal else None
            if mv is None and i == view.get("you") and f"develop {a}" in legal:
                mv = f"develop {a}"
            out.append(f'<g{_legal_attr(mv)}><text x="{ax}" y="{dy + 22}" font-size="13" font-weight="bold">{_e(_(ABILITY_NAMES[a]))}</text>')
            for j, val in enumerate(vals):
                label = "C" if val == 99 else (["W", "O", "P", "B"][val - 1] if a == "privilegium" else str(val))
                covered = j > info["developed"]
                cx = ax + j * 31
                out.append(f'<rect x="{cx}" y="{dy + 30}" width="29" height="29" rx="3" class="ce"/>')
                if not covered:
                    out.append(f'<text x="{cx + 14.5}" y="{dy + 50}" class="cl">{label}</text>')
                else:
                    out.append(_piece(cx + 14.5, dy + 44.5, i, "merchant" if a == "liber" else "trader", 11))
            out.append('</g>')
            ax += 31 * len(vals) + 18
    out.append('</svg>')
    return "".join(out)
