import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from .models import Game

log = logging.getLogger(__name__)


@shared_task(name="games.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    """Play the spec's default decision for every seat whose move deadline has passed."""
    from .services import time_out

    now = timezone.now()
    made = 0
    for game_id in Game.objects.filter(status=Game.RUNNING, deadline_at__lte=now).values_list("pk", flat=True)[:200]:
        try:
            made += time_out(game_id, now=now)
        except Exception:  # one broken game must not stop the sweep
            log.exception("deadline sweep failed for game %s", game_id)
    return made


def reminder_window(game: Game) -> timedelta:
    """Remind when a quarter of the time for a decision is left (at least one hour before)."""
    return max(timedelta(hours=1), timedelta(hours=game.move_deadline_hours) / 4)


@shared_task(name="games.tasks.send_reminders")
def send_reminders() -> int:
    """One reminder per pending decision whose deadline is near."""
    from django.db import transaction

    from . import notifications
    from .models import Seat

    now = timezone.now()
    sent = 0
    candidates = Game.objects.filter(status=Game.RUNNING, deadline_at__gt=now,
                                     deadline_at__lte=now + timedelta(days=8)).values_list("pk", flat=True)
    for game_id in candidates[:500]:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.deadline_at is None or game.deadline_at - now > reminder_window(game):
                continue
            seats = Seat.objects.select_related("user").filter(game=game, number__in=game.to_act, resigned=False)
            for seat in seats:
                if seat.reminded_seq == game.move_count:
                    continue
                if seat.user.wants_turn_mail:
                    notifications.reminder(game, seat)
                    sent += 1
                seat.reminded_seq = game.move_count
                seat.save(update_fields=["reminded_seq"])
    return sent
