#!/usr/bin/env python3
"""Print the CPU time of full random games of one engine (a benchmark, not a test).

    python scripts/bench_engine.py hansa [--games 50] [--players N]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.engines import get_engine  # noqa: E402
from tests.engines.playout import play_random  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("slug")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    engine = get_engine(args.slug)
    counts = [args.players] if args.players else range(engine.min_players, engine.max_players + 1)
    for players in counts:
        times, lengths = [], []
        for seed in range(args.games):
            start = time.process_time()
            _, moves = play_random(engine, players, seed)
            times.append(time.process_time() - start)
            lengths.append(len(moves))
        print(
            f"{args.slug} {players}p: {args.games} games, CPU per game "
            f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms, "
            f"moves per game median {statistics.median(lengths):.0f}"
        )


if __name__ == "__main__":
    main()
