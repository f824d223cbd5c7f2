"""Turning an engine view into what a person reads: names, log lines, text and SVG.

Everything here starts from ``engine.view(state, seat)``, so a page or mail built with it cannot
show a seat anything that seat may not know.
"""
from __future__ import annotations

import functools
import html
import re
from importlib import import_module

from games.engines import SLUG_MODULES
from games.engines.colours import ink

from .models import Game

_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


@functools.lru_cache(maxsize=None)
def _module(slug: str, name: str):
    try:
        return import_module(f"{SLUG_MODULES[slug]}.{name}")
    except ModuleNotFoundError:
        return None


def player_names(game: Game) -> list[str]:
    seats = sorted((s for s in game.seats.all() if s.number is not None), key=lambda s: s.number)
    return [s.user.display_name or s.user.email.split("@")[0] for s in seats]


def fill_names(text: str, names: list[str], *, escape: bool = False) -> str:
    def name(match):
        i = int(match.group(1))
        value = names[i] if i < len(names) else f"player {i + 1}"
        return html.escape(value) if escape else value

    return _PLACEHOLDER.sub(name, html.escape(text) if escape else text)


@functools.lru_cache(maxsize=None)
def _seat_colours(slug: str, players: int) -> tuple[str, ...]:
    svg = _module(slug, "svg")
    colours = list(getattr(svg, "SEAT_COLOURS", [])) if svg else []
    fallback = ["#c0392b", "#2471a3", "#d4ac0d", "#7d3c98", "#1e8449", "#6e2c00"]
    return tuple((colours + fallback)[:players] if len(colours) < players else colours[:players])


def seat_colours(slug: str, players: int) -> list[str]:
    return list(_seat_colours(slug, players))


SHAPE_GLYPHS = {"circle": "\u25cf", "square": "\u25a0", "diamond": "\u25c6", "triangle": "\u25b2", "hexagon": "\u2b22"}


def seat_marks(slug: str, players: int) -> list[dict]:
    """Each seat's colour with its second cue as the board shows it (the colour's letter, or the
    seat's shape), and the ink that reads on the colour: for legends and holdings."""
    svg = _module(slug, "svg")
    cues = list(getattr(svg, "SEAT_CUES", [])) if svg else []
    out = []
    for i, colour in enumerate(seat_colours(slug, players)):
        cue = cues[i] if i < len(cues) else str(i + 1)
        out.append({"colour": colour, "mark": SHAPE_GLYPHS.get(cue, cue), "ink": ink(colour)})
    return out


def view_text(slug: str, view: dict, names: list[str]) -> str:
    text = _module(slug, "text")
    if text is not None:
        return text.render_text(view, names)
    return "\n".join(f"{k}: {v}" for k, v in view.items() if k != "log")


def board_svg(slug: str, view: dict, names: list[str], legal=()) -> str:
    svg = _module(slug, "svg")
    if svg is None:
        return ""
    return svg.render_svg(view, names, legal=legal)


def move_label(slug: str, view: dict, move: str, names: list[str]) -> str:
    """A listed move in words (the engine's ``labels.py``), or the move text without one."""
    labels = _module(slug, "labels")
    return labels.label(view, move, names) if labels is not None else move


# Headings of the groups of move buttons, by the move's first word (its kind).
GROUP_NAMES = {
    "place": "Place", "move": "Move", "buy": "Buy", "sell": "Sell", "build": "Build", "discard": "Give up",
    "fill": "Markets", "no": "Markets", "end": "Finish", "done": "Finish", "cancel": "Finish", "back": "Finish",
    "assign": "Actions", "displace": "Actions", "establish": "Establish", "with": "Which piece", "on": "Where",
    "at": "Where", "to": "Where", "from": "Bring from", "swap": "Swap", "space": "Which space",
    "kontor": "Reward", "extra": "Reward", "develop": "Reward", "nothing": "Reward", "coellen": "Reward",
    "pick": "Which piece", "lift": "Which piece", "use": "Bonus markers", "sail": "Sail", "stay": "Sail",
    "declare": "Declare", "privilege": "Privilege", "kaperbrief": "Kaperbrief", "pirate": "Pirate",
    "take": "Take goods", "play": "Play a card", "trade": "Trade", "keep": "Keep", "unload": "Unload",
    "refill": "Cards", "score": "Score a card", "set": "Set aside", "stop": "Finish", "push": "Push",
    "expel": "Expel", "pass": "Finish", "elsewhere": "Where", "free": "Pawn", "pawn": "Pawn",
}


def move_groups(slug: str, view: dict, legal: list[str], names: list[str]) -> list[dict]:
    """The listed moves grouped by kind, in the order first listed: ``{"kind", "moves": [{"move",
    "label"}]}``; the move text stays the value a button sends."""
    groups: dict[str, list[dict]] = {}
    own = getattr(_module(slug, "labels"), "GROUPS", {})  # an engine's own headings, where they differ
    for move in legal:
        verb = move.split(" ", 1)[0]
        kind = own.get(verb) or GROUP_NAMES.get(verb, verb.capitalize())
        groups.setdefault(kind, []).append({"move": move, "label": move_label(slug, view, move, names)})
    return [{"kind": kind, "moves": moves} for kind, moves in groups.items()]
