"""League standings from finished games: pure functions, no Django (docs/leagues.md "Standings").

Points by place at a table of ``n`` players: 1st ``n``, then ``n-2``, ``n-3``, …, last 0
(2 players: 2-0; 3: 3-1-0; 4: 4-2-1-0; 5: 5-3-2-1-0; 6: 6-4-3-2-1-0). Players tied for a place
share the average of the points of the places they span (two tied for 1st at a table of 3 get
(3+1)/2 = 2 each). A resigned or forfeited seat is ranked below everyone who played on (the
games' write path does that), so it gets the points of the places it ends in.

Order: league points, then the tie-breaks
1. total game score (the engine's final scores; a game ended by resignation has none: 0);
2. head-to-head among the players still tied on 1.: over the games where two of them sat at one
   table, +1 for every tied player one finished ahead of, -1 for every one behind;
3. multiplayer Sonneborn–Berger: over one's games, the final league points of every opponent one
   finished ahead of, plus half of those of every opponent one tied with;
then by name (shown with the same rank when everything above is equal).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Sequence

Player = Hashable


def place_points(n: int) -> list[int]:
    """Points for places 1..n at a table of n players."""
    if n < 1:
        raise ValueError("a table has at least one player")
    if n == 1:
        return [0]
    return [n] + list(range(n - 2, -1, -1))


@dataclass(frozen=True)
class GameResult:
    """A finished game: ``players`` in seat order, ``ranking`` their places (1 = first; ties share
    a place), ``scores`` their final scores (None when the game has none)."""

    game_id: int
    players: tuple
    ranking: tuple
    scores: tuple | None = None
    forfeited: tuple = ()  # the seats an organiser ruled out (ranked below, like a resignation)


def game_points(result: GameResult) -> list[float]:
    """League points per seat: ties share the average of the points of the places they span."""
    table = place_points(len(result.players))
    counts = defaultdict(int)
    for place in result.ranking:
        counts[place] += 1
    out = []
    for place in result.ranking:
        span = table[place - 1:place - 1 + counts[place]]
        out.append(sum(span) / len(span))
    return out


@dataclass
class Row:
    player: Player
    name: str = ""
    played: int = 0
    points: float = 0.0
    score: float = 0.0
    wins: int = 0
    head_to_head: int = 0
    sonneborn_berger: float = 0.0
    rank: int = 0
    games: list = field(default_factory=list)  # (game_id, place, points, forfeited) per finished game
    forfeits: int = 0  # games the player lost by an organiser's forfeit

    def key(self):
        return (-self.points, -self.score, -self.head_to_head, -self.sonneborn_berger)


def standings(players: Iterable[Player], results: Iterable[GameResult],
              names: dict | None = None) -> list[Row]:
    """The table of ``players`` (everyone listed appears, also without games) from ``results``."""
    names = names or {}
    rows = {p: Row(player=p, name=str(names.get(p, p))) for p in players}
    results = list(results)
    for result in results:
        pts = game_points(result)
        for seat, p in enumerate(result.players):
            row = rows.setdefault(p, Row(player=p, name=str(names.get(p, p))))
            row.played += 1
            row.points += pts[seat]
            row.score += (result.scores[seat] or 0) if result.scores else 0
            row.wins += result.ranking[seat] == 1
            forfeited = seat in result.forfeited
            row.forfeits += forfeited
            row.games.append((result.game_id, result.ranking[seat], pts[seat], forfeited))
    # Sonneborn–Berger: needs everyone's final points.
    for result in results:
        for seat, p in enumerate(result.players):
            for other, q in enumerate(result.players):
                if other == seat:
                    continue
                if result.ranking[seat] < result.ranking[other]:
                    rows[p].sonneborn_berger += rows[q].points
                elif result.ranking[seat] == result.ranking[other]:
                    rows[p].sonneborn_berger += rows[q].points / 2
    # Head-to-head within each group equal on points and score.
    groups = defaultdict(list)
    for row in rows.values():
        groups[(row.points, row.score)].append(row.player)
    for members in groups.values():
        if len(members) < 2:
            continue
        group = set(members)
        for result in results:
            at_table = [(seat, p) for seat, p in enumerate(result.players) if p in group]
            for seat, p in at_table:
                for other, q in at_table:
                    if q != p:
                        diff = result.ranking[other] - result.ranking[seat]
                        rows[p].head_to_head += (diff > 0) - (diff < 0)
    ordered = sorted(rows.values(), key=lambda r: (r.key(), r.name, str(r.player)))
    for i, row in enumerate(ordered):
        row.rank = ordered[i - 1].rank if i and ordered[i - 1].key() == row.key() else i + 1
    return ordered


def result_of(game_id, status: str, result: dict | None, seats) -> GameResult | None:
    """The ``GameResult`` of a game (its id, status, stored result and seats with ``number`` and
    ``user_id``); None unless it is finished with a ranking."""
    result = result or {}
    if status != "finished" or not result.get("ranking"):
        return None
    seats = sorted(seats, key=lambda s: s.number)
    scores = result.get("scores")
    return GameResult(game_id=game_id, players=tuple(s.user_id for s in seats), ranking=tuple(result["ranking"]),
                      scores=tuple(scores) if scores else None, forfeited=tuple(result.get("forfeited") or ()))


def results_from_games(games: Sequence) -> list[GameResult]:
    """``GameResult`` for each finished game (objects with ``pk``, ``status``, ``result`` and
    ``seats`` with ``number`` and ``user_id``, as ``games.models.Game``)."""
    found = (result_of(game.pk, game.status, game.result, game.seats.all()) for game in games)
    return [r for r in found if r is not None]
