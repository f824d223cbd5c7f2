"""League mails follow each player's notification policy (hanseweb/leagues/mail.py): the new-table
mail goes out at once under every policy but "off"; other league mails (invitations, byes) go at
once under every decision and debounced, a daily digest reader finds them in the next digest;
"off" gets none (only the essential account mails, such as a password reset)."""
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.tasks import send_digests
from hanseweb.accounts.models import User
from hanseweb.leagues import services
from hanseweb.leagues.models import Round, Table

from ..conftest import committed
from ..factories import UserFactory

pytestmark = pytest.mark.django_db

POLICIES = [User.NOTIFY_EVERY_TURN, User.NOTIFY_DEBOUNCED, User.NOTIFY_DIGEST, User.NOTIFY_OFF]


def _policy(user, notify):
    User.objects.filter(pk=user.pk).update(notify=notify, digest_hour=0)
    user.refresh_from_db()


def _to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def _digest(user, now):
    mail.outbox = []
    with committed():
        send_digests(now=now)
    return [m for m in _to(user) if "waiting for you" in m.subject or "daily digest" in m.subject]


def test_new_table_mails_follow_each_players_policy(club_setup):
    club, organiser, members = club_setup
    players = members[:4]
    for player, policy in zip(players, POLICIES):
        _policy(player, policy)
    league = services.create_league(club, organiser, name="Policy Hansa", engine="hansa", table_size=4, exact_size=True)
    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1),
                                    rounds=2, round_days=7, deadline_hours=48)
    for player in players:
        services.sign_up(season, player)
    services.seed_divisions(season, organiser, 1)
    services.start_season(season, organiser)
    mail.outbox = []
    with committed():
        assert services.start_due_rounds() == 1
    table = Table.objects.get(round__season=season, round__number=1)
    started = [m for m in mail.outbox if "game has started" in m.subject]
    # a new table is news a player should not miss (issue 25 item 7): at once under every policy
    # but "off" (every decision, debounced and the daily digest alike); "off": none
    assert sorted(m.to[0] for m in started) == sorted(p.email for p in players[:3])
    every, debounced, reader, off = players
    (to_reader,) = [m for m in started if m.to == [reader.email]]
    assert table.game.get_absolute_url() in to_reader.body

    # the digest does not list the table a second time (its mail went out at once)
    now = timezone.now() + timedelta(minutes=1)
    for digest in _digest(reader, now):
        assert "Round 1 of Policy Hansa (season 1) has started" not in " ".join(digest.body.split())
    # "off": no league mail, no digest
    assert _to(off) == [] and _digest(off, now + timedelta(days=2)) == []
    # round 2: the same again
    mail.outbox = []
    with committed():
        assert services.start_due_rounds(season.starts_at + timedelta(days=7, seconds=1)) == 1
    started = [m for m in mail.outbox if "game has started" in m.subject]
    assert sorted(m.to[0] for m in started) == sorted([every.email, debounced.email, reader.email])


def test_essential_account_mails_still_reach_a_player_with_mails_off(client):
    user = UserFactory()
    _policy(user, User.NOTIFY_OFF)
    with committed():
        client.post("/accounts/password/reset/", {"email": user.email})
    (message,) = mail.outbox
    assert "/accounts/password/reset/" in message.body


@pytest.mark.parametrize("policy,mailed", [(None, True), (User.NOTIFY_EVERY_TURN, True),
                                           (User.NOTIFY_DEBOUNCED, True), (User.NOTIFY_DIGEST, False),
                                           (User.NOTIFY_OFF, False), ("unconfirmed", True)])
def test_club_invitations_follow_the_policy_of_the_addresss_account(club_setup, client, policy, mailed):
    club, organiser, members = club_setup
    if policy is None:
        address = "friend@example.org"
        invitee = None
    else:
        invitee = UserFactory()
        address = invitee.email.upper()  # addresses compare without case
        if policy == "unconfirmed":
            User.objects.filter(pk=invitee.pk).update(email_confirmed=False)
        else:
            _policy(invitee, policy)
    client.force_login(members[0])
    mail.outbox = []
    with committed():
        response = client.post(reverse("leagues:invite", args=[club.slug]), {"email": address}, follow=True)
    page = response.content.decode()
    # the inviter reads the same whatever the owner chose: no account or policy is revealed
    assert f"Invitation for {address} (valid 14 days)" in page and "It is mailed unless" in page
    invite = club.invites.latest("created_at")
    assert invite.get_absolute_url() in page
    sent = [m for m in mail.outbox if m.to[0].lower() == address.lower()]
    assert bool(sent) == mailed
    if invitee is not None and policy in (User.NOTIFY_DIGEST, User.NOTIFY_OFF):
        (digest,) = _digest(invitee, timezone.now() + timedelta(minutes=1)) or [None]
        if policy == User.NOTIFY_OFF:
            assert digest is None
        else:  # the digest lists the invitation with its link
            body = " ".join(digest.body.split())
            assert f"invites you to join the club {club.name}" in body and invite.get_absolute_url() in body
