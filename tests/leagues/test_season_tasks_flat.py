"""The league beat (start_due_rounds, finish_completed_seasons) costs a fixed number of queries
with nothing to do, however many seasons run (issue 26; docs/architecture.md "Periodic tasks")."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from hanseweb.leagues import services
from hanseweb.leagues.models import Season


def _more_seasons(season, count):
    """Running seasons of the same league with no round yet (as made, before their start)."""
    last = Season.objects.filter(league=season.league).order_by("-number").values_list("number", flat=True).first()
    for i in range(count):
        copy = Season.objects.get(pk=season.pk)
        copy.pk, copy.number, copy.name = None, last + 1 + i, ""
        copy.save()


@pytest.mark.django_db
def test_an_idle_league_beat_costs_the_same_at_3_and_at_12_running_seasons(running_season):
    season, _organiser, _members = running_season
    services.start_due_rounds()  # round 1's games: now nothing is due and no season is complete

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert services.start_due_rounds() == 0
            assert services.finish_completed_seasons() == 0
        return len(captured.captured_queries)

    _more_seasons(season, 2)
    assert Season.objects.filter(status=Season.RUNNING).count() == 3
    few = queries()
    _more_seasons(season, 9)
    assert Season.objects.filter(status=Season.RUNNING).count() == 12
    assert queries() == few == 2
