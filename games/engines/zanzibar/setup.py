"""Game set-up (ZAN-3, ZAN-5): merchants by player count, private shuffled decks, scores
at 10, start player; the game then opens with the initial placement (ZAN-6)."""
from __future__ import annotations

from ..rng import Rng, seed_state
from .board import get_board
from .state import P, log
from ..i18n import N_, msg


def new_state(players: int, seed: int, start_player="random", map_name: str = "zanzibar") -> dict:
    board = get_board(map_name)
    rng = Rng(seed_state(seed))
    # ZAN-5.2: one independent uniform permutation per player
    decks = [rng.shuffle(list(board.card_order)) for _ in range(players)]
    # ZAN-5.4 / ZAN-D-04: appointed by the host, else random
    if start_player == "random":
        start = rng.below(players)
    else:
        start = int(start_player)
    order = [(start + i) % players for i in range(players)]
    nums = board.merchants[players]  # ZAN-3 table
    state = {
        "game": "zanzibar",
        "map": map_name,
        "players": players,
        "start": start,
        "order": order,
        "phase": "place",
        "active": start,
        "n": 0,
        "occ": {},
        "unplaced": [list(nums) for _ in range(players)],
        "sel": None,
        "score": [board.start_score] * players,  # ZAN-5.3
        "scored": [[] for _ in range(players)],
        "aside_n": [0] * players,
        "moved": [],
        "cur": None,
        "pending": None,
        "declared": 0,
        "window": [False] * players,
        "finished": [],
        "final_left": None,
        "log": [],
        "_hand": [[] for _ in range(players)],
        "_deck": decks,
        "_aside": [[] for _ in range(players)],
        "_rng": rng.state,
    }
    log(state, msg(N_("{player} is the start player; merchants are placed one at a time in turn order"), player=P(start)))
    return state
