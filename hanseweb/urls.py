from django.contrib import admin
from django.urls import include, path

from .health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("hanseweb.accounts.urls")),
    path("anymail/", include("anymail.urls")),  # ESP webhooks, including inbound replies
    path("", include("games.urls")),
]
