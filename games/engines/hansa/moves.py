"""Legal move lists, diagnosis of illegal moves, and dispatch to the phase modules."""
from __future__ import annotations

from ..base import IllegalMove
from ..i18n import N_, moves, say
from . import actions, losses, placement
from .board import BOARD
from .notation import parse, text_of
from .state import PLAY_PHASES, city_name, distinct_kinds, kind_msg, kind_text
from .turn import begin_turn, end_actions


def to_act(state: dict) -> list[int]:
    phase = state["phase"]
    if phase == "over":
        return []
    seats = [s for s in range(state["players"]) if state["owe"][s]]
    if phase in PLAY_PHASES and state["active"] not in seats:
        seats.append(state["active"])
    return sorted(seats)


def sell_groups(tiles) -> list[tuple[int, list[int]]]:
    """Every distinct group of one colour with at least 2 tiles (HANSA-10.6a, D-22)."""
    counts: dict[int, list[int]] = {}
    for t in tiles:
        counts.setdefault(BOARD.tile_colour(t), [0, 0, 0, 0])[BOARD.tile_value(t)] += 1
    out = []
    for colour in sorted(counts):
        n = counts[colour]
        if sum(n) < 2:
            continue
        for a in range(n[1] + 1):
            for b in range(n[2] + 1):
                for c in range(n[3] + 1):
                    if a + b + c >= 2:
                        out.append((colour, [1] * a + [2] * b + [3] * c))
    return out


def legal_parsed(state: dict, seat: int) -> list[tuple]:
    if state["owe"][seat]:
        return [("lose", kind) for kind in losses.lose_options(state, seat)]
    phase = state["phase"]
    if phase not in PLAY_PHASES or seat != state["active"]:
        return []
    if phase == "place":
        return [("place", c) for c in placement.place_options(state, seat)]
    if phase == "fill":
        return [("fill", True), ("fill", False)]
    mine = state["tiles"][seat]
    if phase == "discard":
        return [("discard", kind) for kind in distinct_kinds(mine)]
    # phase 3
    out = []
    city = state["ship"]
    coins = state["coins"][seat]
    if coins >= 1:
        out.extend(("move", c) for c in BOARD.out[city])
    if not state["acted"]:
        in_city = [state["slots"][i] for i in BOARD.city_slots[city] if state["slots"][i] is not None]
        if in_city:
            price, _ = actions.buy_price(state, seat, city)
            if coins >= price:
                out.extend(("buy", kind) for kind in distinct_kinds(in_city))
        if state["supply"][seat] >= 1:
            out.extend(("build", kind) for kind in distinct_kinds(mine))
        if state["stalls"][city][seat] >= 1:
            out.extend(("sell", g) for g in sell_groups(mine))
    elif state["sale"]:
        out.extend(("sell", g) for g in sell_groups(mine) if g[0] not in state["sale"])
    out.append(("end",))
    return out


def legal_moves(state: dict, seat: int) -> list[str]:
    return [text_of(m) for m in legal_parsed(state, seat)]


def _explain(state: dict, seat: int, move) -> str:
    """A player-readable reason why a well-formed move is not legal now."""
    verb = move[0]
    if seat not in to_act(state):
        if state["phase"] == "over":
            return N_("the game is over")
        return N_("it is not your turn") if seat != state["active"] else N_("you have nothing to decide now")
    if state["owe"][seat]:
        owed = [BOARD.colour_names[int(k)] for k in state["owe"][seat]]
        if verb != "lose":
            return say(N_("first choose which tile to lose ({owed}), e.g. {example}"), owed=owed,
                       example=moves([losses.default_lose(state, seat)]))
        colour, value = move[1]
        if str(colour) not in state["owe"][seat]:
            return say(N_("you must lose a tile of {owed}, not {colour}"), owed=owed, colour=BOARD.colour_names[colour])
        return say(N_("you have no face-up {tile}"), tile=kind_msg(colour, value))
    if verb == "lose":
        return N_("you do not owe a tile")
    phase = state["phase"]
    if phase == "place":
        if verb != "place":
            return say(N_("place 2 stalls in a city first, e.g. {example}"), example=moves([placement.default_place(state, seat)]))
        try:
            placement.check_place(state, seat, move[1])
        except IllegalMove as exc:
            return exc.args[0]
        return N_("that placement is not possible")
    if phase == "fill":
        if verb != "fill":
            return say(N_("first decide whether to fill the warehouses: {choices}"), choices=moves(["fill", "no fill"]))
        return N_("that is not possible now")
    if phase == "discard":
        if verb != "discard":
            n = len(state["tiles"][seat]) - BOARD.tile_limit
            return say(N_("you have more than {limit} face-up tiles: discard {n} more, e.g. {example}"),
                       limit=BOARD.tile_limit, n=n, example=moves([actions.default_discard(state, seat)]))
        return say(N_("you have no face-up {tile}"), tile=kind_msg(*move[1]))
    # actions
    if verb == "fill":
        return N_("warehouses can only be filled in phase 2, before the actions")
    if verb in ("place", "discard"):
        return N_("that is not a phase-3 move; you may move, buy, build, sell or end")
    checks = {"move": lambda: actions.check_move(state, seat, move[1]),
              "buy": lambda: actions.check_buy(state, seat, *move[1]),
              "build": lambda: actions.check_build(state, seat, *move[1]),
              "sell": lambda: actions.check_sell(state, seat, *move[1])}
    try:
        if verb in checks:
            checks[verb]()
    except IllegalMove as exc:
        return exc.args[0]
    return N_("that move is not possible now")


def canonical(state: dict, seat: int, text: str) -> tuple[str, tuple]:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["players"]:
        raise IllegalMove(N_("there is no such seat"))
    move = parse(text)
    canon = text_of(move)
    if move not in legal_parsed(state, seat):
        raise IllegalMove(_explain(state, seat, move))
    return canon, move


def dispatch(state: dict, seat: int, move) -> None:
    """Apply a legal parsed move to ``state`` (a private copy)."""
    verb = move[0]
    phase_before = state["phase"]
    if verb == "lose":
        losses.apply_lose(state, seat, *move[1])
        if not state["owe"][seat]:
            if phase_before == "start" and seat == state["active"]:
                begin_turn(state, seat)
            elif phase_before == "final" and not any(state["owe"]):
                state["phase"] = "over"
                state["log"].append({"n": state["n"], "seat": None, "text": N_("The game is over.")})
        return
    if verb == "place":
        placement.do_place(state, seat, move[1])
    elif verb == "fill":
        actions.do_fill_choice(state, seat, move[1])
    elif verb == "move":
        actions.do_move(state, seat, move[1])
    elif verb == "buy":
        actions.do_buy(state, seat, *move[1])
    elif verb == "build":
        actions.do_build(state, seat, *move[1])
    elif verb == "sell":
        actions.do_sell(state, seat, *move[1])
    elif verb == "end":
        end_actions(state, seat)
    elif verb == "discard":
        actions.do_discard(state, seat, *move[1])


def default_move(state: dict, seat: int):
    """The timeout defaults of HANSA-16.2 (HANSA-D-17)."""
    if state["owe"][seat]:
        return losses.default_lose(state, seat)
    if seat not in to_act(state):
        return None
    phase = state["phase"]
    if phase == "place":
        return placement.default_place(state, seat)
    if phase == "fill":
        return "no fill"
    if phase == "discard":
        return actions.default_discard(state, seat)
    if phase == "actions":
        return "end"
    return None


__all__ = ["to_act", "legal_moves", "canonical", "dispatch", "default_move", "city_name"]
