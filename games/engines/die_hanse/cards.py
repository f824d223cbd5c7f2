"""Harbour cards (HANSE-9) and the play of a card (HANSE-8.10)."""
from __future__ import annotations

from .board import BOARD, SHIP_NAMES, the_ship
from .movement import displacement_targets, storm_harbours
from .state import P, draw_stones, log, occupancy, pool, rand, ship_name
from ..i18n import N_, lit, msg, say  # noqa: F401

def card_text(cid: str) -> str:
    """Canonical move text of a card (identical cards share a text)."""
    c = BOARD.cards[cid]
    t = c["type"]
    if t == "wind":
        return "wind %d %d" % (c["north"], c["baltic"])
    if t == "new_goods":
        return "goods %d %s %s" % (c["stones"], c["good"], c["harbour"])
    if t == "blockade":
        return "blockade %s" % c["target"]
    if t == "storm":
        return "storm %s %s" % ("north" if c["sea"] == "north" else "baltic",
                                "harbour" if c["effect"] == "nearest_open_harbour" else "bay")
    if t == "pirates":
        return "pirates %s %d" % (c["start"], c["points"])
    return "hansetag"


def card_title(cid: str) -> str:
    c = BOARD.cards[cid]
    t = c["type"]
    if t == "wind":
        return say(N_("Wind: North Sea {north} / Baltic {baltic}"), north=c["north"], baltic=c["baltic"])
    if t == "new_goods":
        return say(N_("New goods: {n} {good} to {harbour}"), n=c["stones"], good=c["good"], harbour=BOARD.harbour_name[c["harbour"]])
    if t == "blockade":
        return say(N_("Blockade: {target}"), target=msg(N_("the Sund")) if c["target"] == "sund" else BOARD.harbour_name[c["target"]])
    if t == "storm":
        return say(N_("Storm on the {sea}: {effect}"), sea=msg(N_("North Sea")) if c["sea"] == "north" else msg(N_("Baltic")),
                   effect=msg(N_("to the nearest open harbour, sit out once")) if c["effect"] == "nearest_open_harbour"
                   else msg(N_("into the bay")))
    if t == "pirates":
        return say(N_("Pirates from {island} with {points} points"), island=lit(BOARD.island_name(c["start"])), points=c["points"])
    return say(N_("Hansetag in Lübeck"))


def play_options(state: dict, seat: int) -> list:
    seen = []
    for cid in state["_hands"][seat]:
        t = "play " + card_text(cid)
        if t not in seen:
            seen.append(t)
    return seen


def default_play(state: dict, seat: int) -> str:
    """HANSE-14.1: the card held longest."""
    return "play " + card_text(state["_hands"][seat][0])


