"""Abuse: login lockout per (account, client address) pair and per client address (django-axes;
failures from elsewhere do not lock the owner out: tests/test_hardening.py), rate limits on password
reset, sign-up, game creation and answers to email replies (django-ratelimit), and a sign-up that
does not tell which addresses have accounts."""
import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.utils import timezone

from hanseweb.accounts.models import User
from hanseweb.mail.models import InboundEmail, OutboundEmail

from .conftest import committed, user_of
from .factories import PASSWORD, UserFactory

LOGIN = "/accounts/login/"


def _login(client, email, password, ip="203.0.113.7", **extra):
    return client.post(LOGIN, {"username": email, "password": password}, REMOTE_ADDR=ip, **extra)


def _logged_in(client):
    return client.get("/").wsgi_request.user.is_authenticated


# --- login lockout -----------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_login_flood_locks_the_account_and_the_right_password_is_refused(client, settings):
    user = UserFactory()
    codes = [_login(client, user.email, f"guess {i}").status_code for i in range(200)]
    limit = settings.AXES_FAILURE_LIMIT
    assert codes[:limit - 1] == [200] * (limit - 1)  # the form again, "wrong password"
    assert set(codes[limit:]) == {429}
    response = _login(client, user.email, PASSWORD)
    assert response.status_code == 429 and b"Login locked for a while" in response.content
    assert b"too many failed logins" in response.content and not _logged_in(client)
    # the cool-off passes: the right password works again
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    response = _login(client, user.email, PASSWORD)
    assert response.status_code == 302 and _logged_in(client)


@pytest.mark.django_db
def test_one_client_address_is_locked_whatever_the_accounts(settings):
    victim = UserFactory()
    for i in range(settings.AXES_FAILURE_LIMIT):  # a different unknown account each time
        _login(Client(), f"nobody{i}@example.com", "wrong", ip="203.0.113.50")
    client = Client()
    assert _login(client, victim.email, PASSWORD, ip="203.0.113.50").status_code == 429
    other = Client()  # the account itself is not locked: from another address it logs in
    assert _login(other, victim.email, PASSWORD, ip="203.0.113.51").status_code == 302 and _logged_in(other)


@pytest.mark.django_db
def test_behind_a_proxy_the_client_address_comes_from_its_header(settings):
    settings.HANSEWEB_CLIENT_IP_HEADER = "X-Real-IP"
    user = UserFactory()
    for i in range(settings.AXES_FAILURE_LIMIT):  # everyone arrives from the proxy at 127.0.0.1
        _login(Client(), f"nobody{i}@example.com", "wrong", ip="127.0.0.1", HTTP_X_REAL_IP="203.0.113.60")
    assert _login(Client(), user.email, PASSWORD, ip="127.0.0.1", HTTP_X_REAL_IP="203.0.113.60").status_code == 429
    client = Client()  # another client behind the same proxy is not locked out
    assert _login(client, user.email, PASSWORD, ip="127.0.0.1", HTTP_X_REAL_IP="203.0.113.61").status_code == 302
    # a header that is not one address is not trusted
    from django.test import RequestFactory

    from hanseweb.throttle import client_ip

    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_REAL_IP="1.2.3.4, 5.6.7.8")
    assert client_ip(request) == "10.0.0.1"


@pytest.mark.django_db
def test_a_success_before_the_limit_starts_the_count_again(client, settings):
    user = UserFactory()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, user.email, "wrong")
    assert _login(client, user.email, PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, user.email, "wrong")
    assert _login(client, user.email, PASSWORD).status_code == 302


@pytest.mark.django_db
def test_the_test_client_login_still_works(client):
    user = UserFactory()
    assert client.login(username=user.email, password=PASSWORD) and _logged_in(client)
    assert not Client().login(username=user.email, password="wrong")


# --- rate limits -------------------------------------------------------------------------------

def _mails_to(address):
    return [m for m in mail.outbox if m.to == [address]]


