"""Every listed die-hanse move has a label in words, built from the view, showing no hidden fact."""
from ..labels_check import check_labels


def test_labels_over_thousands_of_random_positions():
    assert check_labels("die-hanse", "die_hanse", [3,4,5,6], positions=3000) >= 3000


def test_a_trade_says_what_is_given_for_what():  # HANSE-8.5: each trade is one stone for one stone
    from games.engines.die_hanse.labels import label

    assert label({}, "trade 1 salt grain") == "Trade 1 salt for grain"
    assert label({}, "trade 2 salt grain 1 grain grain") == "Trade 2 salt for grain, 1 grain for grain"
    german = {"Trade {goods}": "Tausche {goods}", "{n} {good} for {other}": "{n} {good} gegen {other}",
              "salt": "Salz", "grain": "Getreide"}
    assert label({}, "trade 2 salt grain 1 grain grain", _=lambda m: german.get(m, m)) == \
        "Tausche 2 Salz gegen Getreide, 1 Getreide gegen Getreide"
