"""SVG picture of a view: the hex map with ships, then storages, cargo holds, hand and wind."""
from __future__ import annotations

import html
import math

from .. import a11y
from .board import BOARD, GOOD_NAMES, SHIP_NAMES
from ..i18n import N_, render  # noqa: F401

SEAT_COLOURS = ["#c0392b", "#1f5fbf", "#1e8449", "#d35400", "#7d3c98", "#222222"]
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
    panel_h = 58 * n + 100
    width = max(map_w, 520)
    height = map_h + panel_h
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="100%%" '
           'style="max-width:%dpx;font-family:sans-serif"%s>'
           % (width, height, width, a11y.root_attrs(N_("Die Hanse board"), legal, _)), a11y.desc(N_("Die Hanse board"), legal, _)]
    out.append("<style>text{pointer-events:none}.legal{cursor:pointer}.hex.legal{stroke:#e67e22;stroke-width:1.6}"
               ".ship.legal{stroke:#e67e22;stroke-width:2}</style>")
    out.append('<rect x="0" y="0" width="%d" height="%d" fill="#e9e4d4"/>' % (width, map_h))
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
                       _e(BOARD.label[hid] + (" — " + h["name"] if h.get("name") else ""))))
    for hid, h in BOARD.hexes.items():
        x, y = _centre(h)
        if h["kind"] == "harbour":
            hn = h["harbour"]
            out.append('<text x="%.1f" y="%.1f" font-size="7" text-anchor="middle" fill="#333">%s</text>'
                       % (x, y - SIZE - 2, _e(BOARD.harbour_name[hn])))
            goods = view["pools"].get(hn, {})
            txt = " ".join("%d%s" % (c, g[:2]) for g, c in goods.items())
            out.append('<text x="%.1f" y="%.1f" font-size="6" text-anchor="middle" fill="#555">%s</text>'
                       % (x, y + SIZE + 7, _e(txt)))
        elif h["kind"] in ("canal", "island", "bay"):
            out.append('<text x="%.1f" y="%.1f" font-size="5" text-anchor="middle" fill="#444">%s</text>'
                       % (x, y + 2, _e(BOARD.label[hid] if h["kind"] == "canal" else (h.get("name") or "")[:9])))
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
            dx = (k - (len(ships) - 1) / 2.0) * 7
            click = ship_click.get(SHIP_NAMES[i])
            attrs = ' class="ship legal" data-move="%s"' % _e(click) if click else ' class="ship"'
            out.append('<circle%s cx="%.1f" cy="%.1f" r="4.5" fill="%s" stroke="#fff" stroke-width="1">'
                       '<title>%s</title></circle>' % (attrs, x + dx, y, SEAT_COLOURS[i],
                                                       _e(_("{ship} ship").format(ship=_(SHIP_NAMES[i])))))
    if view.get("pirate_hex"):
        x, y = _centre(BOARD.hexes[view["pirate_hex"]])
        out.append('<path d="M%.1f %.1f l5 8 h-10 z" fill="#111"><title>%s</title></path>' % (x, y - 5, _e(_("pirate ship"))))
    # panel
    y0 = map_h + 16
    w = view["wind"]
    out.append('<text x="10" y="%d" font-size="11">%s</text>'
               % (y0, _e(_("Wind: North Sea {north} · Baltic {baltic}").format(north=w["north"], baltic=w["baltic"]))))
    if view.get("hand"):
        out.append('<text x="10" y="%d" font-size="9">%s</text>'
                   % (y0 + 14, _e(_("Your cards: {cards}").format(
                       cards="; ".join(_(c.get("title_msg") or c["title"]) for c in view["hand"])))))
    y = y0 + 32
    for p in range(n):
        out.append('<rect x="6" y="%d" width="12" height="12" fill="%s"/>' % (y - 10, SEAT_COLOURS[p]))
        sp = view["special"][p]
        extra = "".join([" P" if sp["privilege"] else "", " K" if sp["kaperbrief"] else ""])
        out.append('<text x="22" y="%d" font-size="10">%s%s</text>' % (y, _e(name(p)), _e(extra)))
        sx = 150
        for s in view["storages"][p]["slots"]:
            col = GOOD_COLOURS[s["good"]]
            out.append('<rect x="%d" y="%d" width="26" height="14" fill="%s" stroke="%s"/>'
                       % (sx, y - 11, col if s["filled"] else "#fff", col))
            label = _(GOOD_NAMES[s["good"]])[:4] + ("=%d" % s["value"] if "value" in s else "")
            out.append('<text x="%d" y="%d" font-size="6" fill="%s">%s</text>'
                       % (sx + 1, y - 1, "#fff" if s["filled"] else "#333", _e(label)))
            sx += 28
        # the two cargo holds this player shares
        hy = y + 18
        hx = 22
        for i, sh in enumerate(view["ships"]):
            for side in ("stern", "bow"):
                if sh[side]["seat"] != p:
                    continue
                out.append('<text x="%d" y="%d" font-size="7" fill="%s">%s %s:</text>'
                           % (hx, hy, SEAT_COLOURS[i], _e(_(sh["name"])), _e(_(side))))
                gx = hx + 52
                vals = sh[side].get("values")
                for k, g in enumerate(sh[side]["goods"]):
                    out.append('<rect x="%d" y="%d" width="20" height="10" fill="%s"/>' % (gx, hy - 8, GOOD_COLOURS[g]))
                    t = _(GOOD_NAMES.get(g, g))[:3] + (str(vals[k]) if vals else "")
                    out.append('<text x="%d" y="%d" font-size="6" fill="#fff">%s</text>' % (gx + 1, hy - 1, _e(t)))
                    gx += 22
                hx += 130
        y += 58
    out.append("</svg>")
    return "".join(out)
