"""Move notation: canonical text and a forgiving parser (HANSA-0.3)."""
import pytest

from .helpers import ENGINE, give, new, playing, put_slot, rejected, set_stalls


@pytest.mark.parametrize("text,canon", [
    ("Move Lübeck", "move lubeck"),
    ("  MOVE   lub ", "move lubeck"),
    ("sail copenhagen", None),            # not reachable from Kopenhagen: rejected below
    ("move tøns", "move tonsberg"),
    ("move Tonsberg", "move tonsberg"),
    ("move d", "move danzig"),
    ("end", "end"),
    ("done", "end"),
    ("END ACTIONS", "end"),
])
def test_forgiving_city_and_verb_parsing(text, canon):  # HANSA-0.3 HANSA-3.4
    s = playing(ship="kopenhagen", coins=[3, 3, 3])
    if canon is None:
        rejected(s, 0, text)
    else:
        assert ENGINE.canonical(s, 0, text) == canon


def test_tile_notation_colour_slash_barrels():  # HANSA-0.3
    s = playing(ship="danzig", coins=[3, 3, 3])
    set_stalls(s, "danzig", [1, 0, 0])
    put_slot(s, "danzig", "orange/2", 0)
    give(s, 0, "brown/1", "brown/3")
    assert ENGINE.canonical(s, 0, "buy Orange 2") == "buy orange/2"
    assert ENGINE.canonical(s, 0, "buy or/2") == "buy orange/2"
    assert ENGINE.canonical(s, 0, "sell brown/3, brown/1") == "sell brown/1 brown/3"
    assert ENGINE.canonical(s, 0, "sell br3 br1") == "sell brown/1 brown/3"
    assert ENGINE.canonical(s, 0, "build brown/3") == "build brown/3"
    assert "ambiguous" in rejected(s, 0, "b brown/3")
    assert "1, 2 or 3" in rejected(s, 0, "build brown/4")
    assert "exactly one tile" in rejected(s, 0, "build brown/1 brown/3")


def test_fill_phase_words():  # HANSA-9.2
    s = playing(coins=[0, 0, 0])
    s["phase"] = "fill"
    assert ENGINE.canonical(s, 0, "No Fill") == "no fill"
    assert ENGINE.canonical(s, 0, "nofill") == "no fill"
    assert ENGINE.canonical(s, 0, "FILL") == "fill"


@pytest.mark.parametrize("garbage", ["", "   ", "xyzzy", "buy", "move nowhere", "sell sell sell", "42",
                                     "end end", "\x00", "pass please"])
def test_garbage_is_rejected_with_a_message(garbage):  # HANSA-16.6
    s = playing(ship="kopenhagen")
    assert rejected(s, 0, garbage)


def test_every_legal_move_is_canonical_and_applies():  # HANSA-0.3
    s = new(players=2, start=0)
    for move in ENGINE.legal_moves(s, 0):
        assert ENGINE.canonical(s, 0, move) == move
        ENGINE.apply(s, 0, move)
