"""System checks of the deployment (run by every manage.py command that checks, e.g. runserver,
migrate, check; not by pytest-django)."""
import os

from django.conf import settings
from django.core import checks


@checks.register()
def secret_key_is_real(app_configs=None, **kwargs):
    problem = getattr(settings, "HANSEWEB_SECRET_KEY_PROBLEM", None)
    if problem:
        return [checks.Error(problem, hint="See docs/configuration.md (HANSEWEB_SECRET_KEY).", id="hanseweb.E001")]
    return []


@checks.register()
def site_url_is_set(app_configs=None, **kwargs):
    if not settings.EMBEDDED and not os.environ.get("HANSEWEB_SITE_URL"):
        return [checks.Warning(
            f"HANSEWEB_SITE_URL is not set: links in mails point to {settings.SITE_URL}.",
            hint="Set it to the public address, e.g. https://hanseweb.example.org", id="hanseweb.W001",
        )]
    return []
