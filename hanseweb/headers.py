"""Response headers every page gets (besides SecurityMiddleware's and django-csp's).

``PrivateCacheMiddleware``: a response made for one person (a signed-in account, or an API
token) is ``Cache-Control: private`` unless its view said otherwise: a shared cache (a proxy, a
CDN) must never keep a seat's view of a game, its hidden holdings, notes or chat for another.
"""
from django.utils.cache import patch_cache_control


class PrivateCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        personal = (user is not None and user.is_authenticated) or "HTTP_AUTHORIZATION" in request.META
        if personal:
            directives = response.get("Cache-Control", "").lower()
            if "private" not in directives and "public" not in directives:
                patch_cache_control(response, private=True)
        return response
