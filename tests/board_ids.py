"""Every internal name of each board (issue 24, item 3): the ids of places, routes, pieces and
actions that a player must never read where words fit. ``found_ids(slug, text)`` lists the ones
a visible text holds; a move's notation (what a player may type) is left out before checking,
shown small beside the words (``class="notation"``, a mail menu's ``[...]``).

The lists come from the engines' own data, so a new place or piece is checked as soon as it
exists. Die Hanse's open-water squares (``h6``) are the grid coordinates printed along the map's
edges (like a chess board's ``e4``) and are words the board shows; its harbours, islands, canal
fields and hex ids are not."""
from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=None)
def board_ids(slug: str) -> tuple[frozenset, tuple]:
    """(words, patterns): the exact ids (matched as whole words, case-sensitive) and the regular
    expressions of id-like codes, of the board of ``slug``."""
    words: set[str] = set()
    patterns: list[str] = []
    if slug == "hansa-teutonica":
        from games.engines.hansa_teutonica.board import SIDES

        for side in SIDES.values():
            words |= set(side.routes)                                            # bremen-osnabruck
            words |= {k for k, name in side.city_name.items() if k != name}      # Brunswick, Munster
            words |= {k.lower() for k in side.cities if k.lower() != k}           # lübeck typed as key
            words |= set(getattr(side, "provinces", []) or [])                   # p01 … p18
        patterns += [r"\[[WOPB][so]\$?:", r"\b[TM]:\S", r"\btrader\(s\)", r"\bmerchant\(s\)", r"\d+T\+\d+M",
                     r"\(stock\)", r"\(supply\)"]
    elif slug == "die-hanse":
        from games.engines.die_hanse.board import BOARD, ISLANDS

        words |= set(BOARD.harbours)                    # luebeck (keys are lower case; names capitalised)
        words |= {BOARD.label[h] for h in BOARD.canal}  # canal1 … canal4
        words |= set(ISLANDS)                           # ruegen
        # the keys written as names: Ruegen, Luebeck (the board prints Rügen, Lübeck)
        words |= {k.capitalize() for k in ISLANDS if k.capitalize() != BOARD.island_name(k)}
        words |= {k.capitalize() for k in BOARD.harbours if k.capitalize() != BOARD.harbour_name.get(k, k)}
        words |= set(BOARD.hexes)                       # q3_r9
        patterns += [r"\bfield [a-z]{3,}\d*\b", r"\(pass or declare\)", r"\(pass of declare\)"]
    elif slug == "zanzibar":
        from games.engines.zanzibar.board import get_board

        board = get_board("zanzibar")
        words |= set(board.places)                      # n1 … z8
        patterns += [r"\b(?:red|orange|yellow|green|blue|brown|olive)-\d\b",  # yellow-7
                     r"'(?:place|to|move|push|expel|score|set aside|keep|done) ?<"]  # ('move <number>')
    elif slug == "hansa":
        from games.engines.hansa.board import BOARD

        words |= {k for k, name in BOARD.city_names.items() if k != name}  # tonsberg, danzig (names: Tønsberg, Danzig)
    return frozenset(words), tuple(patterns)


def without_notation(text: str) -> str:
    """``text`` without the notation a mail's menu shows beside the words (``  [sail red h6]``)."""
    return re.sub(r"\[[a-z0-9 /+-]+\]$", " ", text, flags=re.M)


def found_ids(slug: str, text: str) -> list[str]:
    words, patterns = board_ids(slug)
    hits = {w for w in re.findall(r"[A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9]", text) if w in words}
    hits |= {m.group(0) for p in patterns for m in re.finditer(p, text)}
    return sorted(hits)
