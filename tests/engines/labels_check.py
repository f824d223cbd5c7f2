"""The readable-label check shared by every engine's ``test_labels.py`` (pure Python).

Over random positions of random games: every listed move of every seat to act gets a label from
``<engine>/labels.py`` that is non-empty words (not the notation itself), the labels of one seat's
moves tell them apart, and no label holds a hidden fact: no text found only in the ``_`` keys of
the state (other hands, the decks) and not in the seat's view or the move itself."""
from __future__ import annotations

import importlib
import json
import random
import re

from games.engines import get_engine

NAMES = ["Anna", "Bert", "Cleo", "Dirk", "Eva", "Finn"]


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _hidden(state: dict, view: dict) -> set[str]:
    seen = json.dumps(view, ensure_ascii=False).lower()
    out = set()
    for key, value in state.items():
        if key.startswith("_"):
            for s in _strings(value):
                s = s.lower()
                if len(s) >= 3 and s not in seen:
                    out.add(s)
    return out


def check_labels(slug: str, package: str, counts: list[int], positions: int, seed: int = 1) -> int:
    engine = get_engine(slug)
    labels = importlib.import_module(f"games.engines.{package}.labels")
    checked, game = 0, 0
    while checked < positions:
        players = counts[game % len(counts)]
        chooser = random.Random(seed * 1000 + game)
        state = engine.setup(players=players, seed=seed * 1000 + game, options={})
        game += 1
        steps = 0
        while engine.to_act(state) and checked < positions and steps < 3000:
            steps += 1
            for seat in engine.to_act(state):
                view = engine.view(state, seat)
                hidden = _hidden(state, view)
                names = NAMES[:players]
                legal = engine.legal_moves(state, seat)
                seen_labels = {}
                for move in legal:
                    text = labels.label(view, move, names)
                    assert isinstance(text, str) and text.strip(), (slug, move)
                    assert text != move, (slug, move, "the label is the notation")
                    low = text.lower()
                    for h in hidden:
                        if h not in move and re.search(rf"\b{re.escape(h)}\b", low):
                            raise AssertionError(f"{slug}: label {text!r} of {move!r} shows hidden {h!r}")
                    assert text not in seen_labels, (slug, text, move, seen_labels.get(text))
                    seen_labels[text] = move
                checked += 1
            seat = chooser.choice(engine.to_act(state))
            state = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)))
    return checked
