"""Turning an engine view into what a person reads: names, log lines, text and SVG.

Everything here starts from ``engine.view(state, seat)``, so a page or mail built with it cannot
show a seat anything that seat may not know.
"""
from __future__ import annotations

import functools
import html
import re
from importlib import import_module

from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engines import SLUG_MODULES
from games.engines.colours import ink
from games.engines.i18n import render

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


def fill_names_in_html(markup: str, names: list[str]) -> str:
    """``fill_names`` for text that is HTML already: only the names are escaped."""
    return fill_names(markup, [html.escape(n) for n in names])


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


@functools.lru_cache(maxsize=16384)
def _translated(language: str | None, text: str) -> str:
    return gettext(text)  # ``language`` is the active one: it only keys the memo


def _gettext(text: str) -> str:
    """``gettext`` remembered per language: a board's picture alone asks for some 250 place and
    piece names, and Django's ``gettext`` looks up the active language's catalogue on each call.
    Only plain ``str`` is remembered: a safe string equals its plain text, and must not come back
    for it (nor it for a safe string)."""
    if type(text) is not str:
        return gettext(text)
    return _translated(get_language(), text)


def tr(message, name_moves=None) -> str:
    """An engine text (a constant key, a ``msg`` or a ``Say``) in the active language (docs/i18n.md);
    ``name_moves`` (see ``move_namer``) names the moves a message lists in words."""
    return render(getattr(message, "message", message), _gettext, name_moves)


def move_namer(slug: str, view: dict, names: list[str], *, as_html: bool = False):
    """A function naming moves (notations) in words for ``view``'s seat, each with its notation
    small beside it: ``Go to North 1 (vanilla) [to n1]``, on the page ``<code class="notation">``.
    For the moves a refusal lists or names (``games.engines.i18n.moves``)."""
    from django.utils.html import escape

    def name(moves: list[str]) -> str:
        out = []
        for move in moves:
            said = fill_names(move_label(slug, view, move, names), names)
            out.append(f'{escape(said)} <code class="notation">{escape(move)}</code>' if as_html else f"{said} [{move}]")
        return "; ".join(out)

    return name


def _message_of(exc):
    message = getattr(exc, "message", None)
    if message is None and exc.args:
        message = getattr(exc.args[0], "message", None)
    return message


def error_text(exc, name_moves=None) -> str:
    """An engine's or the site's error in the active language: ``IllegalMove`` keeps its message."""
    message = _message_of(exc)
    return tr(message, name_moves) if message is not None else tr(str(exc))


def error_html(exc, name_moves=None) -> str:
    """``error_text`` as HTML for the page: the words escaped, and a typed word or a move's notation
    (the message's ``lit`` parameters) as ``<code class="notation">``, shown as what it is (the
    protocol, not a sentence of the page's language); the moves it names in words by
    ``name_moves`` (``move_namer(..., as_html=True)``), their notation beside them."""
    message = _message_of(exc)
    return _html(message if message is not None else str(exc), name_moves)


def _html(message, name_moves=None) -> str:
    from django.utils.html import escape

    if message is None:
        return ""
    if isinstance(message, str):
        return escape(_gettext(message) if message.strip() else message)
    params = {name: _html_param(value, name_moves) for name, value in (message.get("params") or {}).items()}
    key = message["key"]
    try:
        return escape(_gettext(key) if key.strip() else key).format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English text instead
        return escape(key).format(**params)


def _html_param(value, name_moves=None) -> str:
    from django.utils.html import escape

    from games.engines.i18n import is_message

    if is_message(value):
        return _html(value, name_moves)
    if isinstance(value, dict) and "lit" in value:
        return f'<code class="notation">{escape(value["lit"])}</code>'
    if isinstance(value, dict) and "moves" in value:
        if name_moves is not None:
            return name_moves(value["moves"])
        return ", ".join(f'<code class="notation">{escape(m)}</code>' for m in value["moves"])
    if isinstance(value, (list, tuple)):
        return ", ".join(_html_param(v, name_moves) for v in value)
    if isinstance(value, str):
        return escape(_gettext(value) if value.strip() else value)
    return escape(str(value))


def prompt_text(view: dict) -> str:
    """What the view asks of its seat, in the active language."""
    return tr(view.get("prompt_msg") or view.get("prompt") or "")


