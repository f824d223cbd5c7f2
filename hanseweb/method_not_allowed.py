"""A friendly page for an address opened with a method it does not take (issue 24 item 10).

Forms post to addresses such as ``/games/<id>/move/`` or ``/seasons/<id>/organise/start/``; opened
as a page (a bookmark, a reload after the form, a link copied from the address bar) Django's
``require_POST`` answers 405 with an empty body, which the browser shows as a blank error page.
This middleware puts a page in that body: what happened and a way back (the game, the season or
the lobby). The status stays 405 and the ``Allow`` header is kept. The JSON API and the ESP
webhooks answer as before (machines read them)."""
from __future__ import annotations

import re

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy

KEEP = ("/api/", "/anymail/")  # machine addresses: their 405 stays as it is
_BACK = [  # (pattern of the address, where the page points back to, the link's words)
    (re.compile(r"^/games/(\d+)/"), "/games/{}/", gettext_lazy("Back to the game")),
    (re.compile(r"^/seasons/(\d+)/"), "/seasons/{}/", gettext_lazy("Back to the season")),
]


def back_link(path: str) -> tuple[str, str] | None:
    for pattern, target, words in _BACK:
        m = pattern.match(path)
        if m and target.format(m.group(1)) != path:
            return target.format(m.group(1)), str(words)
    return None


class FriendlyMethodNotAllowedMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (response.status_code != 405 or request.method not in ("GET", "HEAD")
                or request.path.startswith(KEEP) or response.content):
            return response
        response.content = render_to_string("405.html", {"back": back_link(request.path)}, request=request)
        response["Content-Type"] = "text/html; charset=utf-8"
        return response
