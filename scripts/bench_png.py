#!/usr/bin/env python3
"""Time the board picture of the mails per game: the seat's SVG (games.presentation.board_svg)
and its PNG (CairoSVG, 640 px wide, as hanseweb.mail.images makes it), over states of random
games of each title (a benchmark, not a test).

    .venv/bin/python scripts/bench_png.py [--states 40] [--players 3]
"""
import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanseweb.settings")
import django  # noqa: E402

django.setup()

import cairosvg  # noqa: E402

from games import presentation  # noqa: E402
from games.engines import SLUG_MODULES, get_engine  # noqa: E402

from hanseweb.mail.images import WIDTH  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':16} {'svg ms (median)':>16} {'png ms (median)':>16} {'png ms (max)':>13} {'png KB (median)':>16}")
    for slug in SLUG_MODULES:
        engine = get_engine(slug)
        players = max(engine.min_players, min(args.players, engine.max_players))
        chooser = random.Random(slug)
        state = engine.setup(players, 1, {})
        names = [f"Player {i + 1}" for i in range(players)]
        svg_ms, png_ms, sizes = [], [], []
        for _ in range(args.states):
            to_act = engine.to_act(state)
            if not to_act:
                break
            seat = to_act[0]
            legal = engine.legal_moves(state, seat)
            t0 = time.perf_counter()
            svg = presentation.board_svg(slug, engine.view(state, seat), names, legal=legal)
            t1 = time.perf_counter()
            png = cairosvg.svg2png(bytestring=svg.encode(), output_width=WIDTH)
            t2 = time.perf_counter()
            svg_ms.append((t1 - t0) * 1000)
            png_ms.append((t2 - t1) * 1000)
            sizes.append(len(png) / 1024)
            for _ in range(chooser.randint(1, 6)):
                to_act = engine.to_act(state)
                if not to_act:
                    break
                s = chooser.choice(to_act)
                state = engine.apply(state, s, chooser.choice(engine.legal_moves(state, s)))
        print(f"{slug:16} {statistics.median(svg_ms):16.1f} {statistics.median(png_ms):16.1f} "
              f"{max(png_ms):13.1f} {statistics.median(sizes):16.1f}")


if __name__ == "__main__":
    main()
