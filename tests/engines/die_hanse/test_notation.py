"""Move text: canonical form and forgiving parsing."""
from .helpers import E, clear_sea, game, illegal, put, turn_of


def _setup():
    s = game(4, seed=61)
    clear_sea(s)
    turn_of(s, 0)
    put(s, 0, "l7")
    return s


def test_forgiving_parser():  # HANSE-0.2
    s = _setup()
    assert E.canonical(s, 0, "  Sail   RED ") == "sail red"
    s = E.apply(s, 0, "SAIL red")
    assert E.canonical(s, 0, "  Sail   RED  Danzig ") == "sail red danzig"
    assert E.canonical(s, 0, "sail red danzi") == "sail red danzig"
    assert E.canonical(s, 0, "STAY Red") == "stay red"
    assert E.canonical(s, 0, "sail red M7") == "sail red m7"
    assert E.canonical(s, 0, "sail red q9_r7") == "sail red m7"  # a hex id
    put(s, 0, "i8")
    assert E.canonical(s, 0, "sail red Lübeck") == "sail red luebeck"
    assert E.canonical(s, 0, "sail red lubeck") == "sail red luebeck"


def test_errors_are_clear_and_change_nothing():  # HANSE-0.2
    s = _setup()
    before = dict(s)
    msg = illegal(s, 0, "sail red nowgorod")
    s = E.apply(s, 0, "sail red")
    before = dict(s)
    assert "not a legal move" in msg
    assert "empty move" in illegal(s, 0, "")
    assert "not your turn" in illegal(s, 1, "stay blue")
    legal = E.legal_moves(s, 0)
    pair = next((a, b) for a in legal for b in legal
                if a != b and len(a.split()) == len(b.split()) == 3 and a.split()[:2] == b.split()[:2]
                and a.split()[2][0] == b.split()[2][0])
    assert "ambiguous" in illegal(s, 0, " ".join(pair[0].split()[:2] + [pair[0].split()[2][0]]))
    assert s == before


def test_canonical_moves_are_lower_case_ascii():  # HANSE-0.2
    s = _setup()
    for m in E.legal_moves(s, 0):
        assert m == m.lower() and m.isascii() and "  " not in m


def test_a_listed_move_read_as_text_is_that_move():  # HANSE-0.2
    """apply takes a listed move as it is; the text reader (mail, the web form) must read every
    listed move as that same move, over positions of random play at 3 and 6 players."""
    from games.engines.die_hanse.notation import canonical

    from ..test_sampling import positions

    read = 0
    for players in (3, 6):
        for s in positions("die-hanse", players, seed=17, every=3, limit=1200):
            for seat in E.to_act(s):
                legal = E.legal_moves(s, seat)
                for move in legal:
                    assert canonical(legal, move) == move
                    assert canonical(legal, move.upper()) == move
                    read += 1
    assert read > 500
