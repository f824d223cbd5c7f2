"""Die Hanse bots (issue 30): storages fill, so games end the way the rulebook ends them (HANSE-13)."""
from __future__ import annotations

import pytest

from games.bots import choose_move
from games.engines.sampling import bot_view, sample_state
from games.engines.die_hanse.board import BOARD

from .die_hanse.helpers import E, cargo, game, hand, hx, put, turn_of, wind
from .playout import basic_decisions, play_bots

LUEBECK = BOARD.dist_to["luebeck"]


def take(state: dict, good: str, value: int) -> list:
    """A stone of ``good`` and ``value`` out of its home pool (the game keeps its 144 stones, so a
    bot's sample of the hidden values still adds up, HANSE-2.5)."""
    pool = state["_pools"][BOARD.home[good]][good]
    pool.remove(value)
    return [good, value]


def fill(state: dict, seat: int, goods: list, vals: list) -> None:
    """Seat's storage card ``goods`` with the stones ``vals`` (None: an empty slot) taken from the pools."""
    store = state["store"][seat]
    store["goods"] = list(goods)
    store["vals"] = [None] * 6
    for i, (g, v) in enumerate(zip(goods, vals)):
        if v is not None:
            take(state, g, v)
            store["vals"][i] = v


def empty_halves(state: dict, *ships: int) -> None:
    """The salt of these ships' halves back to Lübeck (the pool of HANSE-4.8)."""
    for s in ships:
        for hi in range(2):
            for g, v in state["cargo"][s][hi]:
                state["_pools"][BOARD.home[g]][g].append(v)
            state["cargo"][s][hi] = []


def test_a_wanted_stone_goes_through_the_canal_while_the_sund_is_blockaded():
    """HANSE-9.2.4: with the Sund blockaded the canal is the only way between the seas. A ship
    at the Elbe mouth carrying the ore the seat's storage lacks enters the canal (HANSE-7.7.1)
    instead of sailing north towards the closed Sund."""
    state = game(3, seed=7)
    turn_of(state, 0)
    fill(state, 0, ["fish", "grain", "beer", "cloth", "ore", "fur"], [1, 1, 2, 2, None, 2])
    empty_halves(state, 0)
    cargo(state, 0, stern=[take(state, "ore", 4)])
    put(state, 0, "g11")
    state["blockade"] = "sund"
    state["special"][0] = {"privilege": False, "kaperbrief": False}  # no card lifts the blockade
    wind(state, 4, 4)
    state = E.apply(state, 0, "sail red")
    assert "sail red canal1" in E.legal_moves(state, 0)
    for seed in range(3):
        assert choose_move(E, state, 0, "basic", seed=seed) == "sail red canal1"


def test_a_seat_sails_its_partners_goods_home_rather_than_away():
    """HANSE-4.7: seat 0 moves the green ship, whose other half (seat 2's) holds the fur that fills
    seat 2's storage (HANSE-13.1). Seat 0 has nothing of its own to gain on that ship; it sails it
    towards Lübeck, not away from it, although seat 2 leads (rating a partner's progress against
    itself, each partner pulled a shared ship its own way and no storage filled)."""
    for seed in range(3):
        state = game(3, seed=11 + seed)
        turn_of(state, 0)
        fill(state, 2, ["fish", "grain", "beer", "cloth", "fur", "fur"], [3, 3, 4, 4, 4, None])
        fill(state, 0, ["fish", "fish", "ore", "ore", "fur", "fur"], [None] * 6)
        empty_halves(state, 2)
        # seat 0's half: goods its storage never takes (it has no grain, beer or cloth slot)
        cargo(state, 2, stern=[take(state, "fur", 4)],
              bow=[take(state, "beer", 2), take(state, "beer", 3), take(state, "cloth", 2)])
        put(state, 2, "n2")
        wind(state, 4, 3)
        state = E.apply(state, 0, "sail green")
        start = LUEBECK[hx("n2")]
        move = choose_move(E, state, 0, "basic", seed=seed)
        after = E.apply(state, 0, move)["ships"][2]["at"]
        assert after == BOARD.luebeck or LUEBECK[after] < start, move


