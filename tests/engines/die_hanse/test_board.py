"""Board data (HANSE-3, BOARD DATA HANSE-BD-*, CARD DATA HANSE-CD-*)."""
import json
import os
from collections import Counter, deque

import pytest

from games.engines.die_hanse import board as board_mod
from games.engines.die_hanse.board import BOARD, Board, BoardError


def _connected_without(blocked):
    start = BOARD.harbours["london"]
    seen, todo = {start}, deque([start])
    while todo:
        x = todo.popleft()
        for y in BOARD.nbrs[x]:
            if y in seen or y in blocked or BOARD.kind[y] not in ("sea", "bay", "harbour"):
                continue
            if BOARD.kind[x] == "harbour" and x != start:
                continue
            seen.add(y)
            todo.append(y)
    return seen


def test_field_kinds_and_ids():  # HANSE-BD-1 HANSE-3.1 HANSE-2.1
    kinds = Counter(BOARD.kind.values())
    assert kinds["harbour"] == 7 and kinds["canal"] == 4
    assert kinds["sea"] + kinds["bay"] == 104
    assert all(k in ("sea", "bay", "harbour", "canal", "island") for k in kinds)
    assert len(set(BOARD.label.values())) == len(BOARD.label)


def test_adjacency_symmetric_and_canal_restricted():  # HANSE-BD-2 HANSE-BD-4 HANSE-3.5
    for c in BOARD.canal:
        for y in BOARD.nbrs[c]:
            assert BOARD.kind[y] == "canal" or BOARD.canal_mouth.get(c) == y
    assert len(BOARD.canal) == 4
    assert BOARD.kind[BOARD.canal_mouth[BOARD.canal[0]]] == "sea"
    assert BOARD.sea[BOARD.canal_mouth[BOARD.canal[0]]] == "north"
    assert BOARD.sea[BOARD.canal_mouth[BOARD.canal[-1]]] == "baltic"


def test_harbours_goods_and_seas():  # HANSE-BD-3 HANSE-3.3 HANSE-D-2 HANSE-BD-10
    assert BOARD.harbour_good == {"bergen": "fish", "bremen": "beer", "danzig": "grain", "london": "cloth",
                                  "luebeck": "salt", "nowgorod": "fur", "stockholm": "ore"}
    for h in ("london", "bremen", "bergen"):
        assert BOARD.harbour_sea[h] == "north"
    for h in ("luebeck", "danzig", "stockholm", "nowgorod"):
        assert BOARD.harbour_sea[h] == "baltic"


def test_sund_cuts_the_seas():  # HANSE-BD-5 HANSE-3.6 HANSE-D-18 HANSE-T-19 HANSE-9.2.4
    assert len(BOARD.sund) == 3 and all(BOARD.sea[s] == "baltic" for s in BOARD.sund)
    open_ = _connected_without(set())
    assert BOARD.harbours["danzig"] in open_
    cut = _connected_without(set(BOARD.sund))
    assert BOARD.harbours["danzig"] not in cut and BOARD.harbours["luebeck"] not in cut


def test_sea_membership_and_boundary():  # HANSE-BD-6 HANSE-3.2
    for h, k in BOARD.kind.items():
        if k in ("sea", "bay"):
            assert BOARD.sea[h] in ("north", "baltic")
    kattegat = [h for h, d in BOARD.hexes.items() if d["flags"].get("kattegat")]
    assert kattegat and all(BOARD.sea[h] == "baltic" for h in kattegat)


def test_bays_and_islands():  # HANSE-BD-7 HANSE-3.7 HANSE-3.8 HANSE-C2
    assert BOARD.kind[BOARD.bays["north"]] == "bay" and BOARD.sea[BOARD.bays["north"]] == "north"
    assert BOARD.kind[BOARD.bays["baltic"]] == "bay" and BOARD.sea[BOARD.bays["baltic"]] == "baltic"
    assert set(BOARD.islands) == {"helgoland", "gotland", "ruegen"}
    assert BOARD.sea[BOARD.islands["helgoland"]] == "north"
    assert BOARD.sea[BOARD.islands["gotland"]] == BOARD.sea[BOARD.islands["ruegen"]] == "baltic"
    assert all(BOARD.kind[h] == "island" for h in BOARD.islands.values())


