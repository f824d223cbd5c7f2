#!/usr/bin/env python3
"""Verify a Hanseweb game download without Django (docs/fairness.md).

    python3 scripts/verify_game.py hanseweb-game-42.json

Needs only Python 3.11+ and this repository (the pure rules in ``games/engines``): it checks the
seed against the commitment the game showed from its start, replays every shuffle and move from
the seed through the rules, and compares the final result. Exit status: 0 verified, 1 a check
failed (the report says which), 2 the file cannot be verified (unreadable, or a running game).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engines.fairness import load, verify  # noqa: E402  (after the path is set)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        data = json.load(sys.stdin) if argv[0] == "-" else load(argv[0])
    except (OSError, ValueError) as exc:
        print(f"cannot read {argv[0]}: {exc}", file=sys.stderr)
        return 2
    report = verify(data)
    print(report.text())
    return 0 if report.ok else (1 if report.failures else 2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
