"""SVG picture of a Hansa view, drawn from the board data coordinates."""
from __future__ import annotations

import math
from html import escape

from .. import a11y
from ..colours import haloed, ink
from ..i18n import N_, render
from . import geo
from .board import BOARD
from .state import A_TILE

# texts translated inside f-strings below (xgettext does not read f-strings)
_EXTRACTED = [N_("ship"), N_("Supply - final round"), N_("Supply")]

# The game's player colours (grey, yellow, lilac, black), darkened where needed to stand ≥ 3:1
# (yellow darkened is olive, and named so: games.engines.colours.seen_colour)
# on the sea; the colour's initial in every token is the second cue.
_CSS = {"grey": "#6e6e6e", "olive": "#8a7000", "lilac": "#7a3e9d", "black": "#1a1a1a"}
SEAT_COLOURS = [_CSS.get(n, c) for n, c in zip(BOARD.player_colour_names, BOARD.player_colour_css)]
SEAT_CUES = [n[:1].upper() for n in BOARD.player_colour_names]  # G O L B
CITY_R = 24


def _goods_css(colour: str) -> str:
    return BOARD.colour_css.get(colour, "#999")


def _barrel(x: float, y: float) -> str:
    """A barrel standing in a 26 × 26 box at (x, y): straight top and bottom, bulging staves."""
    return (f"M{x + 5:.1f},{y:.1f} L{x + 21:.1f},{y:.1f} Q{x + 29:.1f},{y + 13:.1f} {x + 21:.1f},{y + 26:.1f} "
            f"L{x + 5:.1f},{y + 26:.1f} Q{x - 3:.1f},{y + 13:.1f} {x + 5:.1f},{y:.1f} Z")


def _tile_words(colour: str, value: str, _=render) -> str:
    """A goods tile in words, the colour inflected ("grünes Plättchen mit 3 Fässern")."""
    try:
        return _(A_TILE[(colour, int(value) == 1)]).format(n=value)
    except (KeyError, ValueError):
        return f"{_(colour)} {value}"


def _route_path(a: str, b: str) -> str:
    (x1, y1), (x2, y2) = BOARD.pos[a], BOARD.pos[b]
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    if (a, b) in BOARD.curved:
        # a gentle curve over open sea for the routes whose straight lines would cross
        off = 0.16 * length
        cx, cy = (x1 + x2) / 2 + dy / length * off, (y1 + y2) / 2 - dx / length * off
    else:
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    # start and end on the city circles, the end a little further out for the arrowhead
    sx, sy = _toward(x1, y1, cx, cy, CITY_R + 2)
    ex, ey = _toward(x2, y2, cx, cy, CITY_R + 6)
    if (a, b) in BOARD.curved:
        return f"M{sx:.1f},{sy:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{ey:.1f}"
    return f"M{sx:.1f},{sy:.1f} L{ex:.1f},{ey:.1f}"


def _toward(x, y, tx, ty, dist):
    d = math.hypot(tx - x, ty - y) or 1.0
    return x + (tx - x) / d * dist, y + (ty - y) / d * dist


LEFT = -70  # the map reaches west of Aalborg, so its name has room
ROUTE_PATHS = {(a, b): _route_path(a, b) for a, b in BOARD.routes}
NAME_AT = geo.name_places(list(ROUTE_PATHS.values()), CITY_R, frame=(LEFT, -12, BOARD.width, BOARD.height + 30))
LAND = geo.land_paths()
SEA_NAMES = geo.sea_names(list(ROUTE_PATHS.values()))
# the map's seas and lands in the reader's language (geo.py names them in English)
_EXTRACTED = [N_("Baltic Sea"), N_("Kattegat"), N_("Gulf of Riga"), N_("Gulf of Finland"), N_("Scandinavia"),
              N_("Finland"), N_("Continent"), N_("Zealand"), N_("Funen")]


def _name(names, seat, _=render) -> str:
    if names and 0 <= seat < len(names):
        return str(names[seat])
    return _("Player {n}").format(n=seat + 1)


