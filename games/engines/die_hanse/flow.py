"""The state machine: a stack of frames, the top one decides who acts (HANSE-14)."""
from __future__ import annotations

from . import cards, harbour, pirate, special, turn
from .state import log, ships_of, top
from ..i18n import N_, lit, msg, say  # noqa: F401


def advance(state: dict) -> None:
    """Run automatic steps until a seat has to decide (or the game is over)."""
    while not state["over"]:
        f = top(state)
        if f is None:
            return
        k = f["k"]
        if k == "turn":
            if f["stage"] == "skipped":
                turn.end_turn(state)
                continue
            if not turn.turn_ships(state, f):
                if f["stage"] == "move":
                    f["stage"] = "eval"
                    turn.check_presence(state)
                    turn.evaluate_hansetage(state, state["turn"])
                    continue
                turn.end_turn(state)
                continue
            return
        if k == "window":
            if f["stage"] == "ask" and not special.waiting(f):
                _close_ask(state, f)
                continue
            if f["stage"] == "resolve" and not f["queue"]:
                state["stack"].pop()
                if f["extra"] is not None:
                    # D-23: a new window after the extra moves, last mover = last extra mover
                    state["stack"].append(special.open_window(state, f["extra"]))
                continue
            return
        if k == "harbour":
            if f["stage"] == "card" and not state["_hands"][f["mover"]]:
                state["stack"].pop()
                continue
            return
        if k == "pirate":
            if f["stage"] == "move" and not pirate.any_target(state):
                log(state, None, N_("no ship within the pirate's reach: the pirate round ends"))
                pirate.end_round(state)
                continue
            return
        if k == "fine":
            while f["queue"] and all(v is None for v in state["store"][f["queue"][0]]["vals"]):
                f["queue"].pop(0)
            if not f["queue"]:
                state["stack"].pop()
                continue
            return
        if k == "place":
            moves = cards.place_moves(state, f)
            if not moves:
                state["stack"].pop()
                continue
            if len(moves) == 1:
                cards.apply_place(state, f, f["seat"], moves[0])
                continue
            return
        return


def _close_ask(state: dict, f: dict) -> None:
    n = state["n"]
    order = [(f["last"] + i) % n for i in range(n)]
    f["queue"] = [s for s in order if f["ans"].get(str(s))]
    f["stage"] = "resolve"


def to_act(state: dict) -> list:
    if state["over"]:
        return []
    f = top(state)
    if f is None:
        return []
    k = f["k"]
    if k == "turn":
        return [f["seat"]]
    if k == "window":
        return special.waiting(f)
    if k == "harbour":
        return [f["mover"] if f["stage"] in ("mover", "card") else f["partner"]]
    if k == "pirate":
        return [f["mover"]]
    if k in ("place", "storm", "xmove", "cardplay"):
        return [f["seat"]]
    if k == "fine":
        return [(f["queue"][0] + 1) % state["n"]]
    return []


def legal(state: dict, seat: int) -> list:
    if seat not in to_act(state):
        return []
    f = top(state)
    k = f["k"]
    if k == "turn":
        return turn.slot_moves(state, seat, turn.turn_ships(state, f), course=f.get("course"))
    if k == "xmove":
        return turn.slot_moves(state, seat, ships_of(state, seat), extra=True, course=f.get("course"))
    if k == "window":
        if f["stage"] == "ask":
            return special.ask_moves(state, seat)
        return special.resolve_moves(state, f, seat, turn.movable)
    if k == "harbour":
        if f["stage"] == "card":
            return cards.play_options(state, seat)
        return harbour.step_moves(state, f)
    if k == "cardplay":
        return cards.play_options(state, seat)
    if k == "pirate":
        return pirate.legal(state, f)
    if k == "place":
        return cards.place_moves(state, f)
    if k == "storm":
        return cards.storm_moves(state, f)
    if k == "fine":
        return turn.fine_moves(state, f)
    return []


# moves accepted although not offered: the service's timeout defaults (docs/die-hanse.md)
def timeout_ok(state: dict, seat: int) -> bool:
    f = top(state)
    if f is None:
        return False
    if f["k"] in ("window", "turn", "xmove"):
        return True
    if f["k"] == "harbour" and f["stage"] == "partner" and f["draw"] is None:
        return True
    if f["k"] == "pirate" and pirate.may_time_out(state, f):
        return True  # HANSE-14.4: the pirate does not move
    return False


def apply_move(state: dict, seat: int, move: str) -> None:
    f = top(state)
    k = f["k"]
    if k in ("turn", "xmove") and move == "timeout":
        move = _slot_default(state, seat, f)
    if k in ("turn", "xmove") and (len(move.split()) == 2 and move.startswith("sail ") or move == "back"):
        f["course"] = None if move == "back" else turn.SHIP_NAMES.index(move.split()[1])
    elif k in ("turn", "xmove"):
        f["course"] = None
        s, entered = turn.apply_slot(state, seat, move)
        if k == "turn":
            f["done"].append(s)
            turn.after_move(state, seat, s, entered, window=True)
        else:
            state["stack"].pop()
            win = next(w for w in reversed(state["stack"]) if w["k"] == "window")
            win["extra"] = seat
            turn.after_move(state, seat, s, entered, window=False)
    elif k == "window":
        if f["stage"] == "ask":
            special.apply_ask(state, f, seat, move)
        else:
            special.apply_resolve(state, f, seat, move)
    elif k == "harbour":
        if f["stage"] == "card":
            state["stack"].pop()
            cards.play_card(state, seat, move)
        else:
            harbour.apply_step(state, f, seat, move)
    elif k == "cardplay":
        state["stack"].pop()
        cards.play_card(state, seat, move)
    elif k == "pirate":
        pirate.apply(state, f, seat, move)
    elif k == "place":
        cards.apply_place(state, f, seat, move)
    elif k == "storm":
        cards.apply_storm(state, f, seat, move)
    elif k == "fine":
        turn.apply_fine(state, f, seat, move)
    advance(state)
    turn.check_presence(state)


def _slot_default(state: dict, seat: int, f: dict) -> str:
    """HANSE-14.1: the first listed ship stays where it is (a canal ship advances to its first field)."""
    extra = f["k"] == "xmove"
    ships = ships_of(state, seat) if extra else turn.turn_ships(state, f)
    course = f.get("course")
    if course is None:
        first = turn.slot_choices(state, ships, extra)[0]
        if first.startswith("wait"):
            return first
        course = turn.SHIP_NAMES.index(first.split()[1])
    moves = [m for m in turn.slot_moves(state, seat, ships, extra, course=course) if m != "back"]
    stay = [m for m in moves if m.startswith("stay")]
    return (stay or moves)[0]


def default(state: dict, seat: int) -> str | None:
    if seat not in to_act(state):
        return None
    f = top(state)
    k = f["k"]
    moves = legal(state, seat)
    if k in ("turn", "xmove"):
        d = _slot_default(state, seat, f)
        return d if d in moves else "timeout"
    if k == "window":
        return "timeout"
    if k == "harbour":
        if f["stage"] == "card":
            return cards.default_play(state, seat)
        return harbour.default(state, f)
    if k == "cardplay":
        return cards.default_play(state, seat)
    if k == "pirate":
        return pirate.default(state, f)
    if k == "fine":
        return turn.fine_default(state, f)
    return moves[0] if moves else None
