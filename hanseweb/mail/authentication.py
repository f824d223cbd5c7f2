"""The ESP's verdict on a received mail's sender: did SPF or DKIM vouch for the From address?

Only what the ESP itself says is read, and only where its inbound post gives it:

- Mailgun adds ``X-Mailgun-Spf`` (Pass, Fail, SoftFail, Neutral, None) and
  ``X-Mailgun-Dkim-Check-Result`` (Pass, Fail) to every routed message;
- Amazon SES gives ``receipt.spfVerdict`` and ``receipt.dkimVerdict`` (PASS, FAIL, GRAY,
  PROCESSING_FAILED) in the notification, which we keep byte for byte (``InboundEmail.raw``);
- SendGrid's Inbound Parse posts the form fields ``SPF`` (pass, fail, softfail, …) and ``dkim``
  (``{@example.com : pass}``).

``verdict`` is "fail" when the ESP checked both and neither passed (the From address is most likely
forged), "pass" when either passed, and None when the ESP gave no verdict (another ESP, a Maildir,
IMAP): then the reply address's own signature and freshness are what we go by. Headers such as
``Authentication-Results`` that a sender could have written are never read.
"""
from __future__ import annotations

import email
import email.policy
import json
import re

PASS, FAIL = "pass", "fail"
_FAILED = {"fail", "softfail", "hardfail", "none", "permerror", "gray", "invalid"}


def _header(headers, name: str) -> str | None:
    for pair in headers or []:
        if isinstance(pair, (list, tuple)) and len(pair) == 2 and str(pair[0]).lower() == name.lower():
            return str(pair[1])
    return None


def _word(value) -> str | None:
    if value is None:
        return None
    match = re.match(r"\s*([A-Za-z_]+)", str(value))
    return match.group(1).lower() if match else None


def _combine(spf: str | None, dkim: str | None) -> str | None:
    if spf is None or dkim is None:  # the ESP did not check both: no verdict from us either
        return PASS if PASS in (spf, dkim) else None
    if PASS in (spf, dkim):
        return PASS
    return FAIL if spf in _FAILED and dkim in _FAILED else None


def _mailgun(row) -> str | None:
    return _combine(_word(_header(row.headers, "X-Mailgun-Spf")),
                    _word(_header(row.headers, "X-Mailgun-Dkim-Check-Result")))


def _amazon_ses(row) -> str | None:
    try:
        body = json.loads(bytes(row.raw or b"").decode("utf-8"))
        if "Message" in body and isinstance(body["Message"], str):  # the SNS envelope
            body = json.loads(body["Message"])
        receipt = body.get("receipt") or {}
        return _combine(_word((receipt.get("spfVerdict") or {}).get("status")),
                        _word((receipt.get("dkimVerdict") or {}).get("status")))
    except (ValueError, AttributeError, TypeError):
        return None


def _sendgrid(row) -> str | None:
    content_type = row.raw_content_type or ""
    if not content_type.lower().startswith("multipart/form-data"):
        return None
    form = email.message_from_bytes(f"Content-Type: {content_type}\r\n\r\n".encode() + bytes(row.raw or b""),
                                    policy=email.policy.compat32)
    fields = {}
    for part in form.walk() if form.is_multipart() else []:
        name = part.get_param("name", header="content-disposition")
        if name in ("SPF", "dkim"):
            fields[name] = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
    if "SPF" not in fields or "dkim" not in fields:
        return None
    dkim = re.findall(r":\s*([A-Za-z]+)", fields["dkim"])
    return _combine(_word(fields["SPF"]), PASS if PASS in [d.lower() for d in dkim] else ("fail" if dkim else "none"))


_READERS = {"mailgun": _mailgun, "amazon_ses": _amazon_ses, "sendgrid": _sendgrid}


def verdict(row) -> str | None:
    """"pass", "fail" or None (no verdict) for a stored ``InboundEmail``, from its ESP's own checks."""
    reader = _READERS.get((row.esp or "").lower())
    return reader(row) if reader else None
