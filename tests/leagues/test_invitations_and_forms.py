"""Issue 25 items 3 and 6: invitations that survive sign-up (a game's join link and a club's
invitation link: sign up, confirm, and the newcomer is at the table or in the club; the login
page's "Sign up" keeps ?next=; the club page keeps the open links with their use counts and a way
to revoke one), and organiser forms that speak the organiser's language (styled, a date and time
picker in the organiser's time zone, variant options as fields from the engine's option_specs,
seasons listed by name, Swiss round 1 seeded by rating)."""
import re
from datetime import datetime, timedelta, timezone as dt_timezone
from urllib.parse import quote

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.models import Game
from hanseweb.accounts.models import User
from hanseweb.leagues import services
from hanseweb.leagues.models import League, Membership, Rating, Table

from ..conftest import committed
from ..factories import UserFactory

pytestmark = pytest.mark.django_db


def _sign_up_and_confirm(client, next_path, email="newcomer@example.com"):
    """Sign up (with ``next``) and open the confirmation link from the mail in a fresh browser."""
    page = client.get(reverse("signup") + "?next=" + quote(next_path)).content.decode()
    assert f'name="next" value="{next_path}"' in page
    mail.outbox = []
    with committed():
        response = client.post(reverse("signup"), {"email": email, "display_name": "Newcomer",
                                                   "password1": "a long enough pass phrase 1",
                                                   "password2": "a long enough pass phrase 1", "next": next_path})
    assert response.status_code == 200
    (message,) = [m for m in mail.outbox if m.to == [email]]
    link = re.search(r"https?://\S+/confirm/\S+", message.body).group(0)
    client.logout()
    client.cookies.clear()  # the mail opened in another browser: no session from before
    path = link[link.index("/accounts/") if "/accounts/" in link else link.index("/confirm/"):]
    assert client.get(path).status_code == 200  # the page asks for the password chosen at sign-up (issue 28.8)
    return client.post(path, {"password": "a long enough pass phrase 1"}, follow=True)


def test_a_newcomer_by_a_games_join_link_is_at_the_table_after_confirming(client, make_user):
    creator = make_user()
    game = games.create_game(creator=creator, engine="hansa", title="Friday table", players=3, listed=False)
    response = client.get(game.invite_url(), follow=True)
    page = response.content.decode()
    assert "sign up" in page.lower()
    # the sign-up link carries the join link itself (not the game page, which alone would not do)
    assert reverse("signup") + "?next=" + quote(game.invite_url()) in page
    response = _sign_up_and_confirm(client, game.invite_url())
    newcomer = User.objects.get(email="newcomer@example.com")
    assert game.seats.filter(user=newcomer).exists()  # at the table
    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert "You have joined" in response.content.decode()


def test_a_newcomer_by_a_clubs_invitation_link_is_in_the_club_after_confirming(client, make_user):
    organiser = make_user()
    club = services.create_club(organiser, "Visby Traders")
    invite = services.create_invite(club, organiser)
    page = client.get(invite.get_absolute_url()).content.decode()  # logged out: not a bare login page
    assert "Visby Traders" in page
    assert reverse("signup") + "?next=" + quote(invite.get_absolute_url()) in page
    response = _sign_up_and_confirm(client, invite.get_absolute_url())
    newcomer = User.objects.get(email="newcomer@example.com")
    assert Membership.objects.filter(club=club, user=newcomer).exists()
    assert response.redirect_chain[-1][0] == club.get_absolute_url()
    invite.refresh_from_db()
    assert invite.uses == 1


def test_the_login_pages_sign_up_keeps_next(client):
    page = client.get(reverse("login") + "?next=/clubs/join/abc/").content.decode()
    assert 'href="/accounts/signup/?next=/clubs/join/abc/"' in page or \
        'href="/accounts/signup/?next=%2Fclubs%2Fjoin%2Fabc%2F"' in page
    page = client.get(reverse("signup") + "?next=//evil.example/").content.decode()
    assert 'name="next" value="//evil' not in page  # only paths of this site


