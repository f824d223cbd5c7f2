#!/usr/bin/env python3
"""A tournament of the bots (games/bots, issue 30; a benchmark, not a test).

For every title at 3 players and 2 where the title allows, the focal level plays against
opponents of another level, fixed seeds (``--seed`` + game number), the focal seat rotated over
all seats. Reports the focal level's win share (a shared first place counts as a share) with a
95% Wilson interval, its mean margin (its score minus the best other score) with a 95% normal
interval, game lengths (moves), how games ended, and the CPU time per decision of each level.

    nice -n 10 python scripts/bench_bots.py [--games 60] [--titles hansa,zanzibar]
        [--pairings strong-basic,basic-random] [--players 3,2] [--iterations N] [--seconds 1.5]
        [--jobs 2]

Die Hanse between strong bots at 3-6 players (its natural endings): ``--endings 20``
[``--endings-level basic``] [``--endings-players 3,4``] [``--dump DIR``: the moves of a game that ended by the
round limit or the move cap]. Each game's outcome goes to stderr as it ends; ``--summarize FILE…``
gives the row of such lines (a run stopped for time, or split into several commands).
"""
import argparse
import json
import math
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.bots import ITERATIONS, choose_move  # noqa: E402
from games.engines import get_engine  # noqa: E402

TITLES = ["hansa", "die-hanse", "zanzibar", "hansa-teutonica"]


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def ending(slug: str, state: dict) -> str:
    if slug == "die-hanse":
        return "full storage" if (state.get("final") or {}).get("f") is not None else "round limit"
    if slug == "hansa-teutonica":
        # the stored English names a player as "{p0}" (docs/i18n.md); the bench says "seat 0"
        return "+".join(sorted(re.sub(r"\{p(\d)\}", r"seat \1", str(x)) for x in state.get("ended_by") or [])) or "?"
    return "rules"


# Where a game that did not end by the rulebook's own end (Die Hanse's 60-round limit, the bench's
# move cap) is written (``--dump``): its seed and every move, so that it replays move for move
# although a decision cut by the CPU cap depends on the machine's load.
DUMP = ""


def play(slug: str, levels: list[str], seed: int, budget: dict, times: dict, max_moves: int = 30000):
    engine = get_engine(slug)
    state = engine.setup(len(levels), seed, {})
    moves = 0
    played = []
    while moves < max_moves:
        acting = engine.to_act(state)
        if not acting:
            break
        seat = acting[0]
        started = time.process_time()
        move = choose_move(engine, state, seat, levels[seat], seed=seed * 8 + seat, budget=budget)
        if len(engine.legal_moves(state, seat)) > 1:
            times.setdefault(levels[seat], []).append(time.process_time() - started)
        state = engine.apply(state, seat, move)
        played.append([seat, move])
        moves += 1
    result = engine.result(state)
    # a game stopped at ``max_moves`` has no ending and counts as no win for the focal level
    end = ending(slug, state) if result is not None else f"no end within {max_moves} moves"
    if DUMP and (result is None or end == "round limit"):
        os.makedirs(DUMP, exist_ok=True)
        name = os.path.join(DUMP, f"{slug}-{len(levels)}p-{seed}-{'-'.join(levels)}.json")
        with open(name, "w") as f:
            json.dump({"title": slug, "levels": levels, "seed": seed, "budget": budget, "end": end,
                       "moves": played}, f)
    return result, moves, end, rounds(slug, state)


def game_cpu(times: dict, before: dict) -> str:
    """This game's CPU per decision of each level (``times`` after the game, ``before`` the counts
    before it), for the per-game line: a run stopped early still tells what a decision cost."""
    parts = []
    for lv, ts in sorted(times.items()):
        mine = ts[before.get(lv, 0):]
        if mine:
            parts.append(f"{lv} {statistics.fmean(mine):.3f}/{max(mine):.3f} s")
    return "; ".join(parts)


def rounds(slug: str, state: dict) -> float:
    """Die Hanse: the rounds played (turns / players); other titles: 0."""
    return state["turn"] / state["n"] if slug == "die-hanse" else 0.0


def _game(task):
    """One game of a run (a task of ``games_of``): its result, moves, ending, rounds and its CPU per
    decision of each level."""
    slug, levels, seed, budget = task
    times = {}
    result, moves, end, lap = play(slug, levels, seed, budget, times)
    return result, moves, end, lap, times


def games_of(tasks: list, jobs: int):
    """Each task's game (``_game``), in the tasks' order: in this process, or in ``jobs`` worker
    processes at once (a game's moves depend on its seed alone, so a run gives the same games with
    any ``jobs``, unless the CPU cap cuts a decision: that depends on the machine's load)."""
    if jobs <= 1:
        yield from map(_game, tasks)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap(_game, tasks)


