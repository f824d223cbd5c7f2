"""Phase 2 decision and phase 3 actions: move (10.3), buy (10.4), build (10.5), sell (10.6),
and phase 4 discards (11.1)."""
from __future__ import annotations

from ..base import IllegalMove
from .board import BOARD
from .losses import inflict
from ..i18n import N_, msg, say
from .state import P, city_name, find_tile, kind_msg, kind_text, log, majority_holder, tile_msg
from .turn import do_fill, end_turn


# ------------------------------------------------------------------ phase 2
def do_fill_choice(state: dict, seat: int, fill: bool) -> None:
    if fill:
        do_fill(state, seat)
    else:
        log(state, seat, msg(N_("{player} does not fill the warehouses."), player=P(seat)))
    state["phase"] = "actions"


# ------------------------------------------------------------------ moving
def check_move(state: dict, seat: int, city: str) -> None:
    here = state["ship"]
    if city == here:
        raise IllegalMove(say(N_("the ship is already in {city}"), city=city_name(city)))
    if city not in BOARD.out[here]:
        raise IllegalMove(say(N_("there is no route from {here} to {city} "
                                 "(the ship only sails in the direction of the arrows)"),
                              here=city_name(here), city=city_name(city)))
    if state["coins"][seat] < 1:
        raise IllegalMove(N_("moving the ship costs 1 coin and you have none"))


def do_move(state: dict, seat: int, city: str) -> None:
    state["coins"][seat] -= 1                                     # HANSA-10.3b
    overland = (state["ship"], city) in BOARD.overland
    state["ship"] = city
    state["acted"] = False                                        # HANSA-10.1f: a new visit
    state["sale"] = []
    log(state, seat, msg(N_("{player} moves the ship overland to {city} (1 coin).") if overland
                         else N_("{player} moves the ship to {city} (1 coin)."), player=P(seat), city=city_name(city)))


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
        raise IllegalMove(say(N_("you already took an action on this visit to {city}; move the ship first"),
                                  city=city_name(city)))
    in_city = [state["slots"][i] for i in BOARD.city_slots[city] if state["slots"][i] is not None]
    if not in_city:
        raise IllegalMove(say(N_("the warehouses of {city} are empty"), city=city_name(city)))
    if find_tile(in_city, colour, value) is None:
        raise IllegalMove(say(N_("there is no {tile} in {city}"), tile=kind_msg(colour, value), city=city_name(city)))
    price, _ = buy_price(state, seat, city)
    if state["coins"][seat] < price:
        raise IllegalMove(N_("buying here costs 1 coin and you have none"))


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
        how = msg(N_("for free (most stalls there)"))
    elif payee is None:
        how = msg(N_("paying 1 coin to the bank"))
    else:
        state["coins"][payee] += 1
        how = msg(N_("paying 1 coin to {player}"), player=P(payee))
    state["acted"] = True
    log(state, seat, msg(N_("{player} buys {tile} in {city}, {how}."), player=P(seat), tile=tile_msg(tile),
                         city=city_name(city), how=how))


# ------------------------------------------------------------------ building
def check_build(state: dict, seat: int, colour: int, value: int) -> None:
    city = state["ship"]
    if state["acted"]:
        raise IllegalMove(say(N_("you already took an action on this visit to {city}; move the ship first"),
                                  city=city_name(city)))
    if find_tile(state["tiles"][seat], colour, value) is None:
        raise IllegalMove(say(N_("you have no face-up {tile}"), tile=kind_msg(colour, value)))
    if state["supply"][seat] < 1:
        raise IllegalMove(N_("you have no stalls left in your supply to build with"))


def do_build(state: dict, seat: int, colour: int, value: int) -> None:
    city = state["ship"]
    tile = find_tile(state["tiles"][seat], colour, value)
    state["tiles"][seat].remove(tile)
    state["removed"].append(tile)                                 # HANSA-10.5b
    k = min(value, state["supply"][seat])                         # HANSA-10.5c / D-09
    state["supply"][seat] -= k
    state["stalls"][city][seat] += k
    state["acted"] = True
    log(state, seat, msg(N_("{player} builds {n} stalls in {city} with {tile}.") if k > 1
                         else N_("{player} builds 1 stall in {city} with {tile}."),
                         player=P(seat), n=k, city=city_name(city), tile=tile_msg(tile)))


# ------------------------------------------------------------------ selling
def check_sell(state: dict, seat: int, colour: int, values: list[int]) -> None:
    """One `sell` step sells a group of one colour; further colours of the same sale follow as
    further `sell` steps on the same visit (the sale stays open until the ship moves or `end`)."""
    city = state["ship"]
    if len(values) < 2:
        raise IllegalMove(N_("a sale needs at least 2 tiles of each colour sold"))
    tiles = list(state["tiles"][seat])
    for v in values:
        t = find_tile(tiles, colour, v)
        if t is None:
            raise IllegalMove(say(N_("you do not have the face-up tiles {tiles}"), tiles=[kind_msg(colour, v) for v in values]))
        tiles.remove(t)
    if state["sale"]:
        if colour in state["sale"]:
            raise IllegalMove(say(N_("you already sold {colour} in this sale"), colour=BOARD.colour_names[colour]))
        return
    if state["acted"]:
        raise IllegalMove(say(N_("you already took an action on this visit to {city}; move the ship first"),
                                  city=city_name(city)))
    if state["stalls"][city][seat] < 1:
        raise IllegalMove(say(N_("you have no stall in {city}, so you cannot sell there"), city=city_name(city)))


def do_sell(state: dict, seat: int, colour: int, values: list[int]) -> None:
    city = state["ship"]
    sold = []
    for v in values:
        t = find_tile(state["tiles"][seat], colour, v)
        state["tiles"][seat].remove(t)
        sold.append(t)
    state["sold"][seat].extend(sold)                              # HANSA-10.6b.1
    text = [tile_msg(t) for t in sold]
    if not state["sale"]:
        state["stalls"][city][seat] -= 1                          # HANSA-10.6b.2: exactly one stall
        state["supply"][seat] += 1
        state["acted"] = True
        log(state, seat, msg(N_("{player} sells {tiles} in {city} and takes back one stall."), player=P(seat),
                             tiles=text, city=city_name(city)))
    else:
        log(state, seat, msg(N_("{player} adds {tiles} to the sale in {city}."), player=P(seat), tiles=text,
                             city=city_name(city)))
    state["sale"].append(colour)
    inflict(state, seat, colour)                                  # HANSA-10.6b.3


# ------------------------------------------------------------------ phase 4
def do_discard(state: dict, seat: int, colour: int, value: int) -> None:
    tile = find_tile(state["tiles"][seat], colour, value)
    state["tiles"][seat].remove(tile)
    state["removed"].append(tile)
    log(state, seat, msg(N_("{player} discards {tile} (tax and toll)."), player=P(seat), tile=tile_msg(tile)))
    if len(state["tiles"][seat]) <= BOARD.tile_limit:
        end_turn(state, seat)


def default_discard(state: dict, seat: int) -> str:
    """HANSA-16.2 #5: lowest barrel value first, ties by lowest colour index."""
    t = min(state["tiles"][seat], key=lambda t: (BOARD.tile_value(t), BOARD.tile_colour(t)))
    return "discard " + BOARD.tile_text(t)


