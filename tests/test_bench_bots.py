"""The bots' tournament script (``scripts/bench_bots.py``, issue 30) at a tiny size: with
``--jobs 2`` it plays the same games as one at a time (each game's moves follow from its seed),
and ``--summarize`` gives the row of its per-game lines, so a run split into several commands,
or stopped for time, is reported with the same figures as a whole run."""
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_bots.py"
RUN = ["--titles", "hansa", "--players", "2", "--pairings", "basic-random", "--games", "4", "--seed", "4100"]


def bench(*args, cwd=None):
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done


def without_cpu(text: str) -> list[str]:
    """The lines of a run without what depends on the machine (the CPU per decision)."""
    out = []
    for line in text.splitlines():
        if line.strip().startswith("game "):
            out.append(re.sub(r"CPU per decision.*$", "", line))
        elif line.startswith("| hansa"):
            out.append(line.rsplit("|", 2)[0])  # the last column: CPU per decision
    return out


def test_jobs_play_the_same_games_and_summarize_gives_their_row(tmp_path):
    one, two = bench(*RUN), bench(*RUN, "--jobs", "2")
    games_one = [line for line in without_cpu(one.stderr) if "seed" in line]
    assert len(games_one) == 4 and games_one == without_cpu(two.stderr)[:4]
    assert len(without_cpu(one.stdout)) == 1 and without_cpu(one.stdout) == without_cpu(two.stdout)
    row = next(line for line in one.stdout.splitlines() if line.startswith("| hansa"))
    share = re.search(r"\| (\d+\.\d)% \[(\d+\.\d)%, (\d+\.\d)%\] \| ([-+]\d+\.\d) ± (\d+\.\d) \|", row)
    assert share, row

    # the run split in two commands of two games, summarized together: the whole run's figures
    first = tmp_path / "a.err"
    second = tmp_path / "b.err"
    first.write_text(bench(*RUN[:-4], "--games", "2", "--seed", "4100").stderr)
    second.write_text(bench(*RUN[:-4], "--games", "2", "--seed", "4102").stderr)
    summary = bench("--summarize", str(first), str(second)).stdout
    assert "4 games, seeds 4100–4103, players 2" in summary
    assert f"{share[1]}% [{share[2]}%, {share[3]}%], mean margin {share[4]} ± {share[5]}" in summary


def test_summarize_refuses_a_seed_with_two_focal_seats_and_mixed_player_counts(tmp_path):
    line = ("  game 1/2 seed 7 focal seat {seat}: 100 moves, rules, ranking [{ranking}], scores [{scores}], "
            "CPU per decision (mean/max) basic 0.001/0.002 s; random 0.000/0.000 s\n")
    clash = tmp_path / "clash.err"
    clash.write_text(line.format(seat=0, ranking="1, 2", scores="9, 3") + line.format(seat=1, ranking="1, 2", scores="9, 3"))
    done = subprocess.run([sys.executable, str(SCRIPT), "--summarize", str(clash)], capture_output=True, text=True)
    assert done.returncode != 0 and "seed 7 twice" in done.stderr
    mixed = tmp_path / "mixed.err"
    mixed.write_text(line.format(seat=0, ranking="1, 2", scores="9, 3")
                     + line.replace("seed 7", "seed 8").format(seat=0, ranking="2, 1, 3", scores="3, 9, 1"))
    done = subprocess.run([sys.executable, str(SCRIPT), "--summarize", str(mixed)], capture_output=True, text=True)
    assert done.returncode != 0 and "different player counts" in done.stderr
    fine = tmp_path / "fine.err"
    fine.write_text(line.format(seat=0, ranking="1, 2", scores="9, 3")
                    + line.replace("seed 7", "seed 8").format(seat=1, ranking="1, 2", scores="10, 4"))
    out = bench("--summarize", str(fine)).stdout
    assert "focal win share 1 of 2, 50.0%" in out and "mean margin +0.0" in out


def test_focal_share_counts_a_shared_first_as_a_share_and_a_capped_game_as_played_without_a_win():
    import importlib.util
    import math
    import statistics

    spec = importlib.util.spec_from_file_location("bench_bots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    outcomes = [
        (0, [1, 1, 3], [10, 10, 4]),  # first shared by two: half a win, margin 0
        (1, [2, 1, 3], [8, 9, 1]),  # first alone: a win, margin +1
        (2, None, None),  # stopped at the move cap: counted as played, no win, no margin
        (0, [1, 2, 3], [12, 7, 3]),  # a win, margin +5
        (2, [1, 2, 3], [11, 6, 2]),  # third: no win, margin -9
    ]
    wins, lo, hi, mean, half = module.focal_share(outcomes)
    assert wins == 2.5
    assert (lo, hi) == module.wilson(2.5, 5)
    assert 0.0 < lo < 0.5 < hi < 1.0
    assert mean == -0.75
    assert math.isclose(half, 1.96 * statistics.stdev([0, 1, 5, -9]) / 2)
