"""A game's state at any move, for the replay page: the log replayed from derived snapshots.

The log (``Move`` rows) is the source of truth and append-only, so the state after move ``k``
never changes once move ``k`` is logged. Every ``SNAPSHOT_EVERY`` moves the replay files a
snapshot of it in the cache: the carry of ``services.advance`` (the state, and the undo step
that an ``undo`` row right after it would return to). A snapshot is derived data: when the cache
has lost it, the replay walks from the nearest older one (or from the setup) and files again
every snapshot it passes. Reaching any move therefore applies at most ``SNAPSHOT_EVERY`` moves
once the snapshots exist, and one walk from the start files them all.
"""
from __future__ import annotations

from django.core.cache import cache

from . import services
from .models import Game, Move

SNAPSHOT_EVERY = 100
SNAPSHOT_SECONDS = 30 * 24 * 3600  # derived: rebuilt from the log whenever it is gone


def _key(game: Game, seq: int) -> str:
    # the invite code keeps keys apart across databases that reuse primary keys
    return f"replaysnap:1:{game.pk}:{game.invite_code}:{seq}"


def state_at(game: Game, k: int) -> dict:
    """The state after move ``k`` (0: the setup) of ``game``, ``0 <= k <= game.move_count``."""
    return carry_at(game, k)[0]


def carry_at(game: Game, k: int) -> tuple:
    k = max(0, min(int(k), game.move_count))
    engine = game.engine_obj
    marks = list(range(SNAPSHOT_EVERY, k + 1, SNAPSHOT_EVERY))
    found = cache.get_many([_key(game, s) for s in marks]) if marks else {}
    start, carry = 0, None
    for s in reversed(marks):
        snap = found.get(_key(game, s))
        if snap is not None:
            start, carry = s, tuple(snap)
            break
    if carry is None:
        carry = (services.initial_state(game), None, None)
    if start == k:
        return carry
    rows = (Move.objects.filter(game_id=game.pk, seq__gt=start, seq__lte=k).order_by("seq")
            .values_list("seq", "seat", "text", "channel").iterator(chunk_size=2000))
    batch, new = [], {}
    for seq, seat, text, channel in rows:
        batch.append((seat, text, channel))
        if seq % SNAPSHOT_EVERY == 0:
            carry = services.advance(engine, carry, batch)
            batch = []
            new[_key(game, seq)] = list(carry)
    carry = services.advance(engine, carry, batch)
    if new:
        cache.set_many(new, SNAPSHOT_SECONDS)
    return carry
