"""Message keys the engines no longer say but stored games still hold (docs/i18n.md).

A move's log events are stored with it, message keys and all (``games.models.Move.events``), and
translated when shown: a game played before a log line was reworded keeps the old key for ever (the
move log is append-only). Marking the old keys here keeps them in the Dutch and German catalogues
when ``scripts/i18n`` drops the texts no code says any more, so such a game's log stays in the
reader's language. Nothing calls this module; ``makemessages`` reads it.

Only log events belong here (and the terms their parameters held): labels, prompts, the board and
the mail text are made anew from the view whenever they are shown.
"""
from __future__ import annotations

from .i18n import N_

RETIRED = (
    # Die Hanse, until ships were named as phrases ("the red ship", issue 24; d487a19): the
    # parameter ``ship`` held the ship's colour, ``card`` and ``cards`` the special card's key
    N_("{player} sails the {ship} ship to {field}"),
    N_("{player} leaves the {ship} ship where it is"),
    N_("the {ship} ship sits out this move"),
    N_("{player} moves the {ship} ship out of the blockade to {field}"),
    N_("the storm drives the {ship} ship into {harbour}; it sits out once"),
    N_("{player} plunders the {ship} ship: {goods}"),
    N_("{player} uses the {card}"),
    N_("{player} uses the {card} to play a harbour card"),
    N_("privilege"),
    # Hansa Teutonica, until pieces were counted in words (issue 24)
    N_("{player} assigns {t} trader(s) and {m} merchant(s) from stock to supply"),
    N_("{player} displaces the {piece} of {other} on {route} with a {own} and pays {t} trader(s) and {m} "
       "merchant(s) into stock"),
    N_("{player} re-places an extra {piece} ({source}) on {route} (space {n})"),
    N_("{player} places the pawn in province {province}; {other} starts"),
    # Zanzibar, until merchants and places were named in words (issue 24)
    N_("{player} moved {merchant} {path}"),
    N_("{player} placed {merchant} on {place}"),
)
