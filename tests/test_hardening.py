"""Issue 28, "Hardening, second round": what a fuzzer and a hostile member still found. One
section per item, most severe first; each test failed before its fix."""
import base64
import json

import pytest
from django.core import mail
from django.test import Client

from hanseweb.mail.models import InboundEmail

from .conftest import committed, user_of
from .factories import PASSWORD, UserFactory

# --- 1. the inbound webhook: no secret, no endpoint; bounded posts; a rate per source ---------------

POSTMARK = "/anymail/postmark/inbound/"
SECRET = "hook:secret"
AUTH = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(SECRET.encode()).decode()}


def _postmark(sender="bob@example.com", to="play+1-0-0-x@play.hanseweb.test", body="hello", **extra):
    return json.dumps({"FromFull": {"Email": sender, "Name": "Bob"}, "ToFull": [{"Email": to, "Name": ""}],
                       "Subject": "Re: your turn", "TextBody": body, "Headers": [], **extra})


def _no_secret(settings):
    settings.ANYMAIL = {k: v for k, v in settings.ANYMAIL.items() if k != "WEBHOOK_SECRET"}


@pytest.mark.django_db
def test_without_a_webhook_secret_there_is_no_inbound_endpoint(settings):
    """The default of deploy/env.example (replies off, no secret): an anonymous 10 MB post was
    stored; now the endpoint does not exist, whatever the reply domain."""
    _no_secret(settings)
    for reply_domain in ("", "play.hanseweb.test"):
        settings.HANSEWEB_REPLY_DOMAIN = reply_domain
        with committed():
            response = Client().post(POSTMARK, _postmark(body="x" * 10_000_000), content_type="application/json")
        assert response.status_code == 404
        assert Client().get(POSTMARK).status_code == 404
    # mailgun without its signing key (nor a webhook secret): no endpoint either, not a 500
    assert Client().post("/anymail/mailgun/inbound_mime/", {"body-mime": "x"}).status_code == 404
    assert InboundEmail.objects.count() == 0


