"""Ratings per game title with OpenSkill's Plackett–Luce model (docs/leagues.md "Ratings").

Every finished game counts once (``RatedGame``), league or not, except the games of a league
marked not rated. Places come from the game's result (ties share a place; resigned seats are
ranked below those who played on). A beat task (``hanseweb.leagues.tasks.rate_finished_games``)
applies the finished games in the order they finished.
"""
from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Game

from .models import RatedGame, Rating, RatingChange

_MODEL = None


def model():
    global _MODEL
    if _MODEL is None:
        from openskill.models import PlackettLuce

        _MODEL = PlackettLuce()
    return _MODEL


def ordinal_of(user, engine: str) -> float | None:
    rating = Rating.objects.filter(user=user, engine=engine).first()
    return None if rating is None else rating.ordinal


def is_rated(game: Game) -> bool:
    try:
        table = game.league_table
    except ObjectDoesNotExist:  # not a league game
        table = None
    return table is None or table.round.season.league.rated


def rate_game(game_id: int) -> bool:
    """Apply one finished game to its players' ratings. Returns False if it was already applied
    (or is not finished). Safe against concurrent calls: the ``RatedGame`` row is inserted first,
    so a second caller waits for the first and then finds it."""
    try:
        with transaction.atomic():
            game = Game.objects.defer("state_cache", "undo_state", "setup_events") \
                .filter(pk=game_id, status=Game.FINISHED).first()
            if game is None:
                return False
            # the game leaves the ratings task's index (Game.rated_at) with this transaction
            Game.objects.filter(pk=game.pk).update(rated_at=timezone.now())
            if RatedGame.objects.filter(game=game).exists():
                return False
            ranking = (game.result or {}).get("ranking")
            rated = is_rated(game) and bool(ranking) and game.players >= 2
            RatedGame.objects.create(game=game, applied=rated)
            if not rated:
                return True
            seats = sorted(game.seats.all(), key=lambda s: s.number)
            for seat in seats:
                Rating.objects.get_or_create(user_id=seat.user_id, engine=game.engine,
                                             defaults={"mu": model().mu, "sigma": model().sigma})
            ratings = {r.user_id: r for r in Rating.objects.select_for_update().order_by("pk")
                       .filter(engine=game.engine, user_id__in=[s.user_id for s in seats])}
            before = [ratings[s.user_id] for s in seats]
            teams = [[model().rating(mu=r.mu, sigma=r.sigma)] for r in before]
            after = model().rate(teams, ranks=[ranking[s.number] for s in seats])
            for seat, rating, team in zip(seats, before, after):
                RatingChange.objects.create(rating=rating, game=game, place=ranking[seat.number],
                                            mu_before=rating.mu, sigma_before=rating.sigma,
                                            mu_after=team[0].mu, sigma_after=team[0].sigma)
                rating.mu, rating.sigma, rating.games = team[0].mu, team[0].sigma, rating.games + 1
                rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
            return True
    except IntegrityError:
        return False


def rate_finished_games(limit: int | None = None) -> int:
    """Apply every finished game not yet rated, in the order they finished: only the finished
    games without ``Game.rated_at``, read through their partial index in batches (``hanseweb.batches.batches``),
    so a run costs what it rates, not the games rated before. Returns how many were applied."""
    from hanseweb.batches import batches

    done = 0
    for number, game_id in enumerate(batches(Game.objects.filter(status=Game.FINISHED, rated_at__isnull=True),
                                             "finished_at", nullable=True)):
        if limit is not None and number >= limit:
            break
        done += rate_game(game_id)
    return done