def test_partners_of_a_ship_do_not_pull_it_back_and_forth():
    """HANSE-4.7: the red ship's two partners each move it once a round. Seat 0's half holds the
    grain its empty beer slots want (a trade in Bremen), seat 1's half the cloth that fills its
    storage's last slot (unloaded in Lübeck, HANSE-8.8.1). Moving it in turn, one move each, they
    bring it into a harbour within three moves from anywhere between the two. (Each rating its own
    goods above its partner's, each pulled red back towards its own harbour, one move each a
    round, and no storage filled in the 40 rounds left: seeds 30001 and 105508 of three basic
    bots.)"""
    for seed, label in enumerate(("f6", "f8", "e9", "e8")):
        state = game(3, seed=21 + seed)
        fill(state, 0, ["fish", "grain", "beer", "beer", "ore", "fur"], [1, 1, None, None, 2, 2])
        fill(state, 1, ["fish", "fish", "beer", "beer", "cloth", "ore"], [1, 3, 2, 3, None, 4])
        empty_halves(state, 0)
        cargo(state, 0, stern=[take(state, "grain", 2), take(state, "grain", 2)], bow=[take(state, "cloth", 4)])
        put(state, 0, label)
        wind(state, 4, 3)
        for seat in (0, 1):  # one move each: no Privilege's extra move (HANSE-10.2.1)
            state["special"][seat] = {"privilege": False, "kaperbrief": False}
        path = [label]
        for k in range(3):
            seat = k % 2
            mover = {**state, "ships": [dict(sh) for sh in state["ships"]]}
            turn_of(mover, seat)
            mover = E.apply(mover, seat, "sail red")
            moved = E.apply(mover, seat, choose_move(E, mover, seat, "basic", seed=seed))["ships"][0]
            state["ships"][0] = dict(moved)
            path.append(BOARD.label[moved["at"]])
            if moved["at"] in (BOARD.luebeck, BOARD.harbours["bremen"]):
                break
        assert path[-1] in ("luebeck", "bremen"), path


@pytest.mark.slow
def test_three_basic_bots_fill_a_storage():
    """Issue 30: three basic bots end a game by a full storage (HANSE-13.1, 13.2), not by the
    round limit of 60 rounds (docs/die-hanse.md, decision 1)."""
    state = play_bots(E, E.setup(3, 30002, {}), lambda s, seat: choose_move(E, s, seat, "basic", seed=30002 * 8 + seat), 3000)
    assert state["over"]
    assert state["final"] is not None and state["final"]["f"] is not None
    assert state["turn"] < 20 * 3  # 9 rounds when it was written


def _basic_positions(seed: int = 30002, count: int = 8, every: int = 5) -> list:
    """Positions of a game of three basic bots where the seat to act chooses among several of
    the moves basic considers (every ``every``-th such decision)."""
    from games.bots.basic import _candidates

    def wanted(state, seat, legal):
        return len(_candidates("die-hanse", legal, state)) > 1

    return basic_decisions(E, 3, seed, wanted, count, every)


def test_strong_plays_each_candidate_to_the_end_of_the_turn():
    """The strong level's playouts (``turn_search``) end where the turn ends (HANSE-6.2, 6.4):
    both move slots of the player whose turn it is are played out, with their harbour procedures
    and reaction windows, and the next player has not moved yet; a candidate that ends the turn
    itself is rated as it leaves it (not after the next player's turn)."""
    from games.bots.ismcts import TURN_HORIZON, _turn_playout
    from games.engines.rng import Rng

    for state, seat in _basic_positions():
        for move in E.legal_moves(state, seat)[:3]:
            after = E.apply(state, seat, move)
            end = _turn_playout("die-hanse", E, after, seat, Rng(1), TURN_HORIZON, turn=state["turn"])
            if end["over"]:
                continue
            assert end["turn"] == state["turn"] + 1, move
            frame = next(f for f in end["stack"] if f["k"] == "turn")
            assert frame["seat"] == end["turn"] % 3 and frame["done"] == [], move


