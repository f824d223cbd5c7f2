"""Zanzibar (Franz-Benno Delonge, 2007) rules engine. See docs/zanzibar.md."""
from .engine import ENGINE, ZanzibarEngine

__all__ = ["ENGINE", "ZanzibarEngine"]
