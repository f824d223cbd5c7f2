import itertools
import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from hanseweb.batches import batches

from .models import Game

log = logging.getLogger(__name__)


# The columns of a game the periodic tasks read without moving it (never the snapshots).
SNAPSHOTS = ("state_cache", "undo_state", "setup_events")


@shared_task(name="games.tasks.sweep_deadlines")
def sweep_deadlines(now=None) -> int:
    """Play the spec's default decision for every seat whose move deadline has passed, oldest
    deadline first (``batches``: through the index of running games' deadlines)."""
    from .services import time_out

    now = now or timezone.now()
    made = 0
    for game_id in batches(Game.objects.filter(status=Game.RUNNING, deadline_at__lte=now), "deadline_at"):
        try:
            if hold_for_vacation(game_id, now):
                continue
            made += time_out(game_id, now=now)
        except Exception:  # one broken game must not stop the sweep
            log.exception("deadline sweep failed for game %s", game_id)
    return made


def _may_hold(game, user, day) -> bool:
    """Whether every limit registered by other apps (``hanseweb.hooks`` "hold_limits": the
    leagues app, where a league may cap or forbid vacation) lets ``user``'s vacation hold ``game``
    on ``day``; a limit that allows it also counts the day. Called under the game's lock."""
    from hanseweb import hooks

    return all(limit(game, user, day) for limit, _ in hooks.callables("hold_limits"))


def hold_for_vacation(game_id: int, now) -> bool:
    """A game whose deadline has passed while a seat that is to act is on vacation waits: its
    deadline is extended day by day (whole days, until it lies in the future) instead of the
    defaults being played, as far as the registered limits let each day be held (a league's cap, ``_may_hold``).
    Games where only others are to act go on as usual. Returns whether the game was held (its
    deadline is in the future again)."""
    from django.db import transaction

    from hanseweb.accounts.vacation import is_away

    from .models import Seat

    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).defer(*SNAPSHOTS) \
            .filter(pk=game_id, status=Game.RUNNING).first()
        if game is None or game.deadline_at is None or game.deadline_at > now:
            return False
        seats = Seat.objects.select_related("user").filter(game=game, number__in=game.to_act or [], resigned=False)
        away = [seat.user for seat in seats if is_away(seat.user, now)]
        if not away:
            return False
        extended = False
        while game.deadline_at <= now:
            day = timezone.localtime(game.deadline_at).date()  # the day this extension holds
            if not any(_may_hold(game, user, day) for user in away):
                break  # a league's cap is used up (or vacation is forbidden there): the game goes on
            game.deadline_at += timedelta(days=1)
            extended = True
        if extended:
            game.save(update_fields=["deadline_at"])
        return game.deadline_at > now


@shared_task(name="games.tasks.send_reminders")
def send_reminders(now=None) -> int:
    """One reminder per pending decision whose deadline is near (``Game.remind_at`` has come),
    under each player's policy (``notifications.may_remind``). Reads only the games whose reminder
    is due, oldest first, through their partial index (``batches``); locks each such game alone
    (one at a time, skipping one a move holds: the next beat finds it), reads its snapshot only to
    write a reminder, and clears its ``remind_at``: the game's next decision sets it again."""
    from django.db import transaction

    from . import notifications
    from .models import Seat

    now = now or timezone.now()
    sent = 0
    for game_id in batches(Game.objects.filter(remind_at__lte=now), "remind_at"):
        try:
            with transaction.atomic():
                game = (Game.objects.select_for_update(of=("self",), skip_locked=True).defer(*SNAPSHOTS)
                        .filter(pk=game_id, remind_at__lte=now).first())
                if game is None:
                    continue  # a move holds it (and sets its next reminder), or it was seen to
                if game.status == Game.RUNNING and game.deadline_at is not None and game.deadline_at > now:
                    seats = Seat.objects.select_related("user").filter(game=game, number__in=game.to_act or [],
                                                                       resigned=False)
                    for seat in seats:
                        if seat.reminded_seq == game.move_count:
                            continue
                        if notifications.may_remind(game, seat, now):
                            notifications.reminder(game, seat)
                            sent += 1
                        seat.reminded_seq = game.move_count
                        seat.save(update_fields=["reminded_seq"])
                # over (or past its deadline: the deadline sweep's turn): no reminder is due any more
                Game.objects.filter(pk=game.pk).update(remind_at=None)
        except Exception:  # one broken game must not stop the others; its reminder is dropped
            log.exception("reminder failed for game %s", game_id)
            Game.objects.filter(pk=game_id, remind_at__lte=now).update(remind_at=None)
    return sent