def test_strong_rates_its_candidates_on_many_samples_of_the_hidden_stones(monkeypatch):
    """HANSE-5 (hidden stone values, hands, the deck): every iteration of ``turn_search`` after
    the first draws a new state from the seat's view and plays every candidate on from it; with
    no difference between the candidates' ends it plays its one-step choice (basic's very move
    where none of the leader's goods at sea counts, ``rival_cargo`` 0)."""
    from games.bots import ismcts, rng_for

    drawn, played = [], []
    real_sample, real_playout = ismcts.sample_state, ismcts._turn_playout

    def sample(slug, view, seat, rng):
        state = real_sample(slug, view, seat, rng)
        drawn.append(repr({k: v for k, v in state.items() if k.startswith("_") and k != "_rng"}))
        return state

    def playout(*args, turn, **kw):
        played.append(1)
        return real_playout(*args, turn=turn, **kw)

    monkeypatch.setattr(ismcts, "sample_state", sample)
    monkeypatch.setattr(ismcts, "_turn_playout", playout)
    monkeypatch.setattr(ismcts, "_turn_value", lambda slug, engine, state, seat, rival_cargo=0.0: 0.0)
    budget = {"iterations": 5, "seconds": None, "rival_cargo": 0.0}
    searched = 0
    for state, seat in _basic_positions():
        drawn.clear()
        played.clear()
        stats = {}
        view = bot_view("die-hanse", state, seat)
        rng = rng_for(view, 9)
        first = sample_state("die-hanse", view, seat, rng)
        move = ismcts.turn_search("die-hanse", E, view, seat, E.legal_moves(first, seat), rng, budget,
                                  first=first, stats=stats)
        if stats["candidates"] > 1:
            searched += 1
            assert len(played) == 5 * stats["candidates"]
            assert len(drawn) == 4 and len(set(drawn)) == 4  # four new samples, all different
        assert move == choose_move(E, state, seat, "basic", seed=9)
        assert move == choose_move(E, state, seat, "strong", seed=9, budget=budget)
    assert searched >= 3


def test_strong_rates_a_blockade_of_the_leaders_harbour_above_another():
    """HANSE-9.2.3: a blockaded harbour cannot be entered. Seat 2 leads (at 4 players not a
    partner of seat 0, HANSE-1.1) and its last empty slot wants ore, which only Stockholm offers
    (HANSE-8.4, 8.5); nobody else needs Stockholm or London. Basic's rating (none of another
    seat's goods at sea counts against it) finds the two blockades alike; the strong level's
    (``ismcts.RIVAL_CARGO``: a share of the leader's goods at sea counts against it) rates the
    blockade of Stockholm higher and plays it."""
    from games.bots.basic import rate
    from games.bots.ismcts import RIVAL_CARGO

    state = game(4, seed=21)
    turn_of(state, 0)
    for seat in (0, 1, 3):
        fill(state, seat, ["fish", "fish", "grain", "grain", "fur", "beer"], [None] * 6)
    fill(state, 2, ["fish", "grain", "beer", "cloth", "ore", "fur"], [3, 3, 4, 4, None, 4])
    empty_halves(state, 2)
    cargo(state, 2, stern=[take(state, "fish", 3)])
    put(state, 2, "n4")
    hand(state, 0, "blockade stockholm", "blockade london", "wind 3 3")
    state["stack"].append({"k": "cardplay", "seat": 0})
    moves = E.legal_moves(state, 0)
    assert {"play blockade stockholm", "play blockade london"} <= set(moves)
    plain = dict((m, v) for v, m in rate("die-hanse", E, state, 0, moves))
    assert plain["play blockade stockholm"] == pytest.approx(plain["play blockade london"])
    strong = dict((m, v) for v, m in rate("die-hanse", E, state, 0, moves, rival_cargo=RIVAL_CARGO["die-hanse"]))
    assert strong["play blockade stockholm"] > strong["play blockade london"] + 0.1
    assert strong["play blockade stockholm"] == max(strong.values())
    assert {choose_move(E, state, 0, "strong", seed=seed, budget={"iterations": 8}) for seed in range(8)} == {
        "play blockade stockholm"}
    # basic, to whom the two are alike, plays either (a tie broken at random)
    assert {choose_move(E, state, 0, "basic", seed=seed) for seed in range(8)} == {
        "play blockade stockholm", "play blockade london"}
