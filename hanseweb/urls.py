from django.contrib import admin
from django.urls import include, path

from .health import healthz, healthz_full
from .i18n import set_language

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("healthz/full", healthz_full, name="healthz_full"),
    path("admin/", admin.site.urls),
    path("language/", set_language, name="set_language"),
    path("accounts/", include("hanseweb.accounts.urls")),
    path("anymail/", include("hanseweb.mail.urls")),  # anymail's ESP webhooks; inbound replies kept whatever they hold
    path("", include("hanseweb.api.urls")),  # /api/v1/ and the profile's API token forms
    path("", include("hanseweb.leagues.urls")),
    path("", include("hanseweb.players.urls")),
    path("", include("games.urls")),
]

handler500 = "hanseweb.errors.server_error"  # a database outage answers 503 "back in a moment"
