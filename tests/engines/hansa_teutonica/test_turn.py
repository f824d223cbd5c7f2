"""Turns (HT-7.1, HT-7.2, HT-C3, HT-C4, HT-14.1, HT-0.4) and the move text."""
import pytest

from games.engines import IllegalMove

from .helpers import E, RED, BLUE, GREEN, give, legal, new, run, frozen


def test_actions_per_turn_and_stopping_early():  # HT-7.1 HT-C3
    s = give(new(), RED, supply=(5, 1))
    s = run(s, RED, "place", "with trader", "on arnheim-duisburg")
    s = run(s, RED, "place", "with trader", "on arnheim-duisburg")
    assert s["used"] == 2
    assert legal(s, RED) == ["end"]  # no actions left; markers and end only
    t = run(new(), RED, "end")  # may stop at once, forfeiting actions
    assert t["active"] == BLUE


def test_turn_ends_only_with_end():  # HT-C4 HT-7.2 HT-0.4
    s = give(new(), RED, supply=(5, 1))
    s = run(s, RED, "place", "with trader", "on arnheim-duisburg", "place", "with merchant", "on arnheim-kampen")
    assert E.to_act(s) == [RED]
    s = run(s, RED, "end")
    assert E.to_act(s) == [BLUE]
    s = run(s, BLUE, "end")
    assert E.to_act(s) == [GREEN]  # clockwise
    s = run(s, GREEN, "end")
    assert E.to_act(s) == [RED]


def test_actions_can_be_repeated_in_any_order():  # HT-7.1
    s = give(new(), RED, supply=(3, 0), stock=(4, 0))
    s["acts"] = 4
    s = run(s, RED, "place", "on arnheim-duisburg", "assign", "place", "on arnheim-duisburg")
    assert s["spaces"]["arnheim-duisburg"][:2] == ["0t", "0t"] and s["used"] == 3


def test_out_of_turn_and_garbage_are_rejected_without_change():  # HT-14.1
    s = new()
    before = frozen(s)
    for seat, text in ((BLUE, "end"), (RED, "xyzzy"), (RED, "establish arnheim-duisburg")):
        with pytest.raises(IllegalMove) as exc:
            E.apply(s, seat, text)
        assert str(exc.value)
    assert frozen(s) == before


def test_forgiving_parser():  # HT-14.1
    s = give(new(), RED, supply=(3, 1))
    assert E.canonical(s, RED, "  PLACE ") == "place"
    s = run(s, RED, "place", "With Trader")
    assert E.canonical(s, RED, "on Arnheim-Duisb") == "on arnheim-duisburg"
    assert E.canonical(s, RED, "on arn-dui") == "on arnheim-duisburg"
    assert E.canonical(s, RED, "on Lüneburg-Perleberg") == "on luneburg-perleberg"
    with pytest.raises(IllegalMove, match="ambiguous"):
        E.canonical(s, RED, "on arnheim")


def test_a_route_may_be_named_from_either_end():  # HT-14.1
    s = run(give(new(), RED, supply=(3, 1)), RED, "place", "With Trader")
    assert E.canonical(s, RED, "on duisburg-arnheim") == "on arnheim-duisburg"
    assert E.canonical(s, RED, "on Perleberg-Lüneburg") == "on luneburg-perleberg"
    assert E.canonical(s, RED, "on duis-arn") == "on arnheim-duisburg"


def test_timeout_default_ends_the_turn():  # HT-14.1 HT-A-1
    s = give(new(), RED, supply=(3, 1))
    assert E.default_move(s, RED) == "end"
    s = run(s, RED, "place")
    assert E.default_move(s, RED) == "cancel"
    assert E.default_move(s, BLUE) is None


def test_cancel_before_commit_changes_nothing_of_the_board():  # HT-7.1
    s = give(new(), RED, supply=(3, 1))
    t = run(s, RED, "place", "cancel")
    assert t["used"] == 0 and t["p"][RED]["supply"] == [3, 1]


def test_apply_does_not_mutate_input_when_founding():  # HT-8.6
    s = new()
    from .helpers import fill
    fill(s, "dortmund-duisburg", "0t")
    before = frozen(s)
    run(s, RED, "establish dortmund-duisburg", "kontor duisburg trader")
    assert frozen(s) == before
