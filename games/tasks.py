import logging

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