@pytest.mark.django_db
def test_a_webhook_post_is_bounded_in_size(settings):
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": SECRET}
    limit = settings.HANSEWEB_INBOUND_MAX_BYTES
    assert limit <= 10 * 1024 * 1024
    with committed():
        response = Client().post(POSTMARK, _postmark(body="x" * (limit + 1)), content_type="application/json", **AUTH)
    assert response.status_code == 413 and InboundEmail.objects.count() == 0
    with committed():
        response = Client().post(POSTMARK, _postmark(body="x" * (limit // 2)), content_type="application/json", **AUTH)
    assert response.status_code == 200
    row = InboundEmail.objects.get()
    assert len(bytes(row.raw)) <= limit


@pytest.mark.django_db
def test_webhook_posts_are_rate_limited_per_source(settings):
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": SECRET}
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "inbound_per_ip": "3/h"}
    codes = []
    with committed():
        for i in range(5):
            codes.append(Client().post(POSTMARK, _postmark(body=f"line {i}"), content_type="application/json",
                                       REMOTE_ADDR="203.0.113.80", **AUTH).status_code)
    assert codes == [200, 200, 200, 429, 429]
    # anonymous posts count too (they are refused before their body is read)
    assert Client().post(POSTMARK, _postmark(), content_type="application/json",
                         REMOTE_ADDR="203.0.113.80").status_code == 429
    with committed():  # another source is not limited
        assert Client().post(POSTMARK, _postmark(), content_type="application/json",
                             REMOTE_ADDR="203.0.113.81", **AUTH).status_code == 200
    assert InboundEmail.objects.count() == 4


# --- 2. nobody locks another account out; 3. one client address, IPv6 by /64 ----------------------

LOGIN = "/accounts/login/"


def _login(client, email, password, ip):
    return client.post(LOGIN, {"username": email, "password": password}, REMOTE_ADDR=ip)


def _logged_in(client):
    return client.get("/").wsgi_request.user.is_authenticated


@pytest.mark.django_db
def test_failures_from_other_addresses_do_not_lock_the_owner_out(settings):
    victim = UserFactory(email="victim@example.com")
    limit = settings.AXES_FAILURE_LIMIT
    for i in range(limit * 2):  # the issue's attack: many addresses, the email's case alternating
        _login(Client(), "Victim@Example.COM" if i % 2 else "victim@example.com", "wrong", ip=f"198.51.100.{i + 1}")
    client = Client()
    assert _login(client, victim.email, PASSWORD, ip="192.0.2.99").status_code == 302 and _logged_in(client)


@pytest.mark.django_db
def test_the_pair_and_the_address_are_still_locked(settings):
    victim = UserFactory()
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit):  # one address guessing one account: that pair is locked
        _login(Client(), victim.email, "wrong", ip="203.0.113.70")
    assert _login(Client(), victim.email, PASSWORD, ip="203.0.113.70").status_code == 429
    for i in range(limit):  # one address trying many accounts: the address is locked
        _login(Client(), f"nobody{i}@example.com", "wrong", ip="203.0.113.71")
    assert _login(Client(), UserFactory().email, PASSWORD, ip="203.0.113.71").status_code == 429
    client = Client()  # the owner elsewhere is not
    assert _login(client, victim.email, PASSWORD, ip="192.0.2.7").status_code == 302 and _logged_in(client)


def test_an_ipv6_client_is_its_64_everywhere(rf, settings):
    from hanseweb.throttle import client_ip

    assert client_ip(rf.get("/", REMOTE_ADDR="2001:db8:1:2::1")) == "2001:db8:1:2::"
    assert client_ip(rf.get("/", REMOTE_ADDR="2001:db8:1:2:ffff:1:2:3")) == "2001:db8:1:2::"
    assert client_ip(rf.get("/", REMOTE_ADDR="2001:db8:1:3::1")) == "2001:db8:1:3::"
    assert client_ip(rf.get("/", REMOTE_ADDR="::ffff:192.0.2.5")) == "192.0.2.5"
    assert client_ip(rf.get("/", REMOTE_ADDR="192.0.2.5")) == "192.0.2.5"
    settings.HANSEWEB_CLIENT_IP_HEADER = "X-Real-IP"
    assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="2001:db8::7")) == "2001:db8::"
    assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="nonsense")) == "127.0.0.1"


@pytest.mark.django_db
def test_logins_from_one_ipv6_64_are_one_address(settings):
    user = UserFactory()
    limit = settings.AXES_FAILURE_LIMIT
    codes = [_login(Client(), user.email, "wrong", ip=f"2001:db8:1:2::{i + 1:x}").status_code
             for i in range(limit + 1)]
    assert codes[-1] == 429
    assert _login(Client(), user.email, PASSWORD, ip="2001:db8:1:2::ff").status_code == 429
    client = Client()  # another /64 is another client
    assert _login(client, user.email, PASSWORD, ip="2001:db8:1:3::1").status_code == 302


@pytest.mark.django_db
def test_bad_api_tokens_from_one_ipv6_64_are_throttled(settings):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "api_per_ip": "5/m"}
    codes = [Client().get("/api/v1/games", HTTP_AUTHORIZATION="Bearer hw_" + "x" * 43,
                          REMOTE_ADDR=f"2001:db8:5:6::{i + 1:x}").status_code for i in range(8)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}


@pytest.mark.django_db
def test_form_rate_limits_group_an_ipv6_64(settings):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "password_reset_per_ip": "2/h"}
    codes = [Client().post("/accounts/password/reset/", {"email": "a@example.com"},
                           REMOTE_ADDR=f"2001:db8:9:9::{i + 1:x}").status_code for i in range(3)]
    assert codes == [302, 302, 429]


# --- 4. no control, bidi or invisible characters in names ---------------------------------------

HOSTILE_NAMES = ["Bob\x1b[0m", "\u200b", "Bob\u202e", "\u2067Bob", "Bob\r\nBcc: x", "Bob\x00", " \u3000 ", "\u200d"]


