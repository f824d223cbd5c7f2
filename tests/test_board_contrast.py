"""Contrast of the boards (issue 12), measured by a sampler over the rendered SVG of every board
in many random positions at every player count (``tests/svg_sampler.py``):

- every text ≥ 4.5:1 against what is painted behind it (or its halo);
- every shape in a player colour ≥ 3:1 against what is around it;
- the player colours stay apart under deuteranopia and protanopia (Machado et al. 2009
  matrices, severity 1) and normal vision, and a second cue (the colour's letter in the token, or
  a shape per seat) tells the players apart without colour."""
from __future__ import annotations

import importlib
import itertools
import math
import random

import pytest

from games.engines import get_engine
from games.engines.colours import contrast, rgb

from .svg_sampler import Painted

TITLES = {"hansa": (2, 3, 4), "hansa-teutonica": (2, 3, 4, 5), "zanzibar": (2, 3, 4, 5), "die-hanse": (3, 4, 5, 6)}
POSITIONS = 6  # random positions per title and player count (plus the setup)


def _svg_module(slug):
    engine = get_engine(slug)
    return importlib.import_module(engine.__module__.rsplit(".", 1)[0] + ".svg")


def _positions(slug, players, count, seed):
    """The setup and ``count`` random positions reached by random legal play."""
    engine = get_engine(slug)
    rnd = random.Random(seed)
    state = engine.setup(players=players, seed=seed, options={})
    stops = sorted(rnd.sample(range(1, 400), count))
    yield state
    n = 0
    for stop in stops:
        while n < stop:
            seats = engine.to_act(state)
            if not seats:
                return
            seat = rnd.choice(seats)
            state = engine.apply(state, seat, rnd.choice(engine.legal_moves(state, seat)))
            n += 1
        yield state


def _renders(slug, players):
    engine = get_engine(slug)
    svg = _svg_module(slug)
    names = [f"Player{i + 1}" for i in range(players)]
    for state in _positions(slug, players, POSITIONS, seed=players * 7 + len(slug)):
        seats = engine.to_act(state)
        for seat in (seats[:1] or [0]):
            legal = engine.legal_moves(state, seat) if seats else []
            yield svg.render_svg(engine.view(state, seat), names, legal=legal)


@pytest.mark.parametrize("slug,players", [(s, n) for s, ns in TITLES.items() for n in ns])
def test_board_texts_and_player_colours_have_contrast(slug, players):
    palette = {c.lower() for c in _svg_module(slug).SEAT_COLOURS}
    low_text, low_shape, texts = set(), set(), 0
    for svg in _renders(slug, players):
        painted = Painted(svg)
        for t in painted.texts:
            texts += 1
            ratio, where = painted.text_contrast(t)
            if ratio < 4.5:
                low_text.add(f"{t.content!r} {ratio:.2f}:1 ({where})")
        for s in painted.shapes:
            if s.fill in palette and s.alpha > 0.5:
                ratio = painted.shape_contrast(s)
                if ratio < 3:
                    low_shape.add(f"{s.el.tag.split('}')[1]} {s.fill} {ratio:.2f}:1")
    assert texts > 20
    assert not low_text, f"{len(low_text)} texts below 4.5:1: {sorted(low_text)[:12]}"
    assert not low_shape, f"player colours below 3:1: {sorted(low_shape)[:12]}"


# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
MACHADO = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}


def _lin(c):
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(css, vision=None):
    v = [_lin(c) for c in rgb(css)]
    if vision:
        m = MACHADO[vision]
        v = [min(1.0, max(0.0, sum(m[i][j] * v[j] for j in range(3)))) for i in range(3)]
    r, g, b = v
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a, b, vision=None):
    return math.dist(_lab(a, vision), _lab(b, vision))


def test_machado_simulation_is_the_known_one():
    # pure red and green, told apart by anyone with normal vision, are near one colour to a
    # deuteranope: the check below would catch a red/green palette
    assert delta_e("#ff0000", "#00ff00") > 80
    assert delta_e("#d62728", "#2ca02c", "deuteranopia") < 12
    # the Zanzibar colours before this change: orange and yellow collapsed for deuteranopes
    assert delta_e("#e65100", "#9e8600", "deuteranopia") < 6


@pytest.mark.parametrize("slug", list(TITLES))
@pytest.mark.parametrize("vision", [None, "deuteranopia", "protanopia"])
def test_player_colours_stay_apart_for_colour_blind_players(slug, vision):
    colours = _svg_module(slug).SEAT_COLOURS[:max(TITLES[slug])]
    closest = min(delta_e(a, b, vision) for a, b in itertools.combinations(colours, 2))
    assert closest >= 9, f"{slug} player colours only ΔE {closest:.1f} apart ({vision or 'normal vision'})"


@pytest.mark.parametrize("slug", list(TITLES))
def test_player_colours_stand_against_the_board_and_carry_a_second_cue(slug):
    svg = _svg_module(slug)
    for c in svg.SEAT_COLOURS:
        assert contrast(c, "#ffffff") >= 3.5, c
    cues = list(svg.SEAT_CUES)[:len(svg.SEAT_COLOURS)]
    assert len(set(cues)) == len(cues) == len(svg.SEAT_COLOURS)


@pytest.mark.parametrize("slug,players", [(s, max(ns)) for s, ns in TITLES.items()])
def test_every_player_token_carries_its_second_cue(slug, players):
    """Letter-cue boards: every shape in a player colour is followed by a text starting with that
    colour's letter (the token's mark); the Zanzibar board: the token's shape is the seat's."""
    svg_mod = _svg_module(slug)
    colours = [c.lower() for c in svg_mod.SEAT_COLOURS]
    checked = 0
    for svg in _renders(slug, players):
        painted = Painted(svg)
        parent = {c: p for p in painted.root.iter() for c in p}
        for s in painted.shapes:
            if s.fill not in colours or s.el.tag.endswith("}g"):
                continue
            seat = colours.index(s.fill)
            checked += 1
            if slug == "zanzibar":
                kind = "circle" if s.kind == "ellipse" else {4: "square/diamond", 3: "triangle", 6: "hexagon"}[len(s.geom)]
                assert kind in svg_mod.SEAT_CUES[seat] or (len(s.geom) == 4 and svg_mod.SEAT_CUES[seat] in ("square", "diamond"))
                continue
            siblings = list(parent[s.el])
            nxt = siblings[siblings.index(s.el) + 1] if siblings.index(s.el) + 1 < len(siblings) else None
            if nxt is not None and nxt.tag.endswith("title"):  # legend swatches: their text follows
                nxt = siblings[siblings.index(s.el) + 2] if siblings.index(s.el) + 2 < len(siblings) else None
            assert nxt is not None and nxt.tag.endswith("text") and "".join(nxt.itertext()).startswith(
                svg_mod.SEAT_CUES[seat]), f"{slug}: a {s.fill} shape without its mark {svg_mod.SEAT_CUES[seat]}"
    assert checked > 5