@functools.lru_cache(maxsize=None)
def _id_names(slug: str) -> dict:
    """Every place and route id of ``slug``'s board with its name (a message or a proper name),
    from the engines' own data: for texts stored before the log said them in words."""
    out: dict = {}
    if slug == "hansa-teutonica":
        from games.engines.hansa_teutonica.board import SIDES
        from games.engines.hansa_teutonica.labels import _route
        from games.engines.hansa_teutonica.state import province

        for side in SIDES.values():
            view = {"cities": [{"id": k, "name": name} for k, name in side.city_name.items()]}
            out.update({k: {"lit": name} for k, name in side.city_name.items() if k != name})
            out.update({k.lower(): {"lit": name} for k, name in side.city_name.items() if k.lower() != name})
            out.update({rid: {"lit": _route(view, rid)} for rid in side.routes})
            out.update({pid: province(pid) for pid in getattr(side, "provinces", None) or []})
    elif slug == "die-hanse":
        from games.engines.die_hanse.board import BOARD, ISLANDS

        out.update({key: {"lit": BOARD.island_name(key)} for key in ISLANDS})  # ruegen: Rügen
        for token in list(BOARD.harbours) + [BOARD.label[h] for h in BOARD.canal]:
            hid = BOARD.by_label.get(token)
            if hid is not None:
                out[token] = BOARD.field_words(hid)
            elif BOARD.harbour_name.get(token):
                out[token] = {"lit": BOARD.harbour_name[token]}
        out.update({hid: BOARD.field_words(hid) for hid in BOARD.hexes})
    elif slug == "zanzibar":
        from games.engines.zanzibar.board import get_board, place_msg

        board = get_board("zanzibar")
        out.update({pid: place_msg(board, pid) for pid in board.places})
    elif slug == "hansa":
        from games.engines.hansa.board import BOARD

        out.update({k: {"lit": name} for k, name in BOARD.city_names.items() if k != name})
    return out


_ID_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9]")


def ids_in_words(slug: str, text: str) -> str:
    """``text`` with each place or route id of the board in its name, in the active language: for
    log texts stored before they named things in words (the log is never rewritten)."""
    names = _id_names(slug)
    return _ID_WORD.sub(lambda m: tr(names[m.group(0)]) if m.group(0) in names else m.group(0), text)


_OLD_UNDO = re.compile(r"\{p(\d+)\} took back their last step\.")


def event_text(ev: dict) -> str:
    """A log event in the active language; events stored without a message by their English text
    (an undo stored before its line had a message: as the message it now has)."""
    if not ev.get("msg"):
        old = _OLD_UNDO.fullmatch(ev.get("text") or "")
        if old:
            return tr({"key": "{player} took back their last step.", "params": {"player": "{p%s}" % old.group(1)}})
    return tr(ev.get("msg") or ev["text"])


_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n){2,}")


def view_text(slug: str, view: dict, names: list[str], *, prompt: bool = True) -> str:
    """The seat's view as text (the engine's ``text.py``); ``prompt=False`` leaves out the line
    that asks the seat to decide, for a mail that states it at its top."""
    if not prompt:
        view = {**view, "prompt": "", "prompt_msg": None}
    text = _module(slug, "text")
    if text is None:
        return "\n".join(f"{k}: {v}" for k, v in view.items() if k != "log")
    # one blank line between sections and none at the ends: a mail sets it between blank lines
    return _BLANK_RUN.sub("\n\n", text.render_text(view, names, _=tr)).strip("\n")


def board_svg(slug: str, view: dict, names: list[str], legal=()) -> str:
    svg = _module(slug, "svg")
    if svg is None:
        return ""
    return svg.render_svg(view, names, legal=legal, _=tr)


def move_label(slug: str, view: dict, move: str, names: list[str]) -> str:
    """A listed move in words (the engine's ``labels.py``), or the move text without one."""
    labels = _module(slug, "labels")
    if labels is None:
        return move
    said = labels.label(view, move, names, _=tr)
    return said if isinstance(said, str) and not hasattr(said, "message") else tr(said)