def _signup(email, name, password="a sturdy passphrase", ip="203.0.113.20"):
    with committed():
        return Client().post("/accounts/signup/", {"email": email, "display_name": name, "password1": password,
                                                   "password2": password}, REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_hostile_display_names_are_refused_at_sign_up_and_in_the_profile(client):
    from hanseweb.accounts.models import User

    for i, name in enumerate(HOSTILE_NAMES):
        response = _signup(f"new{i}@example.com", name)
        assert response.status_code == 200 and b"Check your email" not in response.content, name
        assert response.context["form"].errors["display_name"], name
    assert not User.objects.filter(email__startswith="new").exists() and mail.outbox == []
    user = UserFactory(display_name="Kapitän")
    client.force_login(user)
    for name in HOSTILE_NAMES:
        response = client.post("/accounts/profile/", {"display_name": name, "notify": User.NOTIFY_OFF})
        assert response.status_code == 200 and response.context["form"].errors["display_name"], name
    user.refresh_from_db()
    assert user.display_name == "Kapitän"
    # what people do write passes: accents, other scripts, emoji with joiners, inner spaces (made single)
    for name in ["Jürgen Müller", "山田 太郎", "Zoë 👩\u200d🚀", "O'Brien-Smith"]:
        response = client.post("/accounts/profile/", {"display_name": name.replace(" ", "  "), "notify": User.NOTIFY_OFF})
        assert response.status_code == 302, name
        user.refresh_from_db()
        assert user.display_name == name


@pytest.mark.django_db
def test_hostile_club_league_season_and_game_names_are_refused(client):
    from games.models import Game
    from hanseweb.leagues import services
    from hanseweb.leagues.models import Club, League, Season

    organiser = UserFactory()
    client.force_login(organiser)
    for name in HOSTILE_NAMES:
        response = client.post("/clubs/new/", {"name": name, "default_deadline_hours": "72"})
        assert response.status_code == 200 and response.context["form"].errors["name"], name
    assert not Club.objects.exists()
    club = services.create_club(organiser, "Hanse Club")
    for name in HOSTILE_NAMES:
        response = client.post(f"/clubs/{club.slug}/leagues/new/", {
            "name": name, "engine": "hansa", "table_size": "3", "options": "{}", "rated": "on"})
        assert response.status_code == 200 and response.context["form"].errors["name"], name
    assert not League.objects.exists()
    league = services.create_league(club, organiser, name="Winter", engine="hansa", table_size=3)
    # (a season's name and a game's title are optional: spaces alone are no name, the default is used)
    optional = [name for name in HOSTILE_NAMES if name.strip()]
    for name in optional:
        response = client.post(f"/leagues/{league.pk}/seasons/new/", {
            "name": name, "starts_at": "2030-01-01 10:00", "rounds": "4", "round_days": "14",
            "promote": "1", "relegate": "1"})
        assert response.status_code == 200 and response.context["form"].errors["name"], name
    assert not Season.objects.exists()
    for name in optional:
        response = client.post("/games/new/", {
            "engine": "hansa", "title": name, "players": "3", "listed": "invite", "seat_order": "random",
            "move_deadline_hours": "48", "opt_start_player": "random", "seat_ask_losses": "False", "create": "1"})
        assert response.status_code == 200 and response.context["form"].errors["title"], name
    assert not Game.objects.exists()


# --- 5. the embedded SQLite file and var/ are owner-only ------------------------------------------

def test_the_embedded_database_and_var_are_created_owner_only(tmp_path):
    import os
    import stat
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "HANSEWEB_SECRET_KEY",
                        "HANSEWEB_REQUIRE_SERVICES")}
    env.update(HANSEWEB_SQLITE_PATH=str(tmp_path / "data" / "db.sqlite3"),
               HANSEWEB_SECRET_KEY_FILE=str(tmp_path / "var" / "secret_key"), DJANGO_SETTINGS_MODULE="hanseweb.settings")
    code = ("import os; os.umask(0o022); import django; django.setup(); from django.db import connection; "
            "connection.cursor().execute('create table t (x int)'); connection.cursor().execute('insert into t values (1)')")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=os.getcwd(), timeout=120)

    def mode(path):
        return stat.S_IMODE(path.stat().st_mode)

    assert mode(tmp_path / "data" / "db.sqlite3") == 0o600
    for extra in ("db.sqlite3-wal", "db.sqlite3-shm"):
        if (tmp_path / "data" / extra).exists():
            assert mode(tmp_path / "data" / extra) == 0o600
    assert mode(tmp_path / "data") == 0o700
    assert mode(tmp_path / "var") == 0o700 and mode(tmp_path / "var" / "secret_key") == 0o600


