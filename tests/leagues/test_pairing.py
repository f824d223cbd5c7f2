"""The pairing engine of club leagues (hanseweb/leagues/pairing.py, docs/leagues.md "Pairing").

Pure Python: runs without Django (``pytest tests/leagues -p no:django``). The issue's words are
quoted where a test checks them: "Clubs and leagues: seasons, divisions, fair multiplayer
pairings, standings, ratings"."""
from __future__ import annotations

import ast
import importlib.util
import itertools
import random
import sys
from pathlib import Path

import pytest

from hanseweb.leagues import pairing as P
from hanseweb.leagues.pairing import Round

MODULE = Path(P.__file__)

# Hansa is for 2-4 players; the league's preferred table size is 3 or 4.
HANSA = {"min_size": 2, "max_size": 4}


def assert_well_formed(rounds, players, size, min_size, max_size):
    """Every player exactly once per round, tables within the game's sizes and as
    table_sizes() says, byes only for the players table_sizes() leaves over."""
    players = set(players)
    expected = P.table_sizes(len(players), size, min_size, max_size)
    for rnd in rounds:
        everyone = rnd.players
        assert len(everyone) == len(set(everyone)), f"a player twice in {rnd}"
        assert set(everyone) == players
        assert sorted((len(t) for t in rnd.tables), reverse=True) == expected
        assert all(min_size <= len(t) <= max_size for t in rnd.tables)
        assert len(rnd.byes) == len(players) - sum(expected)


def splits_exist(n, lo, hi):
    """Brute force: can n players be split into tables of lo..hi players?"""
    return any(t * lo <= n <= t * hi for t in range(1, n + 1))


# --------------------------------------------------------------------------------------------
# Module boundary


def test_module_imports_no_django(monkeypatch):
    """The Django app will wrap this module; the module itself stays pure Python."""
    tree = ast.parse(MODULE.read_text())
    imported = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not {name for name in imported if name.split(".")[0] in {"django", "celery", "hanseweb", "games"}}
    assert (MODULE.parent / "__init__.py").read_text().strip() == ""
    # It loads as a stand-alone file.
    spec = importlib.util.spec_from_file_location("standalone_pairing", MODULE)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    assert module.table_sizes(4, 3, 2, 4) == [3]


# --------------------------------------------------------------------------------------------
# Table sizes: "divisions whose size is not a multiple of the table size get tables of size ±1
# where the engine allows, else byes that are spread fairly"; product decision (docs/leagues.md
# "Table sizes and byes"): the league's table size is honoured, ±1 tables seat everyone only in
# a division of at least two tables' worth, a whole division is never merged into one table
# bigger than the league's size.


@pytest.mark.parametrize(
    "n, size, lo, hi, expected",
    [
        (4, 3, 2, 4, [3]),  # the check: a table of 3 and a bye, not one table of 4
        (3, 3, 2, 4, [3]),
        (5, 3, 2, 4, [3, 2]),  # less than two tables' worth: 3 + 2 seats everyone (two byes cost more)
        (6, 3, 2, 4, [3, 3]),
        (7, 3, 2, 4, [4, 3]),  # two tables' worth: size+1 seats everyone
        (8, 3, 2, 4, [3, 3, 2]),  # total deviation 1 beats [4, 4] (2)
        (10, 3, 2, 4, [4, 3, 3]),
        (12, 4, 2, 4, [4, 4, 4]),
        (6, 4, 2, 4, [3, 3]),  # less than two tables' worth: 3 + 3 (deviation 2) beats 4 and two byes (3)
        (7, 4, 2, 4, [4, 3]),  # 4 + 3, not a table of 4 and three byes
        (5, 4, 2, 4, [4]),  # 3 + 2 is beyond ±1: one table of 4 and a bye
        (9, 4, 2, 4, [3, 3, 3]),
        (13, 4, 2, 4, [4, 3, 3, 3]),
        (5, 4, 3, 6, [4]),  # Die Hanse (3-6): one table of 4 and a bye, not a table of 5
        (9, 4, 3, 6, [5, 4]),
        (2, 3, 2, 4, [2]),  # fewer than a table: one table of size-1 where the game allows
        (2, 4, 2, 4, []),  # size-2 is beyond ±1: nobody plays
        (1, 3, 2, 4, []),
        (0, 3, 2, 4, []),
        (4, 3, 3, 3, [3]),  # a game for exactly 3: one bye
        (7, 3, 3, 3, [3, 3]),
        (11, 5, 2, 5, [5, 5]),  # Hansa Teutonica at 5: no split of 11 into 4s and 5s, one bye
    ],
)
def test_table_sizes_examples(n, size, lo, hi, expected):
    assert P.table_sizes(n, size, lo, hi) == expected


