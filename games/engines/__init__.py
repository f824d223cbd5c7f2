"""Game engines: pure-Python rules, no Django import.

Every game is a package here exposing ``ENGINE`` (an :class:`Engine`). The rest of
Hanseweb reaches a game only through :func:`get_engine` and the contract documented
in ``docs/engine-contract.md``.
"""
from importlib import import_module

from .base import Engine, IllegalMove

__all__ = ["Engine", "IllegalMove", "get_engine", "available_slugs", "SLUG_MODULES"]

# slug -> module path. Slugs are fixed by the product (DESIGN.md).
SLUG_MODULES = {
    "hansa": "games.engines.hansa",
    "hansa-teutonica": "games.engines.hansa_teutonica",
    "die-hanse": "games.engines.die_hanse",
    "zanzibar": "games.engines.zanzibar",
}

_cache: dict[str, Engine] = {}


def get_engine(slug: str) -> Engine:
    """Return the engine for ``slug``; raises ``KeyError`` for an unknown or absent game."""
    if slug in _cache:
        return _cache[slug]
    try:
        module_path = SLUG_MODULES[slug]
    except KeyError:
        raise KeyError(f"unknown game {slug!r}") from None
    try:
        module = import_module(module_path)
    except ModuleNotFoundError as exc:
        if exc.name and module_path.startswith(exc.name):
            raise KeyError(f"game {slug!r} is not installed") from None
        raise
    engine = getattr(module, "ENGINE", None)
    if engine is None:  # a package still being written
        raise KeyError(f"game {slug!r} is not installed")
    _cache[slug] = engine
    return engine


def available_slugs() -> list[str]:
    """Slugs of the games whose engine package is present, in product order."""
    found = []
    for slug in SLUG_MODULES:
        try:
            get_engine(slug)
        except KeyError:
            continue
        found.append(slug)
    return found