def _merge(times: dict, more: dict) -> None:
    for lv, ts in more.items():
        times.setdefault(lv, []).extend(ts)


def focal_share(outcomes: list) -> tuple:
    """The focal level's row of games given as (focal seat, ranking, scores), a game stopped at the
    move cap with ranking None (no win, no margin): its wins (a first place shared by k seats
    counts 1/k), their 95 % Wilson interval, the mean margin (the focal score minus the best other)
    and its 95 % normal half-width."""
    wins, margins = 0.0, []
    for seat, ranking, scores in outcomes:
        if ranking is None:
            continue
        firsts = [p for p, r in enumerate(ranking) if r == 1]
        if seat in firsts:
            wins += 1 / len(firsts)
        margins.append(scores[seat] - max(x for p, x in enumerate(scores) if p != seat))
    lo, hi = wilson(wins, len(outcomes))
    mean = statistics.fmean(margins) if margins else 0.0
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0.0
    return wins, lo, hi, mean, half


def pairing(slug, players, focal, other, games, seed, budget, out, jobs=1):
    lengths, ends, times, outcomes = [], {}, {}, []
    tasks = []
    for g in range(games):
        levels = [other] * players
        levels[g % players] = focal
        tasks.append((slug, levels, seed + g, budget))
    for g, (result, moves, end, _rounds, game_times) in enumerate(games_of(tasks, jobs)):
        seat = g % players
        before = {lv: len(ts) for lv, ts in times.items()}
        _merge(times, game_times)
        print(f"  game {g + 1}/{games} seed {seed + g} focal seat {seat}: {moves} moves, {end}, "
              f"ranking {result and result['ranking']}, scores {result and result['scores']}, "
              f"CPU per decision (mean/max) {game_cpu(times, before)}", file=sys.stderr, flush=True)
        lengths.append(moves)
        ends[end] = ends.get(end, 0) + 1
        outcomes.append((seat, result and result["ranking"], result and result["scores"]))
    wins, lo, hi, mean, half = focal_share(outcomes)
    cpu = "; ".join(f"{lv} mean {statistics.fmean(ts):.3f} s, p95 {sorted(ts)[int(0.95 * (len(ts) - 1))]:.3f} s, "
                    f"max {max(ts):.3f} s" for lv, ts in sorted(times.items()))
    line = (f"| {slug} | {players} | {focal} vs {players - 1}× {other} | {games} | {wins / games:.1%} "
            f"[{lo:.1%}, {hi:.1%}] | {mean:+.1f} ± {half:.1f} | {statistics.fmean(lengths):.0f} "
            f"({min(lengths)}–{max(lengths)}) | {', '.join(f'{k} {v}' for k, v in sorted(ends.items()))} | {cpu} |")
    print(line, flush=True)
    out.append(line)


GAME_LINE = re.compile(r"game \d+/\d+ seed (\d+) focal seat (\d+): (\d+) moves, ([^,]+), ranking "
                       r"\[([\d, ]+)\], scores \[([-\d, ]+)\], CPU per decision \(mean/max\) (.*)$")


def summarize(paths: list) -> None:
    """The row of the per-game lines (stderr) of one or more runs of the same title, player count
    and pairing, e.g. a run stopped for time or one split into several commands: each seed once
    (a seed seen again, with the same focal seat, is counted once; with another seat it is an
    error). Games stopped at the move cap (no ranking) are not in these lines' row."""
    games = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = GAME_LINE.search(line)
                if not m:
                    continue
                seed, seat = int(m[1]), int(m[2])
                if seed in games and games[seed][0] != seat:
                    raise SystemExit(f"seed {seed} twice with different focal seats ({path})")
                ranking = [int(x) for x in m[5].split(",")]
                if games and len(ranking) != len(next(iter(games.values()))[3]):
                    raise SystemExit(f"games of different player counts ({path}): one run's lines at a time")
                scores = [int(x) for x in m[6].split(",")]
                cpu = re.findall(r"(\w+) ([\d.]+)/([\d.]+) s", m[7])
                games[seed] = (seat, int(m[3]), m[4], ranking, scores, cpu)
    if not games:
        raise SystemExit("no per-game lines found")
    lengths, ends, cpu, outcomes = [], {}, {}, []
    for seat, moves, end, ranking, scores, levels in games.values():
        outcomes.append((seat, ranking, scores))
        lengths.append(moves)
        ends[end] = ends.get(end, 0) + 1
        for lv, avg, most in levels:
            cpu.setdefault(lv, []).append((float(avg), float(most)))
    n = len(games)
    wins, lo, hi, mean, half = focal_share(outcomes)
    seeds = sorted(games)
    print(f"{n} games, seeds {seeds[0]}–{seeds[-1]}, players {len(ranking)}: focal win share {wins:g} of {n}, "
          f"{wins / n:.1%} [{lo:.1%}, {hi:.1%}], mean margin {mean:+.1f} ± {half:.1f}, "
          f"moves {statistics.fmean(lengths):.0f} ({min(lengths)}–{max(lengths)}), "
          f"{', '.join(f'{k} {v}' for k, v in sorted(ends.items()))}; CPU per decision "
          + "; ".join(f"{lv} mean {min(a for a, _ in v):.3f}–{max(a for a, _ in v):.3f} s a game, max "
                      f"{max(b for _, b in v):.3f} s" for lv, v in sorted(cpu.items())))