@pytest.mark.django_db
def test_fifty_password_reset_posts_send_at_most_the_limit_of_mails(settings):
    user = UserFactory()
    per_address = int(settings.HANSEWEB_RATES["account_mail_per_address"].split("/")[0])
    per_ip = int(settings.HANSEWEB_RATES["password_reset_per_ip"].split("/")[0])
    codes = []
    with committed():
        for _ in range(50):
            codes.append(Client().post("/accounts/password/reset/", {"email": user.email},
                                       REMOTE_ADDR="203.0.113.9").status_code)
    assert codes[:per_ip] == [302] * per_ip and set(codes[per_ip:]) == {429}
    assert len(_mails_to(user.email)) == per_address
    # from 50 different addresses: still at most the limit to the one mailbox
    mail.outbox = []
    with committed():
        for i in range(50):
            assert Client().post("/accounts/password/reset/", {"email": user.email},
                                 REMOTE_ADDR=f"198.51.100.{i + 1}").status_code == 302
    assert _mails_to(user.email) == []  # the hour's allowance for this address is used up


@pytest.mark.django_db
def test_the_rate_limited_page_says_so(client, settings):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "password_reset_per_ip": "1/h"}
    client.post("/accounts/password/reset/", {"email": "a@example.com"})
    response = client.post("/accounts/password/reset/", {"email": "a@example.com"})
    assert response.status_code == 429 and b"Too many requests" in response.content
    assert client.get("/accounts/password/reset/").status_code == 200  # only posts are counted


def _signup(email, ip="203.0.113.20", name="Hester", password="a sturdy passphrase"):
    with committed():
        return Client().post("/accounts/signup/", {"email": email, "display_name": name, "password1": password,
                                                   "password2": password}, REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_fifty_signup_posts_send_at_most_the_limit_of_mails(settings):
    UserFactory(email="taken@example.com")
    per_address = int(settings.HANSEWEB_RATES["account_mail_per_address"].split("/")[0])
    per_ip = int(settings.HANSEWEB_RATES["signup_per_ip"].split("/")[0])
    codes = [_signup("taken@example.com").status_code for _ in range(50)]
    assert codes[:per_ip] == [200] * per_ip and set(codes[per_ip:]) == {429}
    assert len(_mails_to("taken@example.com")) == per_address
    mail.outbox = []
    for i in range(50):  # a new address, from many client addresses (display names are unique per site)
        assert _signup("fresh@example.com", ip=f"198.51.100.{i + 1}", name=f"Hester {i}").status_code == 200
    assert len(_mails_to("fresh@example.com")) == per_address
    assert User.objects.filter(email="fresh@example.com").count() == 1


@pytest.mark.django_db
def test_game_creation_is_rate_limited_per_account(client, settings):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "create_game_per_user": "3/h"}
    user = UserFactory()
    client.force_login(user)
    form = {"create": "1", "engine": "hansa", "title": "Spam", "players": "3", "listed": "invite",
            "seat_order": "random", "move_deadline_hours": "", "opt_start_player": "random", "seat_ask_losses": "False"}
    codes = [client.post(_create_url(), form).status_code for _ in range(5)]
    assert codes[3:] == [429, 429]
    from games.models import Game

    assert Game.objects.filter(title="Spam").count() == 3
    other = Client()
    other.force_login(UserFactory())
    assert other.post(_create_url(), form).status_code == 302  # another account is not limited


def _create_url():
    from django.urls import reverse

    return reverse("create_game")


@pytest.mark.django_db
def test_a_flood_of_replies_is_stored_and_processed_but_answers_are_limited(settings, started_game):
    from hanseweb.mail.inbound import store

    settings.HANSEWEB_REPLY_DOMAIN = "play.hanseweb.test"
    game, users = started_game("hansa", 3)
    player = user_of(game, game.to_act[0])
    reply_to = [m for m in mail.outbox if m.to == [player.email]][-1].extra_headers["Reply-To"]
    per_reply_address = int(settings.HANSEWEB_RATES["reply_answers_per_reply_address"].split("/")[0])
    mail.outbox = []
    with committed():
        for i in range(30):
            store(sender=player.email, recipients=[reply_to], subject="Re", text=f"nonsense {i}")
    rows = InboundEmail.objects.all()
    assert rows.count() == 30 and not rows.filter(status=InboundEmail.PENDING).exists()
    assert set(rows.values_list("status", flat=True)) == {InboundEmail.REJECTED}
    assert len(_mails_to(player.email)) == per_reply_address
    assert rows.filter(outcome__contains="not sent (rate limit)").count() == 30 - per_reply_address
    # per sender: replies to many reply addresses (a forged token is not answered at all, so use
    # the other players' genuine addresses and an intruder who does not play them)
    intruder = UserFactory()
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "reply_answers_per_sender": "4/h"}
    mail.outbox = []
    from games.email_replies import reply_address

    with committed():
        for seq in range(10):
            store(sender=intruder.email, recipients=[reply_address(game.pk, 0, 100 + seq)], subject="Re", text="x")
    assert len(_mails_to(intruder.email)) == 4
    assert OutboundEmail.objects.filter(to=intruder.email).count() == 4


