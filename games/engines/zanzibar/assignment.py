"""The assignment step (ZAN-11 - ZAN-13.4, A1 - A7), decomposed:

A1  ``score <card>`` / ``set aside <card>`` for hand cards, one at a time, then ``done``
    (a card not named is kept). Scoring uses the board as it stands; the board cannot
    change during this step, so scoring one after the other equals scoring together
    (ZAN-11.4). Cards drawn later cannot be scored this turn.
A4  draw one card per card that left the hand (automatic, ZAN-D-16)
A5  while a draw happened and the quota is not used: ``set aside <card>`` (then draw 1)
    or ``keep``
A6  hand and deck empty: the player has finished (ZAN-14.1)
"""
from __future__ import annotations

from .state import P, board_of, draw, log, quota, scoring_limit, set_seat_item
from .turns import end_turn
from .window import set_aside
from ..i18n import N_, lit, msg, say  # noqa: F401


def own_places(state: dict, seat: int) -> set:
    """The places of the seat's merchants (what ZAN-11.2 counts a card by)."""
    return {p for p, (s, _) in state["occ"].items() if s == seat}


def count_for(state: dict, seat: int, card: str, places: set | None = None) -> int:
    """ZAN-11.2: own merchants on the card's places (opponents never count). ``places``: the
    seat's ``own_places``, where the caller counts several cards."""
    if places is None:
        places = own_places(state, seat)
    return len(board_of(state).targets[card] & places)


def legal(state: dict, seat: int) -> list[str]:
    if seat != state["active"]:
        return []
    hand = state["_hand"][seat]
    if state["phase"] == "a5":
        return [f"set aside {c}" for c in hand] + ["keep"]
    moves = []
    if len(state["scored"][seat]) < scoring_limit(state):  # ZAN-11.7
        moves += [f"score {c}" for c in hand]
    if state["aside_n"][seat] < quota(state):  # ZAN-12.1
        moves += [f"set aside {c}" for c in hand]
    return moves + ["done"]


def explain(state: dict, seat: int, move: str) -> str:
    hand = state["_hand"][seat]
    words = move.split()
    card = words[-1] if len(words) >= 2 else ""
    if move.startswith(("score", "set aside")) and card not in hand:
        if hand:
            return say(N_("you do not hold the card {card} (your hand: {hand})"), card=lit(repr(card)), hand=list(hand))
        return say(N_("you do not hold the card {card}"), card=lit(repr(card)))
    if move.startswith("score"):
        if state["phase"] == "a5":
            return N_("cards drawn now can only be set aside or kept; scoring happens at the end of a turn")
        return say(N_("you have already scored {n} cards, the most allowed ({limit}); the remaining cards can "
                      "only be set aside"), n=len(state["scored"][seat]), limit=scoring_limit(state))
    if move.startswith("set aside"):
        return say(N_("you have already set aside {n} card(s), exactly {quota} allowed; the remaining cards can "
                      "only be scored"), n=state["aside_n"][seat], quota=quota(state))
    if state["phase"] == "a5":
        return N_("set a card aside or keep your hand")
    return N_("score a card, set one aside or end your turn")


def apply(s: dict, seat: int, move: str) -> None:
    if s["phase"] == "a5":
        if move == "keep":
            _end(s, seat)
            return
        set_aside(s, seat, move[len("set aside "):], sealed=False)
        got = draw(s, seat, 1)  # ZAN-12.5
        if not got or s["aside_n"][seat] >= quota(s):
            _end(s, seat)
        return
    if move == "done":
        _after_a1(s, seat)
        return
    if move.startswith("score "):
        card = move[len("score "):]
        score_card(s, seat, card)
    else:
        set_aside(s, seat, move[len("set aside "):], sealed=False)
    s["declared"] += 1
    if not s["_hand"][seat]:
        _after_a1(s, seat)


def score_card(s: dict, seat: int, card: str) -> None:
    """ZAN-11.2 - 11.5: count, table, score, face-up pile."""
    board = board_of(s)
    n = count_for(s, seat, card)
    pts = board.card_points(card, n)
    set_seat_item(s, "score", seat, s["score"][seat] + pts)
    set_seat_item(s, "scored", seat, s["scored"][seat] + [{"card": card, "count": n, "points": pts}])
    set_seat_item(s, "_hand", seat, [c for c in s["_hand"][seat] if c != card])
    log(s, msg(N_("{player} scored {card}: 1 merchant, {points} (score {score})") if n == 1
               else N_("{player} scored {card}: {n} merchants, {points} (score {score})"),
               player=P(seat), card=card, n=n, points=lit(f"{pts:+d}"), score=s["score"][seat]), seat)


def _after_a1(s: dict, seat: int) -> None:
    declared = s["declared"]
    s["declared"] = 0
    got = draw(s, seat, declared) if declared else []  # A4
    if got and s["aside_n"][seat] < quota(s) and s["_hand"][seat]:
        s["phase"] = "a5"  # A5
        return
    _end(s, seat)


def _end(s: dict, seat: int) -> None:
    if not s["_hand"][seat] and not s["_deck"][seat] and seat not in s["finished"]:  # A6
        s["finished"] = s["finished"] + [seat]
        log(s, msg(N_("{player} has used all 10 cards and finished (finish #{rank})"), player=P(seat),
                   rank=len(s["finished"])), seat)
    end_turn(s)
