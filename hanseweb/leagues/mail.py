"""League mails under each player's notification policy (docs/architecture.md "Notification
policy", docs/leagues.md "Mails").

The league mails are the new-table mail (a round has started, which for round 1 is the season's
start), the bye mail (a round leaves the player without a table) and invitations to a club mailed to an address. They follow the policy of the account
they go to:

- the new-table mail is news a player should not miss: it goes out at once under every policy but
  "off" (one mail per new table: a new table is a new game, the debounce is per game);
- the bye mail and invitations: at once under every decision and debounced; under the daily
  digest not sent, the next digest lists them (``digest_items``, registered with the games'
  digest);
- off: nothing is sent (only the essential account mails go out: address confirmation, password
  reset).

An invitation mailed to an address without a confirmed account is sent (there is no policy to
follow). The inviter is told the same either way: it does not reveal whether an address has an
account or what its owner chose.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _

from hanseweb.mail.outbox import absolute


def mail_at_all(user) -> bool:
    """Whether news a player should not miss (a new table) goes to ``user``: under every policy
    but "off"."""
    return user.mail_policy != get_user_model().NOTIFY_OFF


def mail_now(user) -> bool:
    """Whether a league mail to ``user`` goes out at once under their policy."""
    User = get_user_model()
    return user.mail_policy in (User.NOTIFY_EVERY_TURN, User.NOTIFY_DEBOUNCED)


def account_for(email: str):
    """The confirmed account of ``email``, if any (whose policy an invitation follows)."""
    return get_user_model().objects.filter(email__iexact=email.strip(), email_confirmed=True).first()


def digest_items(user, since, now) -> list[dict]:
    """The league news for ``user``'s daily digest: rounds started since the last digest that left
    them without a table, and club invitations mailed to their address since then (still valid,
    not yet a member). New tables are not listed: their mail went out at once (``mail_at_all``)."""
    from .models import ClubInvite, Entry, Membership, Round

    items = []
    rounds = (Round.objects.filter(season__entries__user=user, season__entries__status=Entry.ACTIVE,
                                   created_at__gt=since, created_at__lte=now)
              .select_related("season__league").order_by("created_at", "pk"))
    for rnd in rounds:  # a round that leaves the player without a table (the bye mail)
        season = rnd.season
        for planned in (season.plan or {}).values():
            if rnd.number <= len(planned) and user.pk in (planned[rnd.number - 1].get("byes") or []):
                items.append({"text": _("Round %(round)d of %(league)s (season %(season)d) has started: you sit "
                                        "this round out (no table for you)")
                              % {"round": rnd.number, "league": season.league.name, "season": season.number},
                              "url": absolute(season.get_absolute_url())})
    member_of = Membership.objects.filter(user=user).values_list("club_id", flat=True)
    invites = (ClubInvite.objects.filter(email__iexact=user.email, created_at__gt=since, created_at__lte=now,
                                         expires__gt=now).exclude(club_id__in=member_of)
               .select_related("club", "created_by").order_by("created_at"))
    for invite in invites:
        items.append({"text": _("%(inviter)s invites you to join the club %(club)s (the link works until %(until)s)")
                      % {"inviter": invite.created_by, "club": invite.club.name,
                         "until": timezone.localtime(invite.expires).strftime("%Y-%m-%d")},
                      "url": absolute(invite.get_absolute_url())})
    return items
