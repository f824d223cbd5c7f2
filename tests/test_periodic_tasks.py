"""The periodic tasks cost what they do, not what the site holds (issue 26): reminders and timeouts
read what is due oldest first in batches of ``HANSEWEB_TASK_BATCH_SIZE`` and reach every due game
over the runs whatever the number of running games; a run with nothing due sends the same queries
at any site size; the ratings read only games not yet rated (docs/architecture.md "Periodic tasks")."""
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Move, Seat, new_invite_code, remind_at_for
from games.tasks import send_reminders, sweep_bots, sweep_deadlines
from hanseweb.leagues.models import RatedGame
from hanseweb.leagues.ratings import rate_finished_games
from hanseweb.mail.models import OutboundEmail

from .conftest import committed
from .factories import UserFactory


@pytest.fixture
def one_batch_a_run(settings):
    """Batches of 7, and no time for a second batch in one run."""
    settings.HANSEWEB_TASK_BATCH_SIZE = 7
    settings.HANSEWEB_TASK_SECONDS = 0


def _copies(template: Game, deadlines, created_at, new_players=True) -> list[Game]:
    """Running games like ``template`` (its row and seats, the same position), one per deadline,
    all created at ``created_at``; each with players of its own unless ``new_players`` is False."""
    seats = list(Seat.objects.filter(game=template).order_by("number"))
    games = []
    for deadline in deadlines:
        game = Game.objects.get(pk=template.pk)
        game.pk, game.invite_code, game.deadline_at = None, new_invite_code(), deadline
        game.remind_at = remind_at_for(deadline, game.move_deadline_hours)
        games.append(game)
    games = Game.objects.bulk_create(games)
    Game.objects.filter(pk__in=[g.pk for g in games]).update(created_at=created_at)
    players = UserFactory.create_batch(len(seats) * len(games)) if new_players else None
    copies = []
    for i, game in enumerate(games):
        for j, seat in enumerate(seats):
            copy = Seat.objects.get(pk=seat.pk)
            copy.pk, copy.game = None, game
            if players:
                copy.user = players[i * len(seats) + j]
            copies.append(copy)
    Seat.objects.bulk_create(copies)
    return games


def _reminded(games) -> dict[tuple[int, int], int]:
    """Reminder mails queued per (game, seat) of ``games``."""
    ids, counts = {g.pk for g in games}, {}
    for spec in OutboundEmail.objects.filter(kind="reminder").values_list("wanted_while", flat=True):
        key = (spec["params"]["game"], spec["params"]["seat"])
        if key[0] in ids:
            counts[key] = counts.get(key, 0) + 1
    return counts


@pytest.mark.django_db
def test_every_due_seat_is_reminded_once_over_the_runs_however_many_newer_games_run(started_game, one_batch_a_run):
    template, _ = started_game("hansa", 2, deadline=24)  # reminded 6 hours before the deadline
    now = timezone.now()
    long_ago = now - timedelta(days=400)
    # 20 old games whose reminders are due (deadlines 1 to 5 hours away), 5 old ones not yet due;
    # 510 newer games, none due (their deadlines a week away): more than the old sweep's 500
    due = _copies(template, [now + timedelta(hours=1, minutes=11 * i) for i in range(20)], long_ago)
    early = _copies(template, [now + timedelta(days=3)] * 5, long_ago)
    newer = _copies(template, [now + timedelta(days=7)] * 510, now, new_players=False)
    to_act = {g.pk: g.to_act for g in due}
    assert all(to_act.values())

    sent = [send_reminders(now=now) for _ in range(4)]

    assert sent == [7, 7, 6, 0]  # one batch a run, the earliest reminders first, until none is due
    expected = {(pk, seat): 1 for pk, seats in to_act.items() for seat in seats}
    assert _reminded(due) == expected  # every seat to act in every due game, once
    assert _reminded(early + newer + [template]) == {}
    assert not Game.objects.filter(pk__in=[g.pk for g in due], remind_at__isnull=False).exists()
    assert Game.objects.filter(pk__in=[g.pk for g in early + newer], remind_at__isnull=False).count() == 515
    # the next decision of a reminded game is reminded again, once
    game = due[0]
    later = now + timedelta(days=1)
    Game.objects.filter(pk=game.pk).update(move_count=game.move_count + 1, deadline_at=later + timedelta(hours=2))
    assert send_reminders(now=later) >= 1
    assert sum(n for (pk, _), n in _reminded([game]).items()) == len(to_act[game.pk]) * 2


@pytest.mark.django_db
def test_the_reminders_go_in_the_order_they_fall_due(started_game, one_batch_a_run):
    template, _ = started_game("hansa", 2, deadline=24)
    now = timezone.now()
    # created newest first, due oldest first: the batch follows the reminder time, not the game's age
    games = []
    for i in range(10):
        games += _copies(template, [now + timedelta(hours=5) - timedelta(minutes=20 * i)], now - timedelta(days=i))
    send_reminders(now=now)
    first_run = {pk for pk, _ in _reminded(games)}
    by_reminder = sorted(games, key=lambda g: (g.remind_at, g.pk))
    assert first_run == {g.pk for g in by_reminder[:7]}


