"""Scenario helpers: start from setup, then set fields directly (clearer than long move lists)."""
from __future__ import annotations

import json

from games.engines import IllegalMove, get_engine
from games.engines.hansa.board import BOARD

ENGINE = get_engine("hansa")
COLOURS = BOARD.colour_names  # orange, brown, red, green, blue, white
TPC = BOARD.tiles_per_colour


def new(players=3, seed=1, start=0, ask=None, options=None):
    opts = dict(options or {})
    opts.setdefault("start_player", start)
    if ask is not None:
        opts["seats"] = [{"ask_losses": bool(a)} for a in ask]
    return ENGINE.setup(players=players, seed=seed, options=opts)


def colour_index(name: str) -> int:
    return COLOURS.index(name)


def tile(text: str, avoid=()) -> int:
    """A tile id of that kind ('orange/2'), not in ``avoid``."""
    name, value = text.split("/")
    c = colour_index(name)
    for k in range(TPC):
        t = c * TPC + k
        if BOARD.tile_value(t) == int(value) and t not in avoid:
            return t
    raise ValueError(f"no more {text} tiles")


def tiles(*texts, avoid=()) -> list[int]:
    out = []
    for t in texts:
        out.append(tile(t, avoid=list(avoid) + out))
    return out


def kinds(ids) -> list[str]:
    return sorted(BOARD.tile_text(t) for t in ids)


def playing(players=3, start=0, seat=None, ship="kopenhagen", coins=None, phase="actions", ask=None,
            colours_all=True, seed=1):
    """A state in the regular game: placement skipped, stalls cleared, hands empty, every tile
    accounted for (slots keep their setup tiles, stacks keep theirs)."""
    s = new(players=players, seed=seed, start=start, ask=ask)
    s = json.loads(json.dumps(s))
    if colours_all:
        # make every colour available for scenario tiles (the tests use names freely)
        s["colours"] = list(range(len(COLOURS)))
        s["removed_colours"] = []
    s["phase"] = phase
    s["round"] = 3
    s["active"] = start if seat is None else seat
    s["ship"] = ship
    s["coins"] = list(coins) if coins is not None else [3] * players
    s["turns"] = [1] * players
    return s


def give(s, seat, *texts):
    """Give face-up tiles to ``seat``, taking them out of wherever they are (slots/stacks/removed)."""
    ids = tiles(*texts, avoid=used(s, stacks=False))
    for t in ids:
        _take_out(s, t)
        s["tiles"][seat].append(t)
    return ids


def _take_out(s, t):
    for i, x in enumerate(s["slots"]):
        if x == t:
            s["slots"][i] = None
            return
    for st in s["_stacks"]:
        if t in st:
            st.remove(t)
            return
    if t in s["removed"]:
        s["removed"].remove(t)


def put_slot(s, city, text, which=0):
    """Put a tile of that kind on the ``which``-th slot of ``city`` (the old one goes to removed)."""
    i = BOARD.city_slots[city][which]
    if s["slots"][i] is not None:
        s["removed"].append(s["slots"][i])
    t = tile(text, avoid=used(s, stacks=False))
    _take_out(s, t)
    s["slots"][i] = t
    return t


def empty_slot(s, city, which=0):
    i = BOARD.city_slots[city][which]
    if s["slots"][i] is not None:
        s["removed"].append(s["slots"][i])
        s["slots"][i] = None


def set_stalls(s, city, counts):
    """Set one city's stalls; the supply adjusts so board + supply stays 15."""
    for p, n in enumerate(counts):
        s["supply"][p] += s["stalls"][city][p] - n
        s["stalls"][city][p] = n


def play(s, seat, *moves):
    for m in moves:
        s = ENGINE.apply(s, seat, m)
    return s


def rejected(s, seat, move) -> str:
    before = json.dumps(s, sort_keys=True)
    try:
        ENGINE.apply(s, seat, move)
    except IllegalMove as exc:
        assert json.dumps(s, sort_keys=True) == before
        assert str(exc)
        return str(exc)
    raise AssertionError(f"{move!r} was accepted")


def all_tiles_accounted(s) -> bool:
    """HANSA-14.3.1: every tile in play is in exactly one place."""
    allt = ([t for t in s["slots"] if t is not None] + [t for st in s["_stacks"] for t in st]
            + [t for x in s["tiles"] for t in x] + [t for x in s["sold"] for t in x] + s["removed"])
    return len(allt) == len(set(allt))


def used(s, stacks=True) -> list[int]:
    """Tile ids in slots, hands, sold piles (and stacks)."""
    out = [t for t in s["slots"] if t is not None] + [t for x in s["tiles"] for t in x]
    out += [t for x in s["sold"] for t in x]
    if stacks:
        out += [t for st in s["_stacks"] for t in st]
    return out


def set_stacks(s, spec):
    """spec: five entries S1..S5, each a list of kinds top to bottom, or a count of filler tiles.
    Returns the ids per stack (top to bottom)."""
    s["_stacks"] = [[] for _ in range(5)]
    avoid = used(s)
    out = []
    for k, entry in enumerate(spec):
        if isinstance(entry, int):
            ids = [t for t in range(6 * TPC) if t not in avoid][:entry]
        else:
            ids = tiles(*entry, avoid=avoid)
        avoid += ids
        out.append(ids)
        s["_stacks"][k] = list(reversed(ids))  # stored bottom .. top
    return out


def clear_hands(s):
    for p in range(s["players"]):
        s["removed"].extend(s["tiles"][p])
        s["tiles"][p] = []


def slot_index(city, which=0) -> int:
    return BOARD.city_slots[city][which]


def start_turn(s, seat):
    """Begin ``seat``'s turn on a scenario state (phase 1 income, phase 2 as the rules say)."""
    from games.engines.hansa.turn import begin_turn
    s = json.loads(json.dumps(s))
    begin_turn(s, seat)
    return s


def slot_tile(s, city, which=0):
    t = s["slots"][BOARD.city_slots[city][which]]
    return None if t is None else BOARD.tile_text(t)


def first_legal(s, seat, prefix):
    """The first legal move of ``seat`` starting with ``prefix``."""
    return next(m for m in ENGINE.legal_moves(s, seat) if m.startswith(prefix))
