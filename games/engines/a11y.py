"""How a board's root ``<svg>`` introduces itself to assistive technology (pure Python).

A board without move targets is one picture: ``role="img"`` with a name. A board holding move
targets (elements with ``data-move``, made buttons by the page) must not be an image, since an
image's children are hidden from assistive technology (axe ``nested-interactive``): it is a
named group, described by a ``<desc>``."""
from __future__ import annotations

from html import escape


def root_attrs(name: str, legal) -> str:
    role = "group" if legal else "img"
    return f' role="{role}" aria-label="{escape(name)}"'


def desc(name: str, legal) -> str:
    text = (f"{name}. The highlighted places are moves you can make: choose one with a click, "
            f"or with Tab and Enter or Space.") if legal else f"{name}."
    return f"<desc>{escape(text)}</desc>"
