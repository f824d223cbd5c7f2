"""The Zanzibar engine: ties the phase modules to the engine contract."""
from __future__ import annotations

from ..base import Engine, IllegalMove
from . import assignment, movement, placement, window
from .notation import parse
from .scoring import result as _result
from .setup import new_state
from .state import board_of
from .view import build, to_act as _to_act
from ..i18n import N_, say

PHASES = {
    "place": placement,
    "window": window,
    "move": movement,
    "assign": assignment,
    "a5": assignment,
}


class ZanzibarEngine(Engine):
    slug = "zanzibar"
    name = "Zanzibar"
    # Bump when a change of the rules code changes what a seed and a move log produce
    # (exports record it; docs/fairness.md).
    version = "1"
    # the set-aside answers are sealed (ZAN-7.2, ZAN-C3)
    sealed_moves = ("keep", r"set aside .+")
    min_players = 2  # ZAN-D-01
    max_players = 5
    option_specs = [
        {
            "key": "start_player",
            "label": N_("Start player"),  # ZAN-D-04
            "choices": [["random", N_("Drawn at random")], [0, N_("Seat 1")], [1, N_("Seat 2")], [2, N_("Seat 3")],
                        [3, N_("Seat 4")], [4, N_("Seat 5")]],
            "default": "random",
        },
    ]

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        opts = self.normalise_options(options, players)
        start = opts["start_player"]
        if start != "random" and not 0 <= start < players:
            raise IllegalMove(say(N_("the start player must be a seat from 1 to {players}"), players=players))
        return new_state(players, seed, start)

    def to_act(self, state: dict) -> list[int]:
        return _to_act(state)

    def legal_moves(self, state: dict, seat: int) -> list[str]:
        module = PHASES.get(state["phase"])
        if module is None or not isinstance(seat, int) or not 0 <= seat < state["players"]:
            return []
        return module.legal(state, seat)

    def canonical(self, state: dict, seat: int, text: str) -> str:
        if state["phase"] == "over":
            raise IllegalMove(N_("the game is over"))
        if seat not in _to_act(state):
            raise IllegalMove(N_("it is not your turn: you have nothing to decide now"))
        legal = self.legal_moves(state, seat)
        # a listed move is its own canonical form (ZAN-17.3); other text is read (``parse``)
        move = text if text in legal else parse(board_of(state), text, legal)
        if move not in legal:
            raise IllegalMove(PHASES[state["phase"]].explain(state, seat, move))
        return move

    def apply(self, state: dict, seat: int, move: str) -> dict:
        move = self.checked(state, seat, move)
        s = dict(state)
        s["log"] = []  # a state carries only the events of the step that made it
        s["n"] = state["n"] + 1
        PHASES[state["phase"]].apply(s, seat, move)
        return s

    def view(self, state: dict, seat) -> dict:
        legal = self.legal_moves(state, seat) if seat is not None else []
        return build(state, seat, legal)

    def result(self, state: dict) -> dict | None:
        return _result(state)

    def default_move(self, state: dict, seat: int) -> str | None:
        """ZAN-17.2 / ZAN-D-21 timeout defaults."""
        if seat not in _to_act(state):
            return None
        phase = state["phase"]
        if phase == "place":
            highest = max(state["unplaced"][seat])
            if state["sel"] is None:
                return f"place {highest}"
            if state["sel"] != highest:
                return "cancel"  # item 1: the highest-numbered merchant, not the one chosen
            return "to " + min(placement.legal_places(state, seat))
        if phase == "window":
            return "keep"  # ZAN-C3: an unanswered player keeps both cards
        if phase == "move":
            if state["pending"] is not None:
                return f"{state['pending']['kind']} {min(state['pending']['options'])}"
            if state["cur"] is not None:
                return "stop" if len(state["cur"]["path"]) > 1 else "cancel"
            return "done"
        if phase == "assign":
            return "done"
        if phase == "a5":
            return "keep"
        return None


ENGINE = ZanzibarEngine()
