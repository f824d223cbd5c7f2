"""Issue 24 item 6: deadlines and the digest hour in the reader's time zone (the account's, guessed
from the browser), with the time left; the lobby shows who is to act and the deadline, sorted by
time left; after a move a link to the next game where it is your turn; the tab's title says when
it is your turn."""
import datetime
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Game
from games.tasks import send_digests
from games.templatetags.games_extras import time_left_text
from hanseweb.accounts.models import User

from .conftest import act, committed, user_of
from .factories import UserFactory

UTC = datetime.timezone.utc


def _deadline(game, at):
    Game.objects.filter(pk=game.pk).update(deadline_at=at)
    game.refresh_from_db()


def _at(hour, minute, days=3):
    base = (timezone.now() + timedelta(days=days)).astimezone(UTC)
    return base.replace(hour=hour, minute=minute, second=0, microsecond=0)


@pytest.mark.django_db
def test_the_browsers_zone_becomes_the_accounts_and_the_page_shows_its_time(client, started_game):
    game, users = started_game("hansa", 3, deadline=72)
    _deadline(game, _at(9, 25))
    user = users[0]
    assert user.time_zone == ""
    client.force_login(user)
    client.cookies["tz"] = "Europe/Amsterdam"
    html = client.get(f"/games/{game.pk}/").content.decode()
    user.refresh_from_db()
    assert user.time_zone == "Europe/Amsterdam"  # the first guess is kept
    assert "10:25 CET" in html and "09:25" not in html
    # the profile's setting wins over a later browser
    client.cookies["tz"] = "Asia/Tokyo"
    assert "10:25 CET" in client.get(f"/games/{game.pk}/").content.decode()
    response = client.post("/accounts/profile/", {"display_name": user.display_name, "time_zone": "America/New_York",
                                                 "notify": user.notify, "digest_hour": "8", "language": "en"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "America/New_York"
    assert "04:25 EST" in client.get(f"/games/{game.pk}/").content.decode()
    client.post("/accounts/profile/", {"display_name": user.display_name, "time_zone": "Mars/Olympus",
                                       "notify": user.notify, "digest_hour": "8", "language": "en"})
    user.refresh_from_db()
    assert user.time_zone == "America/New_York"  # not a zone: refused, nothing changed


@pytest.mark.django_db
def test_a_bad_cookie_changes_nothing(client, started_game):
    game, users = started_game("hansa", 3, deadline=72)
    _deadline(game, _at(9, 25))
    client.force_login(users[1])
    client.cookies["tz"] = "Europe/Nowhere; x=1"
    assert "09:25 UTC" in client.get(f"/games/{game.pk}/").content.decode()
    users[1].refresh_from_db()
    assert users[1].time_zone == ""


@pytest.mark.django_db
def test_sign_up_takes_the_browsers_zone(client, settings):
    client.cookies["tz"] = "Europe/Berlin"
    response = client.post("/accounts/signup/", {"email": "neu@example.com", "display_name": "Neu",
                                                "password1": "a long enough pass 42", "password2": "a long enough pass 42"})
    assert response.status_code in (200, 302)
    assert User.objects.get(email="neu@example.com").time_zone == "Europe/Berlin"


def test_time_left_in_words():
    now = timezone.now()
    assert time_left_text(now + timedelta(days=2, hours=3, minutes=30), now) == "2 days 3 h left"
    assert time_left_text(now + timedelta(days=1, hours=0, minutes=5), now) == "1 day 0 h left"
    assert time_left_text(now + timedelta(hours=5, minutes=20, seconds=3), now) == "5 h 20 min left"
    assert time_left_text(now + timedelta(minutes=12, seconds=30), now) == "12 min left"
    assert time_left_text(now - timedelta(minutes=1), now) == "time is up"


@pytest.mark.django_db
def test_game_page_shows_time_left(client, started_game):
    game, users = started_game("hansa", 3, deadline=72)
    _deadline(game, timezone.now() + timedelta(days=2, hours=3, minutes=30))
    client.force_login(users[0])
    assert "2 days 3 h left" in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_turn_mail_in_the_recipients_zone_with_time_left(started_game):
    game, users = started_game("hansa", 3, deadline=50)
    User.objects.filter(pk__in=[u.pk for u in users]).update(time_zone="Asia/Tokyo")
    seat = game.to_act[0]
    mail.outbox = []
    act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    game.refresh_from_db()
    nxt = user_of(game, game.to_act[0])
    sent = [m for m in mail.outbox if m.to == [nxt.email] and "Your turn" in m.subject]
    assert sent, "no turn mail"
    local = game.deadline_at.astimezone(datetime.timezone(timedelta(hours=9)))
    body = sent[-1].body
    assert local.strftime("%H:%M") + " JST" in body, body
    assert re.search(r"\(2 days 1 h left\)|\(2 days 2 h left\)", body), body


@pytest.mark.django_db
def test_the_digest_comes_at_the_readers_hour_in_the_readers_zone(started_game):
    game, users = started_game("hansa", 2)
    reader = user_of(game, game.to_act[0])
    User.objects.filter(pk=reader.pk).update(notify=User.NOTIFY_DIGEST, digest_hour=8, time_zone="Asia/Tokyo")
    day = (timezone.now() + timedelta(days=2)).astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    mail.outbox = []
    with committed():
        # 22:00 UTC is 07:00 in Tokyo: not yet
        assert send_digests(now=day + timedelta(hours=22)) == 0
        # 23:00 UTC is 08:00 in Tokyo: the digest
        assert send_digests(now=day + timedelta(hours=23)) == 1
        assert send_digests(now=day + timedelta(hours=23, minutes=5)) == 0
        # 08:00 UTC the next (UTC) day is 17:00 in Tokyo, the same Tokyo day: nothing more
        assert send_digests(now=day + timedelta(days=1, hours=8)) == 0
        # the next Tokyo morning
        assert send_digests(now=day + timedelta(days=1, hours=23)) == 1


@pytest.mark.django_db
def test_lobby_shows_who_acts_and_the_deadline_sorted_by_time_left(client, started_game):
    me = UserFactory()
    rows = []
    for hours, title in ((70, "Far"), (5, "Near"), (30, "Middle")):
        game, users = started_game("hansa", 2, deadline=72)
        Game.objects.filter(pk=game.pk).update(title=title, deadline_at=timezone.now() + timedelta(hours=hours))
        waiting = next(s for s in game.seats.all() if s.number not in game.to_act)
        type(waiting).objects.filter(pk=waiting.pk).update(user=me)
        rows.append((title, user_of(game, game.to_act[0]).display_name))
    client.force_login(me)
    html = client.get("/").content.decode()
    order = [html.index(f">{title}<") for title in ("Near", "Middle", "Far")]
    assert order == sorted(order)
    for title, name in rows:
        assert f"to act: {name}" in html
    assert "4 h 59 min left" in html or "5 h 0 min left" in html
    assert "<title>Hanseweb</title>" in html  # not my turn anywhere


@pytest.mark.django_db
def test_titles_say_when_it_is_your_turn_and_a_move_leads_to_the_next_game(client, started_game):
    first, users = started_game("hansa", 2)
    second, users2 = started_game("hansa", 2)
    me = user_of(first, first.to_act[0])
    # I am also the seat to act in the second game
    seat2 = second.seats.get(number=second.to_act[0])
    type(seat2).objects.filter(pk=seat2.pk).update(user=me)
    client.force_login(me)
    assert "<title>(2) Your turn — Hanseweb</title>" in client.get("/").content.decode()
    page = client.get(f"/games/{first.pk}/").content.decode()
    assert re.search(r"<title>Your turn — Test hansa · Hanseweb</title>", page)
    other = user_of(first, next(n for n in range(2) if n not in first.to_act))
    # my move in the first game: placement passes the turn on
    move = first.engine_obj.legal_moves(first.state_cache, first.to_act[0])[0]
    response = client.post(f"/games/{first.pk}/move/", {"move": move, "seq": first.move_count})
    assert response.status_code == 302 and response["Location"] == f"/games/{first.pk}/#play"
    page = client.get(response["Location"]).content.decode()
    assert f'href="/games/{second.pk}/"' in page and "Next game where it is your turn" in page
    assert "<title>Your turn" not in page
    # the notice is shown once
    assert "Next game where it is your turn" not in client.get(f"/games/{first.pk}/").content.decode()
    client.force_login(other)
    assert "<title>Your turn — Test hansa · Hanseweb</title>" in client.get(f"/games/{first.pk}/").content.decode()


NL_MONTHS = "jan feb mrt apr mei jun jul aug sep okt nov dec".split()
DE_MONTHS = "Jan Feb Mär Apr Mai Jun Jul Aug Sep Okt Nov Dez".split()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["nl", "de", "en"])
def test_dates_are_written_as_the_readers_language_writes_them(client, started_game, language):
    """Dutch writes "za 28 nov 2026" (Django's "M" capitalises: "28 Nov", "29 Mei"), German
    "Sa, 28. Nov 2026"; the game page's deadline and log times and the turn mail alike."""
    game, users = started_game("hansa", 3, deadline=72)
    User.objects.filter(pk__in=[u.pk for u in users]).update(language=language, time_zone="Europe/Amsterdam")
    mail.outbox = []
    act(game, game.to_act[0], game.engine_obj.legal_moves(game.state_cache, game.to_act[0])[0])
    game.refresh_from_db()
    deadline = game.deadline_at.astimezone(ZoneInfo("Europe/Amsterdam"))
    reader = user_of(game, game.to_act[0])
    client.force_login(reader)
    page = re.sub(r"<[^>]+>", " ", client.get(f"/games/{game.pk}/").content.decode())
    body = [m for m in mail.outbox if m.to == [reader.email]][-1].body
    day, month = deadline.day, deadline.month - 1
    expected = {"nl": f"{day} {NL_MONTHS[month]}", "de": f"{day}. {DE_MONTHS[month]}",
                "en": f"{day} {deadline.strftime('%b')}"}[language]
    for text in (page, body):
        assert expected in text, text[:3000]
    if language == "nl":
        capitalised = [m.capitalize() for m in NL_MONTHS]
        assert not re.search(r"\b\d{1,2} (%s)\b" % "|".join(capitalised), page + body)
