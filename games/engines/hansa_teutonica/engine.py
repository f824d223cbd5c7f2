"""The Hansa Teutonica engine: ties the phases and actions together (engine contract)."""
from __future__ import annotations

from ..base import Engine, IllegalMove
from . import assign, bonus, displace, establish, move, pawn, place, turn
from .fast import quick_ok
from .notation import match
from .scoring import result as _result
from .state import clone, setup_state
from .view import build_view, prompt_for
from ..i18n import N_, lit, msg, say  # noqa: F401


class HansaTeutonicaEngine(Engine):
    slug = "hansa-teutonica"
    name = "Hansa Teutonica"
    # Bump when a change of the rules code changes what a seed and a move log produce
    # (exports record it; docs/fairness.md).
    version = "1"
    min_players = 2
    max_players = 5
    option_specs: list[dict] = []
    seat_option_specs = [{
        "key": "auto_replace",
        "label": N_("Re-place my displaced pieces automatically"),
        "choices": [[False, N_("No, ask me")], [True, N_("Yes, use the default placement")]],
        "default": False,
    }]

    # ------------------------------------------------------------ contract
    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        opts = self.normalise_options(options, players)
        return setup_state(players, seed, opts)

    def to_act(self, state: dict) -> list[int]:
        ph = state["phase"]
        if ph == "over":
            return []
        if ph == "pawn":
            return [state["placer"]]
        if ph == "replace":
            return [state["rep"]["v"]]
        return [state["active"]]

    def legal_moves(self, state: dict, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return _options(state, seat)

    def canonical(self, state: dict, seat: int, text: str) -> str:
        if seat not in self.to_act(state):
            if state["phase"] == "over":
                raise IllegalMove(N_("the game is over"))
            raise IllegalMove(N_("it is not your turn to decide anything"))
        if quick_ok(state, seat, text):
            return text
        return match(_options(state, seat), text, lambda: prompt_for(state, seat))

    def apply(self, state: dict, seat: int, move: str) -> dict:
        mv = self.checked(state, seat, move)
        s = clone(state)
        s["n"] += 1
        _apply(s, seat, mv.split())
        return s

    def view(self, state: dict, seat: int | None) -> dict:
        v = build_view(state, seat, self.to_act(state))
        v["result"] = _result(state)
        return v

    def result(self, state: dict) -> dict | None:
        return _result(state)

    def default_move(self, state: dict, seat: int) -> str | None:
        if seat not in self.to_act(state):
            return None
        ph = state["phase"]
        opts = _options(state, seat)
        if ph == "replace":
            return displace.rep_default(state)  # HT-14.2
        if ph in ("pawn", "markers"):
            return opts[0]  # HT-A-4 / HT-A-3: lowest id
        st = state["step"]
        if st is None:
            return "end"  # HT-14.1
        if st["a"] == "reward":
            return opts[0]
        if "done" in opts:
            return "done"
        if "cancel" in opts:
            return "cancel"
        return opts[0]


def _options(s: dict, seat: int) -> list[str]:
    ph = s["phase"]
    if ph == "turn":
        st = s["step"]
        if st is None:
            return turn.menu(s, seat)
        return _STEP_OPTIONS[st["a"]](s, seat)
    if ph == "replace":
        return displace.rep_options(s)
    if ph == "markers":
        return bonus.placement_options(s)
    if ph == "pawn":
        return pawn.setup_options(s)
    return []


_STEP_OPTIONS = {
    "assign": assign.options,
    "place": place.options,
    "displace": displace.options,
    "move": move.options,
    "reward": establish.options,
    "pawn": pawn.options,
    "free": pawn.options,
    "endpawn": pawn.options,
    "remove": bonus.remove_options,
}

_STEP_APPLY = {
    "assign": assign.apply,
    "place": place.apply,
    "displace": displace.apply,
    "move": move.apply,
    "reward": establish.apply,
    "pawn": pawn.apply,
    "free": pawn.apply,
    "endpawn": pawn.apply,
    "remove": bonus.remove_apply,
}


def _apply(s: dict, seat: int, words: list[str]) -> None:
    ph = s["phase"]
    if ph == "turn":
        st = s["step"]
        if st is None:
            turn.apply_menu(s, seat, words)
        elif words == ["cancel"]:
            s["step"] = None
        else:
            _STEP_APPLY[st["a"]](s, seat, words)
    elif ph == "replace":
        displace.rep_apply(s, seat, words)
    elif ph == "markers":
        bonus.place_marker(s, seat, words)
        turn.after_marker(s)
    elif ph == "pawn":
        pawn.apply_setup(s, seat, words)