# --- sign-up does not tell who has an account ----------------------------------------------------

def _page(response):
    """The page without what differs between any two requests (the CSRF token, the CSP nonce)."""
    return re.sub(rb' nonce="[^"]+"', b"", re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", response.content))


@pytest.mark.django_db
def test_signup_answers_the_same_for_a_new_and_an_existing_address():
    UserFactory(email="known@example.com", display_name="Known")
    existing = _signup("known@example.com", name="Imposter")
    new = _signup("unknown@example.com", name="Imposter")
    assert existing.status_code == new.status_code == 200
    assert _page(existing).replace(b"known@example.com", b"X") == _page(new).replace(b"unknown@example.com", b"X")
    assert [k for k, v in existing.headers.items()] == [k for k, v in new.headers.items()]
    # the mails differ: a confirmation for the new address, "you have an account" for the known one
    (confirm,) = _mails_to("unknown@example.com")
    (exists,) = _mails_to("known@example.com")
    assert "Confirm" in confirm.subject
    assert exists.subject == "You already have a Hanseweb account" and "Hello Known," in exists.body
    assert "/accounts/password/reset/" in exists.body and "/accounts/login/" in exists.body
    known = User.objects.get(email="known@example.com")
    assert known.display_name == "Known" and known.check_password(PASSWORD)  # nothing changed
    assert User.objects.count() == 2


@pytest.mark.django_db
def test_the_account_exists_mail_lets_an_unconfirmed_owner_set_a_password_and_confirms():
    """An attacker signed up first with someone else's address; the owner signs up too, gets the
    "you have an account" mail, chooses a password from it: the account is theirs and confirmed."""
    _signup("owner@example.com", name="Attacker", password="attacker passphrase")
    mail.outbox = []
    _signup("owner@example.com", name="Owner", password="owner passphrase 1")
    (message,) = _mails_to("owner@example.com")
    assert "not confirmed yet" in message.body
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+)", message.body).group(1)
    client = Client()
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": "owner passphrase 2", "new_password2": "owner passphrase 2"})
    assert response.status_code == 302
    user = User.objects.get(email="owner@example.com")
    assert user.is_active and user.email_confirmed and user.check_password("owner passphrase 2")
    assert not user.check_password("attacker passphrase")
    assert _login(Client(), "owner@example.com", "owner passphrase 2").status_code == 302


# --- refused posts of a signed-in account (hanseweb.throttle.RefusedPostsMiddleware) -------------

def _refusals_allowed(settings, rate):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "refused_posts_per_user": rate}


def _move(client, game, move, seq=None):
    game.refresh_from_db()
    return client.post(f"/games/{game.pk}/move/", {"move": move, "seq": game.move_count if seq is None else seq})


def _legal(game):
    game.refresh_from_db()
    return game.engine_obj.legal_moves(game.state_cache, game.to_act[0])


