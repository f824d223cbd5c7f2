from celery import shared_task

from . import services


@shared_task(name="hanseweb.leagues.tasks.start_due_rounds")
def start_due_rounds() -> int:
    """Beat: create the games of every league round that is due (idempotent)."""
    return services.start_due_rounds()
