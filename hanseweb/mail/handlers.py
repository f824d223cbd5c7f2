"""The inbound handler registry: the mail layer stores and processes received mail, but what a
mail *means* is decided by the app that registers a handler here (the games app registers
``games.email_replies.handle`` in its ``AppConfig.ready``). So ``hanseweb.mail`` imports nothing
from the apps that use it.

A handler takes an ``InboundEmail`` row and returns ``(status, outcome)`` for it, or ``None`` when
the mail is not its business (the next handler is asked). With no handler taking the mail, it is
ignored with the outcome "no handler".
"""
from __future__ import annotations

from typing import Callable

Handler = Callable[[object], "tuple[str, str] | None"]

_handlers: list[tuple[str, Handler]] = []


def register(name: str, handler: Handler) -> None:
    """Register ``handler`` under ``name`` (registering the same name again replaces it, so a
    ``ready()`` that runs twice does not register twice)."""
    for i, (known, _) in enumerate(_handlers):
        if known == name:
            _handlers[i] = (name, handler)
            return
    _handlers.append((name, handler))


def unregister(name: str) -> None:
    _handlers[:] = [(n, h) for n, h in _handlers if n != name]


def registered() -> list[str]:
    return [name for name, _ in _handlers]


def dispatch(row) -> tuple[str, str]:
    from .models import InboundEmail

    for _, handler in _handlers:
        result = handler(row)
        if result is not None:
            return result
    return InboundEmail.IGNORED, "no handler for inbound mail is registered"