def test_the_club_page_keeps_open_links_with_use_counts_and_revoke(client, club_setup):
    club, organiser, members = club_setup  # the fixture's link was used by the 12 members
    invite = club.invites.get()
    client.force_login(organiser)
    client.post(reverse("leagues:invite", args=[club.slug]))
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Open invitation links" in page
    assert invite.get_absolute_url() in page and "used 12 times" in page
    client.post(reverse("leagues:revoke_invite", args=[club.slug]), {"invite": invite.pk})
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    assert invite.get_absolute_url() not in client.get(club.get_absolute_url()).content.decode()
    with pytest.raises(services.LeagueError, match="revoked"):
        services.join_club(invite.code, UserFactory())
    # a member sees their own links only and cannot revoke another's
    client.force_login(members[0])
    other = club.invites.filter(revoked_at__isnull=True).get()
    assert other.get_absolute_url() not in client.get(club.get_absolute_url()).content.decode()
    response = client.post(reverse("leagues:revoke_invite", args=[club.slug]), {"invite": other.pk}, follow=True)
    assert any("Only an organiser" in str(m) for m in response.context["messages"])


# --- item 6: organiser forms ----------------------------------------------------------

def test_league_form_offers_the_games_variants_as_fields(client, club_setup):
    club, organiser, members = club_setup
    client.force_login(organiser)
    page = client.get(reverse("leagues:create_league", args=[club.slug]) + "?engine=die-hanse").content.decode()
    assert "JSON" not in page and 'name="options"' not in page
    assert 'name="opt_round_limit"' in page  # from Die Hanse's option_specs
    assert 'class="stack card"' in page
    client.post(reverse("leagues:create_league", args=[club.slug]), {
        "name": "Die Hanse Cup", "engine": "die-hanse", "table_size": 3, "opt_round_limit": "60", "rated": "on"})
    league = League.objects.get(name="Die Hanse Cup")
    assert league.options.get("round_limit") == 60


@pytest.mark.parametrize("typed", ["2026-11-27T20:00", "27-11-2026 20:00", "2026-11-27 20:00"])
def test_season_form_takes_a_date_and_time_in_the_organisers_zone(client, club_setup, settings, typed):
    settings.TIME_ZONE = "Europe/Berlin"
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="L", engine="hansa", table_size=3)
    client.force_login(organiser)
    page = client.get(reverse("leagues:create_season", args=[league.pk])).content.decode()
    assert 'type="datetime-local"' in page and "Europe/Berlin" in page and "YYYY" not in page
    response = client.post(reverse("leagues:create_season", args=[league.pk]), {
        "name": "Winter 2026", "starts_at": typed, "rounds": 3, "round_days": 7, "promote": 1, "relegate": 1})
    assert response.status_code == 302, response.content.decode()[-2000:]
    season = league.seasons.get()
    assert season.starts_at == datetime(2026, 11, 27, 19, 0, tzinfo=dt_timezone.utc)  # 20:00 in Berlin
    assert "Winter 2026" in client.get(club.get_absolute_url()).content.decode()  # listed by its name


def test_swiss_round_one_is_seeded_by_rating(club_setup):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="Swiss", engine="hansa", table_size=4, format=League.SWISS,
                                    exact_size=True)
    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1), rounds=2)
    players = members[:8]
    for player in players:
        services.sign_up(season, player)
    # ratings reversed against the alphabet: the four strongest are the last four names
    for rank, player in enumerate(players):
        Rating.objects.create(user=player, engine="hansa", mu=20.0 + rank, sigma=2.0, games=10)
    services.seed_divisions(season, organiser, 1)
    assert season.entries.get(user=players[7]).seed_rating == pytest.approx(21.0)
    services.start_season(season, organiser)
    services.start_due_rounds()
    top = Table.objects.get(round__season=season, round__number=1, index=0)
    assert set(top.seat_order) == {p.pk for p in players[4:]}  # not the first four by name


def test_season_start_follows_the_organisers_own_time_zone(client, club_setup, settings):
    settings.TIME_ZONE = "UTC"
    club, organiser, members = club_setup
    if not hasattr(organiser, "time_zone"):
        pytest.skip("accounts have no time zone setting")
    User.objects.filter(pk=organiser.pk).update(time_zone="America/New_York")
    league = services.create_league(club, organiser, name="L", engine="hansa", table_size=3)
    client.force_login(organiser)
    assert "America/New_York" in client.get(reverse("leagues:create_season", args=[league.pk])).content.decode()
    client.post(reverse("leagues:create_season", args=[league.pk]), {
        "starts_at": "2026-11-27T20:00", "rounds": 3, "round_days": 7, "promote": 1, "relegate": 1})
    assert league.seasons.get().starts_at == datetime(2026, 11, 28, 1, 0, tzinfo=dt_timezone.utc)  # EST = UTC-5
