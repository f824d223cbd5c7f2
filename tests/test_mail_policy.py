"""The notification policy per player (User.notify): every decision, debounced (one mail until
the player acts or opens the game page), a daily digest at a chosen hour, off. Turn mails,
reminders and result mails follow it. Time is simulated by passing ``now`` to the beat tasks."""
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import notifications, services
from games.models import Game, Seat
from games.tasks import send_digests, send_reminders, sweep_deadlines
from hanseweb.accounts.models import User

from .conftest import act, committed
from .factories import UserFactory


def _policy(user, notify, **extra):
    User.objects.filter(pk=user.pk).update(notify=notify, **extra)
    user.refresh_from_db()


def _game(users, deadline=None, title="Game"):
    with committed():
        game = services.create_game(creator=users[0], engine="hansa", title=title, players=len(users), options={},
                                    seat_order=Game.SEAT_ORDER_JOINED, move_deadline_hours=deadline)
        for user in users[1:]:
            services.join_game(game.pk, user)
    game.refresh_from_db()
    assert game.status == Game.RUNNING
    return game


def _turn_mails(user):
    return [m for m in mail.outbox if m.to == [user.email] and "Your turn" in m.subject]


def _seat(game, user):
    return Seat.objects.select_related("user").get(game=game, user=user)


def _day(k, hour=0):
    """Simulated time: k days after the real now (so every real deadline has passed), at ``hour``."""
    base = timezone.localtime(timezone.now()).replace(hour=0, minute=0, second=0, microsecond=0)
    return base + timedelta(days=k + 2, hours=hour)


