"""Every listed die-hanse move has a label in words, built from the view, showing no hidden fact."""
from ..labels_check import check_labels


def test_labels_over_thousands_of_random_positions():
    assert check_labels("die-hanse", "die_hanse", [3,4,5,6], positions=3000) >= 3000
