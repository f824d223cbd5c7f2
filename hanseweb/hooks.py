"""Hooks between apps, so that a lower app (games, accounts) can ask a higher one (leagues)
without importing it: the higher app registers a callable's dotted path in its ``AppConfig.ready``
(no imports at start-up), and the caller imports it on first use.

Kinds: ``hold_limits`` (``games.tasks.hold_for_vacation``: callable(game, user, day) -> bool),
``vacation_notes`` (``accounts.vacation.notes``: callable(user, now) -> [text]),
``digest_sections`` (``games.notifications.digest``: callable(user, since, now) -> [{"text", "url"}],
registered with a heading).
"""
from __future__ import annotations

from django.utils.module_loading import import_string

_registry: dict[str, dict[str, tuple[str, object]]] = {}


def register(kind: str, name: str, path: str, label=None) -> None:
    """Register the callable at dotted ``path`` under ``name`` (again: replaced, not added)."""
    _registry.setdefault(kind, {})[name] = (path, label)


def unregister(kind: str, name: str) -> None:
    _registry.get(kind, {}).pop(name, None)


def callables(kind: str) -> list[tuple[object, object]]:
    """The registered ``(callable, label)`` pairs of ``kind``, in registration order."""
    return [(import_string(path), label) for path, label in _registry.get(kind, {}).values()]
