#!/usr/bin/env python3
"""Print the fairness of the league pairing engine (a benchmark, not a test).

For divisions of 4-16 players, league table sizes 3 and 4 (Hansa: 2-4 players a table; tables
of size ±1 from two tables' worth on, else one table of the league's size and byes, see
docs/leagues.md), and seasons of 4, 6 and n-1 rounds: the tables and byes of a round, the spread
(max - min) of pair meetings, the worst player's seat position spread, the spread of byes, each
the worst over the seeds, with lower bounds where they are simple, and the CPU time per season.
Then the 12-player scenario (3 divisions of 4, 3-player tables, 4 rounds, a dropout after
round 2) and Swiss repeat meetings.

    python scripts/bench_pairing.py [--seeds 3] [--players 4-16] [--sizes 3,4] [--min 2 --max 4]
                                    [--rounds 4,6,n-1] [--exact]
"""
import argparse
import itertools
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from hanseweb.leagues import pairing as P  # noqa: E402


def lower_bounds(n, rounds, sizes):
    """Simple lower bounds of the pair-meeting, seat and bye spreads (seat: one table size
    only, and every player at the same number of tables)."""
    meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    pairs = n * (n - 1) // 2
    pair = 0 if pairs == 0 or meetings % pairs == 0 else 1
    byes = rounds * (n - sum(sizes))
    bye = 0 if n == 0 or byes % n == 0 else 1
    if len(set(sizes)) == 1 and bye == 0:
        games = rounds - byes // n if n else 0
        seat = 0 if games % sizes[0] == 0 else 1
    else:
        seat = None
    return pair, seat, bye


def season_rows(args):
    low, high = (int(x) for x in args.players.split("-"))
    deviation = 0 if args.exact else 1
    print(
        f"Round robin, tables of {args.min}-{args.max} players"
        f"{' of exactly the league size' if args.exact else ' (league size ±1 from two tables worth on)'}, "
        f"worst of {args.seeds} seeds "
        "(LB = lower bound; '-' = none simple)"
    )
    header = (
        f"{'size':>4} {'n':>3} {'rounds':>6} {'tables':<16} {'pair spread':>11} {'LB':>3} "
        f"{'meetings':>9} {'seat spread':>11} {'LB':>3} {'bye spread':>10} {'LB':>3} {'byes/player':>11} "
        f"{'ms/season':>9}"
    )
    print(header)
    print("-" * len(header))
    for size in (int(s) for s in args.sizes.split(",")):
        for n in range(low, high + 1):
            seasons = dict.fromkeys(n - 1 if spec == "n-1" else int(spec) for spec in args.rounds.split(","))
            for rounds in seasons:
                worst = {"pair_spread": 0, "seat_spread": 0, "bye_spread": 0}
                lo_meet, hi_meet, byes_max = None, 0, 0
                times = []
                for seed in range(args.seeds):
                    start = time.process_time()
                    season = P.round_robin(range(n), rounds, size, args.min, args.max, seed=seed,
                                           max_deviation=deviation)
                    times.append(time.process_time() - start)
                    figures = P.fairness(season)
                    for key in worst:
                        worst[key] = max(worst[key], figures[key])
                    lo_meet = figures["pair_min"] if lo_meet is None else min(lo_meet, figures["pair_min"])
                    hi_meet = max(hi_meet, figures["pair_max"])
                    byes_max = max(byes_max, figures["byes_max"])
                sizes = P.table_sizes(n, size, args.min, args.max, max_deviation=deviation)
                pair_lb, seat_lb, bye_lb = lower_bounds(n, rounds, sizes)
                shape = "+".join(map(str, sizes)) or "-"
                if n > sum(sizes):
                    shape += f" {n - sum(sizes)}bye"
                print(
                    f"{size:>4} {n:>3} {rounds:>6} {shape:<16} "
                    f"{worst['pair_spread']:>11} {pair_lb:>3} {f'{lo_meet}..{hi_meet}':>9} "
                    f"{worst['seat_spread']:>11} {'-' if seat_lb is None else seat_lb:>3} "
                    f"{worst['bye_spread']:>10} {bye_lb:>3} {byes_max:>11} "
                    f"{statistics.mean(times) * 1000:>9.0f}"
                )


def scenario(args):
    print()
    print("Scenario: 12 players, 3 divisions of 4, 3-player Hansa tables (2-4), 4 rounds,")
    print("p05 drops out after round 2 (figures for the active players; worst over seeds)")
    players = [f"p{i:02d}" for i in range(12)]
    divisions = [players[0:4], players[4:8], players[8:12]]
    for d, division in enumerate(divisions):
        worst = {"pair_spread": 0, "seat_spread": 0, "bye_spread": 0}
        unseated = 0
        meetings = set()
        shapes = set()
        for seed in range(args.seeds):
            season = P.round_robin(division, 4, 3, 2, 4, seed=(seed, d))
            if "p05" in division:
                season = P.reform(season, ["p05"], 2, 3, 2, 4, seed=(seed, d))
            active = [p for p in division if p != "p05"]
            figures = P.fairness(season, active)
            for key in worst:
                worst[key] = max(worst[key], figures[key])
            # Players without a table beyond those the table sizes leave over.
            unseated += sum(
                len(rnd.byes) - (len(rnd.players) - sum(P.table_sizes(len(rnd.players), 3, 2, 4)))
                for rnd in season
            )
            meetings |= set(P.pair_meetings(season, active).values())
            shapes.add(" ".join(
                "+".join(str(len(t)) for t in rnd.tables) + (f"/{len(rnd.byes)}bye" if rnd.byes else "")
                for rnd in season
            ))
        print(
            f"  division {d + 1} {division}: rounds {' | '.join(sorted(shapes))}; "
            f"pair meetings {sorted(meetings)}, pair spread {worst['pair_spread']}, "
            f"seat spread {worst['seat_spread']}, bye spread {worst['bye_spread']}, "
            f"players without a table when one could be formed {unseated}"
        )


def swiss(args):
    print()
    print("Swiss, 16 players, tables of 4, 6 rounds, random results: repeated pairs per round")
    for seed in range(args.seeds):
        rng = random.Random(seed)
        points = dict.fromkeys(range(16), 0)
        history, repeats = [], []
        for _ in range(6):
            rnd = P.swiss(points, history, 4, 2, 4, seed=seed)
            met = P.pair_meetings(history, range(16))
            pairs = [frozenset(pair) for t in rnd.tables for pair in itertools.combinations(t, 2)]
            repeats.append(sum(met[pair] > 0 for pair in pairs))
            history.append(rnd)
            for table in rnd.tables:
                for place, p in enumerate(rng.sample(table, len(table))):
                    points[p] += len(table) - 1 - place
        print(f"  seed {seed}: {repeats}, seat spread {P.seat_spread(history)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--players", default="4-16")
    parser.add_argument("--sizes", default="3,4")
    parser.add_argument("--min", type=int, default=2)
    parser.add_argument("--max", type=int, default=4)
    parser.add_argument("--rounds", default="4,6,n-1")
    parser.add_argument("--exact", action="store_true", help="exact table sizes (max_deviation=0)")
    args = parser.parse_args()
    season_rows(args)
    scenario(args)
    swiss(args)


if __name__ == "__main__":
    main()
