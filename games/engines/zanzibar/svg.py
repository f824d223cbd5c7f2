"""One self-contained inline SVG of a view: the island (coastline, provinces, villages
with their spice, sea fields, roads), the merchants with their numbers in seat colours
(bigger = stronger), merchants not yet placed, the current move, and the score track.

Elements that are targets of the viewer's legal moves carry ``class="legal"`` and
``data-move="<canonical move>"``: places for ``to``/``push``/``expel``, merchants for
``move``/``place``. The hand is shown in text (``render_text`` / the page's HTML)."""
from __future__ import annotations

import math
from html import escape

from .. import a11y
from ..colours import haloed, ink
from .board import LAND, get_board, place_msg
from ..i18n import N_, render  # noqa: F401

# texts translated inside f-strings below (xgettext does not read f-strings)
_EXTRACTED = [N_("Score track"), N_("merchant {num} ({colour})")]


# red brown olive green blue (named as they are drawn, games.engines.colours.seen_colour): colour-blind-safe (checked under deuteranopia and protanopia in
# tests/test_board_contrast.py), each ≥ 3:1 on the island; the second cue is a shape per seat.
SEAT_COLOURS = ["#8b1a1a", "#80500a", "#857a00", "#1c8a6e", "#0367a6"]
SEAT_CUES = ["circle", "square", "diamond", "triangle", "hexagon"]
HIGHLIGHT = "#111111"  # move targets: a dashed black ring, never a player colour

PROVINCE_TINT = {
    "north": "#7cb342", "west": "#8d6e63", "central": "#fbc02d", "east": "#ab47bc",
    "south": "#26a69a", "sea": "#4fa3d9",
}
SPICE_STYLE = {  # abbreviation, colour
    "cinnamon": ("Ci", "#8d4e2a"), "ginger": ("Gi", "#d4a017"), "vanilla": ("Va", "#7b5ea7"),
    "pepper": ("Pe", "#333333"), "clove": ("Cl", "#b0413e"),
}
W, H = 1000, 800
TRACK_Y = 920
TRAY_Y = 985
HEIGHT = 1190


def _attr(move: str | None) -> str:
    return f' class="legal" data-move="{escape(move)}"' if move else ""


def _radius(num: int) -> float:
    return 9 + (8 - num) * 2.2  # number 2 is the biggest (ZAN-2.6)


