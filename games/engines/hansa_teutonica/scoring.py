"""Final scoring (HT-12.1) and the ranking with shared places (HT-12.2)."""
from __future__ import annotations

from ..i18n import N_
from .board import side_of
from .rules import controller, largest_network
from .state import full, level

MARKER_TABLE = [(10, 21), (8, 15), (6, 10), (4, 6), (2, 3), (1, 1), (0, 0)]
LABELS = [N_("prestige track"), N_("abilities"), N_("bonus markers"), N_("coellen"), N_("cities controlled"), N_("network")]


def marker_points(count: int) -> int:
    for n, pts in MARKER_TABLE:
        if count >= n:
            return pts
    return 0


def breakdown(s: dict, seat: int) -> dict:
    side = side_of(s)
    p = s["p"][seat]
    abil = 4 * sum(1 for a in ("actiones", "privilegium", "liber", "bursa") if full(p, a))  # HT-D-20
    coellen = sum(pts for (c, pts), o in zip(side.coellen_fields, s["coellen"]) if o == seat)
    cities = 2 * sum(1 for c in side.cities if controller(s, c) == seat)
    net = largest_network(s, seat) * level(p, "clavis")
    return dict(zip(LABELS, [p["pp"], abil, marker_points(len(p["markers"])), coellen, cities, net]))


def result(s: dict) -> dict | None:
    if s["phase"] != "over":
        return None
    parts = [breakdown(s, i) for i in range(s["np"])]
    scores = [sum(b.values()) for b in parts]
    ranking = [1 + sum(1 for o in scores if o > sc) for sc in scores]
    return {"scores": scores, "ranking": ranking, "breakdown": parts}
