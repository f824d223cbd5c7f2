"""The last moves marked on the board (issue 24, item 7): which moves, and where they are.

``recent(game, viewer)`` picks the moves to mark from the log rows (read by index, like
``games.history``): the *last turn* (the trailing moves of whoever moved last) and, for a player,
every move of the others *since their own last turn*. Undone steps, and steps that log nothing
(choosing an action or a piece before the move itself), are left out. A move is used
only if the viewer may read it (one of its events is theirs to read in full, or it is their own),
and of its text only the board places it names (``places``): notation words that are place ids of
the board (cities, routes, fields, villages), never a card, a tile or a number, so nothing private
reaches the picture.

``overlay(slug, view, marked)`` draws rings at those places, in the board's own coordinates, as
an SVG fragment put on top of the picture (``mark_svg``). The page lists the marked moves' log
lines with the same marks (``seqs``).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from html import escape

from hanseweb import fastsql

LIMIT = 40  # moves looked at (the game page's log window)
LAST, SINCE = "last", "since"


@dataclass
class Marked:
    last: list[tuple[int, str]] = field(default_factory=list)   # (seq, move text), oldest first
    since: list[tuple[int, str]] = field(default_factory=list)
    last_seat: int | None = None

    @property
    def seqs(self) -> dict[int, str]:
        return {**{seq: SINCE for seq, _ in self.since}, **{seq: LAST for seq, _ in self.last}}


def _readable(events, seat, viewer) -> bool:
    if viewer is not None and seat == viewer:
        return True
    if events is None:  # logged before events were stored: the log shows "player: move text"
        return True
    return any(ev.get("only") is None or (viewer is not None and viewer in ev["only"]) for ev in events)


def recent(game, viewer, *, end: int | None = None) -> Marked:
    """The moves to mark for ``viewer`` (a seat, None: a spectator) as the game stood after move
    ``end`` (default: now). In the replay ``end`` is the frame's move; a later undo does not
    take it back there."""
    from . import history
    from .services import HUMAN, UNDO

    end = game.move_count if end is None else max(0, min(int(end), game.move_count))
    if end == 0:
        return Marked()
    rows = [r for r in fastsql.rows(history._window_rows, [game.pk, max(0, end - LIMIT), end]) if r[0] <= end]
    undone = {r[0] - 1 for r in rows if r[2] == UNDO and r[3] in HUMAN}
    # a step that logs nothing (choosing an action or a piece before the move itself) is no move
    # to mark: the last turn is the last one that shows in the log
    kept = [(seq, seat, text, events) for seq, seat, text, channel, _at, events in rows
            if seq not in undone and not (text == UNDO and channel in HUMAN) and events != []]
    out = Marked()
    if not kept:
        return out
    out.last_seat = kept[-1][1]
    i = len(kept)
    while i and kept[i - 1][1] == out.last_seat:
        i -= 1
    out.last = [(seq, text) for seq, seat, text, events in kept[i:] if _readable(events, seat, viewer)]
    if viewer is not None:
        since = []
        while i and kept[i - 1][1] != viewer:
            seq, seat, text, events = kept[i - 1]
            if _readable(events, seat, viewer):
                since.append((seq, text))
            i -= 1
        out.since = list(reversed(since))
    return out


# -- places named by a move's text, per title -------------------------------------------------

@functools.lru_cache(maxsize=None)
def _hansa_places():
    from games.engines.hansa.board import BOARD

    return {cid: ("circle", x, y, 34) for cid, (x, y) in BOARD.pos.items()}


@functools.lru_cache(maxsize=None)
def _teutonica_places(side_key: str):
    from games.engines.hansa_teutonica.board import SIDES

    side = SIDES[side_key]
    out = {}
    for cid, (x, y) in side.xy.items():
        out[cid.lower()] = ("circle", x, y, 34)
    for rid in side.routes:
        a, b = side.ends[rid]
        (x1, y1), (x2, y2) = side.xy[a], side.xy[b]
        out[rid] = ("line", x1, y1, x2, y2)
    return out


@functools.lru_cache(maxsize=None)
def _die_hanse_places():
    from games.engines.die_hanse.board import BOARD
    from games.engines.die_hanse.svg import SIZE, _centre

    return {label: ("circle", *_centre(BOARD.hexes[hid]), SIZE - 1) for label, hid in BOARD.by_label.items()}


@functools.lru_cache(maxsize=None)
def _zanzibar_places(name: str):
    from games.engines.zanzibar.board import get_board

    board = get_board(name)
    return {pid: ("circle", info["x"], info["y"], 26) for pid, info in board.info.items()}


def _places_of(slug: str, view: dict) -> dict:
    if slug == "hansa":
        return _hansa_places()
    if slug == "hansa-teutonica":
        return _teutonica_places("45" if view.get("side") == "4-5" else "23")
    if slug == "die-hanse":
        return _die_hanse_places()
    if slug == "zanzibar":
        return _zanzibar_places(view.get("map", "zanzibar"))
    return {}


def places(slug: str, view: dict, move: str) -> list[str]:
    """The board places a move's text names, in its order (ids of ``_places_of``)."""
    known = _places_of(slug, view)
    return [w for w in dict.fromkeys(str(move).split()) if w in known]


