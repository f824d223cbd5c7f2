"""The fairness checker on its own (pure Python, no Django: ``pytest tests/engines -p no:django``):
the commitment's documented bytes, and hand-made exports of random games of every title verified
and, once changed, rejected (docs/fairness.md). The downloads from the site are checked in
tests/test_fairness.py."""
import copy
import hashlib
import random
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from games.engines import available_slugs, get_engine
from games.engines.fairness import commitment, commitment_input, seat_permutation, verify


def test_the_commitment_is_sha256_of_the_documented_bytes():
    assert commitment_input(1, "ab") == b"hanseweb-seed:v1:1:ab"
    assert commitment(1, "ab") == hashlib.sha256(b"hanseweb-seed:v1:1:ab").hexdigest() == \
        "cc57d3898dad49192af7ec47503636ec5030ba41e34904464e040168598d59c8"  # the example in docs/fairness.md
    assert commitment(-5, "00") == hashlib.sha256(b"hanseweb-seed:v1:-5:00").hexdigest()
    assert commitment(2, "ab") != commitment(1, "ab") != commitment(1, "ac")


def test_the_random_seat_order_is_a_permutation_drawn_from_the_seed():
    assert sorted(seat_permutation(99, 5)) == list(range(5))
    assert seat_permutation(99, 5) == seat_permutation(99, 5)
    assert len({tuple(seat_permutation(s, 4)) for s in range(50)}) > 10


def _export(slug, seed=11, players=None):
    engine = get_engine(slug)
    players = players or engine.min_players
    salt = "5a" * 32
    state = engine.setup(players=players, seed=seed, options={})
    chooser, moves, start = random.Random(seed), [], datetime(2026, 1, 1, tzinfo=timezone.utc)
    while engine.to_act(state):
        seat = chooser.choice(engine.to_act(state))
        move = chooser.choice(engine.legal_moves(state, seat))
        state = engine.apply(state, seat, move)
        moves.append({"seq": len(moves) + 1, "seat": seat, "text": move, "channel": "web",
                      "time": (start + timedelta(minutes=len(moves))).isoformat()})
    return {
        "format": "hanseweb-game", "format_version": 1, "engine": slug, "engine_version": engine.version,
        "status": "finished", "players": players, "options": {}, "seat_options": [{}] * players,
        "seat_order": {"mode": "random"},
        "seats": [{"seat": i, "joined": j, "resigned": False} for i, j in enumerate(seat_permutation(seed, players))],
        "commitment": commitment(seed, salt), "seed": str(seed), "salt": salt, "moves": moves,
        "result": engine.result(state),
    }


@pytest.mark.parametrize("slug", available_slugs())
def test_a_random_game_of_each_title_verifies_and_a_changed_one_does_not(slug):
    data = _export(slug)
    report = verify(data)
    assert report.ok, report.text()
    assert "seat order drawn from the seed" in report.text()
    for change, says in [
        (lambda d: d.update(seed=str(int(d["seed"]) + 1)), "commitment mismatch"),
        (lambda d: d["result"]["scores"].__setitem__(0, d["result"]["scores"][0] + 1), "result scores"),
        (lambda d: d["moves"].reverse(), "not numbered"),
        (lambda d: d["moves"][0].update(time="2025-12-31T00:00:00+00:00") or d["moves"][1].update(
            time="2025-01-01T00:00:00+00:00"), "reordered"),
        (lambda d: d["moves"][3].update(text="fly to the moon"), "illegal"),
        (lambda d: d.update(engine_version="0"), "engine version"),
        (lambda d: d.update(commitment="0" * 64), "commitment mismatch"),
    ]:
        changed = copy.deepcopy(data)
        change(changed)
        report = verify(changed)
        assert not report.ok and any(says in f for f in report.failures), (says, report.failures)


def test_a_running_game_cannot_be_verified_and_garbage_is_refused():
    data = _export("zanzibar")
    data.update(status="running", seed=None, salt=None)
    report = verify(data)
    assert not report.ok and not report.failures and "still running" in report.unverifiable
    for junk in [None, [], "x", {"format": "other"}, {"format": "hanseweb-game", "format_version": 2}]:
        assert verify(junk).failures


def test_the_checker_imports_no_django():
    code = "import sys; import games.engines.fairness; assert not [m for m in sys.modules if m.startswith('django')]"
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=root).returncode == 0
