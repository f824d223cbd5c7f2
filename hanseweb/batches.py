"""Periodic tasks read what is due in keyset batches (games, leagues and mail alike): one helper
in the project's core, so the mail layer needs nothing from ``games`` (tests/test_mail_layering.py)."""


def batches(queryset, key: str, nullable: bool = False):
    """The rows of ``queryset`` (values of ``key`` and ``pk``) in ``(key, pk)`` order, read through
    the index in keyset batches of ``HANSEWEB_TASK_BATCH_SIZE``: each batch starts after the last
    row of the one before, so a row the caller leaves due (a failure, a game another worker holds)
    does not come back in this run, and no OFFSET grows with the table. Stops when a batch is
    short (nothing more is due) or when ``HANSEWEB_TASK_SECONDS`` have passed since the run began
    (checked between batches; the next beat goes on from the oldest item still due). Yields pks.
    ``nullable``: rows whose key is NULL come last (as PostgreSQL's index keeps them)."""
    import time

    from django.conf import settings
    from django.db.models import F, Q

    size, budget = settings.HANSEWEB_TASK_BATCH_SIZE, settings.HANSEWEB_TASK_SECONDS
    started, after = time.monotonic(), None
    while True:
        page = queryset.order_by(F(key).asc(nulls_last=True), "pk")
        if after is not None and after[0] is None:
            page = page.filter(**{f"{key}__isnull": True, "pk__gt": after[1]})
        elif after is not None:
            # (key, pk) > after, with key >= after's as the index scan's lower bound
            later = Q(**{f"{key}__gte": after[0]}) & (Q(**{f"{key}__gt": after[0]}) | Q(pk__gt=after[1]))
            page = page.filter(later | Q(**{f"{key}__isnull": True}) if nullable else later)
        rows = list(page.values_list(key, "pk")[:size])
        for row in rows:
            yield row[1]
        if len(rows) < size or time.monotonic() - started >= budget:
            return
        after = rows[-1]
