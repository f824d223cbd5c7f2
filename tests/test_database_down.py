"""Issue 29.7: during a PostgreSQL outage pages answer 503 with a friendly "back in a moment" page
(in the visitor's language, Retry-After), not 500. The fault is real: this process's database
connection pointed at a port nobody listens on."""
import socket

import pytest
from django.db import connection
from django.test import Client

from .factories import UserFactory


@pytest.fixture
def database_down(transactional_db):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    port = connection.settings_dict["PORT"]

    def down():
        connection.close()
        connection.settings_dict["PORT"] = closed

    yield down
    connection.close()
    connection.settings_dict["PORT"] = port


@pytest.mark.parametrize("path", ["/", "/games/1/", "/games/1/log/", "/games/1/replay/"])  # (a page that needs no database, such as the anonymous login form, is still served)
def test_pages_answer_503_back_in_a_moment(database_down, path):
    database_down()
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 503, response.content[:500]
    assert response["Retry-After"] == "30"
    page = response.content.decode()
    assert "Back in a moment" in page and "Every move already made is safe" in page


def test_a_signed_in_player_and_a_move_post_get_it_too(database_down):
    user = UserFactory()
    client = Client(raise_request_exception=False)
    client.force_login(user)
    database_down()
    assert client.get("/").status_code == 503
    response = client.post("/games/1/move/", {"move": "x", "seq": "0"})
    assert response.status_code == 503


def test_in_the_visitors_language(database_down):
    database_down()
    response = Client(raise_request_exception=False).get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 503
    page = response.content.decode()
    assert 'lang="de"' in page and "Back in a moment" not in page


def test_healthz_still_says_database_unreachable(database_down):
    database_down()
    response = Client(raise_request_exception=False).get("/healthz")
    assert response.status_code == 503 and b"database unreachable" in response.content
