"""Names people type for things others read: display names, club, league, season and game titles,
API token names (docs/configuration.md, "Names").

- ``clean_name`` (and the form field ``NameField``): the text as it is stored, or a
  ``ValidationError``: no control characters (NUL, ESC, CR/LF, tabs: they broke the league's Atom
  feed, XML 1.0 has no place for them), no bidirectional overrides or isolates (they turn the
  text around it), no other invisible formatting characters (except the zero-width joiners some
  scripts and emoji need), nothing that only looks empty (``\\u200b`` alone, spaces of any kind).
  Runs of spaces become one space; NFC.
- ``name_keys``: the keys that make display names unique per site: case- and confusable-
  insensitive, Unicode's skeleton (UTS #39, section 4) over the confusables data that
  ``confusable_homoglyphs`` ships, with and without case folding, so "Alice", "alice", "ALICE",
  "AIice" (a capital I) and a Cyrillic "Аlice" are one name.
"""
from __future__ import annotations

import functools
import re
import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Formatting characters a name may hold: the zero-width non-joiner and joiner (Persian, Indic
# scripts, emoji sequences). Every other Cf (bidi marks, overrides and isolates, zero-width
# space, word joiner, BOM, soft hyphen, ...) is refused.
_ALLOWED_FORMAT = {"\u200c", "\u200d"}
_VISIBLE = ("L", "N", "P", "S")  # letters, numbers, punctuation, symbols
_SPACES = re.compile(r"\s+")


def problem(value: str) -> str | None:
    """What is wrong with ``value`` as a name (translated), or None."""
    for c in value:
        category = unicodedata.category(c)
        if category in ("Cc", "Cs", "Zl", "Zp"):
            return _("Names may not contain control characters or line breaks.")
        if category == "Cf" and c not in _ALLOWED_FORMAT:
            return _("Names may not contain invisible formatting characters (such as text-direction overrides "
                     "or zero-width spaces).")
        if category in ("Co", "Cn"):
            return _("Names may not contain unassigned or private-use characters.")
    if not any(unicodedata.category(c)[0] in _VISIBLE for c in value):
        return _("A name needs at least one visible letter, digit or sign.")
    return None


def clean_name(value) -> str:
    """``value`` as a name is stored (NFC, single spaces, trimmed), or ``ValidationError``."""
    text = unicodedata.normalize("NFC", "" if value is None else str(value))
    if (message := problem(text)) is not None:
        raise ValidationError(message, code="invalid_name")
    return _SPACES.sub(" ", text).strip()


def validate_name(value) -> None:
    """A validator (model or form field): ``clean_name`` without the change."""
    clean_name(value)


class NameField(forms.CharField):
    """A form field for a name: ``clean_name`` after the usual checks (an empty value stays empty
    for a field that is not required)."""

    def clean(self, value):
        value = super().clean(value)
        return clean_name(value) if value else value


# --- unique display names: the skeleton --------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each confusable character and its prototype (UTS #39 confusables.txt, as
    ``confusable_homoglyphs`` ships it).

    That data keeps the mapping in both directions (source and prototype each list the other),
    but a source has exactly one prototype and a prototype is never a source, so each group is
    a star: its prototype is the member that is a string of several characters (``m`` -> ``rn``),
    else the one linked to all the others, else (a pair) the smaller; for telling names apart
    only the group matters, not which of a pair is its prototype."""
    from confusable_homoglyphs.confusables import confusables_data

    neighbours: dict[str, set[str]] = {}
    for key, entries in confusables_data.items():
        char = key.replace("\u200e", "")  # the data wraps right-to-left letters in LRMs
        for entry in entries:
            other = entry["c"].replace("\u200e", "")
            if char and other and other != char:
                neighbours.setdefault(char, set()).add(other)
                neighbours.setdefault(other, set()).add(char)
    mapping: dict[str, str] = {}
    seen: set[str] = set()
    for start in neighbours:
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node not in group:
                group.add(node)
                todo.extend(neighbours.get(node, ()))
        seen |= group
        prototype = min(group, key=lambda n: (len(n) == 1, -len(neighbours.get(n, ())), n))
        for node in group:
            if len(node) == 1 and node != prototype:
                mapping[node] = prototype
    return mapping


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character as its prototype, NFD."""
    mapping = _prototypes()
    text = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(mapping.get(c, c) for c in text))


def name_keys(name: str) -> tuple[str, str]:
    """The two keys under which a display name must be unique (both "" for an empty name), of its
    text in NFKC without invisible characters and with single spaces:

    - folded: the skeleton of the case-folded text: "Alice", "ALICE" and a Cyrillic "Аlice" meet;
    - shape: the skeleton of the text as written: "AIice" (a capital I) meets "Alice", which the
      folded key cannot see (a small i is no small l). Folding after the skeleton would join
      what does not look alike ("Member I" and "Member L")."""
    text = unicodedata.normalize("NFKC", name or "")
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Cc"))
    text = _SPACES.sub(" ", text).strip()
    if not text:
        return "", ""
    return skeleton(text.casefold()), skeleton(text)