def _shape(x: float, y: float, r: float, seat: int, extra: str = "") -> str:
    """The seat's token shape (circle, square, diamond, triangle, hexagon) around (x, y)."""
    fill = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    cue = SEAT_CUES[seat % len(SEAT_CUES)]
    if cue == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}"{extra}/>'
    if cue == "square":
        k = r * 0.9
        pts = [(x - k, y - k), (x + k, y - k), (x + k, y + k), (x - k, y + k)]
    elif cue == "diamond":
        k = r * 1.15
        pts = [(x, y - k), (x + k, y), (x, y + k), (x - k, y)]
    elif cue == "triangle":
        k = r * 1.25
        pts = [(x, y - k), (x + k * 0.95, y + k * 0.6), (x - k * 0.95, y + k * 0.6)]
    else:
        k = r * 1.05
        pts = [(x + k * math.cos(math.radians(a)), y + k * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    return '<polygon points="%s" fill="%s"%s/>' % (" ".join(f"{px:.1f},{py:.1f}" for px, py in pts), fill, extra)


def _merchant(x: float, y: float, seat: int, num: int, colour_name: str, move: str | None, _=render) -> str:
    r = _radius(num)
    fill = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    return (f'<g{_attr(move)}><title>{escape(_("merchant {num} ({colour})").format(num=num, colour=_(colour_name)))}</title>'
            + _shape(x, y, r, seat, ' stroke="#000" stroke-width="1.5"') +
            f'<text x="{x:.0f}" y="{y + 5:.0f}" text-anchor="middle" font-size="15" font-weight="bold" '
            f'fill="{ink(fill)}">{num}</text></g>')


def render_svg(view: dict, names=None, legal=(), _=render) -> str:
    board = get_board(view.get("map", "zanzibar"))
    n = view["players"]
    names = list(names) if names else [_("Player {n}").format(n=i + 1) for i in range(n)]
    colours = view["colours"]
    target: dict[str, str] = {}
    merchant_moves: dict[int, str] = {}
    for mv in legal:
        words = mv.split()
        if words[0] in ("to", "push", "expel") and len(words) == 2:
            target[words[1]] = mv
        elif words[0] in ("move", "place") and len(words) == 2:
            merchant_moves[int(words[1])] = mv
    you = view["you"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {HEIGHT}" width="100%" '
           f'style="max-width:100%" font-family="sans-serif"{a11y.root_attrs(N_("Zanzibar board"), legal, _)}>',
           a11y.desc(N_("Zanzibar board"), legal, _),
           '<style>.legal{cursor:pointer}.legal circle.place{stroke:%s;stroke-width:5;stroke-dasharray:7 4}'
           '.legal:hover{opacity:.8}</style>' % HIGHLIGHT,
           f'<rect x="0" y="0" width="{W}" height="{H}" fill="#cfe8f7"/>',
           f'<rect x="0" y="{H}" width="{W}" height="{HEIGHT - H}" fill="#ffffff"/>']
    coast = board.doc.get("coastline") or []
    if coast:
        pts = " ".join(f"{x},{y}" for x, y in coast)
        out.append(f'<polygon points="{pts}" fill="#f3e3b5" stroke="#b08d57" stroke-width="3"/>')
    # province labels at the centre of their villages
    for prov in LAND:
        ks = [k for k in board.places if board.province[k] == prov]
        if ks:
            cx = sum(board.info[k]["x"] for k in ks) / len(ks)
            cy = sum(board.info[k]["y"] for k in ks) / len(ks)
            out.append(f'<text x="{cx:.0f}" y="{cy + 4:.0f}" text-anchor="middle" font-size="20" '
                       f'fill="#5d4a2a" letter-spacing="3" font-weight="bold">{escape(_(prov).upper())}</text>')
    # roads
    for a, b in board.doc["roads"]:
        pa, pb = board.info[a], board.info[b]
        dash = ' stroke-dasharray="8 6"' if board.is_sea[a] or board.is_sea[b] else ""
        out.append(f'<line x1="{pa["x"]}" y1="{pa["y"]}" x2="{pb["x"]}" y2="{pb["y"]}" '
                   f'stroke="#8b6b3e" stroke-width="4"{dash}/>')
    # current path
    if view.get("moving") and len(view["moving"]["path"]) > 1:
        pts = " ".join(f"{board.info[p]['x']},{board.info[p]['y']}" for p in view["moving"]["path"])
        out.append(f'<polyline points="{pts}" fill="none" stroke="{HIGHLIGHT}" stroke-width="5" '
                   f'stroke-dasharray="10 6" opacity="0.7"/>')
    at = {m["place"]: m for m in view["merchants"]}
    active = view.get("active")
    for k in board.places:
        info = board.info[k]
        x, y = info["x"], info["y"]
        prov = board.province[k]
        fill = "#9fcbe8" if board.is_sea[k] else "#fffaf0"
        parts = [f'<g{_attr(target.get(k))}><title>{escape(_(place_msg(board, k)))}</title>',
                 f'<circle class="place" cx="{x}" cy="{y}" r="28" fill="{fill}" '
                 f'stroke="{PROVINCE_TINT[prov]}" stroke-width="4"/>',
                 # the place's notation (what a player types), small under it: its name is the title
                 haloed(x, y + 44, escape(k), ' class="notation" text-anchor="middle" font-size="14"', fill="#222")]
        spice = board.spice[k]
        if spice:
            _abbr, col = SPICE_STYLE.get(spice, (spice[:2].title(), "#000"))
            abbr = _(spice)[:2].title()  # the spice's first letters in the reader's language (Ka, Zi, Ci)
            parts.append(f'<rect x="{x + 14}" y="{y - 34}" width="26" height="18" rx="4" fill="{col}"/>'
                         f'<text x="{x + 27}" y="{y - 21}" text-anchor="middle" font-size="12" fill="{ink(col)}">'
                         f'{escape(abbr)}</text>')
        elif not board.is_sea[k]:
            parts.append(f'<path d="M{x + 16},{y - 18} l10,-10 l10,10 v8 h-20 z" fill="#a1887f" stroke="#5d4037"/>')
        m = at.get(k)
        if m:
            move = merchant_moves.get(m["num"]) if (m["seat"] == you and view["phase"] == "move"
                                                   and not view.get("moving")) else None
            parts.append(_merchant(x, y, m["seat"], m["num"], colours[m["seat"]], move, _))
        parts.append("</g>")
        out.append("".join(parts))
    # score track
    scores = view["scores"]
    lo = min(-10, min(scores) - 2)
    hi = max(30, max(scores) + 2)
    x0, x1 = 60, 960

    def sx(v):
        return x0 + (v - lo) * (x1 - x0) / (hi - lo)

    out.append(f'<text x="10" y="{H + 24}" font-size="18" font-weight="bold" fill="#000">{escape(_("Score track"))}</text>')
    out.append(f'<line x1="{x0}" y1="{TRACK_Y}" x2="{x1}" y2="{TRACK_Y}" stroke="#555" stroke-width="3"/>')
    step = 5 if hi - lo <= 80 else 10
    for v in range((lo // step) * step, hi + 1, step):
        if v < lo:
            continue
        out.append(f'<line x1="{sx(v):.0f}" y1="{TRACK_Y - 6}" x2="{sx(v):.0f}" y2="{TRACK_Y + 6}" stroke="#555"/>'
                   f'<text x="{sx(v):.0f}" y="{TRACK_Y + 24}" text-anchor="middle" font-size="16">{v}</text>')
    for s in range(n):
        cx, cy = sx(scores[s]), TRACK_Y - 16 - 18 * s
        out.append(f'<g><title>{escape(str(names[s]))}: {scores[s]}</title>'
                   + _shape(cx, cy, 7, s, ' stroke="#000" stroke-width="1.5"') + '</g>')
    # players and unplaced merchants
    for i, s in enumerate(view["order"]):
        y = TRAY_Y + 46 * i
        label = f"{names[s]} ({_(colours[s])}): {scores[s]}"
        if s == active:
            label = "\u25b6 " + label
        out.append(_shape(22, y - 5, 10, s, ' stroke="#000" stroke-width="1.5"')
                   + f'<text x="40" y="{y}" font-size="16" fill="#111">{escape(label)}</text>')
        for j, num in enumerate(view["unplaced"][s]):
            move = merchant_moves.get(num) if s == you and view["phase"] == "place" else None
            if s == active and num == view.get("selected"):
                out.append(f'<circle cx="{420 + 58 * j}" cy="{y - 5}" r="{_radius(num) + 7:.1f}" fill="none" '
                           f'stroke="{HIGHLIGHT}" stroke-width="4" stroke-dasharray="6 4"/>')
            out.append(_merchant(420 + 58 * j, y - 5, s, num, colours[s], move, _))
    out.append("</svg>")
    return "".join(out)
