"""When the club, league and season pages and the results feed change (issue 26).

Those pages are kept whole in the cache (``hanseweb.pagecache``) under the scopes ``SCOPES``:
``"leagues"`` is bumped after the commit of every write that changes what they show, ``"names"``
(a display name) by the accounts app. The leagues' own rows are caught where every write path
meets, the models' ``post_save``/``post_delete`` (a ``QuerySet.update`` sends neither: the write
paths that use one also save or log a row in the same transaction, or call ``changed``); the
games' by their write path's signals (a game ended, a seat resigned or forfeited). What moves
with every move (the club page's running games in the order of their last move) is read into the
club page's version instead, exactly.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete, post_save

SCOPE = "leagues"
SCOPES = (SCOPE, "names")

# Every leagues model a page shows (VacationHold and RatedGame are on none).
MODELS = ("Club", "Membership", "ClubInvite", "League", "Season", "Division", "Entry", "Round", "Table",
          "OrganiserAction", "Rating", "RatingChange")


def changed() -> None:
    """Every cached league page is stale once the current transaction commits (at once outside
    one). Cheap (one counter in the cache after the commit): call it rather than reason it away."""
    transaction.on_commit(_bump)


def _bump() -> None:
    from hanseweb import pagecache

    pagecache.bump(SCOPE)  # after the commit: at once


def _row_changed(sender, **kwargs) -> None:
    changed()


def _game_changed(sender, **kwargs) -> None:
    # any game: its end or a resigned seat changes the league pages of a league game, and the
    # ratings (every finished game is rated) those of every club; no query to tell them apart
    changed()


def connect(app_config) -> None:
    """Called once by ``LeaguesConfig.ready``."""
    from games import signals

    for name in MODELS:
        model = app_config.get_model(name)
        post_save.connect(_row_changed, sender=model, dispatch_uid=f"leagues.changes.save.{name}")
        post_delete.connect(_row_changed, sender=model, dispatch_uid=f"leagues.changes.delete.{name}")
    signals.game_ended.connect(_game_changed, dispatch_uid="leagues.changes.game_ended")
    signals.seat_resigned.connect(_game_changed, dispatch_uid="leagues.changes.seat_resigned")
