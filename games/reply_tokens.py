"""The reply addresses of game mails: ``play+<game>-<seat>-<seq>-<signature>@<reply domain>``.

The signature is an HMAC (Django's ``salted_hmac`` with the secret key) of game, seat and the move
number the mail was made at, so only addresses we made are taken. Making and reading an address
needs nothing else of the games app: the mails (``games.notifications``) and the replies
(``games.email_replies``) both import it.
"""
from __future__ import annotations

import base64
import hmac
import re

from django.conf import settings
from django.utils.crypto import salted_hmac

TOKEN = re.compile(r"play\+(\d+)-(\d+)-(\d+)-([a-z2-7]{16})@", re.IGNORECASE)


def _signature(game_id: int, seat: int, seq: int) -> str:
    digest = salted_hmac("hanseweb.games.reply", f"{game_id}.{seat}.{seq}").digest()[:10]
    return base64.b32encode(digest).decode().lower()


def reply_address(game_id: int, seat: int, seq: int) -> str | None:
    domain = settings.HANSEWEB_REPLY_DOMAIN
    if not domain:
        return None
    return f"play+{game_id}-{seat}-{seq}-{_signature(game_id, seat, seq)}@{domain}"


def find_token(recipients: list[str]):
    """(game_id, seat, seq, genuine) of the first reply address among ``recipients``, or None."""
    for address in recipients:
        match = TOKEN.search(address)
        if match:
            game_id, seat, seq = (int(x) for x in match.groups()[:3])
            genuine = hmac.compare_digest(match.group(4).lower(), _signature(game_id, seat, seq))
            return game_id, seat, seq, genuine
    return None
