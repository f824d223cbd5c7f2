"""Start-up checks of the mail setup (``manage.py check``, ``migrate`` and ``runserver`` run them)."""
from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security)
def inbound_webhook_needs_a_secret(app_configs, **kwargs):
    """With replies by email on, the inbound webhook needs a secret: without one it does not
    exist (404, ``hanseweb.mail.inbound.keep_every_post``), as anyone could otherwise post mail
    "from" any player, and replies would never arrive."""
    from anymail.utils import get_anymail_setting

    if not getattr(settings, "HANSEWEB_REPLY_DOMAIN", ""):
        return []
    if get_anymail_setting("webhook_secret", default=None):
        return []
    return [checks.Error(
        "HANSEWEB_REPLY_DOMAIN is set but ANYMAIL_WEBHOOK_SECRET is not: the inbound webhook "
        "(/anymail/<esp>/inbound/) answers 404 without a secret, so replies would never arrive.",
        hint="Set ANYMAIL_WEBHOOK_SECRET=<user>:<long random password> and put the same "
             "credentials in the webhook URL given to the ESP "
             "(https://<user>:<password>@<host>/anymail/<esp>/inbound/); see deploy/env.example.",
        id="hanseweb.mail.E001",
    )]
