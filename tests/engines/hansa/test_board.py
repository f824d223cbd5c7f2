"""Board data loaded from the package's board.json and validated at load (§3, §18, HANSA-C5)."""
import copy
import importlib.util
import json
import os

import pytest

from ..shared import SHARED

from games.engines.hansa.board import BOARD, BOARD_PATH, Board, BoardError

from .helpers import ENGINE, playing, rejected

SHARED_VALIDATE = str(SHARED / "boards" / "validate.py")


def _doc():
    with open(BOARD_PATH, encoding="utf-8") as fh:
        return json.load(fh)


def test_nine_cities_with_one_or_two_slots():  # HANSA-3.1 HANSA-3.2 HANSA-2.6
    assert len(BOARD.city_ids) == 9
    assert all(BOARD.warehouses[c] in (1, 2) for c in BOARD.city_ids)
    assert 9 <= len(BOARD.slot_city) <= 18
    assert len(BOARD.slot_city) == 13


def test_fill_numbers_and_rulebook_facts():  # HANSA-3.3 HANSA-3.6 HANSA-D-25
    assert sorted(BOARD.fill_number.values()) == list(range(1, 10))
    assert BOARD.fill_number["tonsberg"] == 1 and BOARD.fill_number["riga"] == 9
    assert set(BOARD.out["kopenhagen"]) == {"danzig", "lubeck", "tonsberg"}
    assert ("aalborg", "kopenhagen") in BOARD.routes and ("kalmar", "kopenhagen") in BOARD.routes
    assert ("tonsberg", "stockholm") in BOARD.overland
    assert ("stockholm", "reval") in BOARD.routes and ("lubeck", "aalborg") in BOARD.routes
    assert BOARD.start_city == "kopenhagen"
    # slots of one city are consecutive, slot a before slot b
    assert BOARD.slot_city[:2] == ["tonsberg", "tonsberg"] and BOARD.slot_city[-2:] == ["riga", "riga"]


def test_overland_route_is_an_ordinary_route():  # HANSA-3.4
    s = playing(ship="tonsberg", coins=[2, 0, 0])
    assert "move stockholm" in ENGINE.legal_moves(s, 0)
    s = ENGINE.apply(s, 0, "move stockholm")
    assert s["ship"] == "stockholm" and s["coins"][0] == 1


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d["cities"].pop(), "exactly 9 cities"),
    (lambda d: d["cities"][0].update(fill_order=5), "permutation"),
    (lambda d: d["cities"][1].update(warehouses=3), "1 or 2 warehouse"),
    (lambda d: d["routes"].append({"from": "kopenhagen", "to": "riga"}), "routes out"),
    (lambda d: d["routes"].append({"from": "riga", "to": "kopenhagen"}), "routes in"),
    (lambda d: d["routes"].__setitem__(slice(None), [r for r in d["routes"]
                                                     if (r["from"], r["to"]) != ("stockholm", "reval")]),
     "stockholm->reval"),
])
def test_loader_rejects_bad_board_data(mutate, needle):  # HANSA-3.6 HANSA-C5
    doc = _doc()
    mutate(doc)
    with pytest.raises(BoardError) as exc:
        Board(doc)
    assert needle.lower() in str(exc.value).lower()


def test_loader_rejects_a_dead_end_city():  # HANSA-3.6 HANSA-C5
    doc = _doc()
    doc["routes"] = [r for r in doc["routes"] if r["from"] != "reval"]
    with pytest.raises(BoardError):
        Board(doc)


def test_loader_accepts_the_shipped_board():  # HANSA-2.6 HANSA-D-25
    board = Board(copy.deepcopy(_doc()))
    assert board.city_ids == BOARD.city_ids


@pytest.mark.skipif(not os.path.exists(SHARED_VALIDATE), reason="shared validator not available")
def test_package_copy_keeps_the_shared_invariants():  # HANSA-3.6
    spec = importlib.util.spec_from_file_location("hansa_shared_validate", SHARED_VALIDATE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.FAILS.clear()
    mod.validate_hansa(_doc())
    assert mod.FAILS == []


def test_supply_spaces_front_to_back():  # HANSA-3.5
    s = ENGINE.setup(players=4, seed=5, options={})
    v = ENGINE.view(s, None)
    assert v["stacks"] == [13, 13, 13, 13, 13]
    assert BOARD.stack_count == 5


def test_unknown_city_is_rejected_with_a_message():  # HANSA-3.4
    s = playing(ship="kopenhagen")
    assert "no city" in rejected(s, 0, "move atlantis")
