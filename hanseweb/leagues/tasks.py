from celery import shared_task

from . import services


@shared_task(name="hanseweb.leagues.tasks.start_due_rounds")
def start_due_rounds() -> int:
    """Beat: create the games of every league round that is due (idempotent), and mark seasons
    whose games have all ended finished."""
    made = services.start_due_rounds()
    services.finish_completed_seasons()
    return made


@shared_task(name="hanseweb.leagues.tasks.rate_finished_games")
def rate_finished_games() -> int:
    """Beat: apply finished games to the OpenSkill ratings (each once, oldest first)."""
    from .ratings import rate_finished_games as rate

    return rate()
