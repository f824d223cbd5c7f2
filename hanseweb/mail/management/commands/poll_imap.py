"""Poll the configured IMAP mailbox once (``hanseweb.mail.imap``): every unread message goes
through the same inbound path as ``receive_mail`` and the webhooks.

    manage.py poll_imap              # the HANSEWEB_IMAP_* settings say where
    manage.py poll_imap --limit 50
"""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from hanseweb.mail import imap


class Command(BaseCommand):
    help = "Fetch the unread messages of the configured IMAP folder and process them as received mail."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=200, help="at most this many messages (default 200)")

    def handle(self, *args, limit=200, **options):
        if not 1 <= limit <= 10000:
            raise CommandError("--limit is 1 to 10000.")
        try:
            polled = imap.poll(limit=limit)
        except imap.ImapNotConfigured as exc:
            raise CommandError(str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - the server refused the login, the network failed...
            raise CommandError(f"IMAP poll failed: {type(exc).__name__}: {exc}") from None
        if not polled:
            self.stdout.write("no new mail")
        for item in polled:
            if item.inbound is None:
                self.stderr.write(f"uid {item.uid}: {item.note}")
            else:
                row = item.inbound
                self.stdout.write(f"uid {item.uid}: inbound #{row.pk} from {row.sender or '?'}: {row.status}: {row.outcome}")
