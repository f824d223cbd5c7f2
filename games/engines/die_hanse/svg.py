"""SVG picture of a view: the hex map with ships, then storages, cargo holds, hand and wind."""
from __future__ import annotations

import html
import math

from .. import a11y
from ..colours import OKABE_ITO_DARK, haloed, ink, mark
from .board import A_SHIP, BOARD, GOOD_NAMES, SHIP_NAMES
from ..i18n import N_, render  # noqa: F401

# the ships' colours (red, blue, green, orange, purple, black): colour-blind-safe Okabe–Ito,
# darkened; the colour's initial is the second cue
SEAT_COLOURS = list(OKABE_ITO_DARK)
SEAT_CUES = [mark(n) for n in SHIP_NAMES]
GOOD_COLOURS = {"salt": "#bbbbbb", "fish": "#7f8c8d", "grain": "#d4ac0d", "ore": "#6e2c00",
                "fur": "#a04000", "cloth": "#2e86c1", "beer": "#b9770e"}
KIND_FILL = {"sea": "#d6eaf8", "bay": "#aed6f1", "harbour": "#fdebd0", "canal": "#a3e4d7", "island": "#d5c4a1"}
SIZE = 14.0
W3 = math.sqrt(3)


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _centre(h: dict) -> tuple:
    return SIZE * W3 * (h["q"] + h["r"] / 2.0) + 60, SIZE * 1.5 * h["r"] + 30


