"""Receive mail without an ESP: feed raw mail through the same inbound path as the webhooks
(``hanseweb.mail.receiving.receive``: ``inbound.store_message`` → ``process_inbound``; the IMAP
poller calls it too).

    manage.py receive_mail < reply.eml              # one raw RFC 5322 message on stdin
    manage.py receive_mail --maildir ~/Maildir      # every message in new/, moved to cur/ after

Each message is stored first (kept whatever its bytes), then processed at once in this process
(``process_inbound`` takes a row once: if a worker got to it first, it is skipped here). A message
is moved to ``cur/`` only after its row is committed: a crash in between leaves it in ``new/`` and
a second run stores it again, which is harmless (a reply is played once: the stale check refuses
the second copy). Addresses come from To, Cc, Delivered-To and X-Original-To (what a local MDA
adds); ``--recipient`` adds the envelope recipient when the MDA passes it.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from hanseweb.mail.models import InboundEmail
from hanseweb.mail.receiving import MAX_BYTES, receive


class Command(BaseCommand):
    help = "Feed raw mail (an .eml on stdin, or a Maildir's new messages) through the inbound path."

    def add_arguments(self, parser):
        parser.add_argument("--maildir", help="process every message in MAILDIR/new and move it to MAILDIR/cur")
        parser.add_argument("--recipient", action="append", default=[],
                            help="the envelope recipient (as a local MDA passes it); may be given more than once")

    def handle(self, *args, maildir=None, recipient=(), **options):
        if maildir:
            return self._maildir(Path(maildir), list(recipient))
        raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        if not raw.strip():
            raise CommandError("No mail on stdin: pipe one raw message (an .eml file) into this command.")
        if len(raw) > MAX_BYTES:
            raise CommandError(f"The mail on stdin is larger than {MAX_BYTES} bytes; nothing was stored.")
        self._report(receive(raw, source="stdin", recipients=list(recipient)))

    def _maildir(self, path: Path, recipients: list[str]) -> None:
        new, cur = path / "new", path / "cur"
        if not new.is_dir() or not cur.is_dir():
            raise CommandError(f"{path} is not a Maildir (it needs new/ and cur/ directories).")
        names = sorted(n for n in os.listdir(new) if not n.startswith("."))
        if not names:
            self.stdout.write("no new mail")
        for name in names:
            source = new / name
            if not source.is_file():
                continue
            if source.stat().st_size > MAX_BYTES:
                self.stderr.write(f"{name}: larger than {MAX_BYTES} bytes; left in new/")
                continue
            row = receive(source.read_bytes(), source="maildir", recipients=recipients)
            # Maildir: a message seen by a client goes to cur/ with an info suffix ("2," + flags)
            os.rename(source, cur / (name if ":" in name else f"{name}:2,S"))
            self._report(row, prefix=f"{name}: ")

    def _report(self, row: InboundEmail, prefix: str = "") -> None:
        self.stdout.write(f"{prefix}inbound #{row.pk} from {row.sender or '?'}: {row.status}: {row.outcome}")
