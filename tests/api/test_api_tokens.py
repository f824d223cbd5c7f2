"""API tokens on the profile page: made (shown once, only a digest stored), listed, revoked;
the forms are CSRF-protected and throttled."""
import re

import pytest
from django.test import Client

from hanseweb.api.models import MAX_LIVE_TOKENS, ApiToken, digest

TOKEN = re.compile(r'value="(hw_[A-Za-z0-9_-]{43})"')


def _make(client, name="my bot"):
    response = client.post("/accounts/profile/tokens/", {"name": name})
    assert response.status_code == 200, response.status_code
    return TOKEN.search(response.content.decode()).group(1), response


@pytest.mark.django_db
def test_a_token_is_shown_once_stored_as_a_digest_listed_and_revoked(client, make_user):
    user = make_user()
    client.force_login(user)
    profile = client.get("/accounts/profile/").content.decode()
    assert 'id="api-tokens"' in profile and "You have no API tokens." in profile
    token, response = _make(client, "  my   bot ")
    assert "no-store" in response["Cache-Control"]
    row = ApiToken.objects.get(user=user)
    assert row.name == "my bot" and row.digest == digest(token) and row.hint == token[:8]
    assert token not in {str(v) for v in ApiToken.objects.values_list("name", "digest", "hint").get()}
    profile = client.get("/accounts/profile/").content.decode()
    assert "my bot" in profile and token[:8] in profile and token not in profile
    # it works, and its last use is recorded
    api = Client()
    assert api.get("/api/v1/games", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200
    row.refresh_from_db()
    assert row.last_used_at is not None
    # revoked from the profile page: refused from then on, still listed as revoked
    response = client.post(f"/accounts/profile/tokens/{row.pk}/revoke/")
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.revoked_at is not None
    assert api.get("/api/v1/games", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401
    assert "revoked" in client.get("/accounts/profile/").content.decode()


@pytest.mark.django_db
def test_nobody_revokes_another_accounts_token_and_bad_names_are_refused(client, make_user):
    owner, other = make_user(), make_user()
    row, token = ApiToken.issue(owner, "mine")
    client.force_login(other)
    assert client.post(f"/accounts/profile/tokens/{row.pk}/revoke/").status_code == 404
    row.refresh_from_db()
    assert row.revoked_at is None
    for name in ["", "   ", "a\x00b", "x" * 61, "zero\u200bwidth"]:
        response = client.post("/accounts/profile/tokens/", {"name": name}, follow=True)
        assert response.status_code == 200 and not ApiToken.objects.filter(user=other).exists(), name
        assert response.redirect_chain[-1][0] == "/accounts/profile/"
    assert client.get("/accounts/profile/tokens/").status_code == 405
    client.logout()
    response = client.post("/accounts/profile/tokens/", {"name": "anon"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
def test_the_token_forms_need_the_csrf_token(make_user):
    user = make_user()
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    assert browser.post("/accounts/profile/tokens/", {"name": "x"}).status_code == 403
    row, _ = ApiToken.issue(user, "y")
    assert browser.post(f"/accounts/profile/tokens/{row.pk}/revoke/").status_code == 403
    row.refresh_from_db()
    assert row.revoked_at is None and ApiToken.objects.filter(user=user).count() == 1
    page = browser.get("/accounts/profile/").content.decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert browser.post("/accounts/profile/tokens/", {"name": "x", "csrfmiddlewaretoken": csrf}).status_code == 200


@pytest.mark.django_db
def test_making_tokens_is_throttled_and_limited(client, make_user, settings):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "api_token_per_user": "3/h"}
    user = make_user()
    client.force_login(user)
    for i in range(3):
        _make(client, f"bot {i}")
    assert client.post("/accounts/profile/tokens/", {"name": "one more"}).status_code == 429
    assert ApiToken.objects.filter(user=user).count() == 3
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "api_token_per_user": "1000/h"}
    for i in range(3, MAX_LIVE_TOKENS):
        ApiToken.issue(user, f"bot {i}")
    response = client.post("/accounts/profile/tokens/", {"name": "too many"}, follow=True)
    assert "revoke one" in response.content.decode()
    assert ApiToken.objects.filter(user=user).count() == MAX_LIVE_TOKENS
