"""Engine texts as message keys with parameters (docs/i18n.md). Pure Python: no Django here.

An engine says a log line, an error, a prompt or a label either as a constant English text
marked ``N_("The game is over.")`` or as ``msg(N_("{player} buys {tile} in {city}."), player=..., ...)``.
The English text is the message key; ``scripts/i18n`` extracts every ``N_`` string into the
Dutch and German catalogues. The presentation layer (``games.presentation``) renders a message
in the viewer's language with ``render(message, gettext)``; without a translator it is English.

Parameters are numbers, ``{pN}`` player placeholders (filled with names later), nested messages,
lists of those (joined with ", "), or strings: a string parameter is a game term (a good, a
colour, a city) and is translated too when the catalogue has it, so terms are ``N_``-marked
where they are defined (board.json names are listed in ``games/engines/terms.py``).
"""
from __future__ import annotations


def N_(text: str) -> str:
    """Marks an English text as a message key for extraction; returns it unchanged."""
    return text


def msg(key: str, /, **params) -> dict:
    """A message: its key (the English text with ``{name}`` fields) and its parameters."""
    return {"key": key, "params": params}


def _identity(text: str) -> str:
    return text


def lit(value) -> dict:
    """A parameter shown as it is, never translated (a move's notation, a typed word)."""
    return {"lit": str(value)}


def moves(values) -> dict:
    """A parameter naming moves by their notation (the choices a refusal offers, or the move it
    refused). Without a namer it is the notation joined by ", " (the engine's English ``str``);
    the presentation names each move in words, its notation small beside it."""
    return {"moves": [str(v) for v in values]}


def _moves(value, name_moves) -> str:
    return name_moves(value["moves"]) if name_moves is not None else ", ".join(value["moves"])


def is_message(value) -> bool:
    return isinstance(value, dict) and isinstance(value.get("key"), str)


def param(value, translate=_identity, name_moves=None) -> str:
    if is_message(value):
        return render(value, translate, name_moves)
    if isinstance(value, dict) and "lit" in value:
        return str(value["lit"])
    if isinstance(value, dict) and "moves" in value:
        return _moves(value, name_moves)
    if isinstance(value, (list, tuple)):
        return ", ".join(param(v, translate, name_moves) for v in value)
    if isinstance(value, str):
        return translate(value) if value.strip() else value
    return str(value)


def render(message, translate=_identity, name_moves=None) -> str:
    """``message`` (a constant key or a ``msg``) as text, through ``translate`` (e.g. gettext);
    ``name_moves`` (a list of notations -> text) says the ``moves`` parameters in words."""
    if message is None:
        return ""
    if isinstance(message, str):
        return translate(message) if message.strip() else message
    if isinstance(message, dict) and "lit" in message:  # a name or notation, shown as it is
        return str(message["lit"])
    key = message["key"]
    params = {name: param(value, translate, name_moves) for name, value in (message.get("params") or {}).items()}
    text = translate(key) if key.strip() else key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English text instead
        return key.format(**params)


def text(message) -> str:
    """The English text of a message (what the event's ``text`` and an error's ``str`` hold)."""
    return render(message)


class Say(str):
    """A str that is English text and remembers its message (``.message``): for code that builds
    strings (``IllegalMove(Say(...))``, ``view["prompt"]``) while the presentation can still translate."""

    message: dict | str

    def __new__(cls, message):
        obj = super().__new__(cls, render(message))
        obj.message = message
        return obj


def say(key: str, /, **params) -> Say:
    return Say(msg(key, **params))