@shared_task(name="games.tasks.send_digests")
def send_digests(now=None) -> int:
    """The daily digests that are due: players with the digest policy whose hour has come today
    (in each player's time zone) and who have had none today. Reads only the accounts whose
    ``digest_due_at`` has come (or is empty: new, or changed since), through the partial index
    ``user_digest_due``, in batches (``batches``); each account is locked alone and gets its next
    due time (``notifications.next_digest_at``: tomorrow's hour once today's is made). Idempotent
    per day: each player's day is claimed by the update of ``digest_sent_at`` in the transaction
    that queues the mail, so a second beat (or a second worker) sends nothing more. Returns the
    mails queued."""
    from django.db import transaction
    from django.db.models import Q

    from hanseweb.accounts.models import User
    from hanseweb.timezones import zone_of

    from . import notifications

    now = now or timezone.now()
    due_now = Q(digest_due_at__isnull=True) | Q(digest_due_at__lte=now)

    def today_start(user):  # midnight of today in the player's time zone, or None before the hour
        local = timezone.localtime(now, zone_of(user))
        if local.hour < user.digest_hour:
            return None
        return local.replace(hour=0, minute=0, second=0, microsecond=0)

    readers = User.objects.filter(notify=User.NOTIFY_DIGEST, email_confirmed=True, is_active=True)
    sent = 0
    # the accounts to look at again first, then those whose hour has come: two index range scans
    # (an OR of both would read the whole index)
    for pk in itertools.chain(batches(readers.filter(digest_due_at__isnull=True), "digest_due_at", nullable=True),
                              batches(readers.filter(digest_due_at__lte=now), "digest_due_at")):
        with transaction.atomic():
            user = User.objects.select_for_update(skip_locked=True).filter(due_now, pk=pk).first()
            if user is None:
                continue  # another worker has it, or it was seen to meanwhile
            midnight = today_start(user)
            if midnight is None or (user.digest_sent_at is not None and user.digest_sent_at >= midnight):
                # its hour has not come yet today, or today's is sent: look again at the next one
                user.digest_due_at = notifications.next_digest_at(user, now)
                user.save(update_fields=["digest_due_at"])
                continue
            previous = user.digest_sent_at
            user.digest_sent_at = now
            user.digest_due_at = notifications.next_digest_at(user, now)  # tomorrow's hour
            user.save(update_fields=["digest_sent_at", "digest_due_at"])
            user.digest_sent_at = previous  # the digest lists what ended since the previous one
            sent += notifications.digest(user, now)
    return sent


@shared_task(name="games.tasks.send_chat_news")
def send_chat_news(now=None) -> int:
    """Table talk that no turn mail carried within the window, mailed to "every decision" readers
    (games/chat_mail.py). Returns the mails queued."""
    from .chat_mail import send_chat_news as send

    return send(now)


@shared_task(name="games.tasks.play_bots")
def play_bots(game_id: int, seq: int | None = None) -> int:
    """The bots of a practice game and the autopilot of resigned seats move (issue 30;
    docs/bots.md): each decision through the write path with the ``bot`` or ``autopilot``
    channel, never in the request that made their turn come. One task plays on while a bot or the
    autopilot is to act, for at most
    ``HANSEWEB_BOT_TASK_SECONDS``, then queues itself again, so a table of bots never holds a
    worker for long; a human's turn ends it (their move queues the next one). Returns moves made."""
    import time

    from django.conf import settings

    from . import services

    started, made = time.monotonic(), 0
    services.BOT_TASK.active = True
    try:
        while services.bot_step(game_id):
            made += 1
            if time.monotonic() - started > settings.HANSEWEB_BOT_TASK_SECONDS and not settings.CELERY_TASK_ALWAYS_EAGER:
                break
        else:
            return made
    finally:
        services.BOT_TASK.active = False
    services.queue_bots(game_id, None)
    return made


@shared_task(name="games.tasks.sweep_bots")
def sweep_bots(now=None) -> int:
    """Queue the bots' task again for every game whose practice bot or autopilot has been due for
    ``HANSEWEB_BOT_STALL_SECONDS`` without a move (``Game.bots_due_at`` has come): its task was
    refused by a broker that was down, or failed, or its worker was lost. Reads only such games,
    through their partial index (``batches``); locks each alone, skipping one a move holds (that
    move sets the time anew), and sets the time one stall period on, so a game is queued at most
    once a period however long its bots stay stalled. Returns the games queued."""
    from datetime import timedelta

    from django.conf import settings
    from django.db import transaction

    from . import services

    now = now or timezone.now()
    queued = 0
    for game_id in batches(Game.objects.filter(bots_due_at__lte=now), "bots_due_at"):
        try:
            with transaction.atomic():
                game = (Game.objects.select_for_update(of=("self",), skip_locked=True).defer(*SNAPSHOTS)
                        .filter(pk=game_id, bots_due_at__lte=now).first())
                if game is None:
                    continue  # a move holds it (and sets the time anew), or another sweep saw to it
                due = services.bots_to_act(game) or services.autopilot_to_act(game)
                game.bots_due_at = now + timedelta(seconds=settings.HANSEWEB_BOT_STALL_SECONDS) if due else None
                Game.objects.filter(pk=game.pk).update(bots_due_at=game.bots_due_at)
                if due:
                    log.warning("the bots of game %s have not moved since move %s: their task is queued again",
                                game.pk, game.move_count)
                    services.queue_bots(game.pk, game.move_count)
                    queued += 1
        except Exception:  # one broken game must not stop the sweep
            log.exception("bots sweep failed for game %s", game_id)
    return queued