def test_table_sizes_exact_and_any():
    """``max_deviation=0`` is a league of exact table sizes; ``None`` any size the game allows
    (from two tables' worth on); neither ever merges a small division into one big table."""
    assert P.table_sizes(7, 3, 2, 4, max_deviation=0) == [3, 3]
    assert P.table_sizes(8, 4, 2, 4, max_deviation=0) == [4, 4]
    assert P.table_sizes(2, 3, 2, 4, max_deviation=0) == []
    assert P.table_sizes(8, 4, 2, 4, max_deviation=None) == [4, 4]
    assert P.table_sizes(10, 4, 2, 4, max_deviation=None) == [4, 3, 3]
    assert P.table_sizes(11, 5, 2, 5, max_deviation=None) == [4, 4, 3]
    assert P.table_sizes(5, 3, 2, 4, max_deviation=None) == [3, 2]
    assert P.table_sizes(4, 3, 2, 4, max_deviation=None) == [3]  # 2 + 2 costs more than a bye
    with pytest.raises(ValueError):
        P.table_sizes(5, 3, 2, 4, max_deviation=-1)


def splits(n, lo, hi):
    """Brute force: every split of n players into at least two tables of lo..hi players."""
    return [
        combo
        for t in range(2, n // max(lo, 1) + 1)
        for combo in itertools.combinations_with_replacement(range(lo, hi + 1), t)
        if sum(combo) == n
    ]


@pytest.mark.parametrize("dev", [0, 1, None])
def test_table_sizes_honour_the_league_size(dev):
    """For all n up to 40 and several games (brute force): below two tables' worth one table of
    at most the league's size; from two tables' worth on no bye at all when a split into tables
    of size ±dev exists, otherwise as few byes as possible, with the least largest deviation."""
    for size, lo, hi in [(3, 2, 4), (4, 2, 4), (4, 3, 6), (3, 3, 3), (4, 4, 5), (5, 3, 6), (5, 2, 5)]:
        low, high = (lo, hi) if dev is None else (max(lo, size - dev), min(hi, size + dev))
        for n in range(0, 41):
            sizes = P.table_sizes(n, size, lo, hi, max_deviation=dev)
            assert all(low <= s <= high for s in sizes), (n, size, sizes)
            assert sum(sizes) <= n
            if n < 2 * size:
                # every option: one table of at most the league's size, or two that seat everyone,
                # none bigger than the league's size; the cheapest (deviation 1 a seat, a bye 1.5)
                options = [[min(n, size)]] if min(n, size) >= low else [[]]
                options += [list(c) for c in splits(n, low, min(high, size)) if len(c) == 2]
                cost = lambda o: P.BYE_COST * (n - sum(o)) + sum(abs(s - size) for s in o)  # noqa: E731
                assert cost(sizes) == min(cost(o) for o in options), (n, size, lo, hi, sizes)
                assert len(sizes) <= 2 and all(s <= size for s in sizes)
                continue
            assert len(sizes) >= 2  # never one table bigger than the league's size
            seated = max(m for m in range(n + 1) if splits(m, low, high))
            assert sum(sizes) == seated, (n, size, lo, hi, sizes)
            best = min(max(abs(s - size) for s in combo) for combo in splits(seated, low, high))
            assert max(abs(s - size) for s in sizes) == best


def test_table_sizes_refuses_nonsense():
    with pytest.raises(ValueError):
        P.table_sizes(5, 5, 2, 4)
    with pytest.raises(ValueError):
        P.table_sizes(-1, 3, 2, 4)


# --------------------------------------------------------------------------------------------
# Round robin: "multiplayer round robin within a division: across the season every pair of
# players meets as evenly as possible, each player sits in each seat position as evenly as
# possible (seat position matters in these games), and nobody sits out while a table could be
# formed"

CONFIGS = [(n, size) for size in (3, 4) for n in range(4, 17)]


@pytest.mark.parametrize("n, size", CONFIGS)
def test_round_robin_rounds_are_well_formed(n, size):
    players = list(range(100, 100 + n))
    rounds = P.round_robin(players, 4, size, seed=7, **HANSA)
    assert len(rounds) == 4
    assert_well_formed(rounds, players, size, **HANSA)
    # Hansa (2-4) with ±1 tables seats everyone from two tables' worth on; below that, where
    # table_sizes seats everyone (e.g. 5 at tables of 3: 3 + 2), else byes.
    assert all(not rnd.byes for rnd in rounds) == (sum(P.table_sizes(n, size, **HANSA)) == n)


@pytest.mark.parametrize("n, size", CONFIGS)
def test_round_robin_fairness_bounds(n, size):
    """Measured bounds (scripts/bench_pairing.py shows the figures) over 6 rounds of Hansa
    tables (2-4 players): pair-meeting spread at most 2 (0 when the division is one table and
    nobody sits out),
    every player's seat spread at most 1."""
    players = list(range(n))
    rounds = P.round_robin(players, 6, size, seed=1, **HANSA)
    figures = P.fairness(rounds)
    assert figures["seat_spread"] <= 1
    assert figures["pair_spread"] <= 2
    if P.table_sizes(n, size, **HANSA) == [n]:
        assert figures["pair_spread"] == 0


@pytest.mark.parametrize(
    "n, size",
    [(3, 3), (4, 4), (6, 3), (8, 4), (9, 3), (12, 3), (12, 4), (15, 3), (16, 4)],
)
def test_seat_spread_at_most_one_after_every_round_with_one_table_size(n, size):
    """Guarantee (edge colouring): when every table has the same size k, after every round each
    player's count per seat differs by at most 1, and is exactly equal after a multiple of k
    rounds."""
    rounds = P.round_robin(range(n), 2 * size + 1, size, seed=3, **HANSA)
    assert {len(t) for rnd in rounds for t in rnd.tables} == {size}
    for played in range(1, len(rounds) + 1):
        assert P.seat_spread(rounds[:played]) <= 1
        if played % size == 0:
            assert P.seat_spread(rounds[:played]) == 0
            assert all(c == [played // size] * size for c in P.seat_counts(rounds[:played]).values())


def test_nine_players_in_threes_meet_everybody_exactly_once_in_four_rounds():
    """The planner finds the affine plane of order 3 (Kirkman): pair-meeting spread 0."""
    for seed in range(3):
        rounds = P.round_robin(range(9), 4, 3, seed=seed, **HANSA)
        assert set(P.pair_meetings(rounds).values()) == {1}


@pytest.mark.parametrize("seed", range(5))
def test_four_players_at_tables_of_three_rotate_the_bye(seed):
    """The issue's check (4 players, 3-player Hansa tables, 4 rounds): the table is never the
    whole division; every player sits out exactly once, sits in each seat position exactly
    once, and every pair meets exactly twice."""
    rounds = P.round_robin("abcd", 4, 3, seed=seed, **HANSA)
    assert all(len(rnd.tables) == 1 and len(rnd.tables[0]) == 3 and len(rnd.byes) == 1 for rnd in rounds)
    assert P.bye_counts(rounds) == dict.fromkeys("abcd", 1)
    assert all(c == [1, 1, 1] for c in P.seat_counts(rounds).values())
    assert set(P.pair_meetings(rounds).values()) == {2}


@pytest.mark.parametrize("n, size", [(5, 4), (4, 3), (3, 2)])
def test_byes_of_small_divisions_rotate_fairly(n, size):
    """Below two tables' worth, where one table of the league's size is cheaper than two that
    seat everyone, the players left over get byes, spread within 1 after every round and exactly
    even after a whole cycle."""
    assert P.table_sizes(n, size, **HANSA) == [size]
    rounds = P.round_robin(range(n), 2 * n, size, seed=2, **HANSA)
    for played in range(1, len(rounds) + 1):
        assert P.bye_spread(rounds[:played]) <= 1
    assert set(P.bye_counts(rounds).values()) == {2 * (n - size)}
    assert P.seat_spread(rounds) <= 1


@pytest.mark.parametrize("n, size, tables", [(5, 3, [3, 2]), (6, 4, [3, 3]), (7, 4, [4, 3])])
def test_small_divisions_seat_everyone_where_two_smaller_tables_do(n, size, tables):
    rounds = P.round_robin(range(n), 6, size, seed=3, **HANSA)
    assert all(not rnd.byes and sorted(map(len, rnd.tables), reverse=True) == tables for rnd in rounds)
    assert P.seat_spread(rounds) <= 1


def test_round_robin_is_deterministic_and_seeded():
    players = [f"player{i}" for i in range(10)]
    a = P.round_robin(players, 5, 3, seed=42, **HANSA)
    assert a == P.round_robin(players, 5, 3, seed=42, **HANSA)
    assert a == P.round_robin(list(reversed(players)), 5, 3, seed=42, **HANSA)  # order-free
    assert a != P.round_robin(players, 5, 3, seed=43, **HANSA)
    assert P.round_robin(players, 5, 3, seed=(2026, "div-1"), **HANSA) == P.round_robin(
        players, 5, 3, seed=(2026, "div-1"), **HANSA
    )


def test_byes_are_spread_fairly_when_no_table_can_be_formed_for_everyone():
    """A game for exactly 3 with 7 players: one bye a round, each player's byes within 1 of
    everyone else's after every round (fewest byes first); 7 rounds give each exactly one."""
    rounds = P.round_robin(range(7), 7, 3, 3, 3, seed=5)
    assert all(len(rnd.byes) == 1 for rnd in rounds)
    for played in range(1, 8):
        assert P.bye_spread(rounds[:played]) <= 1
    assert set(P.bye_counts(rounds).values()) == {1}
    assert_well_formed(rounds, range(7), 3, 3, 3)


def test_one_player_division_gets_a_bye():
    (rnd,) = P.round_robin(["solo"], 1, 3, seed=0, **HANSA)
    assert rnd.tables == () and rnd.byes == ("solo",)
    assert P.round_robin([], 2, 3, seed=0, **HANSA) == [Round(()), Round(())]


def test_next_round_is_the_first_planned_round():
    history = P.round_robin(range(8), 2, 4, seed=9, **HANSA)
    assert P.next_round(range(8), 4, seed=9, history=history, rounds_left=3, **HANSA) == P.round_robin(
        range(8), 3, 4, seed=9, history=history, **HANSA
    )[0]
    assert_well_formed([P.next_round(range(8), 4, seed=9, history=history, **HANSA)], range(8), 4, **HANSA)


def test_history_as_plain_lists_of_tables():
    history = [[[0, 1, 2], [3, 4, 5]]]
    rounds = P.round_robin(range(6), 1, 3, seed=0, history=history, **HANSA)
    # The second round splits every earlier table as far as possible: one repeat pair per table.
    meetings = P.pair_meetings([Round(t) for t in history] + rounds)
    assert max(meetings.values()) == 2 and sum(v == 2 for v in meetings.values()) == 2


# --------------------------------------------------------------------------------------------
# Dropouts: "a player who drops out mid-season: ... their future tables are re-formed"


def test_reform_keeps_the_past_and_reforms_the_future_without_the_player():
    players = list(range(10))
    schedule = P.round_robin(players, 6, 3, seed=11, **HANSA)
    new = P.reform(schedule, [4], 2, 3, seed=11, **HANSA)
    assert new[:2] == schedule[:2]  # played rounds unchanged
    assert len(new) == 6
    remaining = [p for p in players if p != 4]
    assert_well_formed(new[2:], remaining, 3, **HANSA)
    assert new[2:] == P.round_robin(remaining, 4, 3, seed=11, history=schedule[:2], **HANSA)
    assert P.fairness(new, remaining)["seat_spread"] <= 1


def test_reform_with_several_dropouts_and_none():
    schedule = P.round_robin(range(8), 4, 4, seed=2, **HANSA)
    assert P.reform(schedule, [], 4, 4, seed=2, **HANSA) == schedule
    new = P.reform(schedule, [0, 5], 1, 4, seed=2, **HANSA)
    assert new[0] == schedule[0]
    assert_well_formed(new[1:], [1, 2, 3, 4, 6, 7], 4, **HANSA)
    with pytest.raises(ValueError):
        P.reform(schedule, [0], 5, 4, seed=2, **HANSA)


def test_held_out_scenario_twelve_players_three_divisions_dropout_after_round_two():
    """12 players, 3 divisions of 4, 3-player Hansa tables (Hansa allows 2-4), 4 rounds, one
    player dropping out after round 2.

    Decision (docs/leagues.md): the league's size is honoured, so "tables cannot simply be the
    division": each round a table of 3 and one bye. In an untouched division every player sits
    out exactly once, has each seat exactly once and meets every other player exactly twice.
    After the dropout the division's 3 remaining players play one table of 3 (no bye)."""
    players = [f"p{i:02d}" for i in range(12)]
    divisions = [players[0:4], players[4:8], players[8:12]]
    dropped = "p05"
    for seed in range(3):
        for d, division in enumerate(divisions):
            div_seed = (seed, f"division-{d}")
            planned = P.round_robin(division, 4, 3, seed=div_seed, **HANSA)
            season = planned
            if dropped in division:
                season = P.reform(planned, [dropped], 2, 3, seed=div_seed, **HANSA)
                assert season[:2] == planned[:2]  # the played rounds are kept
            active = [p for p in division if p != dropped]
            for number, rnd in enumerate(season):
                present = division if number < 2 else active
                assert sorted(rnd.players) == sorted(present)
                assert [len(t) for t in rnd.tables] == [3]  # never the whole division of 4
                # Nobody without a table when one could be formed at the league's size.
                assert len(rnd.byes) == len(present) - 3
            figures = P.fairness(season, active)
            if dropped in division:
                # The byes of rounds 1-2 are played: among the three who remain one pair met
                # once less, and one player played 4 games over 3 seats.
                assert figures["pair_spread"] <= 1
                assert figures["seat_spread"] <= 1
                assert figures["bye_spread"] <= 1 and figures["byes_max"] <= 1
            else:
                assert P.bye_counts(season) == dict.fromkeys(division, 1)
                assert all(c == [1, 1, 1] for c in P.seat_counts(season).values())
                assert set(P.pair_meetings(season).values()) == {2}


# --------------------------------------------------------------------------------------------
# Swiss: "Swiss-style rounds by current standing (avoid repeat tables) as the other format"


def test_swiss_first_round_groups_consecutive_standings():
    standings = {f"p{i}": 10 - i for i in range(8)}  # p0 leads
    rnd = P.swiss(standings, [], 4, seed=0, **HANSA)
    assert [sorted(t) for t in rnd.tables] == [["p0", "p1", "p2", "p3"], ["p4", "p5", "p6", "p7"]]
    # A sequence is taken as the standing order as given (the caller's tie-breaks).
    rnd = P.swiss(["p7", "p6", "p5", "p4", "p3", "p2", "p1", "p0"], [], 4, seed=0, **HANSA)
    assert sorted(rnd.tables[0]) == ["p4", "p5", "p6", "p7"]


def test_swiss_avoids_repeat_tables():
    """Standings that would give the same two tables again: the Swiss round mixes them, with
    the least possible repeat meetings (4: each new table of 4 takes 2 + 2 from the old ones),
    and the leader stays at the top table."""
    history = [Round([("a", "b", "c", "d"), ("e", "f", "g", "h")])]
    standings = dict(zip("abcdefgh", [7, 6, 5, 4, 3, 2, 1, 0]))
    rnd = P.swiss(standings, history, 4, seed=1, **HANSA)
    assert_well_formed([rnd], "abcdefgh", 4, **HANSA)
    old = [set(t) for t in history[0].tables]
    assert all(set(t) not in old for t in rnd.tables)
    meetings = P.pair_meetings(history + [rnd])
    assert sum(v == 2 for v in meetings.values()) == 4
    assert "a" in rnd.tables[0]


def test_swiss_without_a_possible_repeat_keeps_standing_order():
    """12 players, 3 tables; the previous round's tables were spread across the standings, so
    consecutive tables repeat nobody: the Swiss round is exactly the consecutive grouping."""
    history = [Round([(0, 3, 6, 9), (1, 4, 7, 10), (2, 5, 8, 11)])]
    rnd = P.swiss(list(range(12)), history, 4, seed=0, **HANSA)
    assert [sorted(t) for t in rnd.tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert [sorted(t) for t in rnd.tables] != [sorted(t) for t in history[0].tables]


def test_swiss_balances_seats_and_gives_byes_to_the_lowest_ranked():
    history = []
    players = ["a", "b", "c", "d"]
    for number in range(4):
        rnd = P.swiss(players, history, 3, 3, 3, seed=0)  # a game for exactly 3: one bye
        assert len(rnd.byes) == 1
        history.append(rnd)
    # Fewest byes first, lowest-ranked among them: d, c, b, a.
    assert [rnd.byes[0] for rnd in history] == ["d", "c", "b", "a"]
    assert P.seat_spread(history) <= 1
    assert P.swiss(players, history, 3, 3, 3, seed=0) == P.swiss(players, history, 3, 3, 3, seed=0)


def test_swiss_equal_points_are_ordered_by_the_seed():
    standings = dict.fromkeys(range(8), 0)
    a = P.swiss(standings, [], 4, seed=1, **HANSA)
    assert a == P.swiss(standings, [], 4, seed=1, **HANSA)
    assert any(P.swiss(standings, [], 4, seed=s, **HANSA) != a for s in range(2, 6))


# --------------------------------------------------------------------------------------------
# Fairness figures and internals


def test_fairness_figures_of_a_known_history():
    history = [
        Round([("a", "b", "c"), ("d", "e")]),
        Round([("b", "a", "d"), ("c", "e")], byes=()),
        Round([("c", "d", "e")], byes=("a", "b")),
    ]
    meetings = P.pair_meetings(history)
    assert meetings[frozenset("ab")] == 2 and meetings[frozenset("ae")] == 0
    assert len(meetings) == 10
    assert P.pair_spread(history) == 2
    counts = P.seat_counts(history)
    assert counts["a"] == [1, 1, 0] and counts["e"] == [0, 2, 1]
    # e sat at tables of 2 and 3: only seats 0 and 1 count for its spread.
    assert P.seat_spreads(history)["e"] == 2
    assert P.bye_counts(history) == {"a": 1, "b": 1, "c": 0, "d": 0, "e": 0}
    assert P.fairness(history, ["c", "d"]) == {
        "pair_min": 1, "pair_max": 1, "pair_spread": 0, "seat_spread": 2, "byes_max": 0, "bye_spread": 0,
    }


def test_hungarian_assignment_is_optimal():
    rng = random.Random(0)
    for k in range(1, 7):
        for _ in range(30):
            cost = [[rng.randrange(10) for _ in range(k)] for _ in range(k)]
            col = P._assign(cost)
            assert sorted(col) == list(range(k))
            best = min(sum(cost[i][p[i]] for i in range(k)) for p in itertools.permutations(range(k)))
            assert sum(cost[i][col[i]] for i in range(k)) == best


def test_edge_colouring_gives_every_table_all_seats():
    rng = random.Random(4)
    players = list(range(12))
    plan = []
    for _ in range(7):
        rng.shuffle(players)
        plan.append([players[0:4], players[4:8], players[8:12]])
    seated = P._colour_seats(plan, 4, random.Random(1))
    for tables, ordered in zip(plan, seated):
        assert [sorted(t) for t in tables] == [sorted(t) for t in ordered]
    rounds = [Round(tables) for tables in seated]
    for played in range(1, 8):
        assert P.seat_spread(rounds[:played]) <= 1
