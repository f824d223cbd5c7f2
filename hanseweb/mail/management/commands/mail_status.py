"""What the outbox holds that has not gone out: for the operator after an ESP outage.

    manage.py mail_status                  # figures, then the delayed, failed and duplicate mails
    manage.py mail_status --limit 100      # list more rows (default 20 per list)
    manage.py mail_status --json           # the figures only, as /healthz/full gives them

Exit status 0 when nothing is late or failed in the last day, 1 otherwise (for cron or a monitor).
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand
from django.utils import timezone

from hanseweb.health import mail_backlog
from hanseweb.mail.models import OutboundEmail


class Command(BaseCommand):
    help = "Show mail waiting in the outbox: delayed by failed attempts, given up as failed or obsolete, possible duplicates."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=20, help="rows listed per kind (default 20)")
        parser.add_argument("--json", action="store_true", help="print the figures as JSON and nothing else")

    def handle(self, *args, limit=20, **options):
        figures = mail_backlog()
        if options["json"]:
            self.stdout.write(_json(figures))
        else:
            self._report(figures, max(1, limit))
        if figures["late"] or figures["failed_last_day"]:
            raise SystemExit(1)

    def _report(self, f: dict, limit: int) -> None:
        w = self.stdout.write
        w(f"waiting: {f['waiting']} (delayed by a failed attempt: {f['delayed']}, being sent: {f['sending']}; "
          f"oldest waiting {f['oldest_waiting_seconds']} s{'; LATE' if f['late'] else ''})")
        w(f"given up: failed {f['failed']} (in the last day: {f['failed_last_day']}), obsolete {f['obsolete']}")
        w(f"possible duplicates: {f['possible_duplicates']} mails "
          f"({f['possible_duplicate_attempts']} attempts after one that never came back)")
        w(f"retried with backoff for {f['retry_hours']:g} h; longest wait between attempts "
          f"{f['longest_wait_between_attempts_seconds']} s")
        now = timezone.now()
        lists = [
            ("delayed", OutboundEmail.objects.filter(sent_at__isnull=True, given_up_at__isnull=True, attempts__gt=0)
             .order_by("created_at")),
            ("failed", OutboundEmail.objects.filter(given_up_reason=OutboundEmail.FAILED).order_by("-given_up_at")),
            ("obsolete", OutboundEmail.objects.filter(given_up_reason=OutboundEmail.OBSOLETE).order_by("-given_up_at")),
            ("possible duplicates", OutboundEmail.objects.filter(possible_duplicates__gt=0).order_by("-created_at")),
        ]
        for title, rows in lists:
            rows = list(rows[:limit])
            if not rows:
                continue
            w(f"\n{title}:")
            for row in rows:
                nxt = (f", next attempt in {max(0, int((row.next_attempt_at - now).total_seconds()))} s"
                       if row.next_attempt_at and not row.sent_at and not row.given_up_at else "")
                sent = f", sent {row.sent_at:%Y-%m-%d %H:%M}" if row.sent_at else ""
                w(f"  #{row.pk} {row.kind} to {row.to}, queued {row.created_at:%Y-%m-%d %H:%M}, "
                  f"{row.attempts} attempts{nxt}{sent}; {row.message_id}"
                  + (f"; last error: {row.last_error[:200]}" if row.last_error else ""))


def _json(figures: dict) -> str:
    return json.dumps(figures, sort_keys=True)
