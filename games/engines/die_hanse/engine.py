"""The Die Hanse engine: ties the rule modules to the engine contract."""
from __future__ import annotations

from ..base import Engine, IllegalMove
from . import flow, view as view_mod
from .notation import canonical as _canonical
from .scoring import result as _result
from .setup import new_state
from .state import copy_state
from ..i18n import N_, lit, msg, say  # noqa: F401


class DieHanseEngine(Engine):
    slug = "die-hanse"
    name = "Die Hanse"
    # Bump when a change of the rules code changes what a seed and a move log produce
    # (exports record it; docs/fairness.md).
    version = "1"
    # reaction answers are sealed until all have answered (HANSE-5.5); the value kept from a draw is private
    sealed_moves = ("pass", r"declare .+", r"keep \d+")
    min_players = 3
    max_players = 6
    option_specs = [{
        "key": "round_limit",
        "label": N_("Safety limit: the game ends after this many rounds if no storage is full"),
        "choices": [[60, N_("60 rounds")], [100, N_("100 rounds")], [0, N_("no limit")]],
        "default": 60,
    }]
    seat_option_specs = [{
        "key": "offer_special_cards",
        "label": N_("Offer me my special cards after other players' ship moves"),
        "choices": [[False, N_("no")], [True, N_("yes")]],
        "default": False,
    }]

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        opts = self.normalise_options(options, players)
        state = new_state(players, seed, opts)
        flow.advance(state)
        return state

    def to_act(self, state: dict) -> list:
        return flow.to_act(state)

    def legal_moves(self, state: dict, seat: int) -> list:
        return flow.legal(state, seat)

    def canonical(self, state: dict, seat: int, text: str) -> str:
        if state["over"]:
            raise IllegalMove(N_("the game is over"))
        if not isinstance(seat, int) or seat not in flow.to_act(state):
            raise IllegalMove(N_("it is not your turn to decide anything now"))
        legal = flow.legal(state, seat)
        if text in legal:  # a listed move is its own canonical form; other text is read below
            return text
        words = " ".join(str(text).lower().split())
        if words == "timeout" and flow.timeout_ok(state, seat):
            return "timeout"
        return _canonical(legal, text)

    def apply(self, state: dict, seat: int, move: str) -> dict:
        move = self.checked(state, seat, move)
        new = copy_state(state)
        new["seq"] += 1
        flow.apply_move(new, seat, move)
        return new

    def view(self, state: dict, seat) -> dict:
        return view_mod.build(state, seat)

    def result(self, state: dict):
        return _result(state)

    def default_move(self, state: dict, seat: int):
        return flow.default(state, seat)
