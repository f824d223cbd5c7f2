"""Standings: points by place, shared places, the tie-breaks — hand-computed examples
(hanseweb.leagues.standings), and standings from real finished games through the write path."""
import pytest

from hanseweb.leagues.standings import GameResult, game_points, place_points, standings


def test_place_points_per_table_size():
    assert place_points(2) == [2, 0]
    assert place_points(3) == [3, 1, 0]
    assert place_points(4) == [4, 2, 1, 0]
    assert place_points(5) == [5, 3, 2, 1, 0]


def test_ties_share_the_average_of_the_places_they_span():
    assert game_points(GameResult(1, ("a", "b", "c"), (1, 1, 3))) == [2, 2, 0]
    assert game_points(GameResult(1, ("a", "b", "c"), (1, 2, 2))) == [3, 0.5, 0.5]
    assert game_points(GameResult(1, ("a", "b", "c", "d"), (2, 1, 2, 2))) == [1, 4, 1, 1]


def test_points_then_total_score():
    results = [
        GameResult(1, ("a", "b", "c"), (1, 2, 3), (30, 20, 10)),
        GameResult(2, ("b", "c", "a"), (1, 2, 3), (25, 24, 5)),
        GameResult(3, ("c", "a", "b"), (1, 2, 3), (40, 20, 10)),
    ]
    # points: a 3+0+1 = 4, b 1+3+0 = 4, c 0+1+3 = 4; scores: a 55, b 55, c 74
    rows = standings(["a", "b", "c"], results)
    assert [(r.player, r.points, r.score) for r in rows] == [("c", 4, 74), ("a", 4, 55), ("b", 4, 55)]
    # a and b: equal points and score; head-to-head: a ahead of b in games 1 and 3, behind in 2 -> a +1, b -1
    assert [r.head_to_head for r in rows] == [0, 1, -1]
    assert [r.rank for r in rows] == [1, 2, 3]


def test_sonneborn_berger_breaks_what_head_to_head_leaves():
    # a and b never meet; equal points (3 each) and score (0, no scores).
    # a beat c and d (final points: c 1, d 0) -> SB(a) = 1
    # b beat e and f (final points: e 1 + 3 = 4 ... computed below)
    results = [
        GameResult(1, ("a", "c", "d"), (1, 2, 3)),
        GameResult(2, ("b", "e", "f"), (1, 2, 3)),
        GameResult(3, ("e", "c", "d"), (1, 2, 3)),
    ]
    # points: a 3, b 3, c 1+1 = 2, d 0, e 1+3 = 4, f 0
    rows = {r.player: r for r in standings("abcdef", results)}
    assert (rows["a"].points, rows["b"].points, rows["e"].points, rows["c"].points) == (3, 3, 4, 2)
    assert rows["a"].head_to_head == rows["b"].head_to_head == 0
    assert rows["a"].sonneborn_berger == 2 + 0  # beat c (2) and d (0)
    assert rows["b"].sonneborn_berger == 4 + 0  # beat e (4) and f (0)
    # a tie counts half: e and c tied at 1st share (3+1)/2 = 2 each
    tied = {r.player: r for r in standings("xyz", [GameResult(9, ("x", "y", "z"), (1, 1, 3))])}
    assert tied["x"].sonneborn_berger == tied["y"].points / 2 + tied["z"].points == 1
    order = [r.player for r in standings("abcdef", results)]
    assert order[:3] == ["e", "b", "a"]


def test_equal_in_everything_share_the_rank_and_players_without_games_are_listed():
    rows = standings(["a", "b", "z"], [GameResult(1, ("a", "b"), (1, 1))], names={"a": "Ann", "b": "Bob", "z": "Zed"})
    assert [(r.name, r.rank, r.points, r.played) for r in rows] == [("Ann", 1, 1, 1), ("Bob", 1, 1, 1), ("Zed", 3, 0, 0)]
