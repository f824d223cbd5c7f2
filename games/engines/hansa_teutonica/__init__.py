"""Hansa Teutonica (Andreas Steding, 2009), 2-5 players: the rules engine."""
from .engine import HansaTeutonicaEngine

ENGINE = HansaTeutonicaEngine()

__all__ = ["ENGINE", "HansaTeutonicaEngine"]