def test_a_readable_database_file_is_made_owner_only(tmp_path):
    import os
    import stat

    from hanseweb.private_files import private_file

    db = tmp_path / "db.sqlite3"
    for path in (db, tmp_path / "db.sqlite3-wal"):
        path.write_bytes(b"")
        os.chmod(path, 0o644)
    private_file(db)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "db.sqlite3-wal").stat().st_mode) == 0o600


# --- 6. two 500s: deeply nested JSON, a season in the year 9999 -----------------------------------

@pytest.mark.django_db
def test_deeply_nested_league_options_get_a_clear_error(client):
    from hanseweb.leagues import services
    from hanseweb.leagues.models import League

    organiser = UserFactory()
    club = services.create_club(organiser, "Hanse Club")
    client.force_login(organiser)
    # (the form takes a game's variants as fields of their own now, issue 25: a posted JSON text is
    # not read at all; before, this was a RecursionError, a 500)
    for i, options in enumerate(("[" * 100_000 + "]" * 100_000, "[" * 5000 + "]" * 5000,
                                 '{"a": ' * 30 + "1" + "}" * 30)):
        response = client.post(f"/clubs/{club.slug}/leagues/new/", {
            "name": f"Deep {i}", "engine": "hansa", "table_size": "3", "options": options})
        assert response.status_code in (200, 302)
    for league in League.objects.all():
        assert all(not isinstance(value, (list, dict)) for value in league.options.values())


@pytest.mark.django_db
def test_a_season_at_the_end_of_the_calendar_gets_a_clear_error(client):
    from hanseweb.leagues import services
    from hanseweb.leagues.models import Season

    organiser = UserFactory()
    club = services.create_club(organiser, "Hanse Club")
    league = services.create_league(club, organiser, name="Winter", engine="hansa", table_size=3)
    client.force_login(organiser)
    for starts, closes in (("9999-12-30 00:00", ""), ("2030-01-01 10:00", "9999-12-31 23:59"),
                           ("0001-01-01 00:00", "")):
        response = client.post(f"/leagues/{league.pk}/seasons/new/", {
            "name": "Far", "starts_at": starts, "signup_closes": closes, "rounds": "50", "round_days": "90",
            "promote": "1", "relegate": "1"})
        assert response.status_code == 200 and "five years" in response.content.decode()
    assert not Season.objects.exists()


# --- 7. no formulas in the standings CSV ----------------------------------------------------------

def test_csv_cells_that_a_spreadsheet_reads_as_formulas_are_neutralised():
    from hanseweb.leagues.views import spreadsheet_safe

    assert spreadsheet_safe('=HYPERLINK("http://evil.example/","x")') == '\'=HYPERLINK("http://evil.example/","x")'
    for value in ("+1", "-1+2", "@SUM(A1)", "\tx", "\rx"):
        assert spreadsheet_safe(value) == "'" + value
    assert spreadsheet_safe("Alice") == "Alice" and spreadsheet_safe(-3) == -3 and spreadsheet_safe(2.5) == 2.5


# --- 8. confirming an address does not hand the account to whoever chose its password -------------

def _link_in(message, fragment):
    import re

    return "/" + re.search(r"https?://[^\s\"<>]+" + fragment + r"[^\s\"<>]*", message.body).group(0).split("://", 1)[1].split("/", 1)[1]


