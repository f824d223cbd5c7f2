"""Move text: canonical lower-case ASCII and a forgiving parser.

Canonical moves (see docs/zanzibar.md)::

    place 7        to n1        cancel          (initial placement)
    keep           set aside clove              (set-aside window, A5)
    move 3         to c2        stop    cancel  push b    expel z4    done   (movement)
    score north    set aside clove              done      (assignment step)

The parser accepts any case, extra spaces, diacritics, ``-``/``_`` for spaces, colour
prefixes on merchants (``red-7``), spaced place ids (``N 1``), unambiguous card-name
prefixes (``cl`` = clove), a few synonyms (``discard`` = ``set aside``, ``end``/``pass``
= ``done``, ``go``/``step`` = ``to``) and bare arguments when only one kind of move
takes them (``n1`` while moving = ``to n1``).
"""
from __future__ import annotations

import re
import unicodedata

from ..base import IllegalMove
from .board import Board
from ..i18n import N_, lit, moves, msg, say

VERBS = {
    "place": "place", "put": "place",
    "to": "to", "go": "to", "step": "to", "goto": "to", "on": "to", "at": "to",
    "move": "move", "merchant": "move",
    "stop": "stop", "halt": "stop",
    "cancel": "cancel", "back": "cancel",
    "done": "done", "end": "done", "pass": "done", "finish": "done",
    "push": "push", "expel": "expel", "drive": "expel",
    "score": "score", "cash": "score",
    "keep": "keep", "no": "keep",
    "aside": "set aside", "discard": "set aside", "setaside": "set aside",
}
PLACE_VERBS = ("to", "push", "expel")
NUMBER_VERBS = ("place", "move")
CARD_VERBS = ("score", "set aside")
NO_ARG = ("stop", "cancel", "done", "keep")
COLOURS = ("red", "brown", "olive", "green", "blue", "rood", "bruin", "olijfgroen", "groen", "blauw",
           "rot", "braun", "oliv", "grün", "blau", "orange", "yellow", "oranje", "geel")  # older names still read


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return " ".join(text.split())


def _card(board: Board, arg: str) -> str | None:
    if arg in board.cards:
        return arg
    hits = [c for c in board.card_order if c.startswith(arg)] if arg else []
    return hits[0] if len(hits) == 1 else None


def _number(tokens: list[str]) -> str | None:
    tokens = [t for t in tokens if t not in COLOURS]
    arg = "".join(tokens)
    return arg if arg.isdigit() else None


def parse(board: Board, text: str, legal: list[str]) -> str:
    """Return the canonical text of ``text`` (not necessarily legal); raise IllegalMove
    if it cannot be understood at all."""
    norm = normalise(text)
    if not norm:
        raise IllegalMove(say(N_("empty move; {hint}"), hint=_hint(legal)))
    if norm in legal:
        return norm
    tokens = norm.split()
    if tokens[:2] == ["set", "aside"]:
        verb, args = "set aside", tokens[2:]
    elif tokens[0] in VERBS:
        verb, args = VERBS[tokens[0]], tokens[1:]
    else:
        verb, args = None, tokens
    arg = "".join(args)
    if verb in NO_ARG:
        if args:
            raise IllegalMove(say(N_("'{verb}' takes nothing after it"), verb=lit(verb)))
        if verb not in legal:
            # 'done' and 'keep' both mean "nothing more from me"
            for alt in ("done", "keep"):
                if verb in ("done", "keep") and alt in legal:
                    return alt
        return verb
    if verb in PLACE_VERBS:
        if arg not in board.info:
            raise IllegalMove(say(N_("there is no place called {place}"), place=lit(repr(" ".join(args)))) if args
                              else say(N_("name a place; {hint}"), hint=_hint(legal)))
        return f"{verb} {arg}"
    if verb in NUMBER_VERBS:
        num = _number(args)
        if num is None:
            raise IllegalMove(say(N_("'{verb}' needs a merchant number 2-7, e.g. '{verb} 5'"), verb=lit(verb)))
        return f"{verb} {int(num)}"
    if verb in CARD_VERBS:
        card = _card(board, arg)
        if card is None:
            raise IllegalMove(say(N_("no card matches {text}; cards are {cards}"), text=lit(repr(" ".join(args))),
                                  cards=list(board.card_order)))
        return f"{verb} {card}"
    # a bare argument: use the only kind of legal move that takes it
    if arg in board.info:
        hits = [m for m in legal if m.split()[0] in PLACE_VERBS and m.split()[-1] == arg]
        if len(hits) == 1:
            return hits[0]
    num = _number(args)
    if num is not None:
        hits = [m for m in legal if m.split()[0] in NUMBER_VERBS and m.split()[-1] == str(int(num))]
        if len(hits) == 1:
            return hits[0]
    card = _card(board, arg)
    if card is not None:
        hits = [m for m in legal if m.endswith(" " + card) and m.split()[0] in ("score", "set")]
        if len(hits) == 1:
            return hits[0]
    raise IllegalMove(say(N_("I do not understand {text}; {hint}"), text=lit(repr(text)), hint=_hint(legal)))


def _hint(legal: list[str]) -> dict:
    if not legal:
        return msg(N_("you have nothing to decide now"))
    shown = moves(legal[:12])
    if len(legal) > 12:
        return msg(N_("you can: {moves} (and {n} more)"), moves=shown, n=len(legal) - 12)
    return msg(N_("you can: {moves}"), moves=shown)
