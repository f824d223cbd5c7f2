"""Phase 2 decision and phase 3 actions: move (10.3), buy (10.4), build (10.5), sell (10.6),
and phase 4 discards (11.1)."""
from __future__ import annotations

from ..base import IllegalMove
from .board import BOARD
from .losses import inflict
from .state import city_name, find_tile, kind_text, log, majority_holder
from .turn import do_fill, end_turn


# ------------------------------------------------------------------ phase 2
def do_fill_choice(state: dict, seat: int, fill: bool) -> None:
    if fill:
        do_fill(state, seat)
    else:
        log(state, seat, "{p%d} does not fill the warehouses." % seat)
    state["phase"] = "actions"


# ------------------------------------------------------------------ moving
def check_move(state: dict, seat: int, city: str) -> None:
    here = state["ship"]
    if city == here:
        raise IllegalMove(f"the ship is already in {city_name(city)}")
    if city not in BOARD.out[here]:
        raise IllegalMove(f"there is no route from {city_name(here)} to {city_name(city)} "
                          f"(the ship only sails in the direction of the arrows)")
    if state["coins"][seat] < 1:
        raise IllegalMove("moving the ship costs 1 coin and you have none")


def do_move(state: dict, seat: int, city: str) -> None:
    state["coins"][seat] -= 1                                     # HANSA-10.3b
    via = " overland" if (state["ship"], city) in BOARD.overland else ""
    state["ship"] = city
    state["acted"] = False                                        # HANSA-10.1f: a new visit
    state["sale"] = []
    log(state, seat, "{p%d} moves the ship%s to %s (1 coin)." % (seat, via, city_name(city)))


# ------------------------------------------------------------------ buying
def buy_price(state: dict, seat: int, city: str):
    """(coins, payee) for a purchase in ``city``: payee None = the bank (HANSA-10.4c)."""
    holder = majority_holder(state, city)
    if holder == seat:
        return 0, None
    return 1, holder


def check_buy(state: dict, seat: int, colour: int, value: int) -> None:
    city = state["ship"]
    if state["acted"]:
        raise IllegalMove(f"you already took an action on this visit to {city_name(city)}; move the ship first")
    in_city = [state["slots"][i] for i in BOARD.city_slots[city] if state["slots"][i] is not None]
    if not in_city:
        raise IllegalMove(f"the warehouses of {city_name(city)} are empty")
    if find_tile(in_city, colour, value) is None:
        raise IllegalMove(f"there is no {kind_text(colour, value)} in {city_name(city)}")
    price, _ = buy_price(state, seat, city)
    if state["coins"][seat] < price:
        raise IllegalMove("buying here costs 1 coin and you have none")


def do_buy(state: dict, seat: int, colour: int, value: int) -> None:
    city = state["ship"]
    slot = next(i for i in BOARD.city_slots[city] if state["slots"][i] is not None
                and BOARD.tile_colour(state["slots"][i]) == colour and BOARD.tile_value(state["slots"][i]) == value)
    tile = state["slots"][slot]
    state["slots"][slot] = None                                   # HANSA-10.4e
    state["tiles"][seat].append(tile)
    price, payee = buy_price(state, seat, city)
    state["coins"][seat] -= price
    if price == 0:
        how = "for free (most stalls there)"
    elif payee is None:
        how = "paying 1 coin to the bank"
    else:
        state["coins"][payee] += 1
        how = "paying 1 coin to {p%d}" % payee
    state["acted"] = True
    log(state, seat, "{p%d} buys %s in %s, %s." % (seat, BOARD.tile_text(tile), city_name(city), how))


# ------------------------------------------------------------------ building
def check_build(state: dict, seat: int, colour: int, value: int) -> None:
    city = state["ship"]
    if state["acted"]:
        raise IllegalMove(f"you already took an action on this visit to {city_name(city)}; move the ship first")
    if find_tile(state["tiles"][seat], colour, value) is None:
        raise IllegalMove(f"you have no face-up {kind_text(colour, value)}")
    if state["supply"][seat] < 1:
        raise IllegalMove("you have no stalls left in your supply to build with")


def do_build(state: dict, seat: int, colour: int, value: int) -> None:
    city = state["ship"]
    tile = find_tile(state["tiles"][seat], colour, value)
    state["tiles"][seat].remove(tile)
    state["removed"].append(tile)                                 # HANSA-10.5b
    k = min(value, state["supply"][seat])                         # HANSA-10.5c / D-09
    state["supply"][seat] -= k
    state["stalls"][city][seat] += k
    state["acted"] = True
    log(state, seat, "{p%d} builds %d stall%s in %s with %s." % (seat, k, "s" if k > 1 else "", city_name(city),
                                                                BOARD.tile_text(tile)))


# ------------------------------------------------------------------ selling
def check_sell(state: dict, seat: int, colour: int, values: list[int]) -> None:
    """One `sell` step sells a group of one colour; further colours of the same sale follow as
    further `sell` steps on the same visit (the sale stays open until the ship moves or `end`)."""
    city = state["ship"]
    if len(values) < 2:
        raise IllegalMove("a sale needs at least 2 tiles of each colour sold")
    tiles = list(state["tiles"][seat])
    for v in values:
        t = find_tile(tiles, colour, v)
        if t is None:
            raise IllegalMove(f"you do not have the face-up tiles {' '.join(kind_text(colour, v) for v in values)}")
        tiles.remove(t)
    if state["sale"]:
        if colour in state["sale"]:
            raise IllegalMove(f"you already sold {BOARD.colour_names[colour]} in this sale")
        return
    if state["acted"]:
        raise IllegalMove(f"you already took an action on this visit to {city_name(city)}; move the ship first")
    if state["stalls"][city][seat] < 1:
        raise IllegalMove(f"you have no stall in {city_name(city)}, so you cannot sell there")


def do_sell(state: dict, seat: int, colour: int, values: list[int]) -> None:
    city = state["ship"]
    sold = []
    for v in values:
        t = find_tile(state["tiles"][seat], colour, v)
        state["tiles"][seat].remove(t)
        sold.append(t)
    state["sold"][seat].extend(sold)                              # HANSA-10.6b.1
    text = " ".join(BOARD.tile_text(t) for t in sold)
    if not state["sale"]:
        state["stalls"][city][seat] -= 1                          # HANSA-10.6b.2: exactly one stall
        state["supply"][seat] += 1
        state["acted"] = True
        log(state, seat, "{p%d} sells %s in %s and takes back one stall." % (seat, text, city_name(city)))
    else:
        log(state, seat, "{p%d} adds %s to the sale in %s." % (seat, text, city_name(city)))
    state["sale"].append(colour)
    inflict(state, seat, colour)                                  # HANSA-10.6b.3


# ------------------------------------------------------------------ phase 4
def do_discard(state: dict, seat: int, colour: int, value: int) -> None:
    tile = find_tile(state["tiles"][seat], colour, value)
    state["tiles"][seat].remove(tile)
    state["removed"].append(tile)
    log(state, seat, "{p%d} discards %s (tax and toll)." % (seat, BOARD.tile_text(tile)))
    if len(state["tiles"][seat]) <= BOARD.tile_limit:
        end_turn(state, seat)


def default_discard(state: dict, seat: int) -> str:
    """HANSA-16.2 #5: lowest barrel value first, ties by lowest colour index."""
    t = min(state["tiles"][seat], key=lambda t: (BOARD.tile_value(t), BOARD.tile_colour(t)))
    return "discard " + BOARD.tile_text(t)


