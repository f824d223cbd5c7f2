"""Hansa (Michael Schacht, 2004) for 2-4 players: rules in shared/rules/hansa.md,
notation and view in docs/hansa.md."""
from .engine import HansaEngine

ENGINE = HansaEngine()

__all__ = ["ENGINE", "HansaEngine"]
