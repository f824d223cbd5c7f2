"""A colour's name is the colour a person sees (issue 24, item 4): every player colour, ship,
privilege and goods colour a board draws is named by the hue range of its drawn fill
(``games.engines.colours.seen_colour``), in every title."""
from __future__ import annotations

import pytest

from games.engines.colours import seen_colour

# a name of the game's that covers a shade of a seen colour (the rulebook's "lila" is a purple)
SHADES = {"lilac": "purple", "stockfish": "grey", "salt": "grey"}


def test_seen_colour_reads_the_hue_as_people_do():
    # the two the issue found: "orange" drawn brown, "yellow" drawn olive
    assert seen_colour("#80500a") == "brown"
    assert seen_colour("#857a00") == "olive"
    for css, name in [("#ff8c00", "orange"), ("#e67e22", "orange"), ("#f1c40f", "yellow"), ("#ffd700", "yellow"),
                      ("#c0392b", "red"), ("#8b1a1a", "red"), ("#0072b2", "blue"), ("#00795b", "green"),
                      ("#7a3e9d", "purple"), ("#f4a7c0", "pink"), ("#222222", "black"), ("#6e6e6e", "grey"),
                      ("#ffffff", "white"), ("#6e2c00", "brown")]:
        assert seen_colour(css) == name, (css, seen_colour(css), name)


def _pairs():
    from games.engines.die_hanse import board as dh_board
    from games.engines.die_hanse import svg as dh_svg
    from games.engines.hansa import svg as hansa_svg
    from games.engines.hansa.board import BOARD as HANSA
    from games.engines.hansa_teutonica import svg as ht_svg
    from games.engines.zanzibar import svg as zan_svg
    from games.engines.zanzibar.board import get_board

    out = []
    out += [("zanzibar player", n, c) for n, c in zip(get_board("zanzibar").colours, zan_svg.SEAT_COLOURS)]
    out += [("hansa player", n, c) for n, c in zip(HANSA.player_colour_names, hansa_svg.SEAT_COLOURS)]
    out += [("hansa-teutonica player", n, c) for n, c in zip(ht_svg.SEAT_COLOUR_NAMES, ht_svg.SEAT_COLOURS)]
    out += [("hansa-teutonica privilege", n, c) for n, c in ht_svg.PRIV_FILL.items()]
    out += [("die-hanse ship", n, c) for n, c in zip(dh_board.SHIP_NAMES, dh_svg.SEAT_COLOURS)]
    out += [("hansa goods", n, c) for n, c in HANSA.colour_css.items() if n in HANSA.colour_names]
    return out


@pytest.mark.parametrize("what,name,fill", _pairs())
def test_every_named_colour_is_drawn_as_named(what, name, fill):
    assert SHADES.get(name, name) == seen_colour(fill), f"{what} {name!r} is drawn {fill} = {seen_colour(fill)}"
