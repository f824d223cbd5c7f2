"""The Hansa engine: ties the phase modules to the engine contract."""
from __future__ import annotations

from ..base import Engine
from ..i18n import N_
from . import moves, scoring, setup as setup_mod, view as view_mod
from .state import copy_state


class HansaEngine(Engine):
    slug = "hansa"
    name = "Hansa"
    # Bump when a change of the rules code changes what a seed and a move log produce
    # (exports record it; docs/fairness.md).
    version = "1"
    min_players = 2
    max_players = 4
    option_specs = [{
        "key": "start_player",
        "label": N_("Start player"),
        "choices": [["random", N_("Drawn at random")], [0, N_("Seat 1")], [1, N_("Seat 2")], [2, N_("Seat 3")], [3, N_("Seat 4")]],
        "default": "random",
    }]
    seat_option_specs = [{
        "key": "ask_losses",
        "label": N_("When another player's sale costs me a tile"),
        "choices": [[False, N_("lose my lowest-barrel tile of that colour automatically")], [True, N_("ask me")]],
        "default": False,
    }]

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        opts = self.normalise_options(options, players)
        return setup_mod.setup(players, seed, opts)

    def to_act(self, state: dict) -> list[int]:
        return moves.to_act(state)

    def legal_moves(self, state: dict, seat: int) -> list[str]:
        if not _is_seat(state, seat):
            return []
        return moves.legal_moves(state, seat)

    def canonical(self, state: dict, seat: int, text: str) -> str:
        return moves.canonical(state, seat, text)[0]

    def apply(self, state: dict, seat: int, move: str) -> dict:
        _, parsed = moves.canonical(state, seat, move)
        new = copy_state(state)
        new["n"] = state["n"] + 1
        moves.dispatch(new, seat, parsed)
        return new

    def view(self, state: dict, seat) -> dict:
        # anything that is not a seat of this game sees what a spectator sees (a negative number
        # must not index another seat's private setting)
        return view_mod.view(state, seat if _is_seat(state, seat) else None)

    def result(self, state: dict):
        return scoring.result(state)

    def default_move(self, state: dict, seat: int):
        if not _is_seat(state, seat):
            return None
        return moves.default_move(state, seat)


def _is_seat(state: dict, seat) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["players"]
