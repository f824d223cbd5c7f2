"""What a seat holds and may still do, in words, for the panel beside the decision (issue 24,
item 2): built only from ``engine.view(state, seat)`` of that seat, so it shows nothing the seat
may not know. ``holdings(slug, view, names)`` gives ``None`` for a spectator, else::

    {"facts": [{"label": str, "value": str, "tiles": [tile, ...] (Hansa goods tiles, optional)}],
     "left": str}   # what the seat may still do this turn ("" when nothing is counted)

Every word is translated here (the active language); game terms go through the catalogue
(``presentation.tr``), the way the board and the log translate them.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import npgettext, pgettext

from .engines.die_hanse.board import A_SHIP
from .presentation import tr


def _a_ship(name: str) -> str:
    """Die Hanse's ship by its colour inside a label, the colour inflected: "rotes Schiff", "rood schip"."""
    words = tr(A_SHIP.get(name, name))
    return words[:1].lower() + words[1:]


def _pieces(traders: int, merchants: int) -> str:
    return pgettext("holdings", "%(traders)s, %(merchants)s") % {
        "traders": npgettext("holdings", "%(n)d trader", "%(n)d traders", traders) % {"n": traders},
        "merchants": npgettext("holdings", "%(n)d merchant", "%(n)d merchants", merchants) % {"n": merchants},
    }


def _hansa(view: dict, you: int) -> dict:
    me = next((s for s in view.get("seats", []) if s.get("seat") == you), None)
    if me is None:
        return {"facts": [], "left": ""}
    names = {c["id"]: c.get("name", c["id"]) for c in view.get("cities", [])}
    stalls = ", ".join(f"{tr(names.get(c, c))} {n}" for c, n in me.get("stalls", {}).items()) or "–"
    facts = [
        {"label": _("Coins"), "value": str(me["coins"])},
        {"label": _("Face-up tiles"), "value": "" if me["tiles"] else "–", "tiles": list(me["tiles"])},
        {"label": _("Sold"), "value": (npgettext("holdings", "%(n)d point", "%(n)d points", me["sold_points"]) % {"n": me["sold_points"]})
         if me["sold"] else "–", "tiles": list(me["sold"])},
        {"label": _("Stalls in supply"), "value": str(me["supply"])},
        {"label": _("Stalls on the board"), "value": stalls},
    ]
    return {"facts": facts, "left": ""}


def _hansa_teutonica(view: dict, you: int) -> dict:
    from games.engines.hansa_teutonica.board import ABILITY_NAMES, MARKER_NAMES

    desk = next((d for d in view.get("desks", []) if d.get("seat") == you), None)
    if desk is None:
        return {"facts": [], "left": ""}
    privilege = {1: "white", 2: "orange", 3: "pink", 4: "black"}
    abilities = []
    for key, info in desk["abilities"].items():
        lvl = info["level"]
        if key == "privilegium":
            shown = tr(privilege.get(lvl, str(lvl)))
        elif key == "bursa" and lvl == 99:
            shown = pgettext("holdings", "all")
        else:
            shown = str(lvl)
        abilities.append(f"{tr(ABILITY_NAMES[key])} {shown}")
    markers = ", ".join(tr(MARKER_NAMES[m["type"]]) + (" " + _("(used)") if m["used"] else "")
                        for m in desk["markers"]) or "–"
    if desk.get("drawn"):
        markers += " · " + npgettext("holdings", "%(n)d face down", "%(n)d face down", desk["drawn"]) % {"n": desk["drawn"]}
    facts = [
        {"label": pgettext("holdings", "Prestige points"), "value": str(desk["pp"])},
        {"label": pgettext("holdings", "Supply"), "value": _pieces(desk["supply"]["traders"], desk["supply"]["merchants"])},
        {"label": pgettext("holdings", "Stock"), "value": _pieces(desk["stock"]["traders"], desk["stock"]["merchants"])},
        {"label": pgettext("holdings", "Abilities"), "value": " · ".join(abilities)},
        {"label": _("Bonus markers"), "value": markers},
    ]
    actions = view.get("actions") or {}
    left = ""
    if view.get("active") == you and view.get("phase") not in ("over", "pawn"):
        # the noun goes with the total: "noch 1 von 2 Aktionen", "nog 1 van 2 acties"
        left = npgettext("holdings", "%(left)d of %(allowed)d action left this turn", "%(left)d of %(allowed)d actions left this turn",
                        actions.get("allowed", 0)) % {"left": actions.get("left", 0), "allowed": actions.get("allowed", 0)}
    return {"facts": facts, "left": left}


