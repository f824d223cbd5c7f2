"""Setup (§4, §5): removed colours, start player, shuffle, warehouses, supply stacks."""
from __future__ import annotations

from ..base import IllegalMove
from ..rng import Rng, seed_state
from .board import BOARD
from ..i18n import N_, msg, say
from .state import P, log


def stack_sizes(n: int, count: int) -> list[int]:
    """HANSA-D-03: floor(N/5) each, the frontmost N mod 5 stacks one more."""
    return [n // count + (1 if k < n % count else 0) for k in range(count)]


def setup(players: int, seed: int, options: dict) -> dict:
    """Build the initial state. ``options`` is already normalised (engine.normalise_options)."""
    rng = Rng(seed_state(seed))
    ncol = BOARD.colours_by_players[players]
    all_colours = list(range(len(BOARD.colour_names)))
    # HANSA-16.1 order: removed colours, start player, tile permutation.
    drawn = rng.shuffle(all_colours)
    removed_colours = sorted(drawn[: len(all_colours) - ncol])          # HANSA-D-02
    colours = [c for c in all_colours if c not in removed_colours]
    start = options.get("start_player", "random")
    if start == "random":
        start = rng.below(players)                                        # HANSA-D-04
    elif isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
        raise IllegalMove(say(N_("the start player must be a seat from 1 to {players}"), players=players))
    tpc = BOARD.tiles_per_colour
    perm = rng.shuffle([c * tpc + k for c in colours for k in range(tpc)])  # HANSA-5.2
    nslots = len(BOARD.slot_city)
    slots = perm[:nslots]                                                  # HANSA-5.3
    rest = perm[nslots:]
    stacks, pos = [], 0
    for size in stack_sizes(len(rest), BOARD.stack_count):                # HANSA-5.4
        stacks.append(rest[pos:pos + size])  # bottom .. top; the top tile is the last element
        pos += size
    seats = options.get("seats") or [{} for _ in range(players)]
    state = {
        "game": "hansa",
        "players": players,
        "n": 0,
        "colours": colours,
        "removed_colours": removed_colours,
        "start": start,
        "ask": [bool(s.get("ask_losses", False)) for s in seats],
        "phase": "place",
        "round": 1,
        "active": start,
        "ship": BOARD.start_city,                                          # HANSA-5.5
        "slots": slots,
        "_stacks": stacks,
        "end_triggered": False,
        "trigger_seat": None,
        "coins": [BOARD.start_coins] * players,                            # HANSA-5.6
        "supply": [BOARD.stalls_per_player] * players,
        "tiles": [[] for _ in range(players)],
        "sold": [[] for _ in range(players)],
        "stalls": {c: [0] * players for c in BOARD.city_ids},
        "acted": False,
        "sale": [],
        "owe": [{} for _ in range(players)],
        "removed": [],
        "turns": [0] * players,
        "log": [],
        "_rng": rng.state,
    }
    if removed_colours:
        log(state, None, msg(N_("Goods colours not used in this game: {colours}."),
                             colours=[BOARD.colour_names[c] for c in removed_colours]))
    log(state, None, msg(N_("{player} is the start player."), player=P(start)))
    log(state, None, msg(N_("Initial placement, round 1: {player} places first."), player=P(start)))
    return state
