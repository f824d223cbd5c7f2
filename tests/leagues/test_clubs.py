"""Clubs: creation, invitation links, roles and organiser-only actions (hanseweb.leagues.services)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from hanseweb.leagues import services
from hanseweb.leagues.models import Membership, OrganiserAction
from hanseweb.leagues.services import LeagueError

from ..factories import UserFactory

pytestmark = pytest.mark.django_db


def test_creator_becomes_organiser_and_the_creation_is_logged():
    user = UserFactory()
    club = services.create_club(user, "Bremen Traders")
    assert club.slug == "bremen-traders"
    assert services.role_of(club, user) == Membership.ORGANISER
    assert OrganiserAction.objects.get(club=club).action == "create club"
    with pytest.raises(LeagueError, match="already a club"):
        services.create_club(UserFactory(), "Bremen traders")


def test_invite_link_makes_a_member_once_and_expires():
    organiser, guest, late = UserFactory(), UserFactory(), UserFactory()
    club = services.create_club(organiser, "Club")
    invite = services.create_invite(club, organiser)
    assert services.join_club(invite.code, guest) == club
    assert services.role_of(club, guest) == Membership.MEMBER
    with pytest.raises(LeagueError, match="already a member"):
        services.join_club(invite.code, guest)
    with pytest.raises(LeagueError, match="not valid"):
        services.join_club("nonsense", late)
    invite.expires = timezone.now() - timedelta(seconds=1)
    invite.save()
    with pytest.raises(LeagueError, match="expired"):
        services.join_club(invite.code, late)
    with pytest.raises(LeagueError, match="Only members"):
        services.create_invite(club, late)


def test_organiser_only_actions(club_setup):
    club, organiser, members = club_setup
    member = members[0]
    with pytest.raises(LeagueError, match="Only an organiser"):
        services.create_league(club, member, name="x", engine="hansa", table_size=3)
    league = services.create_league(club, organiser, name="L", engine="hansa", table_size=3)
    with pytest.raises(LeagueError, match="Only an organiser"):
        services.create_season(league, member, starts_at=timezone.now(), rounds=3)
    with pytest.raises(LeagueError, match="Only an organiser"):
        services.set_role(club, member, member, Membership.ORGANISER)
    services.set_role(club, organiser, member, Membership.ORGANISER)
    assert services.is_organiser(club, member)
    services.set_role(club, member, member, Membership.MEMBER)
    with pytest.raises(LeagueError, match="at least one organiser"):
        services.set_role(club, organiser, organiser, Membership.MEMBER)


def test_league_checks_table_size_and_options(club_setup):
    club, organiser, _ = club_setup
    with pytest.raises(LeagueError, match="not possible"):
        services.create_league(club, organiser, name="L", engine="hansa", table_size=6)
    with pytest.raises(LeagueError, match="no game"):
        services.create_league(club, organiser, name="L", engine="chess", table_size=2)
    with pytest.raises(LeagueError, match="Options not accepted"):
        services.create_league(club, organiser, name="L", engine="hansa", table_size=3, options={"bogus": 1})


def test_sign_up_only_for_members_while_open(club_setup):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="L", engine="hansa", table_size=3)
    season = services.create_season(league, organiser, starts_at=timezone.now(), rounds=2)
    outsider = UserFactory()
    with pytest.raises(LeagueError, match="Join the club"):
        services.sign_up(season, outsider)
    services.sign_up(season, members[0])
    season.signup_opens = timezone.now() + timedelta(days=1)
    season.save()
    with pytest.raises(LeagueError, match="Sign-up opens"):
        services.sign_up(season, members[1])
    season.signup_opens, season.signup_closes = None, timezone.now() - timedelta(seconds=1)
    season.save()
    with pytest.raises(LeagueError, match="has closed"):
        services.sign_up(season, members[1])
    season.signup_closes = None
    season.save()
    with pytest.raises(LeagueError, match="already signed up"):
        services.sign_up(season, members[0])
    services.withdraw(season, members[0])
    with pytest.raises(LeagueError, match="not signed up"):
        services.withdraw(season, members[0])


def test_seeding_without_ratings_is_alphabetical_and_can_be_edited(club_setup):
    club, organiser, members = club_setup
    league = services.create_league(club, organiser, name="L", engine="hansa", table_size=3)
    season = services.create_season(league, organiser, starts_at=timezone.now(), rounds=2)
    for member in reversed(members):
        services.sign_up(season, member)
    with pytest.raises(LeagueError, match="Only an organiser"):
        services.seed_divisions(season, members[0], 3)
    with pytest.raises(LeagueError, match="cannot fill"):
        services.seed_divisions(season, organiser, 7)
    divisions = services.seed_divisions(season, organiser, 3)
    names = [[e.user.display_name for e in d.entries.order_by("user__display_name")] for d in divisions]
    assert names == [[f"Member {c}" for c in "ABCD"], [f"Member {c}" for c in "EFGH"],
                     [f"Member {c}" for c in "IJKL"]]
    services.move_entry(season, organiser, members[0], 3)
    assert season.entries.get(user=members[0]).division.level == 3
    assert OrganiserAction.objects.filter(club=club, action="move player").exists()


def test_invite_by_mail_through_the_page(client, club_setup):
    from django.core import mail
    from django.urls import reverse

    from ..conftest import committed

    club, organiser, members = club_setup
    client.force_login(members[0])
    with committed():
        response = client.post(reverse("leagues:invite", args=[club.slug]), {"email": "friend@example.org"}, follow=True)
    assert b"Invitation for friend@example.org (valid 14 days)" in response.content
    (sent,) = [m for m in mail.outbox if m.to == ["friend@example.org"]]
    assert club.name in sent.subject
    code = club.invites.latest("created_at").code
    assert reverse("leagues:join", args=[code]) in sent.body
    response = client.post(reverse("leagues:invite", args=[club.slug]), {"email": "not-an-address"}, follow=True)
    assert b"not an email address" in response.content
    client.force_login(UserFactory())
    assert client.post(reverse("leagues:invite", args=[club.slug]), {"email": "x@example.org"}).status_code == 403


def test_invitation_mails_are_rate_limited(client, club_setup, settings):
    from django.urls import reverse

    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "club_invite_mail_per_user": "2/h"}
    club, organiser, members = club_setup
    client.force_login(members[0])
    url = reverse("leagues:invite", args=[club.slug])
    assert [client.post(url, {"email": f"f{i}@example.org"}).status_code for i in range(3)] == [302, 302, 429]
    assert client.post(url).status_code == 302  # making a link is not limited