def _goods(goods: list[str], values: list | None) -> str:
    from games.engines.die_hanse.board import GOOD_NAMES

    if not goods:
        return "–"
    return ", ".join(tr(GOOD_NAMES.get(g, g)) + ("" if values is None else f" {values[i]}")
                     for i, g in enumerate(goods))


def _die_hanse(view: dict, you: int) -> dict:
    from games.engines.die_hanse.board import GOOD_NAMES
    from games.engines.die_hanse.special import CARD_NAME

    special = (view.get("special") or [{}] * (you + 1))[you]
    # the cards' names of the title's glossary (HANSE-10), as the log and the board say them
    cards = [tr(name) for key, name in CARD_NAME.items() if special.get(key)]
    slots = view["storages"][you]["slots"]
    storage = ", ".join(tr(GOOD_NAMES.get(s["good"], s["good"])) + (f" {s['value']}" if "value" in s else "")
                        for s in slots if s["filled"])
    free = sum(1 for s in slots if not s["filled"])
    if free:
        storage += (" · " if storage else "") + npgettext("holdings", "%(n)d free space", "%(n)d free spaces", free) % {"n": free}
    storage = storage or "–"
    facts = [
        {"label": pgettext("holdings", "Special cards"), "value": ", ".join(cards) or "–"},
        {"label": _("Storage"), "value": storage},
    ]
    for ship in view.get("ships", []):
        for side in ("stern", "bow"):
            half = ship[side]
            if half.get("seat") == you:
                facts.append({"label": pgettext("holdings", "Hold (%(ship)s, %(half)s)") % {"half": tr(side), "ship": _a_ship(ship["name"])},
                              "value": _goods(half.get("goods", []), half.get("values"))})
    hand = view.get("hand") or []
    facts.append({"label": pgettext("holdings", "Harbour cards in hand"),
                  "value": ", ".join(tr(c.get("title_msg") or c["title"]) for c in hand) or "–"})
    wind = view.get("wind") or {}
    if wind:
        facts.append({"label": pgettext("holdings", "Wind"), "value": pgettext("holdings", "North Sea %(north)s · Baltic %(baltic)s") % wind})
    return {"facts": facts, "left": ""}


def _zanzibar(view: dict, you: int) -> dict:
    hand = view.get("hand") or []
    cards = ", ".join(pgettext("holdings", "%(card)s (%(points)s now)") % {"card": tr(c["card"]), "points": c["points_now"]}
                      for c in hand) or "–"
    facts = [
        {"label": _("Score"), "value": str(view["scores"][you])},
        {"label": _("Your assignment cards"), "value": cards},
    ]
    if view.get("set_aside"):
        facts.append({"label": _("Set aside"), "value": ", ".join(tr(c) for c in view["set_aside"])})
    deck = (view.get("deck_counts") or [None] * (you + 1))[you]
    if deck is not None:
        facts.append({"label": _("Deck"), "value": str(deck)})
    unplaced = (view.get("unplaced") or [[]] * (you + 1))[you]
    if unplaced:
        facts.append({"label": pgettext("holdings", "Merchants not yet placed"), "value": ", ".join(str(n) for n in unplaced)})
    return {"facts": facts, "left": ""}


BUILDERS = {"hansa": _hansa, "hansa-teutonica": _hansa_teutonica, "die-hanse": _die_hanse, "zanzibar": _zanzibar}


def holdings(slug: str, view: dict, names=None) -> dict | None:
    """The panel of ``view``'s own seat, or ``None`` for a spectator or a title without one."""
    you = view.get("you")
    build = BUILDERS.get(slug)
    if you is None or build is None:
        return None
    return build(view, you)