def draw_card(state: dict, seat: int) -> None:
    if not state["_deck"]:
        # HANSE-8.10: reshuffle the discard pile (the current wind is not in it)
        deck = list(state["discard"])
        state["discard"] = []
        for i in range(len(deck) - 1, 0, -1):
            j = rand(state, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        state["_deck"] = deck
        log(state, None, N_("the discard pile is shuffled into a new draw pile"))
    if state["_deck"]:
        state["_hands"][seat].append(state["_deck"].pop())


def play_card(state: dict, seat: int, text: str) -> None:
    """Play a card from hand: resolve it (pushing frames for choices), discard, draw back to 3."""
    hand = state["_hands"][seat]
    cid = next(c for c in hand if "play " + card_text(c) == text)
    hand.remove(cid)
    c = BOARD.cards[cid]
    log(state, seat, msg(N_("{player} plays {card}"), player=P(seat), card=card_title(cid).message))
    t = c["type"]
    if t == "wind":
        state["discard"].append(state["wind"])
        state["wind"] = cid
    else:
        state["discard"].append(cid)
    draw_card(state, seat)
    if t == "blockade":
        blockade(state, seat, c["target"])
    elif t == "new_goods":
        src = BOARD.home[c["good"]]
        stones = draw_stones(state, src, c["good"], c["stones"])
        pool(state, c["harbour"], c["good"]).extend(stones)
        log(state, seat, msg(N_("{n} {good} moved from {src} to {dest}"), n=len(stones), good=c["good"],
                             src=BOARD.harbour_name[src], dest=BOARD.harbour_name[c["harbour"]]))
    elif t == "pirates":
        start_pirates(state, seat, c["start"], c["points"], exact=True)
    elif t == "hansetag":
        start_hansetag(state, seat)
    elif t == "storm":
        storm(state, seat, c["sea"], c["effect"])


def remove_blockade(state: dict, seat: int) -> None:
    state["blockade"] = None
    log(state, seat, msg(N_("{player} removes the blockade"), player=P(seat)))


def blockade(state: dict, seat: int, target: str) -> None:
    """HANSE-9.2.1/9.2.2."""
    state["blockade"] = target
    fields = set(BOARD.sund) if target == "sund" else {BOARD.harbours[target]}
    ships = [i for i, sh in enumerate(state["ships"]) if sh["at"] in fields]
    if ships:
        state["stack"].append({"k": "place", "seat": seat, "ships": ships, "loc": target})


def place_moves(state: dict, frame: dict) -> list:
    occ = occupancy(state)
    targets = displacement_targets(state, frame["loc"], occ)
    return ["place %s %s" % (ship_name(s), BOARD.label[h]) for s in frame["ships"] for h in targets]


def apply_place(state: dict, frame: dict, seat: int, move: str) -> None:
    _, name, lab = move.split()
    s = ship_name_index(name)
    h = BOARD.by_label[lab]
    state["ships"][s]["at"] = h
    frame["ships"].remove(s)
    log(state, seat, msg(N_("{player} moves {ship} out of the blockade to {field}"), player=P(seat), ship=the_ship(name),
                         field=BOARD.field_words(h)))
    if not frame["ships"]:
        state["stack"].pop()


def ship_name_index(name: str) -> int:
    return SHIP_NAMES.index(name)


def storm(state: dict, seat: int, sea: str, effect: str) -> None:
    """HANSE-9.6: ships on sea fields (incl. bays) of the named sea."""
    affected = [i for i, sh in enumerate(state["ships"])
                if BOARD.kind[sh["at"]] in ("sea", "bay") and BOARD.sea[sh["at"]] == sea]
    if effect == "storm_bay":
        bay = BOARD.bays[sea]
        for i in affected:
            state["ships"][i]["at"] = bay
        if affected:
            log(state, seat, msg(N_("the storm drives {ships} into the {bay}"), ships=[the_ship(ship_name(i)) for i in affected],
                                 bay=BOARD.hexes[bay]["name"]))
        return
    ties = []
    for i in affected:
        options = storm_harbours(state, state["ships"][i]["at"])
        if len(options) == 1:
            storm_place(state, i, options[0])
        elif options:
            ties.append([i, options])
    if ties:
        state["stack"].append({"k": "storm", "seat": seat, "ties": ties})


def storm_place(state: dict, ship: int, harbour: str) -> None:
    sh = state["ships"][ship]
    sh["at"] = BOARD.harbours[harbour]
    sh["skip"] = True  # D-20
    sh["dir"] = 0
    log(state, None, msg(N_("the storm drives {ship} into {harbour}; it sits out once"), ship=the_ship(ship_name(ship)),
                         harbour=BOARD.harbour_name[harbour]))


def storm_moves(state: dict, frame: dict) -> list:
    return ["storm %s %s" % (ship_name(i), h) for i, opts in frame["ties"] for h in opts]


def apply_storm(state: dict, frame: dict, seat: int, move: str) -> None:
    _, name, h = move.split()
    i = ship_name_index(name)
    storm_place(state, i, h)
    frame["ties"] = [t for t in frame["ties"] if t[0] != i]
    if not frame["ties"]:
        state["stack"].pop()


def start_pirates(state: dict, seat: int, island: str, points: int, exact: bool) -> None:
    state["pirate"] = BOARD.islands[island]
    log(state, seat, msg(N_("the pirate ship appears at {island} with {points} points"), island=lit(BOARD.island_name(island)), points=points))
    state["stack"].append({"k": "pirate", "mover": seat, "pts": points, "exact": exact, "movers": 0,
                           "stage": "move", "ship": None, "at": None})


def start_hansetag(state: dict, seat: int) -> None:
    """HANSE-12.2 / D-31: round 1 ends with the next turn of the card player's right neighbour."""
    n = state["n"]
    t = state["turn"]
    u = t + 1
    while u % n != (seat - 1) % n:
        u += 1
    state["hansetage"].append({"q": seat, "r2": u + 1, "end": u + n + 1, "sat": [False] * n})
    log(state, seat, N_("Hansetag: every merchant must be in Lübeck during the round after next"))

