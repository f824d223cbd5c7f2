import json

from django.core.management.base import BaseCommand

from games.models import Game
from games.services import replay


def problems_of(game: Game) -> list[str]:
    """Everything wrong with one started game's log and what is derived from it (empty: sound)."""
    problems = []
    numbers = sorted(s.number for s in game.seats.all() if s.number is not None)
    if numbers != list(range(game.players)):
        problems.append(f"seats: expected numbers 0..{game.players - 1}, found {numbers}")
    seqs = list(game.moves.order_by("seq").values_list("seq", flat=True))
    if seqs != list(range(1, len(seqs) + 1)):
        missing = sorted(set(range(1, (seqs[-1] if seqs else 0) + 1)) - set(seqs))
        problems.append(f"seq is not 1..{len(seqs)} without gaps: missing {_short(missing)}"
                        + (f", starts at {seqs[0]}" if seqs and seqs[0] != 1 and not missing else ""))
    if game.move_count != len(seqs):
        problems.append(f"move_count is {game.move_count} but the log has {len(seqs)} moves")
    try:
        state = replay(game, upto=game.state_seq) if game.state_cache is not None else replay(game)
    except Exception as exc:  # noqa: BLE001 - a broken game is reported, the next one still checked
        problems.append(f"replay fails: {type(exc).__name__}: {exc}")
        return problems
    if game.state_cache is not None and _canonical(state) != _canonical(game.state_cache):
        problems.append(f"cached snapshot differs from the replayed log (at move {game.state_seq})")
    return problems


def _canonical(state) -> str:
    return json.dumps(state, sort_keys=True)


def _short(numbers: list[int], limit: int = 10) -> str:
    shown = ", ".join(map(str, numbers[:limit]))
    return shown + (f" … ({len(numbers)} in all)" if len(numbers) > limit else "")


class Command(BaseCommand):
    help = ("Check every started game: seats numbered 0..n-1, move seq 1..n without gaps, move_count equal "
            "to the number of logged moves, the log replays from the seed, and the cached snapshot equals "
            "the replay. Reports each game and goes on after a failure; exit status 1 if any failed.")

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int)

    def handle(self, *args, game_ids, verbosity=1, **options):
        games = Game.objects.exclude(status=Game.OPEN).order_by("pk").prefetch_related("seats")
        missing = set()
        if game_ids:
            games = games.filter(pk__in=game_ids)
            missing = set(game_ids) - set(games.values_list("pk", flat=True))
            for pk in sorted(missing):
                self.stderr.write(f"game {pk}: no such started game")
        checked = bad = 0
        for game in games.iterator(chunk_size=100):
            checked += 1
            problems = problems_of(game)
            label = f"game {game.pk} ({game.engine}, {game.status}, {game.move_count} moves)"
            if problems:
                bad += 1
                self.stderr.write(f"{label}: FAILED")
                for problem in problems:
                    self.stderr.write(f"  - game {game.pk}: {problem}")
            elif verbosity >= 1:
                self.stdout.write(f"{label}: ok")
        self.stdout.write(f"{checked} games checked, {bad} differ from their log")
        if bad or missing:
            raise SystemExit(1)