def _shape(spec, style, width: float) -> str:
    """One mark: a ring (a band along a route), over a white halo; ``width`` in board units."""
    halo = f'fill="none" stroke="#fff" stroke-opacity=".85" stroke-width="{width * 1.9:.1f}" stroke-linecap="round"'
    line = (f'fill="none" stroke="{MARK_COLOUR}" stroke-width="{width:.1f}" stroke-linecap="round"'
            + (f' stroke-dasharray="{width * 1.8:.1f} {width * 1.2:.1f}"' if style == SINCE else ""))
    if spec[0] == "line":
        _k, x1, y1, x2, y2 = spec
        ends = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
        return f'<line {ends} {halo} stroke-opacity=".5"/><line {ends} {line} stroke-opacity=".7" class="mk-{style}"/>'
    _k, x, y, r = spec
    centre = f'cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"'
    return f'<circle {centre} {halo}/><circle {centre} {line} class="mk-{style}"/>'


MARK_COLOUR = "#5b1fa8"  # a violet no board uses for its pieces or its targets
WIDTH = {"hansa": 5, "hansa-teutonica": 5, "die-hanse": 2, "zanzibar": 4}  # the boards' scales differ


def marked_places(slug: str, view: dict, marked: Marked) -> dict[str, str]:
    """Each place the marked moves name, with its style (the last turn wins over an earlier
    move at the same place)."""
    drawn: dict[str, str] = {}
    for style, moves in ((SINCE, marked.since), (LAST, marked.last)):
        for _seq, text in moves:
            for place in places(slug, view, text):
                drawn.pop(place, None)
                drawn[place] = style
    return drawn


def overlay(slug: str, view: dict, marked: Marked) -> str:
    """Rings (routes: a band) at the places the marked moves name: solid for the last turn,
    dashed for the moves since the viewer's last turn. ``""`` when nothing is named."""
    known = _places_of(slug, view)
    drawn = marked_places(slug, view, marked)
    if not drawn:
        return ""
    width = WIDTH.get(slug, 4)
    shapes = "".join(_shape(known[place], style, width) for place, style in drawn.items())
    return (f'<g class="last-moves" aria-hidden="true" pointer-events="none" data-marked="{escape(" ".join(drawn))}">'
            f"{shapes}</g>")


def mark_svg(svg: str, slug: str, view: dict, marked: Marked) -> str:
    """``svg`` with the marks drawn on top (before its closing tag)."""
    extra = overlay(slug, view, marked)
    if not extra or not svg.rstrip().endswith("</svg>"):
        return svg
    at = svg.rstrip().rindex("</svg>")
    return svg[:at] + extra + svg[at:]

