"""Fixtures for the league tests: a club with an organiser and members, and a running season."""
from datetime import timedelta

import pytest


@pytest.fixture
def club_setup(db):
    """(club, organiser, [members]) — ``members`` has 12 accounts with alphabetical names."""
    from hanseweb.leagues import services
    from hanseweb.leagues.models import ClubInvite  # noqa: F401

    from ..factories import UserFactory

    organiser = UserFactory(display_name="Organiser")
    club = services.create_club(organiser, "Lübeck Hansa Club")
    members = [UserFactory(display_name=f"Member {chr(65 + i)}") for i in range(12)]
    invite = services.create_invite(club, organiser)
    for member in members:
        services.join_club(invite.code, member)
    return club, organiser, members


@pytest.fixture
def running_season(club_setup):
    """12 members in 3 divisions of 4, Hansa at preferred size 3, 4 rounds a week apart; round 1
    due now. Returns (season, organiser, members)."""
    from django.utils import timezone

    from hanseweb.leagues import services

    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="Winter Hansa", engine="hansa", table_size=3)
    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1),
                                    rounds=4, round_days=7, deadline_hours=48)
    for member in members:
        services.sign_up(season, member)
    services.seed_divisions(season, organiser, 3)
    services.start_season(season, organiser)
    season.refresh_from_db()
    return season, organiser, members


@pytest.fixture
def started(running_season):
    """The running season of 3 divisions of 4 with round 1 started (a table of 3 per division),
    committed (the writes' on-commit work, e.g. the league pages' cache bumps, has run)."""
    from ..conftest import committed

    from hanseweb.leagues import services

    season, organiser, members = running_season
    with committed():
        services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    return season, organiser, members
