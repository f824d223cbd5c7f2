"""Start-up check: replies by email need the webhook secret."""
import pytest
from django.core import checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError

CHECK = "hanseweb.mail.E001"


def _ids():
    return [message.id for message in checks.run_checks(tags=[checks.Tags.security])]


def test_a_reply_domain_without_a_webhook_secret_is_a_start_up_error(settings):
    settings.HANSEWEB_REPLY_DOMAIN = "play.example.org"
    settings.ANYMAIL = {key: value for key, value in settings.ANYMAIL.items() if key != "WEBHOOK_SECRET"}
    assert CHECK in _ids()
    (error,) = [m for m in checks.run_checks(tags=[checks.Tags.security]) if m.id == CHECK]
    assert error.level == checks.ERROR and "ANYMAIL_WEBHOOK_SECRET" in error.msg
    with pytest.raises(SystemCheckError, match="ANYMAIL_WEBHOOK_SECRET"):
        call_command("check")


def test_the_secret_or_no_reply_domain_passes(settings):
    settings.HANSEWEB_REPLY_DOMAIN = "play.example.org"
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": "hook:a-long-random-password"}
    assert CHECK not in _ids()
    settings.HANSEWEB_REPLY_DOMAIN = ""
    settings.ANYMAIL = {key: value for key, value in settings.ANYMAIL.items() if key != "WEBHOOK_SECRET"}
    assert CHECK not in _ids()
