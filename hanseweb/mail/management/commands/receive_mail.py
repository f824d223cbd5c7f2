"""Receive mail without an ESP: feed raw mail through the same inbound path as the webhooks
(``hanseweb.mail.inbound.store_message`` → ``process_inbound``).

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
from django.db import transaction

from anymail.inbound import AnymailInboundMessage

from hanseweb.mail.inbound import MAX_SENDER, clean_text, store, store_message
from hanseweb.mail.models import InboundEmail
from hanseweb.mail.tasks import process_inbound

MAX_BYTES = 25 * 1024 * 1024


def _envelope(message) -> list[str]:
    found = []
    for header in ("Delivered-To", "X-Original-To"):
        try:
            values = message.get_all(header) or []
        except Exception:  # noqa: BLE001 - a malformed header
            continue
        for value in values:
            value = clean_text(str(value), MAX_SENDER).strip().strip("<>").lower()
            if "@" in value:
                found.append(value)
    return found


def receive(raw: bytes, *, source: str, recipients: list[str] | None = None) -> InboundEmail:
    """Store one raw message and process it; returns the row as it is afterwards."""
    with transaction.atomic():
        try:
            message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
            row = store_message(message, esp=source, raw=raw, raw_content_type="message/rfc822",
                                extra_recipients=[*_envelope(message), *(recipients or [])])
        except Exception as exc:  # noqa: BLE001 - any bytes: keep them, say why they could not be read
            row = store(sender="", recipients=[], subject="", text="", raw=raw, raw_content_type="message/rfc822",
                        esp=source, status=InboundEmail.UNREADABLE,
                        outcome=clean_text(f"could not be read: {type(exc).__name__}: {exc}", 5000))
    if row.status == InboundEmail.PENDING:
        process_inbound(row.pk)  # idempotent: a worker that took it first makes this a no-op
    row.refresh_from_db()
    return row


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
