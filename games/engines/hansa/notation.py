"""Move notation: forgiving parser and canonical text (see docs/hansa.md).

Canonical moves: ``place <city>``, ``fill``, ``no fill``, ``move <city>``, ``buy <tile>``,
``build <tile>``, ``sell <tile> <tile> ...`` (one colour per step), ``end``,
``discard <tile>``, ``lose <tile>``; a tile is ``<colour>/<barrels>``, e.g. ``orange/2``.
"""
from __future__ import annotations

import re

from ..base import IllegalMove
from ..i18n import N_, lit, say
from .board import BOARD, fold

VERBS = ["place", "fill", "move", "buy", "build", "sell", "end", "discard", "lose"]
ALIASES = {"sail": "move", "go": "move", "nofill": "nofill", "no": "nofill", "dont": "nofill",
           "don't": "nofill", "skip": "nofill", "decline": "nofill", "done": "end", "finish": "end",
           "drop": "discard", "pay": "discard", "purchase": "buy", "put": "place"}
TILE_VERBS = ("buy", "build", "discard", "lose")

_TILE = re.compile(r"^([a-z]+)/?([0-9]+)$")


def _verb(word: str) -> str:
    if word in ALIASES:
        return ALIASES[word]
    if word in VERBS:
        return word
    found = [v for v in VERBS if v.startswith(word)]
    if len(found) == 1:
        return found[0]
    if found:
        raise IllegalMove(say(N_("'{word}' is ambiguous: did you mean {choices}?"), word=lit(word), choices=lit(" / ".join(found))))
    raise IllegalMove(say(N_("unknown move '{word}'; moves are: {moves}"), word=lit(word),
                          moves=lit("place, fill, no fill, move, buy, build, sell, end, discard, lose")))


def parse_city(words: list[str]) -> str:
    if not words:
        raise IllegalMove(say(N_("name a city, e.g. '{example}'"), example=lit("move Danzig")))
    name = "".join(words)
    aliases = BOARD.city_aliases
    if name in aliases:
        return aliases[name]
    found = {cid for alias, cid in aliases.items() if alias.startswith(name)}
    if len(found) == 1:
        return found.pop()
    if found:
        raise IllegalMove(say(N_("'{word}' could be {choices}"), word=lit(" ".join(words)),
                          choices=lit(" / ".join(sorted(BOARD.city_names[c] for c in found)))))
    raise IllegalMove(say(N_("there is no city called '{word}'"), word=lit(" ".join(words))))


def parse_colour(word: str) -> int:
    names = BOARD.colour_names
    if word in names:
        return names.index(word)
    found = [i for i, n in enumerate(names) if n.startswith(word)]
    if len(found) == 1:
        return found[0]
    if found:
        raise IllegalMove(say(N_("'{word}' could be {choices}"), word=lit(word), choices=lit(" / ".join(names[i] for i in found))))
    raise IllegalMove(say(N_("there is no goods colour '{word}' (colours: {colours})"), word=lit(word),
                          colours=lit(", ".join(names))))


def parse_tiles(rest: str) -> list[tuple[int, int]]:
    rest = re.sub(r"\s*/\s*", "/", rest)
    words = [w for w in re.split(r"[\s,+;]+", rest) if w]
    merged = []
    for w in words:  # allow "orange 2"
        if w.isdigit() and merged and not merged[-1][-1].isdigit():
            merged[-1] += "/" + w
        else:
            merged.append(w)
    if not merged:
        raise IllegalMove(say(N_("name a goods tile as colour/barrels, e.g. '{example}'"), example=lit("orange/2")))
    out = []
    for w in merged:
        m = _TILE.match(w)
        if not m:
            raise IllegalMove(say(N_("'{word}' is not a goods tile; write colour/barrels, e.g. '{example}'"), word=lit(w),
                          example=lit("orange/2")))
        value = int(m.group(2))
        if value not in (1, 2, 3):
            raise IllegalMove(say(N_("goods tiles have 1, 2 or 3 barrels, not {value}"), value=value))
        out.append((parse_colour(m.group(1)), value))
    return out


def parse(text: str):
    """Text -> parsed move tuple. Raises IllegalMove for malformed text."""
    if not isinstance(text, str):
        raise IllegalMove(N_("a move must be text"))
    norm = " ".join(fold(text).replace("\x00", " ").split())
    if not norm:
        raise IllegalMove(N_("the move is empty"))
    words = norm.split(" ")
    verb = _verb(words[0])
    rest = words[1:]
    if verb in ("fill", "nofill", "end"):
        if verb == "nofill" and rest in (["fill"], ["filling"]):
            rest = []
        if verb == "end" and rest in (["actions"], ["turn"], ["phase"]):
            rest = []
        if rest:
            raise IllegalMove(say(N_("unexpected '{rest}' after '{word}'"), rest=lit(" ".join(rest)), word=lit(words[0])))
        return ("fill", verb == "fill") if verb != "end" else ("end",)
    if verb in ("place", "move"):
        return (verb, parse_city(rest))
    tiles = parse_tiles(" ".join(rest))
    if verb in TILE_VERBS:
        if len(tiles) != 1:
            raise IllegalMove(say(N_("'{verb}' takes exactly one tile, e.g. '{example}'"), verb=lit(verb),
                          example=lit(f"{verb} orange/2")))
        return (verb, tiles[0])
    # sell
    colours = {c for c, _ in tiles}
    if len(colours) > 1:
        raise IllegalMove(say(N_("sell one colour per step: e.g. '{first}', then '{second}' on the same visit"),
                          first=lit("sell orange/1 orange/2"), second=lit("sell brown/2 brown/3")))
    return ("sell", (tiles[0][0], sorted(v for _, v in tiles)))


def tile_word(colour: int, value: int) -> str:
    return f"{BOARD.colour_names[colour]}/{value}"


def text_of(move) -> str:
    """Parsed move tuple -> canonical text."""
    verb = move[0]
    if verb == "fill":
        return "fill" if move[1] else "no fill"
    if verb == "end":
        return "end"
    if verb in ("place", "move"):
        return f"{verb} {move[1]}"
    if verb == "sell":
        colour, values = move[1]
        return "sell " + " ".join(tile_word(colour, v) for v in values)
    return f"{verb} {tile_word(*move[1])}"
