"""Move text: normalising player input and matching it to the canonical legal moves
(case, spacing, diacritics and unambiguous prefixes of every word are forgiven)."""
from __future__ import annotations

import re
import unicodedata

from ..base import IllegalMove
from ..i18n import N_, lit, moves, msg, say

_KEEP = re.compile(r"[^a-z0-9+\- ]+")


def normalise(text: str) -> str:
    if not isinstance(text, str):
        raise IllegalMove(N_("a move must be text"))
    t = unicodedata.normalize("NFKD", text)
    t = "".join(ch for ch in t if not unicodedata.combining(ch)).lower()
    t = t.replace("ß", "ss").replace("+3", "plus3").replace("+4", "plus4")
    t = _KEEP.sub(" ", t)
    return " ".join(t.split())


def _word_matches(given: str, full: str) -> bool:
    if full.startswith(given):
        return True
    gp, fp = given.split("-"), full.split("-")
    if len(gp) != len(fp):
        return False
    if all(f.startswith(g) for g, f in zip(gp, fp)):
        return True
    # a route may be named from either end: "lubeck-hamburg" is "hamburg-lubeck"
    return len(gp) == 2 and fp[1].startswith(gp[0]) and fp[0].startswith(gp[1])


def match(legal: list[str], text: str, prompt) -> str:
    """``prompt`` is a function giving the sentence shown with an error."""
    if text in legal:
        return text
    prompt = prompt()
    norm = normalise(text)
    if norm in legal:
        return norm
    if not norm:
        raise IllegalMove(say(N_("empty move; {prompt}"), prompt=_message(prompt)))
    words = norm.split()
    found = [m for m in legal
             if len(m.split()) == len(words) and all(_word_matches(g, f) for g, f in zip(words, m.split()))]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise IllegalMove(say(N_("'{text}' is ambiguous: it could be {choices}"), text=lit(text.strip()),
                          choices=moves(found[:6])))
    if not legal:
        raise IllegalMove(N_("you have nothing to decide now"))
    shown = moves(legal[:12]) if len(legal) <= 12 else msg(N_("{moves}, … ({n} moves in all)"), moves=moves(legal[:10]),
                                                           n=len(legal))
    raise IllegalMove(say(N_("'{text}' is not possible now. {prompt} Possible moves: {moves}"), text=lit(text.strip()[:60]),
                          prompt=_message(prompt), moves=shown))


def _message(prompt):
    """A prompt as a message parameter: its message (translated when shown) or its text as is."""
    message = getattr(prompt, "message", None)
    return message if message is not None else lit(prompt or "")
