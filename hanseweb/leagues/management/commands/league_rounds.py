from django.core.management.base import BaseCommand

from hanseweb.leagues import ratings, services


class Command(BaseCommand):
    help = ("Do what the beat does for leagues, once: start the due rounds, finish completed seasons, "
            "rate finished games (for the embedded default, which runs no beat, or a cron job).")

    def handle(self, *args, **options):
        made = services.start_due_rounds()
        finished = services.finish_completed_seasons()
        rated = ratings.rate_finished_games()
        self.stdout.write(f"{made} league games created, {finished} seasons finished, {rated} games rated")