# Headings of the groups of move buttons, by the move's first word (its kind).
GROUP_NAMES = {
    "place": pgettext_lazy("move group", "Place"), "move": pgettext_lazy("move group", "Move"), "buy": gettext_lazy("Buy"), "sell": gettext_lazy("Sell"), "build": gettext_lazy("Build"), "discard": gettext_lazy("Give up"),
    "fill": gettext_lazy("Markets"), "no": gettext_lazy("Markets"), "end": gettext_lazy("Finish"), "done": gettext_lazy("Finish"), "cancel": gettext_lazy("Take back"), "back": gettext_lazy("Take back"),
    "assign": gettext_lazy("Actions"), "displace": gettext_lazy("Actions"), "establish": gettext_lazy("Establish"), "with": gettext_lazy("Which piece"), "on": gettext_lazy("Where"),
    "at": gettext_lazy("Where"), "to": gettext_lazy("Where"), "from": gettext_lazy("Bring from"), "swap": gettext_lazy("Swap"), "space": gettext_lazy("Which space"),
    "kontor": gettext_lazy("Reward"), "extra": gettext_lazy("Reward"), "develop": gettext_lazy("Reward"), "nothing": gettext_lazy("Reward"), "coellen": gettext_lazy("Reward"),
    "pick": gettext_lazy("Which piece"), "lift": gettext_lazy("Which piece"), "use": gettext_lazy("Bonus markers"), "sail": gettext_lazy("Sail"), "stay": gettext_lazy("Sail"),
    "declare": gettext_lazy("Declare"), "privilege": gettext_lazy("Privilege"), "kaperbrief": gettext_lazy("Kaperbrief"), "pirate": gettext_lazy("Pirate"),
    "take": gettext_lazy("Take goods"), "play": gettext_lazy("Play a card"), "trade": gettext_lazy("Trade"), "keep": gettext_lazy("Keep"), "unload": gettext_lazy("Unload"),
    "refill": gettext_lazy("Cards"), "score": gettext_lazy("Score a card"), "set": gettext_lazy("Set aside"), "stop": gettext_lazy("Finish"), "push": gettext_lazy("Push"),
    "expel": gettext_lazy("Expel"), "pass": gettext_lazy("Finish"), "elsewhere": gettext_lazy("Where"), "free": gettext_lazy("Pawn"), "pawn": gettext_lazy("Pawn"),
}


def move_groups(slug: str, view: dict, legal: list[str], names: list[str]) -> list[dict]:
    """The listed moves grouped by kind, in the order first listed: ``{"kind", "moves": [{"move",
    "label"}]}``; the move text stays the value a button sends."""
    groups: dict[str, list[dict]] = {}
    own = getattr(_module(slug, "labels"), "GROUPS", {})  # an engine's own headings, where they differ
    for move in legal:
        verb = move.split(" ", 1)[0]
        kind = str(tr(own[verb]) if verb in own else GROUP_NAMES.get(verb, verb.capitalize()))
        groups.setdefault(kind, []).append({"move": move, "label": move_label(slug, view, move, names)})
    return [{"kind": kind, "moves": moves} for kind, moves in groups.items()]


# A decision whose choices the board offers (issue 24, item 7): with at least this many of them
# the board is the way to choose and their list is folded under the board.
FOLD_BOARD_CHOICES = 6
_DATA_MOVE = re.compile(r'data-move="([^"]*)"')


def board_targets(svg: str) -> set[str]:
    """The moves the board's picture offers as clickable targets (``data-move``)."""
    return {html.unescape(m) for m in _DATA_MOVE.findall(svg or "")}


def split_board_choices(groups: list[dict], svg: str) -> tuple[list[dict], list[dict]]:
    """``move_groups`` split in two: the choices listed beside the board, and those the board
    offers (listed folded under it), when the board offers at least ``FOLD_BOARD_CHOICES``;
    otherwise every choice is listed beside the board. Order and grouping are kept."""
    targets = board_targets(svg)
    on_board = sum(1 for g in groups for m in g["moves"] if m["move"] in targets)
    if on_board < FOLD_BOARD_CHOICES:
        return groups, []
    side, board = [], []
    for g in groups:
        here = [m for m in g["moves"] if m["move"] not in targets]
        there = [m for m in g["moves"] if m["move"] in targets]
        if here:
            side.append({"kind": g["kind"], "moves": here})
        if there:
            board.append({"kind": g["kind"], "moves": there})
    return side, board