@pytest.mark.django_db
def test_a_flood_of_refused_moves_is_answered_429_and_changes_nothing(client, settings, started_game, monkeypatch):
    import time

    from games.models import Game, Move

    _refusals_allowed(settings, "5/10m")
    game, _users = started_game("hansa", 2)
    client.force_login(user_of(game, game.to_act[0]))
    # refused, each for its own reason: not a move, a stale form, garbage bytes
    answers = [_move(client, game, "fly to the moon"), _move(client, game, _legal(game)[0], seq=7),
               _move(client, game, "\x00\x01"), _move(client, game, "x" * 5000), _move(client, game, ""),
               _move(client, game, "nonsense")]
    assert [r.status_code for r in answers] == [302] * 6  # each says why, on the game page
    flood = [_move(client, game, "nonsense") for _ in range(20)]
    assert {r.status_code for r in flood} == {429} and "Too many requests" in flood[0].content.decode()
    legal = _move(client, game, _legal(game)[0])
    assert legal.status_code == 429  # the account's posts wait, a good one too
    assert Game.objects.get(pk=game.pk).move_count == 0 and not Move.objects.filter(game=game).exists()
    assert client.get(f"/games/{game.pk}/").status_code == 200  # reading is not limited

    later = time.time() + 601  # the ten minutes pass
    monkeypatch.setattr(time, "time", lambda: later)
    assert _move(client, game, _legal(game)[0]).status_code == 302
    assert Game.objects.get(pk=game.pk).move_count == 1


@pytest.mark.django_db
def test_accepted_moves_never_count_however_fast(client, settings, started_game):
    from games.models import Game

    _refusals_allowed(settings, "2/10m")
    game, users = started_game("hansa", 2)
    clients = {}
    for seat in range(2):
        clients[seat] = Client()
        clients[seat].force_login(user_of(game, seat))
    for _ in range(30):
        game.refresh_from_db()
        assert _move(clients[game.to_act[0]], game, _legal(game)[0]).status_code == 302
    assert Game.objects.get(pk=game.pk).move_count == 30


@pytest.mark.django_db
def test_a_forged_cross_site_post_does_not_count_against_the_account(settings, started_game):
    from games.models import Game

    _refusals_allowed(settings, "3/10m")
    game, _users = started_game("hansa", 2)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user_of(game, game.to_act[0]))
    forged = [_move(client, game, "nonsense").status_code for _ in range(10)]  # no CSRF token
    assert forged == [403] * 10
    client.get(f"/games/{game.pk}/")
    token = client.cookies["csrftoken"].value
    game.refresh_from_db()
    response = client.post(f"/games/{game.pk}/move/", {"move": _legal(game)[0], "seq": game.move_count,
                                                       "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and Game.objects.get(pk=game.pk).move_count == 1


@pytest.mark.django_db
def test_a_form_shown_again_counts_and_another_account_is_not_limited(client, settings):
    from django.urls import reverse

    from hanseweb.leagues.models import Club

    _refusals_allowed(settings, "3/10m")
    client.force_login(UserFactory())
    url = reverse("leagues:create_club")
    codes = [client.post(url, {"name": "", "default_deadline_hours": "x"}).status_code for _ in range(6)]
    assert codes[:4] == [200] * 4 and codes[4:] == [429, 429]  # the form again, then 429
    assert not Club.objects.exists()
    other = Client()
    other.force_login(UserFactory())
    assert other.post(url, {"name": "Der Bund", "default_deadline_hours": "48"}).status_code == 302


@pytest.mark.django_db
def test_a_block_is_remembered_by_the_process_and_learnt_by_another_at_its_next_refusal(client, settings,
                                                                                      started_game):
    from django.core.cache import caches

    from hanseweb import throttle

    _refusals_allowed(settings, "2/10m")
    game, _users = started_game("hansa", 2)
    client.force_login(user_of(game, game.to_act[0]))
    codes = [_move(client, game, "nonsense").status_code for _ in range(4)]
    assert codes == [302, 302, 302, 429]
    throttle.blocked.clear()  # another process: it has not seen this account's refusals
    assert _move(client, game, "nonsense").status_code == 302  # refused, and over the count
    assert _move(client, game, "nonsense").status_code == 429
    caches["default"].clear()  # this process answers from its memory, without the cache
    assert _move(client, game, _legal(game)[0]).status_code == 429


@pytest.mark.django_db
def test_founding_clubs_is_rate_limited_per_account(client, settings):
    from django.urls import reverse

    from hanseweb.leagues.models import Club

    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "create_club_per_user": "2/h"}
    client.force_login(UserFactory())
    codes = [client.post(reverse("leagues:create_club"), {"name": f"Club {i}", "default_deadline_hours": "48"}).status_code
             for i in range(4)]
    assert codes == [302, 302, 429, 429] and Club.objects.count() == 2
