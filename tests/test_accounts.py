"""Sign up with a confirmation mail, log in and out, reset the password, edit the profile."""
import re

import pytest
from django.core import mail

from hanseweb.accounts.models import User

from .conftest import committed
from .factories import PASSWORD, UserFactory


def _link(message, fragment):
    return re.search(r"https?://[^\s\"<>]+" + fragment + r"[^\s\"<>]*", message.body).group(0).split("://", 1)[1].split("/", 1)[1]


@pytest.mark.django_db
def test_signup_sends_a_confirmation_and_the_link_activates(client):
    with committed():
        response = client.post("/accounts/signup/", {
            "email": "Hester@Example.com", "display_name": "Hester",
            "password1": "a sturdy passphrase", "password2": "a sturdy passphrase",
        })
    assert response.status_code == 200 and b"Check your email" in response.content
    user = User.objects.get(email="hester@example.com")
    assert not user.is_active and not user.email_confirmed
    # not confirmed yet: login explains why
    response = client.post("/accounts/login/", {"username": "hester@example.com", "password": "a sturdy passphrase"})
    assert b"not confirmed yet" in response.content
    (message,) = mail.outbox
    assert message.to == ["hester@example.com"] and "Confirm" in message.subject
    # the link asks for the password chosen at sign-up (whoever follows it must know it)
    response = client.get("/" + _link(message, "/accounts/confirm/"))
    assert response.status_code == 200 and b"Confirm your address" in response.content
    user.refresh_from_db()
    assert not user.is_active
    response = client.post("/" + _link(message, "/accounts/confirm/"), {"password": "a sturdy passphrase"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.is_active and user.email_confirmed
    assert client.get("/").wsgi_request.user.is_authenticated
    # the link works once only
    client.logout()
    assert client.get("/" + _link(message, "/accounts/confirm/")).status_code == 400


@pytest.mark.django_db
def test_signup_rejects_mismatched_passwords(client):
    response = client.post("/accounts/signup/", {
        "email": "new@example.com", "display_name": "X", "password1": "a sturdy passphrase", "password2": "other phrase 123",
    })
    assert b"differ" in response.content
    assert User.objects.count() == 0


@pytest.mark.django_db
def test_login_and_logout(client):
    user = UserFactory()
    response = client.post("/accounts/login/", {"username": user.email, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").wsgi_request.user == user
    client.post("/accounts/logout/")
    assert not client.get("/").wsgi_request.user.is_authenticated
    response = client.post("/accounts/login/", {"username": user.email, "password": "wrong"})
    assert response.status_code == 200 and not response.context["user"].is_authenticated


@pytest.mark.django_db
def test_password_reset_by_mail(client):
    user = UserFactory()
    with committed():
        client.post("/accounts/password/reset/", {"email": user.email})
    (message,) = mail.outbox
    link = "/" + _link(message, "/accounts/password/reset/")
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": "brand new passphrase", "new_password2": "brand new passphrase"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("brand new passphrase")


@pytest.mark.django_db
def test_password_reset_for_unknown_address_sends_nothing(client):
    with committed():
        response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302 and not mail.outbox


@pytest.mark.django_db
def test_profile_sets_display_name_and_notification_preference(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post("/accounts/profile/", {"display_name": "Kapitän", "notify": User.NOTIFY_OFF})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "Kapitän" and user.notify == User.NOTIFY_OFF and not user.wants_turn_mail
    assert client.get("/accounts/profile/").status_code == 200
    client.logout()
    assert client.get("/accounts/profile/").status_code == 302
