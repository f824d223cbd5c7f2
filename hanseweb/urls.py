from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("hanseweb.accounts.urls")),
    path("anymail/", include("anymail.urls")),  # ESP webhooks, including inbound replies
    path("", include("games.urls")),
]
