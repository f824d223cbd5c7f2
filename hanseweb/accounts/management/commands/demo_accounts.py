from django.conf import settings
from django.core.management.base import BaseCommand

from hanseweb.accounts.models import User

DEMO = [("alice@example.com", "Alice"), ("bob@example.com", "Bob"), ("carol@example.com", "Carol"), ("dave@example.com", "Dave")]
PASSWORD = "hanseweb-demo"


class Command(BaseCommand):
    help = "Create confirmed demo accounts for trying Hanseweb locally (only on the embedded default)."

    def handle(self, *args, **options):
        if not settings.EMBEDDED:
            self.stderr.write("demo accounts are only created on the embedded default (no DATABASE_URL, no broker)")
            return
        for email, name in DEMO:
            if not User.objects.filter(email=email).exists():
                User.objects.create_user(email, PASSWORD, display_name=name, email_confirmed=True)
        if not User.objects.filter(email="admin@example.com").exists():
            User.objects.create_superuser("admin@example.com", PASSWORD, display_name="Admin", email_confirmed=True)
        self.stdout.write(
            "Demo accounts (password '%s'): %s; admin@example.com for /admin/."
            % (PASSWORD, ", ".join(email for email, _ in DEMO))
        )
