"""Two beats starting the same due round at the same moment (real transactions, two connections):
the season row's lock serialises them, so every table's game exists exactly once."""
import threading

import pytest
from django.db import connection

from games.models import Game
from hanseweb.leagues import services
from hanseweb.leagues.models import Round, Table


@pytest.mark.django_db(transaction=True)
def test_concurrent_beats_create_each_game_once(running_season):
    season, organiser, members = running_season
    barrier = threading.Barrier(3)
    made, errors = [], []

    def beat():
        try:
            barrier.wait()
            made.append(services.start_due_rounds())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=beat) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(made) == [0, 0, 3]
    assert Table.objects.count() == 3 and Game.objects.count() == 3
    assert Round.objects.get(season=season, number=1).created_at is not None
