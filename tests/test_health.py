"""``/healthz``: 200 "ok" while the database answers, 503 when it does not; the floor view of the
web benchmark does one session-authenticated look-up and renders a tiny template."""
import pytest
from django.db import OperationalError, connections
from django.test.utils import CaptureQueriesContext
from django.test import Client
from django.urls import reverse

from .factories import UserFactory


def test_the_url_is_named_healthz():
    assert reverse("healthz") == "/healthz"


@pytest.mark.django_db
def test_anonymous_ok_with_one_query(client):
    with CaptureQueriesContext(connections["default"]) as queries:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Content-Type"].startswith("text/plain")
    assert "no-cache" in response["Cache-Control"]
    assert [q["sql"] for q in queries.captured_queries] == ["SELECT 1"]


@pytest.mark.django_db
def test_logged_in_ok_resolving_the_session_user(client):
    client.force_login(UserFactory())
    with CaptureQueriesContext(connections["default"]) as queries:
        response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert len(queries.captured_queries) == 2  # the session row, the user row
    assert "django_session" in sql and "accounts_user" in sql


@pytest.mark.django_db
@pytest.mark.parametrize("logged_in", [False, True])
def test_503_when_the_database_does_not_answer(client, monkeypatch, logged_in):
    if logged_in:
        client.force_login(UserFactory())

    def unreachable(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connections["default"], "ensure_connection", unreachable)
    # (a middleware that reads the session may meet the outage first: the 500 handler answers then)
    response = Client(raise_request_exception=False, HTTP_COOKIE=client.cookies.output(header="", sep=";")).get("/healthz")
    assert response.status_code == 503
    assert b"database unreachable" in response.content
