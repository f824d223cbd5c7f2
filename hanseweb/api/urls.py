"""/api/v1/ (the JSON API, docs/api.md) and the profile page's token forms."""
from django.urls import path, re_path

from . import chat, games, views
from .core import add_router, api, json_method_not_allowed, not_found_view

# The API's routers; further ones (a game's chat) are added here the same way.
add_router("", games.router)
add_router("", chat.router)

_api_patterns, _api_app, _api_namespace = api.urls
for _pattern in _api_patterns:
    _pattern.callback = json_method_not_allowed(_pattern.callback)

urlpatterns = [
    path("api/v1/", (_api_patterns, _api_app, _api_namespace)),
    re_path(r"^api/v1/", not_found_view),  # any other path under the API: a JSON 404
    path("accounts/profile/tokens/", views.create_token, name="api_token_create"),
    path("accounts/profile/tokens/<int:pk>/revoke/", views.revoke_token, name="api_token_revoke"),
]
