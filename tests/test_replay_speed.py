"""Stepping to any point of a 4,000-move Hansa Teutonica game stays fast (issue 12): the replay
walks from the nearest snapshot (every ``replay.SNAPSHOT_EVERY`` moves), not from the start.

Prints the measured times (run with ``-s`` to see them)."""
import random
import statistics
import time

import pytest
from django.core.cache import cache

from games import replay, services
from games.models import Game, Move

from .conftest import user_of


def _long_game(started_game, target=4000):
    """A 2-player Hansa Teutonica game of random moves, its log written as the write path would
    (one Move row per step, with the step's events), played until it ends past ``target``."""
    game, _ = started_game("hansa-teutonica", 2, seed=1)
    engine = game.engine_obj
    for seed in range(1, 50):
        state, chooser, rows = services.initial_state(game), random.Random(seed), []
        while engine.to_act(state):
            seat = chooser.choice(engine.to_act(state))
            move = chooser.choice(engine.legal_moves(state, seat))
            state = engine.apply(state, seat, move)
            rows.append(Move(game=game, seq=len(rows) + 1, seat=seat, text=move, channel=Move.WEB,
                             events=engine.events(state)))
        if len(rows) >= target:
            break
    Move.objects.bulk_create(rows, batch_size=1000)
    Game.objects.filter(pk=game.pk).update(move_count=len(rows), state_cache=state, state_seq=len(rows),
                                           status=Game.FINISHED, to_act=[], result=engine.result(state))
    game.refresh_from_db()
    return game


def _ms(seconds):
    return f"{seconds * 1000:.1f} ms"


@pytest.mark.django_db
def test_random_points_of_a_4000_move_game(client, started_game):
    game = _long_game(started_game)
    n = game.move_count
    assert n >= 4000
    chooser = random.Random(2)
    points = [chooser.randint(0, n) for _ in range(40)]
    cache.delete_many([replay._key(game, s) for s in range(0, n + 1, replay.SNAPSHOT_EVERY)])

    t = time.perf_counter()
    replay.state_at(game, n - 1)  # cold: one walk from the setup, filing every snapshot
    cold = time.perf_counter() - t

    warm = []
    for k in points:
        t = time.perf_counter()
        replay.state_at(game, k)
        warm.append(time.perf_counter() - t)

    for k in points[:5]:  # the same states as a plain replay of the log
        assert replay.state_at(game, k) == services.replay(game, k)

    client.force_login(user_of(game, 0))
    pages = []
    for k in points[:20]:
        t = time.perf_counter()
        response = client.get(f"/games/{game.pk}/replay/?at={k}")
        pages.append(time.perf_counter() - t)
        assert response.status_code == 200 and f"After move {k}</strong>" in response.content.decode() or k == 0

    print(f"\nreplay of a {n}-move Hansa Teutonica game (snapshots every {replay.SNAPSHOT_EVERY} moves):")
    print(f"  cold walk to move {n - 1}: {_ms(cold)}")
    print(f"  state at 40 random points: median {_ms(statistics.median(warm))}, max {_ms(max(warm))}")
    print(f"  replay page at 20 random points: median {_ms(statistics.median(pages))}, max {_ms(max(pages))}")
    assert max(warm) < 0.5
    assert statistics.median(pages) < 1.0
