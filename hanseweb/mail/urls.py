"""anymail's webhook URLs (/anymail/<esp>/...), with every inbound view wrapped by
``keep_every_post`` so that no authenticated inbound post is lost (see ``inbound.py``).
The URL names stay anymail's (``anymail:postmark_inbound_webhook``, ...)."""
from anymail import urls as anymail_urls
from django.urls import URLPattern

from .inbound import keep_every_post

app_name = "anymail"


def _wrapped(pattern):
    if isinstance(pattern, URLPattern) and (pattern.name or "").endswith("_inbound_webhook"):
        return URLPattern(pattern.pattern, keep_every_post(pattern.callback), pattern.default_args, pattern.name)
    return pattern


urlpatterns = [_wrapped(pattern) for pattern in anymail_urls.urlpatterns]
