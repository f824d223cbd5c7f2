"""Die Hanse (Schoeps & Sachse, Laurin 1993): rules engine, slug ``die-hanse``."""
from .engine import DieHanseEngine

ENGINE = DieHanseEngine()

__all__ = ["ENGINE", "DieHanseEngine"]
