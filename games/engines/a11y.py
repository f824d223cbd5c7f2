"""How a board's root ``<svg>`` introduces itself to assistive technology (pure Python).

A board without move targets is one picture: ``role="img"`` with a name. A board holding move
targets (elements with ``data-move``, made buttons by the page) must not be an image, since an
image's children are hidden from assistive technology (axe ``nested-interactive``): it is a
named group, described by a ``<desc>``."""
from __future__ import annotations

from html import escape

from .i18n import N_, render


def root_attrs(name: str, legal, _=render) -> str:
    role = "group" if legal else "img"
    return f' role="{role}" aria-label="{escape(_(name))}"'


def desc(name: str, legal, _=render) -> str:
    """``_`` translates (the presentation layer passes the viewer's language)."""
    text = (_(name) + ". " + _("The highlighted places are moves you can make: choose one with a click, "
                               "or with Tab and Enter or Space.")) if legal else _(name) + "."
    return f"<desc>{escape(text)}</desc>"