def test_pirate_forbidden_fields():  # HANSE-BD-8 HANSE-11.3 HANSE-T-26
    assert BOARD.luebeck not in BOARD.pirate_ok
    assert not any(c in BOARD.pirate_ok for c in BOARD.canal)
    assert BOARD.harbours["stockholm"] in BOARD.pirate_ok
    for mouth in BOARD.canal_mouth.values():
        assert mouth in BOARD.pirate_ok  # Hamburg/Wismar are labels of sea fields (C2)


def test_every_harbour_reachable_no_adjacent_harbours():  # HANSE-BD-10 HANSE-3.10
    reach = _connected_without(set())
    for h in BOARD.harbours.values():
        assert h in reach or h == BOARD.harbours["london"]
    for a in BOARD.harbours.values():
        assert not any(BOARD.kind[y] == "harbour" for y in BOARD.nbrs[a])
    assert BOARD.tree == {"salt": ["fish", "grain"], "fish": ["ore", "fur"], "grain": ["cloth", "beer"]}


def test_layout_coordinates_for_ui():  # HANSE-BD-9 HANSE-3.9
    for h in BOARD.hexes.values():
        assert isinstance(h["q"], int) and isinstance(h["r"], int)
    from games.engines.die_hanse.svg import render_svg
    from .helpers import E, game
    svg = render_svg(E.view(game(3), 0), ["a", "b", "c"])
    assert svg.startswith("<svg") and "viewBox" in svg and "Bergen" in svg


def test_card_data():  # HANSE-CD-0 HANSE-CD-1 HANSE-CD-2 HANSE-CD-3 HANSE-CD-4 HANSE-CD-5 HANSE-CD-6 HANSE-2.6
    types = Counter(c["type"] for c in BOARD.cards.values())
    assert types == {"wind": 20, "new_goods": 12, "blockade": 9, "storm": 4, "pirates": 3, "hansetag": 2}
    pir = sorted((c["start"], c["points"]) for c in BOARD.cards.values() if c["type"] == "pirates")
    assert pir == [("gotland", 4), ("helgoland", 5), ("ruegen", 3)]
    storms = sorted((c["sea"], c["effect"]) for c in BOARD.cards.values() if c["type"] == "storm")
    assert storms == [("baltic", "nearest_open_harbour"), ("baltic", "storm_bay"),
                      ("north", "nearest_open_harbour"), ("north", "storm_bay")]
    targets = Counter(c["target"] for c in BOARD.cards.values() if c["type"] == "blockade")
    assert targets["sund"] == 2 and all(targets[h] == 1 for h in BOARD.harbours)
    for c in BOARD.cards.values():
        if c["type"] == "new_goods":
            assert BOARD.harbour_good[c["harbour"]] != c["good"]
        if c["type"] == "wind":
            assert 2 <= c["north"] <= 6 and 2 <= c["baltic"] <= 6
    assert BOARD.privilege_points == 1 and BOARD.kaperbrief_points == 2


def test_data_is_a_file_and_validated(tmp_path):  # HANSE-0.3 HANSE-BD-10
    with open(board_mod._PATH, encoding="utf-8") as f:
        data = json.load(f)
    assert "RECONSTRUCTION" in data["status"]
    data["cards"]["harbour_cards"][0]["north"] = 6
    changed = Board(json.loads(json.dumps(data)))
    assert changed.cards["wind_01"]["north"] == 6  # a club can correct the data without code
    data["map"]["harbours"]["luebeck"]["sea"] = "north"
    with pytest.raises(BoardError):
        Board(data)
    assert os.path.basename(board_mod._PATH) == "board.json"


def test_field_parsing_is_forgiving():  # HANSE-3.4 HANSE-7.6
    assert BOARD.field("Lübeck") == BOARD.luebeck
    assert BOARD.field("LUEBECK") == BOARD.luebeck
    assert BOARD.field("Stockh") == BOARD.harbours["stockholm"]
    # Hamburg / Wismar are no harbours: they name the canal mouth sea fields only
    assert "hamburg" not in BOARD.harbours and "wismar" not in BOARD.harbours
    assert BOARD.kind[BOARD.canal_mouth[BOARD.canal[0]]] == "sea"
