"""Game terms that reach the player as words from the engines' data (board.json, constants):
goods, colours, spices, provinces, pieces. Listed here with ``N_`` so that ``scripts/i18n``
extracts them; the presentation layer translates them wherever an engine passes one as a
message parameter or a view field (``games.engines.i18n.param``, the ``term`` template filter).
Proper names (cities, harbours, seas) stay as the board prints them. Pure Python, no Django.

The Dutch and German words follow the published editions (docs/i18n.md, "Game terms")."""
from __future__ import annotations

from .i18n import N_

HANSA = [
    # goods colours and player colours (Hansa, Abacus 2004; Dutch edition "Hanze")
    N_("orange"), N_("brown"), N_("red"), N_("green"), N_("blue"), N_("white"),
    N_("grey"), N_("yellow"), N_("lilac"), N_("black"), N_("olive"),
]
ZANZIBAR = [
    # spices, provinces, player colours (Zanzibar, Winning Moves 2007)
    N_("cinnamon"), N_("ginger"), N_("vanilla"), N_("pepper"), N_("clove"), N_("huts"), N_("sea"),
    N_("north"), N_("south"), N_("east"), N_("west"), N_("central"), N_("spice"), N_("province"), N_("start"),
]
DIE_HANSE = [
    # goods (Die Hanse, Warensteine), ship colours, ship halves
    N_("salt"), N_("fish"), N_("stockfish"), N_("grain"), N_("ore"), N_("fur"), N_("cloth"), N_("beer"),
    N_("purple"), N_("stern"), N_("bow"),
]
HANSA_TEUTONICA = [
    # privilege colours (Privilegium) and pieces
    N_("pink"), N_("trader"), N_("merchant"), N_("round"), N_("square"),
]
