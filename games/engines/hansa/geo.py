"""The Baltic under the Hansa board (pure Python): simplified coastlines in longitude/latitude,
drawn with the board data's own projection (``drawing.projection`` of ``hansa.json``:
equirectangular, longitude scaled by cos 57°, 104.13 px per degree, north up), so the cities sit
at their real places on the map; and where each city's name goes so that no route lane runs over
it. Coastlines are hand-simplified outlines (a few dozen points each), good for orientation only."""
from __future__ import annotations

import math

from .board import BOARD

PX_PER_DEG = 104.13
# anchored on Tønsberg (lat 59.27, lon 10.41 at x 87.8, y 77.7 in the board data)
_LON0, _LAT0, _X0, _Y0 = 10.41, 59.27, 87.8, 77.7
_KX = PX_PER_DEG * math.cos(math.radians(57.0))


def project(lon: float, lat: float) -> tuple[float, float]:
    return _X0 + (lon - _LON0) * _KX, _Y0 + (_LAT0 - lat) * PX_PER_DEG


# (lon, lat) outlines; the frame's corners (lon 8, 27; lat 53, 61) close the big land masses.
LAND = {
    "Scandinavia": [
        (7.0, 61.0), (7.0, 58.0), (8.0, 58.2), (8.8, 58.45), (9.6, 58.95), (10.2, 59.05), (10.5, 59.2), (10.6, 59.5),
        (10.9, 59.05), (11.17, 58.94), (11.44, 58.27), (11.9, 57.7), (12.25, 57.1), (12.85, 56.67),
        (12.45, 56.3), (12.7, 56.05), (13.0, 55.6), (13.15, 55.37), (13.8, 55.43), (14.35, 55.55),
        (14.3, 55.93), (14.86, 56.17), (15.59, 56.16), (16.2, 56.45), (16.45, 56.75), (16.64, 57.76),
        (16.8, 58.4), (17.0, 58.75), (17.6, 59.0), (18.9, 59.3), (18.8, 59.8), (18.45, 60.35), (18.3, 61.0),
    ],
    "Finland": [(21.0, 61.0), (21.4, 60.5), (22.4, 60.1), (22.95, 59.82), (23.6, 60.0), (24.94, 60.17),
                (26.0, 60.42), (27.0, 60.5), (27.0, 61.0)],
    "Continent": [
        (27.0, 59.45), (25.5, 59.55), (24.75, 59.48), (24.05, 59.35), (23.5, 58.95), (23.5, 58.57),
        (24.5, 58.38), (24.35, 57.75), (24.15, 57.05), (23.6, 56.97), (22.6, 57.75), (21.55, 57.4),
        (21.0, 56.5), (21.1, 55.7), (20.6, 54.95), (19.9, 54.65), (19.4, 54.4), (18.65, 54.4),
        (18.55, 54.52), (18.35, 54.83), (17.55, 54.76), (15.55, 54.18), (14.25, 53.92), (13.6, 54.5),
        (12.1, 54.18), (11.45, 53.95), (10.85, 53.98), (11.1, 54.4), (10.15, 54.4), (9.45, 54.8),
        (9.4, 55.05), (9.75, 55.56), (9.85, 55.86), (10.2, 56.15), (10.93, 56.41), (10.3, 56.6),
        (10.3, 56.99), (10.55, 57.33), (10.53, 57.44), (10.6, 57.74), (9.96, 57.59), (9.7, 57.37),
        (8.6, 57.12), (8.1, 56.9), (8.1, 55.5), (8.6, 54.9), (7.0, 54.9), (7.0, 53.0), (27.0, 53.0),
    ],
    "Zealand": [(12.6, 56.03), (12.65, 55.68), (12.2, 55.45), (12.45, 55.3), (11.9, 55.0), (11.25, 55.25),
                (11.08, 55.68), (11.2, 55.97), (11.85, 55.97), (12.3, 56.12)],
    "Funen": [(10.0, 55.5), (10.6, 55.6), (10.85, 55.3), (10.6, 55.05), (10.2, 55.05), (9.7, 55.2), (9.8, 55.5)],
    "Lolland": [(11.0, 54.8), (11.9, 54.95), (12.15, 54.6), (11.5, 54.65), (11.0, 54.7)],
    "Bornholm": [(14.7, 55.3), (15.15, 55.15), (14.95, 55.0), (14.7, 55.1)],
    "Gotland": [(18.1, 57.5), (18.7, 57.95), (19.2, 57.8), (18.9, 57.3), (18.5, 56.9), (18.2, 57.1)],
    "Öland": [(16.4, 56.2), (16.55, 56.25), (17.15, 57.35), (16.95, 57.3)],
    "Saaremaa": [(21.8, 58.3), (22.5, 58.6), (23.3, 58.5), (22.7, 57.95), (22.0, 57.95)],
    "Hiiumaa": [(22.4, 58.9), (23.0, 59.0), (22.9, 58.7), (22.5, 58.7)],
}
# sea names with the places they may go (lon, lat), the first one clear of every route lane
SEAS = [("Baltic Sea", [(19.4, 55.55), (20.0, 55.1), (17.0, 55.2), (19.2, 56.3)]),
        ("Kattegat", [(11.7, 56.75), (11.5, 57.35), (11.0, 56.6)]),
        ("Gulf of Riga", [(23.2, 57.6), (23.0, 57.3)]),
        ("Gulf of Finland", [(22.5, 59.65), (25.8, 59.8)])]


