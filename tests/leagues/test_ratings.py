"""Ratings (OpenSkill Plackett–Luce) from finished games: direction of results, each game once,
unrated leagues skipped, seeding by rating, shown on the club page."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.models import Game
from hanseweb.leagues import ratings, services, tasks
from hanseweb.leagues.models import RatedGame, Rating, RatingChange, Table

pytestmark = pytest.mark.django_db


def finish_by_resignation(game, winner_seat=0):
    for seat in sorted(game.seats.all(), key=lambda s: -s.number):
        if seat.number != winner_seat:
            games.resign(game.pk, seat.user)
    game.refresh_from_db()
    assert game.status == Game.FINISHED


def test_ratings_move_with_results_and_each_game_counts_once(running_season, started_game):
    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    tables = list(Table.objects.filter(round__season=season).select_related("game"))
    for table in tables:
        finish_by_resignation(table.game)
    casual, _ = started_game("hansa", 3)  # a game outside any league counts too
    finish_by_resignation(casual, winner_seat=2)
    assert tasks.rate_finished_games() == 4
    assert ratings.rate_finished_games() == 0  # each game once
    assert RatedGame.objects.count() == 4 and RatingChange.objects.count() == 3 * 3 + 3  # tables of 3 (and a bye)
    for table in tables:
        winner = Rating.objects.get(user=table.game.seats.get(number=0).user, engine="hansa")
        losers = [Rating.objects.get(user=s.user, engine="hansa") for s in table.game.seats.exclude(number=0)]
        assert winner.mu > 25 > max(r.mu for r in losers)
        assert winner.ordinal > max(r.ordinal for r in losers)
        assert winner.games == 1 and winner.provisional
        assert winner.sigma < 25 / 3
    # seeding the next season by rating: the three table winners come first
    league = season.league
    nxt = services.create_season(league, organiser, starts_at=timezone.now(), rounds=2)
    for member in members:
        services.sign_up(nxt, member)
    services.seed_divisions(nxt, organiser, 3)
    top = set(nxt.divisions.get(level=1).entries.values_list("user_id", flat=True))
    winners = {t.game.seats.get(number=0).user_id for t in tables}
    assert winners <= top


def test_unrated_league_games_are_skipped(club_setup):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="Friendly", engine="hansa", table_size=3, rated=False)
    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1), rounds=1)
    for member in members[:3]:
        services.sign_up(season, member)
    services.seed_divisions(season, organiser, 1)
    services.start_season(season, organiser)
    services.start_due_rounds()
    finish_by_resignation(Table.objects.get().game)
    assert ratings.rate_finished_games() == 1
    assert RatedGame.objects.get().applied is False
    assert not Rating.objects.exists()


def test_club_page_shows_ratings(client, running_season):
    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    finish_by_resignation(Table.objects.filter(round__season=season).first().game)
    ratings.rate_finished_games()
    client.force_login(members[0])
    page = client.get(season.league.club.get_absolute_url()).content.decode()
    assert "Ratings" in page and "(provisional)" in page and "Latest rating changes" in page


def test_profile_shows_ratings_with_history(client, started_game):
    game, users = started_game("hansa", 3)
    finish_by_resignation(game, winner_seat=1)
    winner = game.seats.get(number=1).user
    client.force_login(winner)
    assert "No rated games yet" in client.get(reverse("profile")).content.decode()
    ratings.rate_finished_games()
    page = client.get(reverse("profile")).content.decode()
    assert "Hansa:" in page and "(provisional)" in page and game.title in page and "place 1" in page
