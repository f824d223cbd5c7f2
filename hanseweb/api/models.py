"""Per-user API tokens (docs/api.md). Only a SHA-256 digest of each token is stored: the token
itself is shown once, when it is made, and cannot be read back from the database."""
from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

PREFIX = "hw_"
# "hw_" and 43 URL-safe base64 characters (32 random bytes).
TOKEN_PATTERN = re.compile(r"hw_[A-Za-z0-9_-]{43}")
# ``last_used_at`` is written at most this often per token (not one UPDATE per request).
LAST_USED_EVERY = timedelta(minutes=1)
# Live (not revoked) tokens one account may hold.
MAX_LIVE_TOKENS = 20


def digest(token: str) -> str:
    """The stored form of a token. Tokens are 256 random bits, so a plain SHA-256 (no salt, no
    slow hash) cannot be reversed or guessed, and lets a request find its token by index."""
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, help_text="what the token is for, e.g. the bot's name")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False, help_text="the token's first characters")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…) of {self.user}"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    @classmethod
    def issue(cls, user, name: str) -> tuple["ApiToken", str]:
        """A new token for ``user``: (the row, the token itself, to be shown once)."""
        token = PREFIX + secrets.token_urlsafe(32)
        row = cls.objects.create(user=user, name=name, digest=digest(token), hint=token[:8])
        return row, token

    @classmethod
    def find(cls, token: str) -> "ApiToken | None":
        """The live token row for ``token`` (not revoked, its account active), or None."""
        if not isinstance(token, str) or not TOKEN_PATTERN.fullmatch(token):
            return None
        row = (cls.objects.select_related("user")
               .filter(digest=digest(token), revoked_at__isnull=True, user__is_active=True).first())
        if row is not None:
            now = timezone.now()
            if row.last_used_at is None or now - row.last_used_at >= LAST_USED_EVERY:
                cls.objects.filter(pk=row.pk).update(last_used_at=now)
                row.last_used_at = now
        return row

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            ApiToken.objects.filter(pk=self.pk, revoked_at__isnull=True).update(revoked_at=self.revoked_at)

    @classmethod
    def revoke_all(cls, user) -> int:
        """Revoke every live token of ``user`` (a new password: docs/api.md); how many."""
        return cls.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())
