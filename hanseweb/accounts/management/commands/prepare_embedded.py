from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = ("What scripts/serve does before it serves, in one process: migrate, then the demo accounts "
            "and the demo club (these two only on the embedded default).")

    def handle(self, *args, **options):
        call_command("migrate", interactive=False, verbosity=0)
        call_command("demo_accounts", stdout=self.stdout, stderr=self.stderr)
        call_command("demo_club", stdout=self.stdout, stderr=self.stderr)
