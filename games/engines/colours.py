"""Colours shared by the board drawings (pure Python, no Django): WCAG contrast, the ink that
reads on a fill, and the colour-blind-safe player palettes with their second cue.

The player palettes start from Okabe & Ito's colour-blind-safe set (vermillion, blue, bluish
green, orange, reddish purple, black), darkened until every colour stands ≥ 3:1 against the light
boards, and checked under deuteranopia and protanopia (Machado et al. 2009) by
``tests/test_board_contrast.py``. A colour is never the only cue: every player token carries the
player's mark (the colour's initial, or a shape per seat on the Zanzibar board), and the legends
show the same mark next to the name."""
from __future__ import annotations

import re

WHITE, BLACK = "#ffffff", "#000000"

# red, blue, green, orange, purple, black (Hansa Teutonica uses the first five, Die Hanse all six)
OKABE_ITO_DARK = ["#c0392b", "#0072b2", "#00795b", "#a86100", "#a3457c", "#222222"]
OKABE_ITO_NAMES = ["red", "blue", "green", "orange", "purple", "black"]


def mark(colour_name: str) -> str:
    """The one-letter mark of a named colour (black is K, as in CMYK, to differ from blue)."""
    return "K" if colour_name == "black" else colour_name[:1].upper()


def rgb(css: str) -> tuple[int, int, int]:
    h = css.strip().lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if not re.fullmatch(r"[0-9a-fA-F]{6}", h):
        raise ValueError(f"not a #rrggbb colour: {css!r}")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(css: str) -> float:
    """WCAG 2 relative luminance."""
    r, g, b = (_linear(c) for c in rgb(css))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (always ≥ 4.58:1)."""
    return BLACK if contrast(fill, BLACK) >= contrast(fill, WHITE) else WHITE


def haloed(x: float, y: float, content: str, attrs: str = "", fill: str = "#111111", halo: str = WHITE,
           width: float = 3) -> str:
    """A text with a halo that every renderer draws (CairoSVG ignores ``paint-order``): the same
    text twice, first as a wide stroke in ``halo``, then filled. ``content`` is already escaped."""
    return (f'<text x="{x:.1f}" y="{y:.1f}"{attrs} fill="none" stroke="{halo}" stroke-width="{width}" '
            f'stroke-linejoin="round" aria-hidden="true">{content}</text>'
            f'<text x="{x:.1f}" y="{y:.1f}"{attrs} fill="{fill}">{content}</text>')


def hsv(css: str) -> tuple[float, float, float]:
    """Hue in degrees (0-360), saturation and value (0-1) of a ``#rrggbb`` colour."""
    import colorsys

    r, g, b = (c / 255.0 for c in rgb(css))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    return h * 360.0, s, v


def seen_colour(css: str) -> str:
    """The everyday name a person gives the colour ``css`` (English): the hue's range, with the
    dark and pale ends of orange and yellow named as people see them (brown, olive).

    black: value < 0.2; grey/white: saturation < 0.2 (white when value > 0.9); then by hue:
    red < 15° or ≥ 345°; orange 15–45° (brown when value < 0.6); yellow 45–70° (olive when
    value < 0.65); green 70–170°; blue 170–255°; purple 255–345° (pink when pale: value > 0.85
    and saturation < 0.6)
    (``tests/test_colour_names.py`` holds every player colour's name to its drawn fill)."""
    h, s, v = hsv(css)
    if v < 0.2:
        return "black"
    if s < 0.2:
        return "white" if v > 0.9 else "grey"
    if h < 15 or h >= 345:
        return "red"
    if h < 45:
        return "orange" if v >= 0.6 else "brown"
    if h < 70:
        return "yellow" if v >= 0.65 else "olive"
    if h < 170:
        return "green"
    if h < 255:
        return "blue"
    if s < 0.6 and v > 0.85 and h >= 290:
        return "pink"
    return "purple"