def endings(games, seed, budget, level="strong", counts=None, jobs=1):
    slug = "die-hanse"
    engine = get_engine(slug)
    for players in counts or range(engine.min_players, engine.max_players + 1):
        ends, lengths, laps, times = {}, [], [], {}
        tasks = [(slug, [level] * players, seed + g, budget) for g in range(games)]
        for g, (_result, moves, end, lap, game_times) in enumerate(games_of(tasks, jobs)):
            before = {lv: len(ts) for lv, ts in times.items()}
            _merge(times, game_times)
            print(f"  {level} x{players} game {g + 1}/{games} seed {seed + g}: {moves} moves, {lap:.1f} rounds, {end}, "
                  f"CPU per decision (mean/max) {game_cpu(times, before)}",
                  file=sys.stderr, flush=True)
            ends[end] = ends.get(end, 0) + 1
            lengths.append(moves)
            laps.append(lap)
        full = ends.get("full storage", 0)
        lo, hi = wilson(full, games)
        cpu = times.get(level) or [0.0]
        print(f"| die-hanse {level} ×{players} | {games} | {full / games:.0%} [{lo:.0%}, {hi:.0%}] by a full storage | "
              f"{statistics.fmean(lengths):.0f} moves ({min(lengths)}–{max(lengths)}), "
              f"{statistics.fmean(laps):.1f} rounds ({min(laps):.1f}–{max(laps):.1f}) | "
              f"{level} mean {statistics.fmean(cpu):.3f} s, max {max(cpu):.3f} s per decision |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60, help="games per title, player count and pairing")
    parser.add_argument("--titles", default=",".join(TITLES))
    parser.add_argument("--pairings", default="strong-basic,basic-random")
    parser.add_argument("--players", default="3,2")
    parser.add_argument("--iterations", type=int, default=None,
                        help="strong's iterations per decision (default: the title's own, games.bots.ITERATIONS)")
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--method", default="", help="strong's search (ismcts, playouts, turn; default: the title's own)")
    parser.add_argument("--endings", type=int, default=0, help="Die Hanse games between strong bots per player count")
    parser.add_argument("--endings-level", default="strong", help="the level of every seat in --endings games")
    parser.add_argument("--endings-players", default="", help="player counts for --endings (default 3,4,5,6)")
    parser.add_argument("--dump", default="", help="a folder for the moves of every game that did not end by "
                        "the rules' own end (Die Hanse's round limit, the move cap)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, each in a process of its own "
                        "(the same games as one at a time; e.g. the machine's cores)")
    parser.add_argument("--summarize", nargs="+", metavar="FILE", help="no games: the row of the per-game lines "
                        "(stderr) in FILEs of runs of one title, player count and pairing")
    args = parser.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return
    global DUMP
    DUMP = args.dump
    budget = {"seconds": args.seconds}
    if args.iterations is not None:
        budget["iterations"] = args.iterations
    if args.method:
        budget["method"] = args.method
    print(f"budget {budget}" + ("" if "iterations" in budget else f", strong's iterations by title {ITERATIONS}")
          + f", seeds from {args.seed}")
    if args.endings:
        counts = [int(p) for p in args.endings_players.split(",")] if args.endings_players else None
        endings(args.endings, args.seed, budget, args.endings_level, counts, args.jobs)
        return
    print("| title | players | pairing | games | focal win share [95% CI] | mean margin ± 95% | moves per game "
          "(min–max) | endings | CPU per decision |")
    print("|---|---|---|---|---|---|---|---|---|")
    out = []
    for slug in args.titles.split(","):
        engine = get_engine(slug)
        for players in (int(p) for p in args.players.split(",")):
            if not engine.min_players <= players <= engine.max_players:
                continue
            for pair in args.pairings.split(","):
                focal, other = pair.split("-")
                pairing(slug, players, focal, other, args.games, args.seed, budget, out, args.jobs)


if __name__ == "__main__":
    main()