def _hex_points(x: float, y: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append("%.1f,%.1f" % (x + SIZE * math.cos(a), y + SIZE * math.sin(a)))
    return " ".join(pts)


def _legal_by_hex(legal) -> dict:
    out = {}
    for m in legal or ():
        w = m.split()
        lab = None
        if w[0] in ("sail", "place") and len(w) == 3:
            lab = w[2]
        elif w[0] == "pirate" and w[1] != "stay":
            lab = w[1]
        elif w[0] == "storm" and len(w) == 3:
            lab = w[2]
        if lab and lab in BOARD.by_label:
            out.setdefault(BOARD.by_label[lab], m)
    return out


def _chip(x, y, ship: int, size=16) -> str:
    """A ship's colour with its initial (the second cue)."""
    col = SEAT_COLOURS[ship]
    return ('<rect x="%.1f" y="%.1f" width="%d" height="%d" rx="3" fill="%s"/><text x="%.1f" y="%.1f" '
            'font-size="%d" font-weight="bold" text-anchor="middle" fill="%s">%s</text>'
            % (x, y, size, size, col, x + size / 2, y + size * 0.75, size * 0.7, ink(col), SEAT_CUES[ship]))


def _good(x, y, good, value=None, filled=True, width=70, _=render) -> str:
    col = GOOD_COLOURS[good]
    text = _(GOOD_NAMES[good]) + ("" if value is None else " %d" % value)
    fill, fg = (col, ink(col)) if filled else ("#ffffff", "#222")
    return ('<rect x="%.1f" y="%.1f" width="%d" height="20" rx="3" fill="%s" stroke="%s" stroke-width="1.5"/>'
            '<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle" fill="%s">%s</text>'
            % (x, y, width, fill, col if not filled else "#333", x + width / 2, y + 14, fg, _e(text)))


def _player_board(out, view, p, pname, y, width, _=render) -> int:
    """One player's board: name and specials, the storage (filled goods in colour, values only
    where the view has them), and the cargo holds the player shares. Returns the next y."""
    sp = view["special"][p]
    extra = ", ".join(_(t) for t, on in ((N_("Privilege"), sp["privilege"]), (N_("Kaperbrief"), sp["kaperbrief"]))
                      if on)
    holds = [(i, sh, side) for i, sh in enumerate(view["ships"]) for side in ("stern", "bow") if sh[side]["seat"] == p]
    slots = view["storages"][p]["slots"]
    per_row = max(1, int((width - 110) // 74))
    rows = (len(slots) + per_row - 1) // per_row
    h = 34 + 26 * rows + 26 * len(holds)
    out.append('<rect x="4" y="%d" width="%d" height="%d" rx="6" fill="#fbfaf6" stroke="%s" stroke-width="2"/>'
               % (y, width - 8, h, SEAT_COLOURS[p]))
    out.append(_chip(12, y + 8, p, 18))
    out.append('<text x="36" y="%d" font-size="14" font-weight="bold" fill="#111">%s%s</text>'
               % (y + 22, _e(pname), _e(" (" + extra + ")" if extra else "")))
    yy = y + 34
    out.append('<text x="12" y="%d" font-size="11" fill="#333">%s</text>' % (yy + 14, _e(_("Storage"))))
    for k, sl in enumerate(slots):
        gx = 100 + (k % per_row) * 74
        gy = yy + (k // per_row) * 26
        out.append(_good(gx, gy, sl["good"], sl.get("value"), sl["filled"], _=_))
    yy += 26 * rows
    for i, sh, side in holds:
        out.append(_chip(12, yy + 2, i, 16))
        out.append('<text x="32" y="%d" font-size="11" fill="#333">%s</text>' % (yy + 15, _e(_(side))))
        vals = sh[side].get("values")
        for k, g in enumerate(sh[side]["goods"]):
            out.append(_good(100 + k * 74, yy, g, vals[k] if vals else None, _=_))
        yy += 26
    return y + h


def render_svg(view: dict, names, legal=(), _=render) -> str:
    def name(p):
        try:
            return str(names[p])
        except (IndexError, KeyError, TypeError):
            return "player %d" % (p + 1)

    clickable = _legal_by_hex(legal)
    ship_click = {m.split()[1]: m for m in legal or () if len(m.split()) == 2 and m.split()[0] in ("sail", "wait")}
    xs = [_centre(h)[0] for h in BOARD.hexes.values()]
    ys = [_centre(h)[1] for h in BOARD.hexes.values()]
    map_w = max(xs) + 50
    map_h = max(ys) + 30
    n = view["players"]
    panel_h = 0  # the panel's height is known once drawn
    width = max(map_w, 520)
    height = map_h + panel_h
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="100%%" '
           'style="max-width:%dpx;font-family:sans-serif"%s>'
           % (width, height, width, a11y.root_attrs(N_("Die Hanse board"), legal, _)), a11y.desc(N_("Die Hanse board"), legal, _)]
    out.append("<style>text{pointer-events:none}.legal{cursor:pointer}.hex.legal{stroke:#e67e22;stroke-width:1.6}"
               ".ship.legal{stroke:#e67e22;stroke-width:2}</style>")
    out.append('<rect x="0" y="0" width="%d" height="%d" fill="#e9e4d4"/>' % (width, map_h))
    panel_at = len(out)  # the panel's white ground goes here once its height is known
    blocked = set()
    if view.get("blockade") == "sund":
        blocked = set(BOARD.sund)
    elif view.get("blockade"):
        blocked = {BOARD.harbours[view["blockade"]]}
    for hid, h in BOARD.hexes.items():
        x, y = _centre(h)
        fill = KIND_FILL.get(h["kind"], "#ffffff")
        if h["kind"] == "sea" and h.get("sea") == "baltic":
            fill = "#c4dff2"
        attrs = ""
        cls = "hex %s" % h["kind"]
        if hid in clickable:
            cls += " legal"
            attrs = ' data-move="%s"' % _e(clickable[hid])
        stroke = "#c0392b" if hid in BOARD.sund_set else "#8aa"
        out.append('<polygon class="%s" points="%s" fill="%s" stroke="%s" stroke-width="%s"%s>'
                   '<title>%s</title></polygon>' % (
                       cls, _hex_points(x, y), fill, stroke, "1.6" if hid in BOARD.sund_set else "0.6", attrs,
                       _e(_(BOARD.field_words(hid)) + (" — " + h["name"] if h.get("name") and h["kind"] not in ("harbour", "island") else ""))))
    # the grid's column letters and row numbers along the map's edges: a sea field is named by
    # its square (``North Sea field h6``, ``BOARD.field_words``)
    cols = sorted({h["col"] for h in BOARD.hexes.values()})
    rows = sorted({h["row"] for h in BOARD.hexes.values()})
    for c in cols:
        out.append('<text x="%.1f" y="11" font-size="9" text-anchor="middle" fill="#333">%s</text>'
                   % (SIZE * W3 * c + 60, chr(97 + c)))
    for r in rows:
        out.append('<text x="%.1f" y="%.1f" font-size="9" text-anchor="end" fill="#333">%d</text>'
                   % (60 - SIZE - 3, SIZE * 1.5 * r + 33, r))
    labels = []
    for hid, h in BOARD.hexes.items():
        x, y = _centre(h)
        if h["kind"] == "harbour":
            hn = h["harbour"]
            labels.append(haloed(x, y - SIZE - 3, _e(BOARD.harbour_name[hn]),
                                 ' font-size="11" font-weight="bold" text-anchor="middle"'))
            # the harbour's pool of goods: a chip per good with its count (public)
            goods = [(g, c) for g, c in view["pools"].get(hn, {}).items() if c]
            texts = ["%d %s" % (c, _(GOOD_NAMES[g])) for g, c in goods]
            widths = [6 + 4.7 * len(t) for t in texts]
            gx = x - (sum(widths) + 2 * (len(widths) - 1)) / 2
            for (g, c), t, gw in zip(goods, texts, widths):
                labels.append('<rect x="%.1f" y="%.1f" width="%.1f" height="11" rx="2" fill="%s" stroke="#333" '
                              'stroke-width="0.5"/><text x="%.1f" y="%.1f" font-size="8" text-anchor="middle" '
                              'fill="%s">%s</text>' % (gx, y + SIZE + 1, gw, GOOD_COLOURS[g], gx + gw / 2,
                                                      y + SIZE + 9.5, ink(GOOD_COLOURS[g]), _e(t)))
                gx += gw + 2
        elif h["kind"] == "canal":
            # the canal's fields by their number (the field's name, e.g. canal2, is its title)
            out.append('<text x="%.1f" y="%.1f" font-size="9" font-weight="bold" text-anchor="middle" fill="#222">%s</text>'
                       % (x, y + 3, _e(BOARD.label[hid].replace("canal", "") or BOARD.label[hid])))
        elif h["kind"] == "island" and h.get("name"):
            labels.append(haloed(x, y + 2.5, _e(h["name"]), ' font-size="8" text-anchor="middle"'))
        if hid in blocked:
            out.append('<circle cx="%.1f" cy="%.1f" r="5" fill="none" stroke="#000" stroke-width="2">'
                       '<title>%s</title></circle>' % (x, y, _e(_("blockade"))))
    # ships
    at = {}
    for i, sh in enumerate(view["ships"]):
        at.setdefault(sh["hex"], []).append(i)
    for hid, ships in at.items():
        x, y = _centre(BOARD.hexes[hid])
        for k, i in enumerate(ships):
            dx = (k - (len(ships) - 1) / 2.0) * 12
            click = ship_click.get(SHIP_NAMES[i])
            attrs = ' class="ship legal" data-move="%s"' % _e(click) if click else ' class="ship"'
            out.append('<g%s><title>%s</title><circle cx="%.1f" cy="%.1f" r="6" fill="%s" stroke="#fff" '
                       'stroke-width="1.5"/><text x="%.1f" y="%.1f" font-size="7.5" font-weight="bold" '
                       'text-anchor="middle" fill="%s">%s</text></g>'
                       % (attrs, _e(_(A_SHIP.get(SHIP_NAMES[i], SHIP_NAMES[i]))), x + dx, y, SEAT_COLOURS[i], x + dx, y + 2.7,
                          ink(SEAT_COLOURS[i]), SEAT_CUES[i]))
    if view.get("pirate_hex"):
        x, y = _centre(BOARD.hexes[view["pirate_hex"]])
        out.append('<path d="M%.1f %.1f l5 8 h-10 z" fill="#111"><title>%s</title></path>' % (x, y - 5, _e(_("pirate ship"))))
    out.extend(labels)
    # panel: wind, the viewer's cards, then a player board per player
    y0 = map_h + 22
    w = view["wind"]
    out.append('<text x="10" y="%d" font-size="14" font-weight="bold">%s</text>'
               % (y0, _e(_("Wind: North Sea {north} · Baltic {baltic}").format(north=w["north"], baltic=w["baltic"]))))
    y = y0 + 10
    if view.get("hand"):
        y += 18
        out.append('<text x="10" y="%d" font-size="12" font-weight="bold">%s</text>' % (y, _e(_("Your cards:"))))
        for c in view["hand"]:
            out.append('<text x="92" y="%d" font-size="12">%s</text>' % (y, _e(_(c.get("title_msg") or c["title"]))))
            y += 16
        y -= 16
    for p in range(n):
        y = _player_board(out, view, p, name(p), y + 8, width, _)
    out[0] = out[0].replace('viewBox="0 0 %d %d"' % (width, height), 'viewBox="0 0 %d %d"' % (width, y + 8))
    out.insert(panel_at, '<rect x="0" y="%d" width="%d" height="%d" fill="#ffffff"/>' % (map_h, width, y + 8 - map_h))
    out.append("</svg>")
    return "".join(out)