@pytest.mark.django_db
def test_every_passed_deadline_is_played_over_the_runs_oldest_first(started_game, one_batch_a_run):
    template, _ = started_game("hansa", 2, deadline=24)
    now = timezone.now()
    long_ago = now - timedelta(days=400)
    due = _copies(template, [now - timedelta(hours=20) + timedelta(minutes=i) for i in range(20)], long_ago)
    waiting = _copies(template, [now + timedelta(hours=3)] * 3, long_ago) + _copies(template, [now + timedelta(hours=3)] * 3, now)

    def timed_out():
        return list(Move.objects.filter(channel=Move.TIMEOUT).values_list("game_id", flat=True).distinct())

    runs = []
    for _ in range(4):
        with committed():
            sweep_deadlines(now=now)
        runs.append(set(timed_out()))
    oldest_first = [g.pk for g in due]  # made with rising deadlines
    assert runs[0] == set(oldest_first[:7])
    assert runs[1] == set(oldest_first[:14])
    assert runs[2] == runs[3] == set(oldest_first)
    assert not Game.objects.filter(pk__in=oldest_first, deadline_at__lte=now).exists()
    assert not Move.objects.filter(game__in=waiting).exists()


def _running_site(template, count, now):
    """``count`` running games none of whose reminders or deadlines is due, and ``count`` finished
    games already rated."""
    _copies(template, [now + timedelta(days=3)] * count, now - timedelta(days=30), new_players=False)
    finished = _copies(template, [None] * count, now - timedelta(days=60), new_players=False)
    Game.objects.filter(pk__in=[g.pk for g in finished]).update(
        status=Game.FINISHED, finished_at=now - timedelta(days=1), rated_at=now - timedelta(days=1),
        result={"ranking": [1, 2], "scores": [3, 1]})
    RatedGame.objects.bulk_create([RatedGame(game=g, applied=False) for g in finished])


@pytest.mark.django_db
def test_a_run_with_nothing_due_costs_the_same_at_10_and_at_40_games(started_game):
    template, _ = started_game("hansa", 2, deadline=24)
    now = timezone.now()
    Game.objects.filter(pk=template.pk).update(deadline_at=now + timedelta(days=3))
    RatedGame.objects.all().delete()

    def queries():
        counts = {}
        for name, task in [("reminders", lambda: send_reminders(now=now)), ("deadlines", lambda: sweep_deadlines(now=now)),
                           ("ratings", rate_finished_games), ("bots", lambda: sweep_bots(now=now))]:
            with CaptureQueriesContext(connection) as captured:
                assert task() == 0
            counts[name] = len(captured.captured_queries)
        return counts

    _running_site(template, 10, now)
    small = queries()
    _running_site(template, 30, now)
    assert Game.objects.filter(status=Game.RUNNING).count() == 41
    assert queries() == small
    assert small == {"reminders": 1, "deadlines": 1, "ratings": 1, "bots": 1}


@pytest.mark.django_db
def test_a_game_rated_once_is_not_read_again(started_game):
    """The ratings task reads the finished games without ``rated_at`` only: a game is read (and
    rated) once, oldest first, and then leaves its index."""
    template, users = started_game("hansa", 2)
    now = timezone.now()
    finished = _copies(template, [None] * 3, now, new_players=False)
    Game.objects.filter(pk__in=[g.pk for g in finished]).update(
        status=Game.FINISHED, result={"ranking": [1, 2], "scores": [3, 1]})
    for i, game in enumerate(finished):
        Game.objects.filter(pk=game.pk).update(finished_at=now - timedelta(hours=3 - i))
    assert rate_finished_games() == 3
    assert list(RatedGame.objects.order_by("pk").values_list("game_id", flat=True)) == [g.pk for g in finished]
    assert not Game.objects.filter(pk__in=[g.pk for g in finished], rated_at__isnull=True).exists()
    with CaptureQueriesContext(connection) as captured:
        assert rate_finished_games() == 0
    assert len(captured.captured_queries) == 1
    assert "rated_at" in captured.captured_queries[0]["sql"] and "ratedgame" not in captured.captured_queries[0]["sql"]


