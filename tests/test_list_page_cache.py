"""hanseweb/pagecache.py: a list page kept whole per version and viewer (issue 26).

A tiny page of this module's own (``urlpatterns`` below) counts how often it is really made."""
import re

import pytest
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpResponse
from django.template import RequestContext, Template
from django.urls import path

from hanseweb import pagecache

from .factories import UserFactory

STATE = {"made": 0, "version": 1, "status": 200, "cookie": False}
PAGE = Template('<p>{{ user.display_name|default:"nobody" }}</p><form method="post">{% csrf_token %}</form>'
                '<script nonce="{{ request.csp_nonce }}">1</script>')


def demo(request):
    def make():
        STATE["made"] += 1
        response = HttpResponse(PAGE.render(RequestContext(request)), status=STATE["status"])
        response["X-Next-Cursor"] = "abc"
        if STATE["cookie"]:
            response.set_cookie("seen", "1")
        return response

    return pagecache.respond(request, "demo", make, version=STATE["version"], scopes=("demo",))


def flash(request):
    messages.info(request, "Saved.")
    return HttpResponse("ok")


urlpatterns = [path("demo/", demo), path("flash/", flash)]

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.test_list_page_cache")]


@pytest.fixture(autouse=True)
def fresh(settings):
    settings.HANSEWEB_LIST_CACHE_SECONDS = 60
    STATE.update(made=0, version=1, status=200, cookie=False)
    cache.delete_many(["pagegen:demo", "pagegen:names"])
    yield


def _token(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_a_repeated_view_is_the_kept_page_with_its_own_token_and_nonce(client):
    first = client.get("/demo/")
    assert first.status_code == 200 and STATE["made"] == 1
    second = client.get("/demo/")
    assert STATE["made"] == 1  # not made again
    html = second.content.decode()
    assert "\x00" not in html
    assert _token(html) != _token(first.content.decode())  # this request's masked token
    nonce = re.search(r'<script nonce="([^"]+)"', html).group(1)
    assert nonce in second["Content-Security-Policy"]
    assert second["X-Next-Cursor"] == "abc"
    # the kept token is valid: a POST with it passes the CSRF check of a real form
    from django.middleware.csrf import _unmask_cipher_token

    assert _unmask_cipher_token(_token(html)) == _unmask_cipher_token(_token(first.content.decode()))


def test_a_new_version_is_made_again(client):
    client.get("/demo/")
    STATE["version"] = 2
    client.get("/demo/")
    assert STATE["made"] == 2
    client.get("/demo/")
    assert STATE["made"] == 2


def test_a_bumped_scope_is_made_again_after_the_commit(client, django_capture_on_commit_callbacks):
    client.get("/demo/")
    client.get("/demo/")
    assert STATE["made"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.bump("demo")
    client.get("/demo/")
    assert STATE["made"] == 2


def test_a_lost_generation_never_serves_a_page_filed_under_the_old_one(client):
    client.get("/demo/")
    cache.delete("pagegen:demo")  # evicted
    client.get("/demo/")  # made, filed under the generation started anew
    assert STATE["made"] == 2
    client.get("/demo/")
    assert STATE["made"] == 2


def test_each_viewer_language_zone_and_query_has_its_own_page(client):
    ann, bob = UserFactory(display_name="Ann"), UserFactory(display_name="Bob")
    client.force_login(ann)
    assert "Ann" in client.get("/demo/").content.decode()
    client.force_login(bob)
    assert "Bob" in client.get("/demo/").content.decode()
    assert STATE["made"] == 2
    client.logout()  # a visitor: language and zone from cookies (an account's own settings win)
    assert "nobody" in client.get("/demo/").content.decode()
    for cookie, value in (("django_language", "nl"), ("django_language", "de"), ("tz", "Europe/Amsterdam")):
        client.cookies[cookie] = value
        client.get("/demo/")
        client.get("/demo/")
    assert STATE["made"] == 6  # nl, then de, then de in Amsterdam: each once
    client.get("/demo/?page=2")
    assert STATE["made"] == 7


def test_a_viewers_own_name_change_is_seen(client):
    ann = UserFactory(display_name="Ann")
    client.force_login(ann)
    assert "Ann" in client.get("/demo/").content.decode()
    ann.display_name = "Anna"
    ann.save()
    assert "Anna" in client.get("/demo/").content.decode()


def test_the_names_scope_is_bumped_by_a_name_change_not_by_a_login(django_capture_on_commit_callbacks, client):
    ann = UserFactory(display_name="Ann")
    pagecache._bump_now(["names"])
    before = cache.get("pagegen:names")
    with django_capture_on_commit_callbacks(execute=True):
        client.force_login(ann)  # last_login saved with update_fields
    assert cache.get("pagegen:names") == before
    with django_capture_on_commit_callbacks(execute=True):
        ann.display_name = "Annie"
        ann.save()
    assert cache.get("pagegen:names") == before + 1


def test_errors_cookies_and_flash_messages_are_not_kept(client):
    STATE["status"] = 404
    client.get("/demo/")
    client.get("/demo/")
    assert STATE["made"] == 2
    STATE.update(status=200, cookie=True)
    client.get("/demo/")
    client.get("/demo/")
    assert STATE["made"] == 4
    STATE["cookie"] = False
    client.get("/demo/")
    client.get("/flash/")  # a message waits: the page that shows it is made, not taken from the cache
    client.get("/demo/")
    assert STATE["made"] == 6


def test_off_without_a_shared_cache(client, settings):
    settings.REDIS_URL = None  # the embedded default: per-process memory, no shared invalidation
    client.get("/demo/")
    client.get("/demo/")
    assert STATE["made"] == 2
    settings.REDIS_URL = "redis://x"
    settings.HANSEWEB_LIST_CACHE_SECONDS = 0
    client.get("/demo/")
    assert STATE["made"] == 3


def test_each_host_has_its_own_page(client, settings):
    # absolute links (a calendar's or an invitation's address) are made from the request's host
    settings.ALLOWED_HOSTS = ["a.example", "b.example"]
    client.get("/demo/", HTTP_HOST="a.example")
    client.get("/demo/", HTTP_HOST="a.example")
    assert STATE["made"] == 1
    client.get("/demo/", HTTP_HOST="b.example")
    assert STATE["made"] == 2
