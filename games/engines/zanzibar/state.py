"""Small helpers on the state dict shared by the phase modules.

State layout (JSON; keys starting with ``_`` are hidden and never reach a view)::

    game, map, players, start, order        # order: seats from the start player on (ZAN-5.4)
    phase      "place" | "window" | "move" | "assign" | "a5" | "over"
    active     seat whose turn / placement it is (None in the set-aside window)
    n          number of moves applied so far
    occ        {place: [seat, number]}       # ZAN-4.3: at most one merchant per place
    unplaced   [[numbers] per seat]
    sel        merchant chosen for placement, or None
    score      [int per seat]                # ZAN-5.3, ZAN-D-15 (unbounded)
    scored     [[{"card", "count", "points"}] per seat]   # public scored piles
    aside_n    [int per seat]                # public count of set-aside cards (ZAN-D-14)
    moved      merchants moved this turn     # ZAN-9.2
    cur        None | {"num", "path"}        # the merchant moving now and its path so far
    pending    None | {"kind": "push"|"expel", "at", "piece": [seat, num], "options"}
    declared   cards that left the hand in this assignment step (ZAN-13.1)
    window     [bool per seat]: still deciding in the setup set-aside window (ZAN-7.2)
    finished   seats in finishing order (ZAN-14)
    final_left None | turns still to play in the final round (ZAN-14.2)
    log        [{"n", "seat", "text", ("only", "redacted")}]: the events of the step that made this state
    _hand, _deck, _aside   [[cards] per seat]  (private, ZAN-16)
    _rng       generator state

Copy-on-write: ``apply`` copies the top-level dict once; every helper that changes a
nested value replaces it with a new object instead of mutating the shared one.
"""
from __future__ import annotations

from ..events import event
from .board import Board, get_board
from ..i18n import N_, msg


def board_of(state: dict) -> Board:
    return get_board(state["map"])


def log(s: dict, text: str, seat=None, only=None, redacted=None) -> None:
    s["log"] = s["log"] + [event(s["n"], seat, text, only, redacted)]


def set_seat_item(s: dict, key: str, seat: int, value) -> None:
    """Replace ``s[key][seat]`` without touching the shared list."""
    lst = list(s[key])
    lst[seat] = value
    s[key] = lst


def draw(s: dict, seat: int, count: int, sealed: bool = False) -> list[str]:
    """Draw up to ``count`` cards from the seat's deck into its hand (ZAN-13.1, 13.3)."""
    deck = s["_deck"][seat]
    got = deck[:count]
    if not got:
        return []
    set_seat_item(s, "_deck", seat, deck[len(got):])
    set_seat_item(s, "_hand", seat, s["_hand"][seat] + got)
    redacted = None if sealed else msg(N_("{player} drew {n} cards") if len(got) > 1 else N_("{player} drew 1 card"),
                                       player=P(seat), n=len(got))
    log(s, msg(N_("you drew {cards}"), cards=list(got)), seat, only=[seat], redacted=redacted)
    return got


def merchants_of(state: dict, seat: int) -> dict[int, str]:
    """{number: place} of the seat's merchants on the board."""
    return {num: place for place, (s, num) in state["occ"].items() if s == seat}


def scoring_limit(state: dict) -> int:
    return board_of(state).scorings[state["players"]]


def quota(state: dict) -> int:
    return board_of(state).quota[state["players"]]


def colour(state: dict, seat: int) -> str:
    return board_of(state).colours[seat]


def merchant_name(state: dict, seat: int, num: int) -> str:
    return f"{colour(state, seat)}-{num}"


def merchant_msg(state: dict, seat: int, num: int) -> dict:
    """A merchant in words: its strength and its player's colour (a translatable term), never
    the ``colour-number`` id."""
    return msg(N_("merchant {num} ({colour})"), colour=colour(state, seat), num=num)


def place_msg(state: dict, pid: str):
    from .board import place_msg as said
    return said(board_of(state), pid)


def P(seat) -> str:
    """The placeholder of a player's name in a log text (filled by the presentation layer)."""
    return "{p%d}" % seat
