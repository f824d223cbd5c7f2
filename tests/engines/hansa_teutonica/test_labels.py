"""Every listed hansa-teutonica move has a label in words, built from the view, showing no hidden fact."""
from ..labels_check import check_labels


def test_labels_over_thousands_of_random_positions():
    assert check_labels("hansa-teutonica", "hansa_teutonica", [2,3,4,5], positions=3000) >= 3000
