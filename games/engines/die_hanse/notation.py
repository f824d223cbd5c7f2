"""Forgiving parsing of move text into the canonical form (docs/die-hanse.md)."""
from __future__ import annotations

import re

from ..base import IllegalMove
from ..i18n import N_, lit, moves, say
from .board import BOARD, ascii_fold

ALIASES = {
    "lubeck": "luebeck", "lubek": "luebeck", "rugen": "ruegen", "stockfish": "fish", "fisch": "fish",
    "getreide": "grain", "bier": "beer", "tuche": "cloth", "tuch": "cloth", "erze": "ore", "erz": "ore",
    "pelze": "fur", "pelz": "fur", "furs": "fur", "salz": "salt", "privileg": "privilege",
    "nowgorod": "nowgorod", "novgorod": "nowgorod", "danzig": "danzig", "gdansk": "danzig",
    "kaper": "kaperbrief", "letter": "kaperbrief", "nordsee": "north", "ostsee": "baltic",
}


def normalise(text: str) -> list:
    t = ascii_fold(str(text))
    t = re.sub(r"[^a-z0-9_\- ]+", " ", t)
    return [ALIASES.get(w, w) for w in t.split()]


def _token_ok(given: str, want: str) -> bool:
    if given == want or want.startswith(given):
        return True
    h = BOARD.field(given) if len(given) >= 2 else None
    return h is not None and BOARD.label.get(h) == want


def canonical(legal: list, text: str) -> str:
    words = normalise(text)
    if not words:
        raise IllegalMove(say(N_("empty move: say what you want to do ({moves})"), moves=_menu(legal)))
    joined = " ".join(words)
    if joined in legal:
        return joined
    hits = [m for m in legal if len(m.split()) == len(words)
            and all(_token_ok(g, w) for g, w in zip(words, m.split()))]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise IllegalMove(say(N_("'{text}' is ambiguous: it could be {choices}"), text=lit(text.strip()[:60]),
                          choices=moves(hits[:6])))
    raise IllegalMove(say(N_("'{text}' is not a legal move now; you can: {moves}"), text=lit(text.strip()[:60]),
                          moves=_menu(legal)))


def _menu(legal: list):
    if len(legal) <= 12:
        return moves(legal)
    return say(N_("{moves}, … ({n} moves in all)"), moves=moves(legal[:10]), n=len(legal)).message