@pytest.mark.django_db
def test_a_game_copied_or_changed_in_sql_keeps_its_reminder_time(started_game):
    """On PostgreSQL the database keeps ``remind_at`` with the deadline whoever writes it (a bulk
    copy by a script, a data fix); RatedGame rows mark their game rated on every database."""
    if connection.vendor != "postgresql":
        pytest.skip("the remind_at trigger is PostgreSQL's; on SQLite the write path keeps it")
    template, _ = started_game("hansa", 2, deadline=48)  # reminded 12 hours before
    deadline = timezone.now() + timedelta(hours=5)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_game SET deadline_at = %s WHERE id = %s", [deadline, template.pk])
    template.refresh_from_db()
    assert template.remind_at == deadline - timedelta(hours=12)
    Game.objects.filter(pk=template.pk).update(remind_at=None)  # reminded: stays cleared
    template.refresh_from_db()
    assert template.remind_at is None and template.deadline_at == deadline
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_game SET move_deadline_hours = 2 WHERE id = %s", [template.pk])
    template.refresh_from_db()
    assert template.remind_at == deadline - timedelta(hours=1)
    assert send_reminders(now=deadline - timedelta(minutes=30)) == 1


@pytest.mark.django_db
def test_a_rated_game_row_marks_its_game_rated(started_game):
    template, _ = started_game("hansa", 2)
    game = _copies(template, [None], timezone.now(), new_players=False)[0]
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, finished_at=timezone.now())
    RatedGame.objects.bulk_create([RatedGame(game=game, applied=False)])
    game.refresh_from_db()
    assert game.rated_at is not None
    assert rate_finished_games() == 0


def _digest_readers(count, hour, sent=None):
    from hanseweb.accounts.models import User

    users = UserFactory.create_batch(count)
    User.objects.filter(pk__in=[u.pk for u in users]).update(notify=User.NOTIFY_DIGEST, digest_hour=hour,
                                                             digest_sent_at=sent)
    return [u.pk for u in users]


@pytest.mark.django_db
def test_every_due_digest_is_made_once_a_day_over_the_runs(one_batch_a_run):
    from games.tasks import send_digests
    from hanseweb.accounts.models import User

    ten = timezone.localtime(timezone.now()).replace(hour=10, minute=0, second=0, microsecond=0) + timedelta(days=2)
    due = _digest_readers(20, 8, sent=ten - timedelta(days=1))
    later_today = _digest_readers(5, 23, sent=ten - timedelta(days=1))
    others = [u.pk for u in UserFactory.create_batch(5)]  # every decision: no digest

    for day in (0, 1):
        now = ten + timedelta(days=day)
        claimed = []
        for _ in range(4):
            send_digests(now=now)
            claimed.append(set(User.objects.filter(digest_sent_at=now).values_list("pk", flat=True)))
        runs = [claimed[0]] + [b - a for a, b in zip(claimed, claimed[1:])]
        # a batch a run, in the order the accounts fell due, until every due digest is made; on the
        # second day the five late readers (looked at again since 23:00 yesterday) come first in
        # the index, are found not due until 23:00 today, and take five places of the first batch
        assert [len(run) for run in runs] == ([7, 7, 6, 0] if day == 0 else [2, 7, 7, 4])
        assert claimed[-1] == set(due)
    assert not User.objects.filter(pk__in=later_today + others, digest_sent_at__gte=ten).exists()
    # a reader whose hour changes is looked at again
    User.objects.filter(pk=later_today[0]).update(digest_hour=9)
    send_digests(now=ten + timedelta(days=1, minutes=5))
    assert User.objects.get(pk=later_today[0]).digest_sent_at == ten + timedelta(days=1, minutes=5)


@pytest.mark.django_db
def test_a_digest_run_with_nothing_due_costs_the_same_at_10_and_at_40_readers():
    from games.tasks import send_digests

    ten = timezone.localtime(timezone.now()).replace(hour=10, minute=0, second=0, microsecond=0) + timedelta(days=2)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert send_digests(now=ten + timedelta(hours=1)) == 0
        return len(captured.captured_queries)

    _digest_readers(10, 8, sent=ten)
    send_digests(now=ten)  # each sees its next hour: tomorrow
    small = queries()
    _digest_readers(30, 8, sent=ten)
    send_digests(now=ten)
    assert queries() == small == 2  # the accounts to look at again, those due: none


@pytest.mark.django_db
def test_a_chat_news_run_with_everyone_told_costs_the_same_at_3_and_at_12_talking_games(started_game, settings):
    from games.chat_mail import send_chat_news
    from games.models import ChatMessage

    settings.HANSEWEB_CHAT_MAIL_AFTER_MINUTES = 30
    template, users = started_game("hansa", 2)
    now = timezone.now() + timedelta(hours=2)  # the lines (said now) are past their window then

    def talk(count):
        games = _copies(template, [None] * count, now, new_players=False)
        lines = ChatMessage.objects.bulk_create([ChatMessage(game=g, seat=0, user=users[0], text="Moin", move_count=0)
                                                 for g in games])
        for line in lines:  # every reader has been told the line (by a turn mail)
            Seat.objects.filter(game_id=line.game_id).update(chat_told_id=line.pk)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert send_chat_news(now=now) == 0
        return len(captured.captured_queries)

    talk(3)
    few = queries()
    talk(9)
    assert queries() == few == 1
