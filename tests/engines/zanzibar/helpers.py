"""Scenario builders for the Zanzibar tests: start from ``setup`` and set fields.

Seats and colours: seat 0 red, 1 orange, 2 yellow, 3 green, 4 blue. The rulebook's
movement examples are played on the spec's abstract fixture graphs FIX-A and FIX-B
(ZAN-C4 version), registered as extra boards."""
from __future__ import annotations

import copy

import pytest

from games.engines import IllegalMove
from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.board import register_board
from games.engines.zanzibar.turns import start_turn
from tests.engines.playout import canonical_json

SEAT = {"red": 0, "orange": 1, "yellow": 2, "green": 3, "blue": 4}

FIX_A = register_board(
    "fix-a",
    [{"id": k} for k in ("a", "p1", "p2", "b", "c", "q", "z", "y")],
    [["a", "p1"], ["p1", "p2"], ["p2", "b"], ["b", "c"], ["p2", "q"], ["c", "z"], ["z", "y"]],
)
# ZAN-C4: FIX-B is connected: A-P1, P1-B, B-D, D-E
FIX_B = register_board(
    "fix-b",
    [{"id": k} for k in ("a", "p1", "b", "d", "e")],
    [["a", "p1"], ["p1", "b"], ["b", "d"], ["d", "e"]],
)


def game(players: int = 3, seed: int = 1, start: int = 0) -> dict:
    return ENGINE.setup(players=players, seed=seed, options={"start_player": start})


def piece(name: str) -> tuple[int, int]:
    colour, num = name.split("-")
    return SEAT[colour], int(num)


def scenario(pieces: dict, *, players: int = 5, board: str = "zanzibar", active: int = 3,
             seed: int = 1, hands=None, decks=None, scores=None, scored=None, aside=None) -> dict:
    """A state in the movement step of ``active``'s turn with merchants at given places.

    ``pieces``: {"green-3": "a", ...}. Cards are dealt from the seeded decks unless
    ``hands``/``decks`` ({seat: [cards]}) say otherwise. ``scored``: {seat: number of
    cards already scored (0 points each)}; ``aside``: {seat: [cards]}.
    """
    s = copy.deepcopy(game(players, seed))
    s["map"] = board
    s["occ"] = {}
    for name, place in pieces.items():
        seat, num = piece(name)
        s["occ"][place] = [seat, num]
    s["unplaced"] = [[] for _ in range(players)]
    for p in range(players):
        deck = s["_deck"][p]
        s["_hand"][p], s["_deck"][p] = deck[:2], deck[2:]
    for p, cards in (hands or {}).items():
        s["_hand"][p] = list(cards)
    for p, cards in (decks or {}).items():
        s["_deck"][p] = list(cards)
    for p, value in (scores or {}).items():
        s["score"][p] = value
    for p, k in (scored or {}).items():
        s["scored"][p] = [{"card": "x", "count": 0, "points": 0}] * k
    for p, cards in (aside or {}).items():
        s["_aside"][p] = list(cards)
        s["aside_n"][p] = len(cards)
    s["window"] = [False] * players
    start_turn(s, active)
    return s


def play(state: dict, seat: int, *moves: str, events: list | None = None) -> dict:
    """Apply ``moves`` of ``seat`` in turn; the events of each step are added to ``events``
    (a state holds only the events of the step that made it)."""
    for move in moves:
        state = ENGINE.apply(state, seat, move)
        if events is not None:
            events.extend(ENGINE.events(state))
    return state


def at(state: dict, name: str) -> str | None:
    seat, num = piece(name)
    for place, (s, n) in state["occ"].items():
        if s == seat and n == num:
            return place
    return None


def rejected(state: dict, seat: int, move: str) -> str:
    """Assert ``move`` raises IllegalMove and changes nothing; return the message."""
    before = canonical_json(state)
    with pytest.raises(IllegalMove) as info:
        ENGINE.apply(state, seat, move)
    assert canonical_json(state) == before
    assert str(info.value)
    return str(info.value)


def finish_placement(state: dict) -> dict:
    """Play the initial placement with the timeout defaults (ZAN-17.2 item 1)."""
    while state["phase"] == "place":
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.default_move(state, seat))
    return state
