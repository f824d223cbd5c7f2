"""Vacation: a yearly allowance of days, deadlines extended day by day while the player who is to
act is away, everyone told who is away until when, and the mail commands ``vacation 5``/``back``."""
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import email_replies, notifications
from games.models import Game
from games.tasks import sweep_deadlines
from hanseweb.accounts import vacation
from hanseweb.accounts.models import User
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail

from .conftest import committed, user_of
from .factories import UserFactory

DOMAIN = "play.hanseweb.test"


@pytest.fixture(autouse=True)
def settings_for_vacation(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN
    settings.HANSEWEB_VACATION_DAYS_PER_YEAR = 10


def _reply(user, to, text):
    mail.outbox = []
    with committed():
        row = store(sender=user.email, recipients=[to], subject="Re: your turn", text=text)
    row.refresh_from_db()
    user.refresh_from_db()
    return row


@pytest.mark.django_db
def test_the_allowance_is_yearly_and_coming_back_gives_unused_days_back():
    user = UserFactory()
    now = timezone.now()
    user = vacation.start(user, 4, now=now)
    assert user.vacation_until == now + timedelta(days=4) and vacation.days_left(user, now) == 6
    user = vacation.start(user, 2, now=now)  # added to the running vacation
    assert user.vacation_until == now + timedelta(days=6) and vacation.days_left(user, now) == 4
    with pytest.raises(vacation.VacationError, match="4 vacation days left"):
        vacation.start(user, 5, now=now)
    user.refresh_from_db()
    assert user.vacation_days_used == 6
    user = vacation.end(user, now=now + timedelta(days=1, hours=1))  # 4 whole days unused
    assert user.vacation_until is None and user.vacation_days_used == 2
    with pytest.raises(vacation.VacationError, match="not on vacation"):
        vacation.end(user, now=now)
    next_year = timezone.localtime(now).replace(month=1, day=2) + timedelta(days=366)
    assert vacation.days_left(user, next_year) == 10
    for bad in (0, -3, 400, True, "5"):
        with pytest.raises(vacation.VacationError):
            vacation.start(user, bad, now=now)


@pytest.mark.django_db
def test_a_four_player_game_waits_day_by_day_for_the_seat_on_vacation_only(started_game):
    game, users = started_game("hansa", 4, deadline=24)
    game.refresh_from_db()
    seat = game.to_act[0]
    away = user_of(game, seat)
    start = game.deadline_at - timedelta(hours=2)
    vacation.start(away, 4, now=start)
    before = game.move_count
    deadlines = []
    for day in range(1, 4):  # the deadline passes three times while the player is away
        with committed():
            assert sweep_deadlines(now=start + timedelta(days=day)) == 0
        game.refresh_from_db()
        deadlines.append(game.deadline_at)
        assert game.move_count == before and game.deadline_at > start + timedelta(days=day)
    assert [b - a for a, b in zip(deadlines, deadlines[1:])] == [timedelta(days=1)] * 2
    # back from vacation: the next passed deadline plays the default as usual
    with committed():
        assert sweep_deadlines(now=start + timedelta(days=4, hours=1)) >= 1
    game.refresh_from_db()
    assert game.move_count > before
    # another player's vacation does not hold the game up while they are not the one to act
    others = [user_of(game, n) for n in range(4) if n not in game.to_act]
    vacation.start(others[0], 3, now=start + timedelta(days=4, hours=1))
    moved = game.move_count
    with committed():
        assert sweep_deadlines(now=game.deadline_at + timedelta(minutes=1)) >= 1
    game.refresh_from_db()
    assert game.move_count > moved


@pytest.mark.django_db
def test_everyone_in_the_game_is_told_who_is_away_until_when(started_game):
    game, users = started_game("hansa", 3)
    seat = game.seats.select_related("user").get(number=game.to_act[0])
    away = next(u for u in users if u.pk != seat.user_id)
    vacation.start(away, 5)
    away.refresh_from_db()
    game = Game.objects.get(pk=game.pk)
    mail.outbox = []
    with committed():
        notifications.reminder(game, game.seats.select_related("user").get(pk=seat.pk))
    (reminder,) = mail.outbox
    until = timezone.localtime(away.vacation_until).strftime("%a %-d %b %Y")
    assert f"Away on vacation: {away.display_name} until {until}" in reminder.body
    assert "Away on vacation" in reminder.alternatives[0][0]


@pytest.mark.django_db
def test_vacation_and_back_by_mail(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    reply_to = email_replies.reply_address(game.pk, seat, 0)
    row = _reply(player, reply_to, "vacation 5\n\nOn Monday, Hanseweb wrote:\n> 1. something")
    assert row.status == InboundEmail.ACCEPTED and "you are away until" in row.outcome
    assert vacation.is_away(player) and player.vacation_days_used == 5
    assert game.moves.count() == 0
    (answer,) = mail.outbox
    assert "you are away until" in answer.body and "5 vacation days left" in answer.body
    row = _reply(player, reply_to, "Back")
    assert row.status == InboundEmail.ACCEPTED and not vacation.is_away(player)
    # a day begun counts: back at once, one day is charged, the four whole days left are given back
    assert player.vacation_days_used == 1 and "9 vacation days left" in mail.outbox[0].body


@pytest.mark.django_db
@pytest.mark.parametrize("text,reason", [("vacation 11", "10 vacation days left"), ("vacation abc", "not a number"),
                                         ("vacation", "not a number"), ("vacation 0", "1 to 366 days"),
                                         ("vacation -2", "not a number"), ("back", "not on vacation"),
                                         ("vacation 99999999999", "not a number")])
def test_bad_vacation_commands_get_a_clear_answer_and_change_nothing(started_game, text, reason):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    row = _reply(player, email_replies.reply_address(game.pk, seat, 0), text)
    assert row.status == InboundEmail.REJECTED and reason in row.outcome
    assert player.vacation_until is None and player.vacation_days_used == 0
    (answer,) = mail.outbox
    assert reason in answer.body and "Nothing was changed" in answer.body
    assert game.moves.count() == 0


@pytest.mark.django_db
def test_a_forged_reply_address_cannot_send_anyone_on_vacation(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    forged = f"play+{game.pk}-{seat}-0-aaaaaaaaaaaaaaaa@{DOMAIN}"
    row = _reply(player, forged, "vacation 5")
    assert row.status == InboundEmail.REJECTED and player.vacation_until is None and mail.outbox == []
    stranger = UserFactory()
    row = _reply(stranger, email_replies.reply_address(game.pk, seat, 0), "vacation 5")
    assert row.status == InboundEmail.REJECTED and stranger.vacation_until is None
    assert User.objects.filter(vacation_until__isnull=False).count() == 0


@pytest.mark.django_db
def test_vacation_on_the_profile_page(client):
    user = UserFactory()
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert "10 vacation days left this year" in page
    response = client.post("/accounts/profile/vacation/", {"days": "3"}, follow=True)
    user.refresh_from_db()
    assert vacation.is_away(user) and user.vacation_days_used == 3
    assert "You are on vacation until" in response.content.decode()
    for bad in ("abc", "-1", "", "99"):
        response = client.post("/accounts/profile/vacation/", {"days": bad}, follow=True)
        assert response.status_code == 200
        user.refresh_from_db()
        assert user.vacation_days_used == 3
    assert "vacation days left this year; 99 were asked for" in response.content.decode()
    client.post("/accounts/profile/vacation/", {"back": "1"})
    user.refresh_from_db()
    assert not vacation.is_away(user)
    assert client.get("/accounts/profile/vacation/").status_code == 405


@pytest.mark.django_db
def test_a_games_own_move_named_back_stays_a_move(started_game, monkeypatch):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    engine = type(game.engine_obj)
    real_legal, real_canonical = engine.legal_moves, engine.canonical
    monkeypatch.setattr(engine, "legal_moves", lambda self, state, s: ["back", *real_legal(self, state, s)])
    monkeypatch.setattr(engine, "canonical",
                        lambda self, state, s, text: "back" if text.strip().lower() == "back" else real_canonical(self, state, s, text))
    monkeypatch.setattr(engine, "apply", lambda self, state, s, move, _real=engine.apply:
                        _real(self, state, s, real_legal(self, state, s)[0] if move == "back" else move))
    row = _reply(player, email_replies.reply_address(game.pk, seat, 0), "back")
    assert "not on vacation" not in row.outcome  # read as the move, not as the command


@pytest.mark.django_db
def test_everyone_sees_who_is_away_until_when_on_the_game_page_at_once(started_game, client, settings):
    """The game page's body is cached per version: going on or off vacation is a new version, so
    every viewer (players and spectators) sees it on the next load, not after the cache expires."""
    settings.HANSEWEB_PAGE_CACHE_SECONDS = 3600
    game, users = started_game("hansa", 4)
    away, other = users[1], users[2]
    viewers = [other, away, None]  # another player, the player away, a spectator

    def page(user):
        client.logout()
        if user is not None:
            client.force_login(user)
        response = client.get(f"/games/{game.pk}/")
        assert response.status_code == 200
        return response.content.decode()

    for viewer in viewers:  # cached before the vacation
        assert "away on vacation" not in page(viewer)
    away = vacation.start(away, 3)
    until = timezone.localtime(away.vacation_until).strftime("%a %-d %b %Y")
    for viewer in viewers:
        body = page(viewer)
        assert f"{away.display_name}" in body and f"away on vacation until {until}" in body
        assert body.count("away on vacation until") == 1  # only the player who is away
    vacation.end(away)
    for viewer in viewers:
        assert "away on vacation" not in page(viewer)
    # a vacation that simply runs out is gone from the page too (no cached body outlives it)
    vacation.start(away, 1)
    assert "away on vacation until" in page(other)
    User.objects.filter(pk=away.pk).update(vacation_until=timezone.now() - timedelta(seconds=1))
    assert "away on vacation" not in page(other)