@pytest.mark.django_db
def test_the_owner_confirming_an_address_an_attacker_signed_up_does_not_let_the_attacker_in():
    from hanseweb.accounts.models import User

    _signup("prey@example.com", "Prey", password="attacker's passphrase 1")
    (message,) = mail.outbox
    owner = Client()
    response = owner.get(_link_in(message, "/accounts/confirm/"))  # the owner clicks the link in their inbox
    assert response.status_code == 200
    user = User.objects.get(email="prey@example.com")
    assert not user.is_active and not owner.get("/").wsgi_request.user.is_authenticated
    attacker = Client()
    assert _login(attacker, "prey@example.com", "attacker's passphrase 1", ip="203.0.113.90").status_code == 200
    assert not _logged_in(attacker)
    # the owner does not know the attacker's password: a guess does not confirm
    response = owner.post(_link_in(message, "/accounts/confirm/"), {"password": "no idea"})
    assert response.status_code == 200 and response.context["form"].errors["password"]
    user.refresh_from_db()
    assert not user.is_active
    # the owner chooses their own password through the page's link: confirmed, the other one is dead
    choose = response.context["choose_url"]
    response = owner.get(choose, follow=True)
    set_url = response.redirect_chain[-1][0]
    with committed():
        response = owner.post(set_url, {"new_password1": "the owner's own phrase", "new_password2": "the owner's own phrase"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.is_active and user.email_confirmed
    assert _login(Client(), "prey@example.com", "attacker's passphrase 1", ip="203.0.113.91").status_code == 200
    good = Client()
    assert _login(good, "prey@example.com", "the owner's own phrase", ip="203.0.113.92").status_code == 302
    # the confirmation link is spent
    assert Client().get(_link_in(message, "/accounts/confirm/")).status_code == 400


# --- 9. a new password revokes the API tokens -----------------------------------------------------

@pytest.mark.django_db
def test_a_password_change_or_reset_revokes_the_api_tokens():
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from hanseweb.api.models import ApiToken

    user = UserFactory()

    def status(token):
        return Client().get("/api/v1/games", HTTP_AUTHORIZATION=f"Bearer {token}").status_code

    _, token = ApiToken.issue(user, "bot")
    assert status(token) == 200
    user.set_password("a brand new phrase")
    user.save()
    assert status(token) == 401
    # the reset form (a mailed link) does the same
    _, token = ApiToken.issue(user, "bot 2")
    assert status(token) == 200
    client = Client()
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    response = client.get(f"/accounts/password/reset/{uid}/{default_token_generator.make_token(user)}/", follow=True)
    response = client.post(response.redirect_chain[-1][0], {"new_password1": "another new phrase",
                                                            "new_password2": "another new phrase"})
    assert response.status_code == 302 and status(token) == 401
    # a login (which may rehash the password) or a profile save does not
    _, token = ApiToken.issue(user, "bot 3")
    assert _login(Client(), user.email, "another new phrase", ip="203.0.113.95").status_code == 302
    user.refresh_from_db()
    user.display_name = "Renamed"
    user.save()
    assert status(token) == 200


# --- issue 24 item 9: display names unique per site, case- and confusable-insensitive -------------

@pytest.mark.django_db
def test_a_display_name_that_looks_like_anothers_is_refused(client):
    from hanseweb.accounts.models import User

    UserFactory(display_name="Alice")
    for i, name in enumerate(["Alice", "alice", "ALICE", " Alice ", "\u0410lice", "AIice", "A1ice", "Ａｌｉｃｅ"]):
        response = _signup(f"copy{i}@example.com", name)
        assert response.status_code == 200 and response.context["form"].errors["display_name"], name
        assert "taken" in response.context["form"].errors["display_name"][0]
    assert not User.objects.filter(email__startswith="copy").exists()
    bob = UserFactory(display_name="Bob")
    client.force_login(bob)
    response = client.post("/accounts/profile/", {"display_name": "\u0430lice", "notify": User.NOTIFY_OFF})
    assert response.status_code == 200 and response.context["form"].errors["display_name"]
    # one's own name in another case is one's own; names that merely resemble are fine
    assert client.post("/accounts/profile/", {"display_name": "BOB", "notify": User.NOTIFY_OFF}).status_code == 302
    for name in ["Alicia", "Alice B", "Bobby"]:
        assert client.post("/accounts/profile/", {"display_name": name, "notify": User.NOTIFY_OFF}).status_code == 302


@pytest.mark.django_db
def test_the_database_keeps_display_names_unique():
    from django.db import IntegrityError, transaction

    from hanseweb.accounts.models import User

    UserFactory(display_name="Carol")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("other@example.com", "x", display_name="CAROL")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("other@example.com", "x", display_name="C\u0430rol")  # a Cyrillic a
