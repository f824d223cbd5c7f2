"""The renderer registry: mails queued now and rendered by the worker that sends them.

A move's transaction must queue its turn mail (so no mail is ever lost), but rendering the mail
(the seat's view as text, the menu, the news, the board picture, two templates) is work the player
who moved does not need to wait for. ``outbox.queue_rendered_later`` stores the row with a render
spec (a registered renderer's name and JSON parameters) instead of its text; the worker's
``send_email`` calls the renderer and stores what it returns in the row before sending it.

As with the inbound handlers (``handlers``), the mail layer knows no game: the games app registers
its renderers in its ``AppConfig.ready``. A renderer takes the parameters and returns
``{"template": ..., "context": {...}}`` with optional ``"headers"`` and ``"inline_svg"``.
"""
from __future__ import annotations

from typing import Callable

Renderer = Callable[[dict], dict]

_renderers: dict[str, Renderer] = {}


def register(name: str, renderer: Renderer) -> None:
    _renderers[name] = renderer


def get(name: str) -> Renderer:
    try:
        return _renderers[name]
    except KeyError:
        raise LookupError(f"no mail renderer named {name!r} is registered") from None


def registered() -> list[str]:
    return sorted(_renderers)
