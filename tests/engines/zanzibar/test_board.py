"""Board model and loader validation (ZAN-4, §19, ZAN-C5). The board is data: a copy of
the shared board file, validated when loaded."""
import copy
import json

import pytest

from ..shared import SHARED
from games.engines.zanzibar.board import DATA_FILE, Board, BoardError, get_board


def doc():
    with open(DATA_FILE, encoding="utf-8") as fh:
        return json.load(fh)


def test_standard_board_loads_and_matches_shared_data():  # ZAN-4.1 ZAN-D-26
    shared_file = SHARED / "boards" / "zanzibar.json"
    if shared_file.exists():
        with open(shared_file, encoding="utf-8") as fh:
            assert doc() == json.load(fh)
    b = get_board()
    assert all(len(b.adj[p]) >= 2 for p in b.places)


def test_villages_and_sea_fields():  # ZAN-4.2 ZAN-D-02 ZAN-0.3
    b = get_board()
    for p in b.places:
        if b.is_sea[p]:
            assert b.province[p] == "sea" and b.spice[p] is None
        else:
            assert b.province[p] in ("north", "south", "east", "west", "central")
    bad = doc()
    next(p for p in bad["places"] if p["sea"])["spice"] = "clove"
    with pytest.raises(BoardError, match="spice"):
        Board(bad)


def test_loader_rejects_disconnected_graph():  # ZAN-4.1
    bad = doc()
    bad["roads"] = [r for r in bad["roads"] if "z5" not in r and "z6" not in r and "z7" not in r]
    bad["roads"] = [r for r in bad["roads"] if not (set(r) & {"s5", "s6"} and set(r) & {"s2", "s3"})]
    with pytest.raises(BoardError, match="connected"):
        Board(bad)


def test_loader_rejects_small_province():  # ZAN-C5 ZAN-D-05
    bad = doc()
    # move all but four sea fields into... remove sea fields z5..z8 and their roads
    gone = {"z5", "z6", "z7", "z8"}
    bad["places"] = [p for p in bad["places"] if p["id"] not in gone]
    bad["roads"] = [r for r in bad["roads"] if not set(r) & gone] + [["z4", "z1"]]
    with pytest.raises(BoardError, match="fewer than 5 places"):
        Board(bad)


def test_no_sea_card_and_card_targets():  # ZAN-D-03 ZAN-4.4
    bad = doc()
    bad["cards"][5]["target"] = "sea"
    with pytest.raises(BoardError):
        Board(bad)


def test_a_club_can_correct_the_data():  # ZAN-D-26
    fixed = copy.deepcopy(doc())
    fixed["cards"][4]["points"]["0"] = -9
    b = Board(fixed, name="corrected")
    assert b.cards["clove"]["table"][0] == -9


def test_package_copy_passes_the_shared_validator():  # ZAN-D-26 ZAN-C5
    import importlib.util
    import os
    path = str(SHARED / "boards" / "validate.py")
    if not os.path.exists(path):
        pytest.skip("shared validator not available")
    spec = importlib.util.spec_from_file_location("zan_shared_validate", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.FAILS.clear()
    summary = mod.validate_zanzibar(doc())
    assert mod.FAILS == [] and summary["land"] == 29
