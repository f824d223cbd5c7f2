"""The optional IMAP poller: for a club with a mailbox but no ESP inbound webhook, fetch the
unread messages of one IMAP folder and feed each, as its raw bytes, through the same inbound path
as ``receive_mail`` and the webhooks (``receiving.receive``: stored first, then processed).

Uses imap-tools (a maintained IMAP client on top of the standard ``imaplib``). Configured by the
``HANSEWEB_IMAP_*`` settings (docs/configuration.md); ``manage.py poll_imap`` polls once, and the
beat polls every ``HANSEWEB_IMAP_POLL_SECONDS`` when ``HANSEWEB_IMAP_HOST`` is set.

A message is marked done only after its row is committed: flagged \\Seen, or moved to
``HANSEWEB_IMAP_DONE_FOLDER`` when one is set. A crash in between leaves it unread and the next
poll stores it again, which is harmless (a reply is played once: the stale check refuses the
second copy). Only one poll runs at a time (a cache lock), so two beats do not take the same mail.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from imap_tools import AND, MailBox, MailBoxStartTls, MailBoxUnencrypted, MailMessage, MailMessageFlags

from .receiving import MAX_BYTES, receive

log = logging.getLogger(__name__)

LOCK = "hanseweb:imap-poll"
SECURITY = ("ssl", "starttls", "none")


class ImapNotConfigured(Exception):
    pass


class RawMailMessage(MailMessage):
    """imap-tools' message that also keeps the bytes as the server sent them (stored as they are)."""

    def __init__(self, fetch_data: list) -> None:
        self.raw = self._get_message_data_parts(fetch_data)[0]
        super().__init__(fetch_data)


@dataclass
class Polled:
    uid: str
    inbound: object | None  # the InboundEmail row, or None when the message was too large
    note: str = ""


def mailbox():
    """An imap-tools mailbox for the configured server, not yet logged in."""
    host = settings.HANSEWEB_IMAP_HOST
    if not host:
        raise ImapNotConfigured("No IMAP server is configured: set HANSEWEB_IMAP_HOST, HANSEWEB_IMAP_USER "
                                "and HANSEWEB_IMAP_PASSWORD (docs/configuration.md).")
    security = settings.HANSEWEB_IMAP_SECURITY
    if security not in SECURITY:
        raise ImapNotConfigured(f"HANSEWEB_IMAP_SECURITY is {security!r}; use one of {', '.join(SECURITY)}.")
    port, timeout = settings.HANSEWEB_IMAP_PORT, settings.HANSEWEB_IMAP_TIMEOUT
    if security == "ssl":
        box = MailBox(host, port=port or 993, timeout=timeout)
    elif security == "starttls":
        box = MailBoxStartTls(host, port=port or 143, timeout=timeout)
    else:
        box = MailBoxUnencrypted(host, port=port or 143, timeout=timeout)
    box.email_message_class = RawMailMessage
    return box


def poll(*, limit: int = 200, box=None) -> list[Polled]:
    """Take up to ``limit`` unread messages of the configured folder through the inbound path.
    Returns what was done with each; an empty list also when another poll is running."""
    if not cache.add(LOCK, 1, timeout=max(60, 2 * settings.HANSEWEB_IMAP_TIMEOUT + 60)):
        log.info("an IMAP poll is already running; skipped")
        return []
    done: list[Polled] = []
    try:
        box = box or mailbox()
        folder, target = settings.HANSEWEB_IMAP_FOLDER, settings.HANSEWEB_IMAP_DONE_FOLDER
        with box.login(settings.HANSEWEB_IMAP_USER, settings.HANSEWEB_IMAP_PASSWORD, initial_folder=folder):
            if target and not box.folder.exists(target):
                box.folder.create(target)
            uids = box.uids(AND(seen=False))[:limit]
            for message in box.fetch(uid_list=uids, mark_seen=False, bulk=False) if uids else []:
                if message.size_rfc822 > MAX_BYTES or len(message.raw) > MAX_BYTES:
                    # left in the folder, marked read so it is not fetched again and again
                    box.flag(message.uid, MailMessageFlags.SEEN, True)
                    done.append(Polled(message.uid, None, f"larger than {MAX_BYTES} bytes; not stored"))
                    continue
                row = receive(message.raw, source="imap")
                if target:
                    box.move(message.uid, target)
                else:
                    box.flag(message.uid, MailMessageFlags.SEEN, True)
                done.append(Polled(message.uid, row))
    finally:
        cache.delete(LOCK)
    return done
