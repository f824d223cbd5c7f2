"""The engine contract (docs/engine-contract.md), checked for every installed game by
random playouts. Counts are kept small for CI; raise HANSEWEB_PLAYOUTS for a long run."""
from __future__ import annotations

import json
import os
import random

import pytest

from games.engines import IllegalMove, available_slugs, get_engine
from games.engines.events import visible

from .playout import GARBAGE, assert_illegal_changes_nothing, canonical_json, play_random, reordered

PLAYOUTS = int(os.environ.get("HANSEWEB_PLAYOUTS", "30"))

CASES = [
    (slug, n)
    for slug in available_slugs()
    for n in range(get_engine(slug).min_players, get_engine(slug).max_players + 1)
]

VIEW_KEYS = {"game", "players", "you", "to_act", "prompt", "log", "over", "result"}


def _no_hidden_keys(obj, path="view"):
    if isinstance(obj, dict):
        for key, value in obj.items():
            assert not str(key).startswith("_"), f"hidden key {path}.{key} in a view"
            _no_hidden_keys(value, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            _no_hidden_keys(value, f"{path}[{i}]")


def _check_result(engine, state, players):
    result = engine.result(state)
    assert result is not None
    assert set(result) >= {"scores", "ranking", "breakdown"}
    assert len(result["scores"]) == len(result["ranking"]) == len(result["breakdown"]) == players
    assert all(isinstance(s, int) for s in result["scores"])
    # ranking: 1 = first, ties share, consistent with the order of the scores
    assert min(result["ranking"]) == 1
    for place in result["ranking"]:
        better = sum(1 for other in result["ranking"] if other < place)
        assert place == better + 1, f"ranking {result['ranking']} is not competition ranking"
    for i in range(players):
        for j in range(players):
            if result["scores"][i] > result["scores"][j]:
                assert result["ranking"][i] < result["ranking"][j]
    for score, parts in zip(result["scores"], result["breakdown"]):
        assert sum(parts.values()) == score, f"breakdown {parts} does not add up to {score}"


@pytest.mark.parametrize("slug,players", CASES)
def test_random_playouts_follow_the_contract(slug, players):
    engine = get_engine(slug)
    probe = random.Random(f"{slug}-{players}")
    budget = {}

    def check(state, seat, legal):
        assert legal, f"seat {seat} is to act but has no legal move"
        assert len(set(legal)) == len(legal), "duplicate legal moves"
        assert engine.result(state) is None
        # Probing costs two copies of the whole state; long games get a bounded number of probes.
        if budget["probes"] > 0 and probe.random() < 0.05:
            budget["probes"] -= 1
            text = probe.choice(GARBAGE)
            if text not in legal:
                assert_illegal_changes_nothing(engine, state, seat, text)
            idle = [s for s in range(players) if s not in engine.to_act(state)]
            if idle:
                assert_illegal_changes_nothing(engine, state, probe.choice(idle), legal[0])
            view = engine.view(state, probe.choice([None, *range(players)]))
            assert VIEW_KEYS <= set(view)
            _no_hidden_keys(view)
            json.dumps(view)

    for k in range(PLAYOUTS):
        budget["probes"] = 40
        seed = 1000 * players + k
        state, moves = play_random(engine, players, seed, check=check)
        assert engine.to_act(state) == []
        _check_result(engine, state, players)
        for seat in [None, *range(players)]:
            view = engine.view(state, seat)
            assert view["over"] is True and view["result"] is not None
            _no_hidden_keys(view)


@pytest.mark.parametrize("slug,players", CASES)
def test_replay_is_deterministic(slug, players):
    engine = get_engine(slug)
    state, moves = play_random(engine, players, seed=77 + players)
    replay = engine.setup(players=players, seed=77 + players, options={})
    for seat, move in moves:
        replay = engine.apply(replay, seat, move)
    assert canonical_json(replay) == canonical_json(state)
    assert json.loads(json.dumps(state)) == state, "state is not JSON round-trippable"


@pytest.mark.parametrize("slug,players", CASES)
def test_the_order_of_keys_in_a_state_changes_nothing(slug, players):
    """A state is JSON: equal states must give the same answers, whatever order their keys come
    in. PostgreSQL's jsonb hands a snapshot back with its keys sorted its own way, while a state
    made by ``setup`` or a replay has them in the order the engine wrote them; a mail's numbered
    menu and the reading of a reply "3" may come from either. So ``legal_moves`` must be the same
    list in the same order, the default move a deadline plays the same move, and ``apply`` the
    same state."""
    engine = get_engine(slug)
    state = engine.setup(players=players, seed=900 + players, options={})
    chooser = random.Random(900 + players)
    while engine.to_act(state):
        copies = [reordered(state, "jsonb"), reordered(state, "reversed")]
        assert all(copy == state for copy in copies)
        assert all(engine.to_act(copy) == engine.to_act(state) for copy in copies)
        seat = chooser.choice(engine.to_act(state))
        legal = engine.legal_moves(state, seat)
        for copy in copies:
            assert engine.legal_moves(copy, seat) == legal, f"{slug}: the menu's order follows the keys' order"
            assert engine.default_move(copy, seat) == engine.default_move(state, seat)
        move = chooser.choice(legal)
        state = engine.apply(state, seat, move)
        assert all(engine.apply(copy, seat, move) == state for copy in copies)


@pytest.mark.parametrize("slug", available_slugs())
def test_player_count_limits(slug):
    engine = get_engine(slug)
    for bad in (engine.min_players - 1, engine.max_players + 1):
        with pytest.raises(IllegalMove):
            engine.setup(players=bad, seed=1, options={})
    with pytest.raises(IllegalMove):
        engine.setup(players=engine.min_players, seed=1, options={"no-such-variant": True})


@pytest.mark.parametrize("slug", available_slugs())
def test_different_seeds_give_different_setups(slug):
    engine = get_engine(slug)
    n = engine.max_players
    setups = {canonical_json(engine.setup(players=n, seed=s, options={})) for s in range(5)}
    assert len(setups) > 1


STATE_LIMIT = 30_000  # bytes of JSON: the snapshot is bounded by the board, not the game's length


@pytest.mark.parametrize("slug,players", CASES)
def test_state_holds_the_game_not_its_history(slug, players):
    """DESIGN "The state holds the game, not its history": a state carries only the events of
    the step that made it (``engine.events``), and its size stays bounded however long the game."""
    engine = get_engine(slug)
    sizes = []
    for k in range(2):
        seed = 500 + 10 * players + k
        state = engine.setup(players=players, seed=seed, options={})
        assert all(set(ev) >= {"n", "seat", "text"} for ev in engine.events(state))
        chooser = random.Random(seed)
        last_n = 0
        while engine.to_act(state):
            seat = chooser.choice(engine.to_act(state))
            new = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)))
            events = engine.events(new)
            # only this step's events: one move number, later than any earlier step's
            numbers = {ev["n"] for ev in events}
            assert len(numbers) <= 1 and all(n > last_n for n in numbers), numbers
            last_n = max(numbers, default=last_n)
            for viewer in (None, *range(players)):
                assert engine.view(new, viewer)["log"] == visible(events, viewer)
            state = new
            sizes.append(len(canonical_json(state)))
    assert max(sizes) < STATE_LIMIT, f"a {slug} state reached {max(sizes)} bytes"
