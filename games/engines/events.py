"""The log events of the engine contract (docs/engine-contract.md, "What a view holds"):
``{"n", "seat", "text"}``, optionally seen only by some seats (``only``), with a ``redacted``
text for the others. Engines store them in ``state["log"]`` and show them through ``visible``."""
from __future__ import annotations


def event(n: int, seat, text: str, only=None, redacted: str | None = None) -> dict:
    ev = {"n": n, "seat": seat, "text": text}
    if only is not None:
        ev["only"] = list(only)
        if redacted is not None:
            ev["redacted"] = redacted
    return ev


def visible(events: list[dict], seat) -> list[dict]:
    """The events ``seat`` (None: a spectator) may read, private ones redacted or left out."""
    out = []
    for ev in events:
        only = ev.get("only")
        if only is None or (seat is not None and seat in only):
            out.append({"n": ev["n"], "seat": ev["seat"], "text": ev["text"]})
        elif "redacted" in ev:
            out.append({"n": ev["n"], "seat": ev["seat"], "text": ev["redacted"]})
    return out
