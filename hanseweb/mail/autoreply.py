"""Recognising automatic answers (out-of-office notes, vacation responders, other robots) among
received mail, so they are kept and recorded but never played and never answered (answering one
would start a mail loop). The signs, after RFC 3834 and what the common servers send:

- ``Auto-Submitted`` with any value but ``no`` (RFC 3834: ``auto-replied``, ``auto-generated``);
- ``X-Autoreply``, ``X-Autorespond``, ``X-Autoresponder`` (qmail, cPanel, many webmailers);
- ``Precedence: auto_reply``, ``bulk`` or ``junk``;
- ``X-Auto-Response-Suppress`` (Exchange sets it on its own automatic replies);
- ``X-MS-Exchange-Generated-Message-Type`` / ``X-MS-Exchange-Inbox-Rules-Loop`` (Exchange rules);
- a subject that says so: "Automatic reply:", "Out of Office", "Abwesend:", "Automatische
  Antwort:", "Afwezig:", "Automatisch antwoord:", "Vacation reply", ...
"""
from __future__ import annotations

import re

AUTO_SUBJECT = re.compile(
    r"(out of (?:the )?office|automatic reply|auto[- ]?reply|auto[- ]?response|autoresponder"
    r"|abwesenheitsnotiz|automatische antwort|automatisch antwoord|afwezigheidsbericht|urlaubsantwort"
    r"|vacation (?:reply|message|notice|response)|is out of the office"
    r"|^\s*(?:abwesend|afwezig|away|vacation|urlaub|on vacation|on leave)\s*:)",
    re.IGNORECASE,
)
_FLAG_HEADERS = ("x-autoreply", "x-autorespond", "x-autoresponder", "x-auto-response-suppress",
                 "x-ms-exchange-generated-message-type", "x-ms-exchange-inbox-rules-loop")


def auto_reply_reason(headers, subject: str = "") -> str:
    """Why a mail with these ``headers`` (``[[name, value], ...]``) and ``subject`` is an
    automatic answer, or ``""`` when it looks written by a person."""
    for pair in headers or []:
        try:
            name, value = pair
        except (TypeError, ValueError):
            continue
        name, value = str(name).strip().lower(), " ".join(str(value).split()).lower()
        if name == "auto-submitted" and value and not value.startswith("no"):
            return f"Auto-Submitted: {value[:40]}"
        if name in _FLAG_HEADERS and value not in ("no", "false", "0"):
            return f"{name}: {value[:40]}"
        if name == "precedence" and value in ("auto_reply", "bulk", "junk"):
            return f"Precedence: {value}"
    match = AUTO_SUBJECT.search(subject or "")
    if match:
        return f"subject says {match.group(0).strip()!r}"
    return ""
