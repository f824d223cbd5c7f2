"""Small helpers for the engines' move labels (``<engine>/labels.py``): pure Python, no Django.

A label says a listed move in words, built only from the seat's view, the move text and the
players' names (engine contract, "Presentation")."""
from __future__ import annotations


def words(token: str) -> str:
    """A folded identifier as words: ``north-bay`` -> ``North bay``."""
    text = token.replace("_", " ").replace("-", " ")
    return text[:1].upper() + text[1:] if text else text


def who(names, seat) -> str:
    if seat is None:
        return "nobody"
    return names[seat] if names and 0 <= seat < len(names) else f"player {seat + 1}"


def plural(n, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"