def render_svg(view: dict, names=None, legal=(), _=render) -> str:
    """The board; ``_`` translates its words (the presentation layer passes the viewer's language)."""
    names = list(names or [])
    legal = set(legal or ())
    w, h = BOARD.width, BOARD.height
    top, bottom = -12, h + 70          # room for slots above the top cities, a strip below the map
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{LEFT} {top} {w - LEFT} {bottom - top}" width="100%" '
        f'preserveAspectRatio="xMidYMid meet"{a11y.root_attrs(N_("Hansa board"), legal, _)} '
        f'style="max-width:100%;font-family:sans-serif">',
        a11y.desc(N_("Hansa board"), legal, _),
        "<defs><marker id=\"hansa-arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"7\" "
        "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1b3b6f\"/>"
        "</marker></defs>",
        f'<rect x="{LEFT}" y="{top}" width="{w - LEFT}" height="{h + 30 - top}" fill="#dbe9f5"/>',
        f'<clipPath id="hansa-map"><rect x="{LEFT}" y="{top}" width="{w - LEFT}" height="{h + 30 - top}"/></clipPath>',
        '<g clip-path="url(#hansa-map)">',
        *(f'<path d="{d}" fill="#ece3c8" stroke="#b9a77a" stroke-width="1.5"><title>{escape(_(n))}</title></path>'
          for n, d in LAND),
        *(f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="middle" font-size="15" font-style="italic" '
          f'letter-spacing="2" fill="#34557a">{escape(_(n))}</text>' for n, x, y in SEA_NAMES),
        '</g>',
        f'<rect x="{LEFT}" y="{h + 30}" width="{w - LEFT}" height="{bottom - h - 30}" fill="#f4efe4"/>',
    ]
    # routes
    for a, b in BOARD.routes:  # sea lanes: a pale lane under a one-way arrow; overland: dashed
        d = ROUTE_PATHS[(a, b)]
        if (a, b) in BOARD.overland:
            parts.append(f'<path class="route" d="{d}" fill="none" stroke="#6b5228" stroke-width="3" '
                         f'stroke-dasharray="10 6" marker-end="url(#hansa-arrow)"/>')
        else:
            parts.append(f'<path d="{d}" fill="none" stroke="#f4f9fd" stroke-width="11" stroke-linecap="round" '
                         f'opacity="0.8"/><path class="route" d="{d}" fill="none" stroke="#1b3b6f" '
                         f'stroke-width="3" marker-end="url(#hansa-arrow)"/>')
    cities = {c["id"]: c for c in view["cities"]}
    for cid in BOARD.city_ids:
        c = cities[cid]
        x, y = BOARD.pos[cid]
        move = next((m for m in (f"move {cid}", f"place {cid}") if m in legal), None)
        attrs = f' class="legal" data-move="{escape(move)}" style="cursor:pointer"' if move else ' class="city"'
        parts.append(f'<g{attrs} data-city="{escape(cid)}">')
        ring = ' stroke="#e63946" stroke-width="5"' if move else ' stroke="#333" stroke-width="2"'
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CITY_R}" fill="#f7f1e3"{ring}/>')
        parts.append(f'<text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" font-size="15" '
                     f'font-weight="bold" fill="#333">{c["fill_number"]}</text>')
        nx, ny, anchor = NAME_AT[cid]
        parts.append(haloed(nx, ny, escape(_(c["name"])), f' text-anchor="{anchor}" font-size="17" font-weight="bold"',
                            halo="#f4f9fd", width=4))
        # warehouse slots above the city
        n = len(c["slots"])
        for i, t in enumerate(c["slots"]):
            sx = x - n * 15 + i * 30 + 2
            sy = y - CITY_R - 32
            if t is None:
                parts.append(f'<rect x="{sx:.1f}" y="{sy:.1f}" width="26" height="26" rx="4" fill="none" '
                             f'stroke="#555" stroke-dasharray="4 3"/>')
                continue
            colour, value = t.split("/")
            fg = ink(_goods_css(colour))
            buy = f"buy {t}" if cid == view["ship"] and f"buy {t}" in legal else None
            parts.append(f'<g class="legal" data-move="{escape(buy)}" style="cursor:pointer">' if buy else "<g>")
            edge = ' stroke="#e63946" stroke-width="4"' if buy else ' stroke="#333"'
            parts.append(f'<path d="{_barrel(sx, sy)}" fill="{_goods_css(colour)}"{edge}>'
                         f'<title>{escape(_tile_words(colour, value, _))}</title></path>'
                         f'<path d="M{sx + 3:.1f},{sy + 5:.1f} h20 M{sx + 3:.1f},{sy + 22:.1f} h20" '
                         f'fill="none" stroke="#000" stroke-opacity="0.45" stroke-width="1.5"/>')
            parts.append(f'<text x="{sx + 13:.1f}" y="{sy + 19:.1f}" text-anchor="middle" font-size="16" '
                         f'font-weight="bold" fill="{fg}">{escape(value)}</text></g>')
        # stalls per player below the name
        holders = [(p, k) for p, k in enumerate(c["stalls"]) if k]
        for j, (p, k) in enumerate(holders):
            bx = x - len(holders) * 17 + j * 34
            by = y + CITY_R + (24 if NAME_AT[cid][1] > y + CITY_R else 5)
            fill = SEAT_COLOURS[p % len(SEAT_COLOURS)]
            parts.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="32" height="20" rx="3" '
                         f'fill="{fill}" stroke="#222">'
                         f'<title>{escape(_name(names, p, _))}: {k}</title></rect>')
            parts.append(f'<text x="{bx + 16:.1f}" y="{by + 15:.1f}" text-anchor="middle" font-size="14" '
                         f'font-weight="bold" fill="{ink(fill)}">{SEAT_CUES[p % len(SEAT_CUES)]}{k}</text>')
        parts.append("</g>")
    # the ship
    if view["ship"] in BOARD.pos:
        x, y = BOARD.pos[view["ship"]]
        x, y = x + CITY_R + 4, y - 8
        parts.append(f'<g class="ship"><title>{escape(_("ship"))}</title>'
                     f'<path d="M{x:.1f},{y:.1f} l34,0 l-7,11 l-20,0 z" fill="#6b3e1f" stroke="#222"/>'
                     f'<path d="M{x + 17:.1f},{y:.1f} l0,-24 l12,16 z" fill="#fff" stroke="#222"/></g>')
    # supply stacks, bottom right, front (S1) to back (S5)
    bx, by = w - 5 * 46 - 10, h + 27
    parts.append(f'<text x="{bx - 8:.1f}" y="{by + 26:.1f}" text-anchor="end" font-size="14" fill="#222">'
                 f'{escape(_("Supply - final round") if view["end_triggered"] and not view["over"] else _("Supply"))}</text>')
    for i, cnt in enumerate(view["stacks"]):
        sx = bx + i * 46
        parts.append(f'<rect x="{sx:.1f}" y="{by:.1f}" width="40" height="40" rx="4" fill="#c8b48a" '
                     f'stroke="#333"/><text x="{sx + 20:.1f}" y="{by + 17:.1f}" text-anchor="middle" '
                     f'font-size="12" fill="#333">S{i + 1}</text><text x="{sx + 20:.1f}" y="{by + 34:.1f}" '
                     f'text-anchor="middle" font-size="15" font-weight="bold" fill="#111">{cnt}</text>')
    # player legend, bottom left-centre
    for p in view["seats"]:
        seat = p["seat"]
        lx, ly = 12 + seat * 125, h + 56
        marker = "\u25b6 " if seat == view.get("active") and not view["over"] else ""
        fill = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        parts.append(f'<rect x="{lx:.1f}" y="{ly - 15:.1f}" width="18" height="18" rx="3" fill="{fill}"/>'
                     f'<text x="{lx + 9:.1f}" y="{ly - 1:.1f}" text-anchor="middle" font-size="13" font-weight="bold" '
                     f'fill="{ink(fill)}">{SEAT_CUES[seat % len(SEAT_CUES)]}</text><text x="{lx + 22:.1f}" y="{ly:.1f}" '
                     f'font-size="14" fill="#111">{escape(marker + _name(names, seat, _))} ({p["coins"]})</text>')
    parts.append("</svg>")
    return "".join(parts)
