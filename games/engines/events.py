"""The log events of the engine contract (docs/engine-contract.md, "What a view holds"):
``{"n", "seat", "text"}``, optionally seen only by some seats (``only``), with a ``redacted``
text for the others. Engines store them in ``state["log"]`` and show them through ``visible``.

``text`` is English. An event made from a message (``games.engines.i18n.msg``) also keeps it
as ``msg`` (and ``redacted_msg``), so the presentation layer can show it in the viewer's
language (docs/i18n.md); events stored without one are looked up by their English text."""
from __future__ import annotations

from .i18n import is_message, render
from .searching import SEARCHING


def event(n: int, seat, text, only=None, redacted=None) -> dict:
    if SEARCHING.get():  # a bot's search reads no log (games.engines.searching)
        quiet = {"n": n, "seat": seat, "text": ""}
        if only is not None:
            quiet["only"] = list(only)
        return quiet
    message = getattr(text, "message", text)
    ev = {"n": n, "seat": seat, "text": render(message)}
    if is_message(message):
        ev["msg"] = message
    if only is not None:
        ev["only"] = list(only)
        if redacted is not None:
            hidden = getattr(redacted, "message", redacted)
            ev["redacted"] = render(hidden)
            if is_message(hidden):
                ev["redacted_msg"] = hidden
    return ev


def visible(events: list[dict], seat) -> list[dict]:
    """The events ``seat`` (None: a spectator) may read, private ones redacted or left out."""
    out = []
    for ev in events:
        only = ev.get("only")
        if only is None or (seat is not None and seat in only):
            shown = {"n": ev["n"], "seat": ev["seat"], "text": ev["text"]}
            if "msg" in ev:
                shown["msg"] = ev["msg"]
            out.append(shown)
        elif "redacted" in ev:
            shown = {"n": ev["n"], "seat": ev["seat"], "text": ev["redacted"]}
            if "redacted_msg" in ev:
                shown["msg"] = ev["redacted_msg"]
            out.append(shown)
    return out
