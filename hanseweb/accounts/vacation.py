"""Vacation: each account has a yearly allowance of days (``HANSEWEB_VACATION_DAYS_PER_YEAR``,
counted per calendar year in the site's time zone). While a player is away, the deadlines of games
waiting for them are extended day by day (``games.tasks.sweep_deadlines``); everyone in the game
is told who is away until when (turn mails). Days are charged when the vacation starts; coming
back early gives the whole unused days back."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import User

MAX_DAYS = 366


def notes(user: User, now=None) -> list[str]:
    """What other apps say about the player's vacation (``hanseweb.hooks`` "vacation_notes": the
    leagues app's caps and bans), shown with the answer to ``vacation N`` and on the profile page."""
    from hanseweb import hooks

    now = now or timezone.now()
    return [text for source, _ in hooks.callables("vacation_notes") for text in source(user, now)]


class VacationError(Exception):
    """A vacation request that cannot be granted; the message says why (nothing was changed)."""


def allowance() -> int:
    return max(0, int(settings.HANSEWEB_VACATION_DAYS_PER_YEAR))


def days_left(user: User, now=None) -> int:
    year = timezone.localtime(now or timezone.now()).year
    used = user.vacation_days_used if user.vacation_year == year else 0
    return max(0, allowance() - used)


def is_away(user: User, now=None) -> bool:
    return user.vacation_until is not None and user.vacation_until > (now or timezone.now())


def start(user: User, days: int, now=None) -> User:
    """Go away for ``days`` days from now (or add them to a vacation already running)."""
    now = now or timezone.now()
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_DAYS:
        raise VacationError(_("A vacation is 1 to %(max)d days long (for example: vacation 5).") % {"max": MAX_DAYS})
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        year = timezone.localtime(now).year
        if locked.vacation_year != year:
            locked.vacation_year, locked.vacation_days_used = year, 0
        left = days_left(locked, now)
        if days > left:
            raise VacationError(ngettext("You have %(left)d vacation day left this year; %(days)d were asked for. "
                                         "Nothing was changed.",
                                         "You have %(left)d vacation days left this year; %(days)d were asked for. "
                                         "Nothing was changed.", left) % {"left": left, "days": days})
        begin = locked.vacation_until if is_away(locked, now) else now
        locked.vacation_until = begin + timedelta(days=days)
        locked.vacation_days_used += days
        locked.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
    return locked


def end(user: User, now=None) -> User:
    """Come back now: the whole days not used are given back."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if not is_away(locked, now):
            raise VacationError(_("You are not on vacation."))
        unused = int((locked.vacation_until - now).total_seconds() // 86400)
        if locked.vacation_year == timezone.localtime(now).year:
            locked.vacation_days_used = max(0, locked.vacation_days_used - unused)
        locked.vacation_until = None
        locked.save(update_fields=["vacation_until", "vacation_days_used"])
    return locked
