import json

from django.core.management.base import BaseCommand

from games.models import Game
from games.services import replay


class Command(BaseCommand):
    help = "Rebuild every started game's state from its seed and move log and compare it with the cached snapshot."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int)

    def handle(self, *args, game_ids, **options):
        games = Game.objects.exclude(status=Game.OPEN)
        if game_ids:
            games = games.filter(pk__in=game_ids)
        bad = 0
        for game in games.iterator():
            state = replay(game)
            same = game.state_cache is None or json.dumps(state, sort_keys=True) == json.dumps(game.state_cache, sort_keys=True)
            if not same:
                bad += 1
                self.stderr.write(f"game {game.pk}: cached snapshot differs from the replayed log")
        self.stdout.write(f"{games.count()} games checked, {bad} differ")
        if bad:
            raise SystemExit(1)
