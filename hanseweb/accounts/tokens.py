"""Signed tokens for email confirmation and one-click unsubscribe."""
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import signing


class ConfirmationTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "hanseweb.accounts.confirm"

    def _make_hash_value(self, user, timestamp):
        return f"{user.pk}{user.email}{user.is_active}{user.email_confirmed}{timestamp}"


confirmation_tokens = ConfirmationTokenGenerator()

UNSUBSCRIBE_SALT = "hanseweb.accounts.unsubscribe"


def unsubscribe_token(user) -> str:
    return signing.dumps({"u": user.pk, "e": user.email}, salt=UNSUBSCRIBE_SALT, compress=True)


def user_id_from_unsubscribe_token(token: str):
    """Return the user id the token was made for, or None if it is forged or for an old address."""
    from .models import User

    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    user = User.objects.filter(pk=data.get("u"), email=data.get("e")).first()
    return user.pk if user else None