def _on_land(x: float, y: float) -> bool:
    for pts in LAND.values():
        xy = [project(lon, lat) for lon, lat in pts]
        inside = False
        for (x1, y1), (x2, y2) in zip(xy, xy[1:] + xy[:1]):
            if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / ((y2 - y1) or 1e-9) + x1:
                inside = not inside
        if inside:
            return True
    return False


def sea_names(route_paths: list[str], size: float = 15) -> list[tuple[str, float, float]]:
    """Each sea's name at the clear place nearest its preferred one (open sea, no route lane, no
    city), or left out."""
    lanes = [route_points(p) for p in route_paths]
    out = []
    for name, places in SEAS:
        lon0, lat0 = places[0]
        grid = [(lon0 + i * 0.2, lat0 + j * 0.1) for i in range(-8, 9) for j in range(-8, 9)]
        grid.sort(key=lambda p: (p[0] - lon0) ** 2 * 0.3 + (p[1] - lat0) ** 2)
        for lon, lat in places + grid:
            x, y = project(lon, lat)
            box = text_box(x, y, name + "  ", size, "middle")  # letter-spaced: a little wider
            corners = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3]), (x, y)]
            if any(_on_land(cx, cy) for cx, cy in corners) or any(hits(box, lane) for lane in lanes):
                continue
            if any(box[0] - 40 <= cx <= box[2] + 40 and box[1] - 40 <= cy <= box[3] + 40 for cx, cy in BOARD.pos.values()):
                continue
            out.append((name, x, y))
            break
    return out


def land_paths() -> list[tuple[str, str]]:
    out = []
    for name, pts in LAND.items():
        xy = [project(lon, lat) for lon, lat in pts]
        out.append((name, "M" + " L".join(f"{x:.0f},{y:.0f}" for x, y in xy) + " Z"))
    return out


def route_points(path: str, samples: int = 24) -> list[tuple[float, float]]:
    """Points along a route path of the form ``M x,y L x,y`` or ``M x,y Q cx,cy x,y``."""
    nums = [float(v) for v in path.replace("M", " ").replace("L", " ").replace("Q", " ").replace(",", " ").split()]
    if len(nums) == 4:
        (x1, y1, x2, y2) = nums
        return [(x1 + (x2 - x1) * t / samples, y1 + (y2 - y1) * t / samples) for t in range(samples + 1)]
    x1, y1, cx, cy, x2, y2 = nums
    pts = []
    for i in range(samples + 1):
        t = i / samples
        pts.append(((1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t * t * x2,
                    (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t * t * y2))
    return pts


def text_box(x: float, y: float, text: str, size: float, anchor: str) -> tuple[float, float, float, float]:
    """A generous box around a text: x0, y0, x1, y1."""
    w = 0.62 * size * len(text)
    x0 = x - w / 2 if anchor == "middle" else (x - w if anchor == "end" else x)
    return x0 - 3, y - 0.8 * size - 3, x0 + w + 3, y + 0.25 * size + 3


def hits(box, points, pad: float = 6.0) -> bool:
    x0, y0, x1, y1 = box
    return any(x0 - pad <= px <= x1 + pad and y0 - pad <= py <= y1 + pad for px, py in points)


def name_places(route_paths: list[str], radius: float, size: float = 17,
                frame=(0.0, 0.0, 1000.0, 730.0)) -> dict[str, tuple[float, float, str]]:
    """Where each city's name goes: below, right or left of its circle, else the nearest place on
    rings around it, that stays in the frame, clear of the warehouse slots and the other cities,
    and that no route lane crosses (or, failing that, as few as possible)."""
    lanes = [route_points(p) for p in route_paths]
    out = {}
    for cid in BOARD.city_ids:
        x, y = BOARD.pos[cid]
        name = BOARD.city_names[cid]
        candidates = [(x, y + radius + 17, "middle"), (x + radius + 6, y + 6, "start"),
                      (x - radius - 6, y + 6, "end")]
        for dist in (radius + 8, radius + 22, radius + 38, radius + 56):  # then rings around the city
            for deg in range(0, 360, 20):
                a = math.radians(deg)
                dx, dy = math.cos(a), math.sin(a)
                anchor = "start" if dx > 0.35 else ("end" if dx < -0.35 else "middle")
                candidates.append((x + dx * dist, y + dy * dist + 6, anchor))
        others = [BOARD.pos[o] for o in BOARD.city_ids if o != cid]
        n = len(BOARD.city_slots[cid])
        slots = (x - n * 15 - 4, y - radius - 36, x + n * 15 + 4, y - radius - 2)  # the warehouse slots
        best = None
        for cand in candidates:
            box = text_box(cand[0], cand[1], name, size, cand[2])
            if box[0] < frame[0] or box[1] < frame[1] or box[2] > frame[2] or box[3] > frame[3]:
                continue
            if any(box[0] - radius <= ox <= box[2] + radius and box[1] - radius <= oy <= box[3] + radius
                   for ox, oy in others):
                continue
            if box[0] < slots[2] and box[2] > slots[0] and box[1] < slots[3] and box[3] > slots[1]:
                continue
            crossed = sum(hits(box, lane) for lane in lanes)
            if best is None or crossed < best[0]:
                best = (crossed, cand)
            if not crossed:
                break
        out[cid] = best[1] if best else candidates[0]
    return out