@pytest.mark.django_db
def test_every_decision_is_the_default_and_the_profile_offers_every_policy(client):
    user = UserFactory()
    assert user.notify == User.NOTIFY_EVERY_TURN and user.mail_policy == User.NOTIFY_EVERY_TURN
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    for value in ("every_turn", "debounced", "digest", "off"):
        assert f'value="{value}"' in page
    response = client.post("/accounts/profile/", {"display_name": "Kapitän", "notify": "digest", "digest_hour": "19"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.notify, user.digest_hour) == ("digest", 19)
    response = client.post("/accounts/profile/", {"display_name": "Kapitän", "notify": "hourly", "digest_hour": "25"})
    assert response.status_code == 200  # refused with the form's errors, nothing changed
    user.refresh_from_db()
    assert (user.notify, user.digest_hour) == ("digest", 19)


@pytest.mark.django_db
def test_debounced_one_mail_until_the_player_acts_or_opens_the_game_over_a_simulated_week():
    idle, busy = UserFactory(), UserFactory()
    game = _game([idle, busy], deadline=24)
    _policy(idle, User.NOTIFY_DEBOUNCED)
    mail.outbox = []
    for day in range(7):  # nobody acts: the deadline sweep plays the defaults day after day
        with committed():
            assert sweep_deadlines(now=_day(day)) >= 1
    game.refresh_from_db()
    assert game.move_count >= 7
    assert len(_turn_mails(idle)) == 1  # one mail, then quiet however many decisions came
    assert len(_turn_mails(busy)) >= 3  # every decision
    assert _seat(game, idle).quiet_since_seq is not None
    # opening the game page ends the quiet: the next decision is mailed, once
    client = Client()
    client.force_login(idle)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert _seat(game, idle).quiet_since_seq is None
    assert client.get(f"/games/{game.pk}/").status_code == 200  # a second view: nothing to update
    mail.outbox = []
    for day in range(7, 11):
        with committed():
            sweep_deadlines(now=_day(day))
    assert len(_turn_mails(idle)) == 1
    # acting ends it too
    game.refresh_from_db()
    mail.outbox = []
    while _seat(game, idle).number not in game.to_act:
        with committed():
            sweep_deadlines(now=_day(12))
        game.refresh_from_db()
    number = _seat(game, idle).number
    act(game, number, game.engine_obj.legal_moves(game.state_cache, number)[0])
    assert _seat(game, idle).quiet_since_seq is None


@pytest.mark.django_db
def test_the_page_view_updates_only_when_the_seat_is_quiet():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    idle, other = UserFactory(), UserFactory()
    game = _game([idle, other])
    client = Client()
    client.force_login(idle)
    client.get(f"/games/{game.pk}/")
    with CaptureQueriesContext(connection) as quiet_off:
        client.get(f"/games/{game.pk}/")
    assert not [q for q in quiet_off.captured_queries if q["sql"].startswith("UPDATE") and "quiet" in q["sql"]]
    Seat.objects.filter(game=game, user=idle).update(quiet_since_seq=game.move_count)
    with CaptureQueriesContext(connection) as quiet_on:
        client.get(f"/games/{game.pk}/")
    assert len([q for q in quiet_on.captured_queries if q["sql"].startswith("UPDATE") and "quiet" in q["sql"]]) == 1
    assert _seat(game, idle).quiet_since_seq is None


@pytest.mark.django_db
def test_the_daily_digest_over_a_simulated_week():
    reader = UserFactory()
    _policy(reader, User.NOTIFY_DIGEST, digest_hour=8)
    early, late, open_ended = [UserFactory() for _ in range(3)]
    games = {
        "Soon": _game([reader, early], deadline=12, title="Soon"),
        "Later": _game([reader, late], deadline=48, title="Later"),
        "Whenever": _game([reader, open_ended], deadline=None, title="Whenever"),
    }
    for game in games.values():  # the reader is to act in every game
        reader_seat = _seat(game, reader).number
        while reader_seat not in game.to_act:
            number = game.to_act[0]
            act(game, number, game.engine_obj.legal_moves(game.state_cache, number)[0])
            game.refresh_from_db()
    assert [m for m in mail.outbox if m.to == [reader.email] and "Your turn" in m.subject] == []
    mail.outbox = []
    digests = []
    for hour in range(7 * 24):  # the beat, every hour of a week
        now = _day(0, hour)
        if hour == 2 * 24 + 12:  # day 3 noon: the reader plays "Whenever" on the web (no longer waiting)
            game = games["Whenever"]
            number = _seat(game, reader).number
            game.refresh_from_db()
            while number in game.to_act:
                act(game, number, game.engine_obj.legal_moves(game.state_cache, number)[-1])
                game.refresh_from_db()
        if hour == 4 * 24 + 12:  # day 5 noon: "Later" ends
            Game.objects.filter(pk=games["Later"].pk).update(
                status=Game.FINISHED, finished_at=now, to_act=[], result={"ranking": [1, 2], "scores": [10, 5]})
        before = len(mail.outbox)
        with committed():
            send_digests(now=now)
            assert send_digests(now=now) == 0  # idempotent: a second beat in the same hour sends nothing
        for message in mail.outbox[before:]:
            assert message.to == [reader.email]
            digests.append((hour, message))
    assert [hour % 24 for hour, _ in digests] == [8] * 7  # one a day, at the reader's hour
    assert [hour // 24 for hour, _ in digests] == list(range(7))
    first = digests[0][1].body
    assert "3 games are waiting" in first
    assert first.index("Soon") < first.index("Later") < first.index("Whenever")  # by time left
    assert "reply by mail:" not in first or "play+" in first
    day4 = digests[3][1].body
    assert "2 games are waiting" in day4 and "Whenever" not in day4
    day6 = digests[5][1].body
    assert "Ended since your last digest" in day6 and "Later: you placed 1" in day6
    assert "1 game is waiting" in day6 and "Soon" in day6
    assert "Ended since" not in digests[6][1].body  # told once
    assert [m for m in mail.outbox if "Your turn" in m.subject and m.to == [reader.email]] == []


@pytest.mark.django_db
def test_nothing_waiting_means_no_digest_but_the_day_is_claimed():
    reader = UserFactory()
    _policy(reader, User.NOTIFY_DIGEST, digest_hour=6)
    with committed():
        assert send_digests(now=_day(0, 5)) == 0
        assert send_digests(now=_day(0, 6)) == 0
    reader.refresh_from_db()
    assert reader.digest_sent_at == _day(0, 6) and mail.outbox == []


@pytest.mark.django_db
@pytest.mark.parametrize("policy,expected", [(User.NOTIFY_EVERY_TURN, 1), (User.NOTIFY_DEBOUNCED, 1),
                                             (User.NOTIFY_OFF, 0)])
def test_reminders_follow_the_policy(policy, expected):
    player, other = UserFactory(), UserFactory()
    game = _game([player, other], deadline=24)
    _policy(player, policy)
    Seat.objects.filter(game=game).update(quiet_since_seq=None)
    # make the player's the decision pending
    game.refresh_from_db()
    number = _seat(game, player).number
    while number not in game.to_act:
        act(game, game.to_act[0], game.engine_obj.legal_moves(game.state_cache, game.to_act[0])[0])
        game.refresh_from_db()
    Seat.objects.filter(game=game).update(quiet_since_seq=None, reminded_seq=None)
    mail.outbox = []
    with committed():
        send_reminders(now=game.deadline_at - timedelta(hours=1))
    assert len([m for m in mail.outbox if m.to == [player.email] and "Reminder" in m.subject]) == expected
    if policy == User.NOTIFY_DEBOUNCED:  # the reminder made it quiet: a later decision is not mailed
        assert _seat(game, player).quiet_since_seq == game.move_count


@pytest.mark.django_db
def test_a_quiet_debounced_seat_gets_no_reminder_and_a_digest_reader_only_before_the_next_digest():
    player, other = UserFactory(), UserFactory()
    game = _game([player, other], deadline=24)
    game.refresh_from_db()
    number = _seat(game, player).number
    while number not in game.to_act:
        act(game, game.to_act[0], game.engine_obj.legal_moves(game.state_cache, game.to_act[0])[0])
        game.refresh_from_db()
    deadline = _day(0, 10)
    Game.objects.filter(pk=game.pk).update(deadline_at=deadline)

    def reminders(now, **user_fields):
        User.objects.filter(pk=player.pk).update(**user_fields)
        Seat.objects.filter(game=game).update(reminded_seq=None)
        Game.objects.filter(pk=game.pk).update(deadline_at=deadline)  # as a fresh decision: its reminder is due
        mail.outbox = []
        with committed():
            send_reminders(now=now)
        return len([m for m in mail.outbox if m.to == [player.email] and "Reminder" in m.subject])

    Seat.objects.filter(game=game, user=player).update(quiet_since_seq=game.move_count)
    assert reminders(_day(0, 7), notify=User.NOTIFY_DEBOUNCED) == 0  # quiet: already told
    # digest at 08:00, before the 10:00 deadline: the digest lists it, no reminder
    assert reminders(_day(0, 7), notify=User.NOTIFY_DIGEST, digest_hour=8) == 0
    # digest at 12:00, after the deadline: reminded
    assert reminders(_day(0, 7), digest_hour=12) == 1
    # today's digest already went out at 06:00: the next is tomorrow, after the deadline: reminded
    assert reminders(_day(0, 7), digest_hour=6, digest_sent_at=_day(0, 6)) == 1


@pytest.mark.django_db
def test_result_mails_follow_the_policy():
    users = [UserFactory() for _ in range(4)]
    game = _game(users)
    for user, policy in zip(users, [User.NOTIFY_EVERY_TURN, User.NOTIFY_DEBOUNCED, User.NOTIFY_DIGEST,
                                    User.NOTIFY_OFF]):
        _policy(user, policy)
    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    game.status, game.result = Game.FINISHED, {"ranking": [1, 2, 3, 4], "scores": [4, 3, 2, 1]}
    mail.outbox = []
    with committed():
        notifications.game_over(game)
    assert sorted(m.to[0] for m in mail.outbox) == sorted([users[0].email, users[1].email])
