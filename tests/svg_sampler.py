"""A contrast sampler for the boards' SVG (pure Python, no browser).

It paints the SVG in document order the way a renderer would, as far as contrast is concerned:
rectangles, circles, ellipses, polygons and filled paths (by their outline; paths by the polygon
through their points), with inherited ``fill``/``opacity``/``fill-opacity``/``stroke`` presentation
attributes and the simple one-selector rules of the SVG's own ``<style>`` (``.a``, ``tag``,
``tag.a``). For every ``<text>`` it estimates the text's box from its font size, anchor and length,
and samples the colour behind it at five points; a text drawn with a halo (``paint-order="stroke"``
and a stroke at least 2 units wide) is read against its halo. For every shape filled with a player
colour it reads the colour behind the shape's centre."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from games.engines.colours import contrast

NS = "{http://www.w3.org/2000/svg}"
INHERITED = ("fill", "opacity", "fill-opacity", "stroke", "stroke-width", "paint-order", "font-size",
             "font-weight", "text-anchor")
NAMED = {"white": "#ffffff", "black": "#000000", "none": None, "transparent": None}


def _css_rules(root) -> list[tuple[str | None, str | None, dict]]:
    rules = []
    for st in root.iter(f"{NS}style"):
        for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", st.text or ""):
            decls = dict((k.strip(), v.strip()) for k, v in
                         (d.split(":", 1) for d in body.split(";") if ":" in d))
            for one in sel.split(","):
                one = one.strip()
                m = re.fullmatch(r"([a-z]+)?(?:\.([\w-]+))?", one)
                if not m or not one or ":" in one:
                    continue  # descendant, hover and other compound rules are left out
                rules.append((m.group(1), m.group(2), decls))
    return rules


def _colour(value):
    if value is None:
        return None
    v = value.strip().lower()
    if v in NAMED:
        return NAMED[v]
    if re.fullmatch(r"#[0-9a-f]{3}", v):
        return "#" + "".join(c * 2 for c in v[1:])
    if re.fullmatch(r"#[0-9a-f]{6}", v):
        return v
    if v.startswith("url("):
        return None
    raise AssertionError(f"colour the sampler cannot read: {value!r}")


def _rgb(c):
    return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))


def blend(fg: str, bg: str, alpha: float) -> str:
    f, b = _rgb(fg), _rgb(bg)
    return "#%02x%02x%02x" % tuple(round(alpha * x + (1 - alpha) * y) for x, y in zip(f, b))


def _num(v, default=0.0):
    try:
        return float(str(v).replace("px", ""))
    except (TypeError, ValueError):
        return default


def _path_points(d: str) -> list[tuple[float, float]]:
    toks = re.findall(r"[MmLlHhVvQqCcAaZzTtSs]|-?\d*\.?\d+(?:e-?\d+)?", d)
    pts, i, x, y, cmd, start = [], 0, 0.0, 0.0, "M", (0.0, 0.0)
    arity = {"M": 2, "L": 2, "T": 2, "H": 1, "V": 1, "Q": 4, "S": 4, "C": 6, "A": 7, "Z": 0}
    while i < len(toks):
        t = toks[i]
        if re.fullmatch(r"[A-Za-z]", t):
            cmd = t
            i += 1
            if cmd in "Zz":
                x, y = start
            continue
        n = arity[cmd.upper()]
        args = [float(a) for a in toks[i:i + n]]
        i += n
        rel = cmd.islower()
        if cmd.upper() == "H":
            x = x + args[0] if rel else args[0]
        elif cmd.upper() == "V":
            y = y + args[0] if rel else args[0]
        else:
            ex, ey = args[-2], args[-1]
            x, y = (x + ex, y + ey) if rel else (ex, ey)
        if cmd in "Mm":
            start = (x, y)
            cmd = "l" if rel else "L"
        pts.append((x, y))
    return pts


def _in_polygon(px, py, pts) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        if (y1 > py) != (y2 > py) and px < (x2 - x1) * (py - y1) / ((y2 - y1) or 1e-9) + x1:
            inside = not inside
    return inside


@dataclass
class Shape:
    el: ET.Element
    kind: str
    geom: tuple
    fill: str | None
    alpha: float
    stroke: str | None
    stroke_width: float
    index: int
    parents: list = field(default_factory=list)

    def contains(self, px, py) -> bool:
        if self.kind == "rect":
            x, y, w, h = self.geom
            return x <= px <= x + w and y <= py <= y + h
        if self.kind == "ellipse":
            cx, cy, rx, ry = self.geom
            return rx > 0 and ry > 0 and ((px - cx) / rx) ** 2 + ((py - cy) / ry) ** 2 <= 1
        return len(self.geom) >= 3 and _in_polygon(px, py, list(self.geom))

    def centre(self):
        if self.kind == "rect":
            x, y, w, h = self.geom
            return x + w / 2, y + h / 2
        if self.kind == "ellipse":
            return self.geom[0], self.geom[1]
        xs, ys = [p[0] for p in self.geom], [p[1] for p in self.geom]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


@dataclass
class Text:
    el: ET.Element
    content: str
    fill: str
    alpha: float
    size: float
    halo: str | None
    box: tuple
    index: int
    parents: list = field(default_factory=list)


class Painted:
    """The SVG's shapes and texts in paint order, with their computed paint."""

    def __init__(self, svg: str, page_background: str = "#ffffff"):
        self.root = ET.fromstring(svg)
        self.page = page_background
        self.rules = _css_rules(self.root)
        self.shapes: list[Shape] = []
        self.texts: list[Text] = []
        self._counter = 0
        self._halos = {}
        self._walk(self.root, {"fill": "#000000", "opacity": "1", "fill-opacity": "1", "stroke": "none",
                               "stroke-width": "1", "font-size": self.root.get("font-size", "16"),
                               "text-anchor": "start"}, 1.0, [])

    def _style(self, el, inherited: dict) -> dict:
        st = dict(inherited)
        st["opacity"] = "1"
        tag = el.tag.replace(NS, "")
        classes = (el.get("class") or "").split()
        for rtag, rcls, decls in sorted(self.rules, key=lambda r: (r[0] is not None) + 10 * (r[1] is not None)):
            if (rtag is None or rtag == tag) and (rcls is None or rcls in classes) and (rtag or rcls):
                st.update({k: v for k, v in decls.items() if k in INHERITED})
        for k in INHERITED:
            if el.get(k) is not None:
                st[k] = el.get(k)
        for decl in (el.get("style") or "").split(";"):
            if ":" in decl:
                k, v = (s.strip() for s in decl.split(":", 1))
                if k in INHERITED:
                    st[k] = v
        return st

    def _walk(self, el, inherited, group_alpha, parents):
        tag = el.tag.replace(NS, "")
        if tag in ("defs", "title", "desc", "style", "marker", "clipPath", "pattern"):
            return
        st = self._style(el, inherited)
        alpha = group_alpha * _num(st.get("opacity"), 1.0)
        self._counter += 1
        fill = _colour(st.get("fill"))
        stroke = _colour(st.get("stroke"))
        fa = alpha * _num(st.get("fill-opacity"), 1.0)
        sw = _num(st.get("stroke-width"), 1.0)
        geom = None
        if tag == "rect":
            geom = ("rect", (_num(el.get("x")), _num(el.get("y")), _num(el.get("width")), _num(el.get("height"))))
        elif tag == "circle":
            r = _num(el.get("r"))
            geom = ("ellipse", (_num(el.get("cx")), _num(el.get("cy")), r, r))
        elif tag == "ellipse":
            geom = ("ellipse", (_num(el.get("cx")), _num(el.get("cy")), _num(el.get("rx")), _num(el.get("ry"))))
        elif tag == "polygon":
            nums = [float(v) for v in re.findall(r"-?\d*\.?\d+", el.get("points", ""))]
            geom = ("poly", tuple(zip(nums[0::2], nums[1::2])))
        elif tag == "path":
            geom = ("poly", tuple(_path_points(el.get("d", ""))))
        if geom is not None:
            self.shapes.append(Shape(el, geom[0], geom[1], fill, fa, stroke, sw, self._counter, list(parents)))
        if tag == "text":
            content = "".join(el.itertext()).strip()
            size = _num(st.get("font-size"), 16)
            halo = None
            x, y = _num(el.get("x")), _num(el.get("y"))
            if stroke and "stroke" in (st.get("paint-order") or "") and sw >= 2:
                halo = stroke
            elif fill is None and stroke and sw >= 2:
                self._halos[(x, y, content)] = stroke  # a halo drawn as the text's stroke under it
                return
            else:
                halo = self._halos.get((x, y, content))
            width = 0.58 * size * len(content) * (1.08 if str(st.get("font-weight")) in ("bold", "700") else 1)
            anchor = st.get("text-anchor") or "start"
            x0 = x - width / 2 if anchor == "middle" else (x - width if anchor == "end" else x)
            box = (x0, y - 0.72 * size, width, 0.72 * size)
            if fill:
                self.texts.append(Text(el, content, fill, fa, size, halo, box, self._counter, list(parents)))
            return
        for child in el:
            self._walk(child, st, alpha, parents + [el])

    def behind(self, px, py, before: int, skip=()) -> str:
        colour = self.page
        for s in self.shapes:
            if s.index >= before:
                break
            if s.el in skip or not s.fill or s.alpha <= 0:
                continue
            if s.contains(px, py):
                colour = blend(s.fill, colour, min(s.alpha, 1.0))
        return colour

    def text_contrast(self, t: Text) -> tuple[float, str]:
        x, y, w, h = t.box
        worst = (99.0, "")
        points = [(x + w / 2, y + h / 2), (x + 0.1 * w, y + 0.5 * h), (x + 0.9 * w, y + 0.5 * h),
                  (x + 0.3 * w, y + 0.2 * h), (x + 0.7 * w, y + 0.8 * h)]
        for px, py in points:
            bg = self.behind(px, py, t.index)
            if t.halo:
                bg = blend(t.halo, bg, min(t.alpha, 1.0))
            fg = blend(t.fill, bg, min(t.alpha, 1.0))
            ratio = contrast(fg, bg)
            if ratio < worst[0]:
                worst = (ratio, f"{fg} on {bg}")
        return worst

    def shape_contrast(self, s: Shape) -> float:
        """A filled shape against what is around it: the fill against the colour behind it, or,
        drawn with an outline at least 1.5 units wide, the outline against both."""
        cx, cy = s.centre()
        bg = self.behind(cx, cy, s.index, skip=(s.el,))
        direct = contrast(s.fill, bg)
        if s.stroke and s.stroke_width >= 1.5:
            return max(direct, min(contrast(s.fill, s.stroke), contrast(s.stroke, bg)))
        return direct
