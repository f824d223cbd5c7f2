"""``manage.py verify_game FILE``: re-check a downloaded game (docs/fairness.md).

The same check as ``scripts/verify_game.py`` (``games.engines.fairness.verify``): it reads only the
file, never the database, so what it says holds for anyone who has the file."""
import json
import sys

from django.core.management.base import BaseCommand, CommandError

from games.engines.fairness import load, verify


class Command(BaseCommand):
    help = ("Verify a game downloaded from /games/<id>/export.json: the seed against its commitment, "
            "every shuffle and move replayed from the seed, and the final result. Exits 1 on any mismatch.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the downloaded JSON file ('-' for standard input)")

    def handle(self, *args, **options):
        try:
            data = json.load(sys.stdin) if options["file"] == "-" else load(options["file"])
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from None
        report = verify(data)
        self.stdout.write(report.text())
        if not report.ok:
            raise SystemExit(1 if report.failures else 2)  # 1: a check failed; 2: cannot be verified

