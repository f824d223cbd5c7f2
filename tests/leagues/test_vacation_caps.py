"""A league may cap or forbid vacation (docs/leagues.md "Vacation"): a player's vacation holds the
league's games only up to the cap per season (0: never), while their other games get the full
extension; the ``vacation N`` mail command and the profile page tell the player."""
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import email_replies
from games.models import Game
from games.tasks import sweep_deadlines
from hanseweb.accounts import vacation
from hanseweb.leagues import services
from hanseweb.leagues import vacation as league_vacation
from hanseweb.leagues.models import Table, VacationHold
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail

from ..conftest import committed, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.HANSEWEB_VACATION_DAYS_PER_YEAR = 30
    settings.HANSEWEB_REPLY_DOMAIN = "play.hanseweb.test"


def _league_game(club_setup, vacation_days, name="Capped Hansa"):
    """A running season of a league with ``vacation_days``, round 1 started: (season, a game of it,
    the player to act in it)."""
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name=name, engine="hansa", table_size=4,
                                     exact_size=True, vacation_days=vacation_days)
    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1),
                                    rounds=1, round_days=7, deadline_hours=24)
    for member in members[:4]:
        services.sign_up(season, member)
    services.seed_divisions(season, organiser, 1)
    services.start_season(season, organiser)
    with committed():
        assert services.start_due_rounds() == 1
    game = Table.objects.get(round__season=season).game
    return season, game, user_of(game, game.to_act[0])


def _other_game_for(player, started_game_factory):
    """A game outside any league where ``player`` is the one to act (deadline 24 h)."""
    game, users = started_game_factory("hansa", 3, deadline=24)
    seat = game.seats.get(number=game.to_act[0])
    seat.user = player
    seat.save(update_fields=["user"])
    game.refresh_from_db()
    return game


def _day_by_day(games, start, days):
    """The deadlines are at ``start`` + 1 minute; run the sweep a minute after it and then once a
    day for ``days`` days. Returns per game the number of days it was held before a default was
    played (its move count first grew), or None when it was held every time."""
    before = {g.pk: g.move_count for g in games}
    held = {g.pk: None for g in games}
    for day in range(days + 1):
        with committed():
            sweep_deadlines(now=start + timedelta(days=day, minutes=2))
        for g in games:
            g.refresh_from_db()
            if held[g.pk] is None and g.move_count > before[g.pk]:
                held[g.pk] = day
    return held


def test_a_capped_league_holds_its_games_only_up_to_the_cap_other_games_get_the_full_extension(
        club_setup, started_game):
    season, league_game, player = _league_game(club_setup, vacation_days=2)
    other = _other_game_for(player, started_game)
    # both deadlines at the same moment, so each day of the vacation is one day for both games
    start = timezone.now()
    Game.objects.filter(pk__in=[league_game.pk, other.pk]).update(deadline_at=start + timedelta(minutes=1))
    vacation.start(player, 6, now=start)
    held = _day_by_day([league_game, other], start, 5)
    # LEAGUE cap 2: held on two days, then the deadline ran on and the default was played
    assert held[league_game.pk] == 2
    assert held[other.pk] is None  # the other game waited every day of the five
    other.refresh_from_db()
    assert other.move_count == 0 and other.deadline_at > start + timedelta(days=5)
    assert league_vacation.days_used(season, player) == 2


def test_a_league_that_forbids_vacation_is_never_held(club_setup, started_game):
    season, league_game, player = _league_game(club_setup, vacation_days=0)
    other = _other_game_for(player, started_game)
    start = timezone.now()
    Game.objects.filter(pk__in=[league_game.pk, other.pk]).update(deadline_at=start + timedelta(minutes=1))
    vacation.start(player, 3, now=start)
    held = _day_by_day([league_game, other], start, 2)
    assert held[league_game.pk] == 0 and held[other.pk] is None
    assert VacationHold.objects.count() == 0


def test_a_league_without_a_cap_holds_like_any_game(club_setup):
    season, league_game, player = _league_game(club_setup, vacation_days=None)
    start = timezone.now()
    Game.objects.filter(pk=league_game.pk).update(deadline_at=start + timedelta(minutes=1))
    vacation.start(player, 4, now=start)
    assert _day_by_day([league_game], start, 3) == {league_game.pk: None}
    assert VacationHold.objects.count() == 0


def test_one_day_counts_once_however_many_of_the_seasons_games_it_holds(club_setup):
    season, league_game, player = _league_game(club_setup, vacation_days=1)
    today = timezone.localdate()
    assert league_vacation.may_hold(league_game, player, today)
    assert league_vacation.may_hold(league_game, player, today)  # the same day again: already charged
    assert not league_vacation.may_hold(league_game, player, today + timedelta(days=1))  # cap reached
    assert league_vacation.days_used(season, player) == 1


def test_the_vacation_mail_command_and_the_profile_page_tell_the_player_about_the_cap(club_setup, client):
    season, league_game, player = _league_game(club_setup, vacation_days=3)
    _, forbidding, _ = _league_game(club_setup, vacation_days=0, name="Strict Hansa")
    seat = league_game.seats.get(user=player).number
    reply_to = email_replies.reply_address(league_game.pk, seat, league_game.move_count)
    mail.outbox = []
    with committed():
        row = store(sender=player.email, recipients=[reply_to], subject="Re: your turn", text="vacation 5")
    row.refresh_from_db()
    assert row.status == InboundEmail.ACCEPTED
    (answer,) = mail.outbox
    body = " ".join(answer.body.split())
    assert "Capped Hansa (season 1) holds your games for at most 3 vacation days per season (0 used)" in body
    assert forbidding.seats.filter(user=player).exists()  # the same four players sit in both leagues
    assert "Strict Hansa (season 1) does not allow vacation" in body
    client.force_login(player)
    page = " ".join(client.get("/accounts/profile/").content.decode().split())
    assert "Capped Hansa (season 1) holds your games for at most 3 vacation days per season" in page
    response = client.post("/accounts/profile/vacation/", {"back": "1"}, follow=True)
    response = client.post("/accounts/profile/vacation/", {"days": "2"}, follow=True)
    assert "at most 3 vacation days per season" in " ".join(response.content.decode().split())


def test_the_organiser_sets_the_cap_and_bad_values_change_nothing(club_setup, client):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="L", engine="hansa", table_size=3)
    assert league.vacation_days is None
    services.set_vacation_days(league, organiser, 0)
    league.refresh_from_db()
    assert league.vacation_days == 0
    for bad in (-1, 367, "3", True):
        with pytest.raises(services.LeagueError):
            services.set_vacation_days(league, organiser, bad)
    with pytest.raises(services.LeagueError):
        services.set_vacation_days(league, members[0], 5)  # not an organiser
    league.refresh_from_db()
    assert league.vacation_days == 0
    client.force_login(members[0])
    assert "Vacation is not allowed in this league" in client.get(league.get_absolute_url()).content.decode()
    with pytest.raises(services.LeagueError):
        services.create_league(club, organiser, name="M", engine="hansa", table_size=3, vacation_days=400)
