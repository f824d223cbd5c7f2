from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from hanseweb.accounts.management.commands.demo_accounts import DEMO, PASSWORD
from hanseweb.accounts.models import User
from hanseweb.leagues import services
from hanseweb.leagues.models import Club

EXTRA = [("erin@example.com", "Erin"), ("frank@example.com", "Frank")]


class Command(BaseCommand):
    help = ("Create a demo club with a running Hansa league (two divisions of three, round 1 started) "
            "for the demo accounts (only on the embedded default; once); then start the league rounds "
            "that are due (the embedded default runs no beat).")

    def handle(self, *args, **options):
        if not settings.EMBEDDED:
            self.stderr.write("the demo club is only created on the embedded default (no DATABASE_URL, no broker)")
            return
        if Club.objects.filter(slug="demo-club").exists():
            services.start_due_rounds()
            services.finish_completed_seasons()
            return
        with transaction.atomic():
            for email, name in DEMO + EXTRA:
                if not User.objects.filter(email=email).exists():
                    User.objects.create_user(email, PASSWORD, display_name=name, email_confirmed=True)
            players = [User.objects.get(email=email) for email, _ in DEMO + EXTRA]
            alice = players[0]
            club = services.create_club(alice, "Demo Club", slug="demo-club")
            invite = services.create_invite(club, alice)
            for player in players[1:]:
                services.join_club(invite.code, player)
            league = services.create_league(club, alice, name="Demo Hansa League", engine="hansa", table_size=3)
            season = services.create_season(league, alice, starts_at=timezone.now() - timedelta(minutes=1),
                                            rounds=3, round_days=7, deadline_hours=72)
            for player in players:
                services.sign_up(season, player)
            services.seed_divisions(season, alice, 2)
            services.start_season(season, alice)
            services.start_due_rounds()
        self.stdout.write("Demo club: /clubs/demo-club/ (organiser alice@example.com; erin and frank play too).")
