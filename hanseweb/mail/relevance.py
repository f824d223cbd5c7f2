"""Whether a queued mail is still worth sending: the registry of checks named by
``OutboundEmail.wanted_while``.

A mail that could not be sent at once is retried with backoff (``tasks.send_email``). Some mails
lose their point while they wait: a turn mail whose decision has been made (by the player on the
page, by a deadline's default) would only confuse when it arrives late, and its reply address no
longer works. Such a row carries ``{"name": check, "params": {...}}``; before a retry the worker
asks the check and gives the row up as "obsolete" when it answers False. As with the renderers,
the mail layer knows no game: the games app registers its checks in its ``AppConfig.ready``.
"""
from __future__ import annotations

import logging
from typing import Callable

log = logging.getLogger(__name__)

Check = Callable[[dict], bool]

_checks: dict[str, Check] = {}


def register(name: str, check: Check) -> None:
    _checks[name] = check


def still_wanted(spec: dict | None) -> bool:
    """True unless the check named by ``spec`` says the mail has lost its point. An unknown check
    or one that fails keeps the mail (sent late rather than lost)."""
    if not spec:
        return True
    check = _checks.get(spec.get("name", ""))
    if check is None:
        log.warning("no mail relevance check named %r is registered; the mail is kept", spec.get("name"))
        return True
    try:
        return bool(check(dict(spec.get("params") or {})))
    except Exception:  # noqa: BLE001 - a broken check must not lose mail
        log.exception("mail relevance check %r failed; the mail is kept", spec.get("name"))
        return True
