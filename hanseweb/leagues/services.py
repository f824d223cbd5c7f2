"""The write path of clubs and leagues. Pages, the admin's actions and the beat task call these.

Every function that changes something runs in a transaction and raises ``LeagueError`` with a
message for the person who asked. Organiser-only actions check the role and are written to the
club's ``OrganiserAction`` log. Games are created, started and resigned only through
``games.services`` (the games' one write path).
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games import services as games
from games.engines import IllegalMove, get_engine
from games.models import Game

from . import pairing
from .models import (Club, ClubInvite, Division, Entry, League, Membership, OrganiserAction, Round,
                     Season, Table)

log = logging.getLogger(__name__)


class LeagueError(Exception):
    """A request that cannot be carried out; the message is shown to the person who asked."""


# --- roles -------------------------------------------------------------------------

def role_of(club: Club, user) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def is_member(club: Club, user) -> bool:
    return role_of(club, user) is not None


def is_organiser(club: Club, user) -> bool:
    return role_of(club, user) == Membership.ORGANISER


def _require_organiser(club: Club, user) -> None:
    if not is_organiser(club, user):
        raise LeagueError(_("Only an organiser of this club can do that."))


def _log(club: Club, actor, action: str, season: Season | None = None, **details) -> OrganiserAction:
    return OrganiserAction.objects.create(club=club, season=season, actor=actor, action=action, details=details)


# --- clubs -------------------------------------------------------------------------

def create_club(user, name: str, *, slug: str | None = None, default_deadline_hours: int = 72) -> Club:
    name = (name or "").strip()
    if not name:
        raise LeagueError(_("A club needs a name."))
    slug = slugify(slug or name)[:80]
    if not slug:
        raise LeagueError(_("Choose a name with letters or digits in it."))
    if not 1 <= default_deadline_hours <= 24 * 60:
        raise LeagueError(_("The default deadline must be between 1 hour and 60 days."))
    with transaction.atomic():
        if Club.objects.filter(slug=slug).exists():
            raise LeagueError(_("There is already a club at the address %(slug)r; choose another name.") % {"slug": slug})
        club = Club.objects.create(name=name[:80], slug=slug, created_by=user,
                                   default_deadline_hours=default_deadline_hours)
        Membership.objects.create(club=club, user=user, role=Membership.ORGANISER)
        _log(club, user, "create club", name=club.name)
    return club


def update_club(club: Club, user, *, name: str, default_deadline_hours: int) -> Club:
    """The organiser changes the club's name or its default time per decision (for seasons
    created afterwards)."""
    _require_organiser(club, user)
    name = (name or "").strip()
    if not name:
        raise LeagueError(_("A club needs a name."))
    if not 1 <= default_deadline_hours <= 24 * 60:
        raise LeagueError(_("The default deadline must be between 1 hour and 60 days."))
    with transaction.atomic():
        club.name, club.default_deadline_hours = name[:80], default_deadline_hours
        club.save(update_fields=["name", "default_deadline_hours"])
        _log(club, user, "club settings", name=club.name, default_deadline_hours=default_deadline_hours)
    return club


def create_invite(club: Club, user, *, days: int = 14) -> ClubInvite:
    """An invitation link (any member may invite; it makes the holder a member)."""
    if not is_member(club, user):
        raise LeagueError(_("Only members of this club can invite others."))
    return ClubInvite.objects.create(club=club, created_by=user, expires=timezone.now() + timedelta(days=days))


def invite_by_mail(club: Club, user, email: str) -> ClubInvite:
    """Mail an invitation link (a fresh one, valid 14 days) to ``email``, under the notification
    policy of the address's account if it has one (``hanseweb.leagues.mail``)."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    from hanseweb.mail.outbox import absolute, queue_mail

    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise LeagueError(_("That is not an email address.")) from None
    from .mail import account_for, mail_now

    with transaction.atomic():
        invite = create_invite(club, user)
        invite.email = email
        invite.save(update_fields=["email"])
        account = account_for(email)  # its policy decides (hanseweb/leagues/mail.py): digest, off: not now
        if account is None or mail_now(account):
            queue_mail(to=email, user=account, template="leagues/mail/invite", kind="club_invite", context={
                "club": club, "inviter": user, "url": absolute(invite.get_absolute_url()), "expires": invite.expires})
        if is_organiser(club, user):
            _log(club, user, "invite by mail", email=email)
    return invite


def join_club(code: str, user) -> Club:
    with transaction.atomic():
        invite = ClubInvite.objects.select_related("club").filter(code=code).first()
        if invite is None:
            raise LeagueError(_("This invitation link is not valid."))
        if invite.revoked_at is not None:
            raise LeagueError(_("This invitation link has been revoked; ask the club for a new one."))
        if invite.expires < timezone.now():
            raise LeagueError(_("This invitation link has expired; ask the club for a new one."))
        if is_member(invite.club, user):
            raise LeagueError(_("You are already a member of this club."))
        Membership.objects.create(club=invite.club, user=user, role=Membership.MEMBER)
        ClubInvite.objects.filter(pk=invite.pk).update(uses=models.F("uses") + 1)
        return invite.club


def open_invites(club: Club, user, role: str | None = None):
    """The club's invitation links that still work (not expired, not revoked), newest first, with
    their use counts: an organiser sees all of them, a member their own (``role``: the user's in
    the club when the caller has read it already)."""
    invites = club.invites.filter(revoked_at__isnull=True, expires__gt=timezone.now()).select_related("created_by")
    if (role or role_of(club, user)) != Membership.ORGANISER:
        invites = invites.filter(created_by=user)
    return invites.order_by("-created_at")


def revoke_invite(club: Club, user, invite_id: int) -> ClubInvite:
    """The link stops working at once (an organiser, or the member who made it)."""
    with transaction.atomic():
        invite = club.invites.select_for_update().filter(pk=invite_id).first()
        if invite is None:
            raise LeagueError(_("There is no such invitation link."))
        if invite.created_by_id != user.pk and not is_organiser(club, user):
            raise LeagueError(_("Only an organiser or the member who made the link can revoke it."))
        if invite.revoked_at is None:
            invite.revoked_at = timezone.now()
            invite.save(update_fields=["revoked_at"])
            if is_organiser(club, user):
                _log(club, user, "revoke invitation", uses=invite.uses)
        return invite


def set_role(club: Club, user, member, role: str) -> Membership:
    _require_organiser(club, user)
    if role not in (Membership.ORGANISER, Membership.MEMBER):
        raise LeagueError(_("Unknown role."))
    with transaction.atomic():
        membership = Membership.objects.select_for_update(of=("self",)).filter(club=club, user=member).order_by().first()
        if membership is None:
            raise LeagueError(_("%(name)s is not a member of this club.") % {"name": member})
        if role == Membership.MEMBER and membership.role == Membership.ORGANISER and \
                club.memberships.filter(role=Membership.ORGANISER).count() == 1:
            raise LeagueError(_("A club must keep at least one organiser."))
        membership.role = role
        membership.save(update_fields=["role"])
        _log(club, user, "set role", member=str(member), role=role)
    return membership


# --- leagues and seasons ------------------------------------------------------------

def create_league(club: Club, user, *, name: str, engine: str, table_size: int, options: dict | None = None,
                  rated: bool = True, format: str = League.ROUND_ROBIN, exact_size: bool = False,
                  vacation_days: int | None = None, public: bool = False) -> League:
    _require_organiser(club, user)
    try:
        eng = get_engine(engine)
    except KeyError:
        raise LeagueError(_("There is no game %(engine)r.") % {"engine": engine}) from None
    if not eng.min_players <= table_size <= eng.max_players:
        raise LeagueError(_("%(game)s is for %(min)d–%(max)d players; a table of %(size)d is not possible.")
                          % {"game": eng.name, "min": eng.min_players, "max": eng.max_players, "size": table_size})
    try:
        normalised = eng.normalise_options(dict(options or {}), table_size)
    except IllegalMove as exc:
        from games.presentation import error_text

        raise LeagueError(_("Options not accepted: %(reason)s") % {"reason": error_text(exc)}) from None
    normalised.pop("seats", None)
    if format not in dict(League.FORMAT_CHOICES):
        raise LeagueError(_("Unknown format %(format)r.") % {"format": format})
    _check_vacation_days(vacation_days)
    name = (name or "").strip() or f"{club.name} {eng.name} league"
    with transaction.atomic():
        league = League.objects.create(club=club, name=name[:80], engine=engine, options=normalised,
                                       table_size=table_size, rated=rated, format=format, exact_size=exact_size,
                                       vacation_days=vacation_days, public=bool(public))
        _log(club, user, "create league", name=league.name, engine=engine, table_size=table_size, format=format,
             vacation_days=vacation_days)
    return league


def set_league_public(league: League, user, public: bool) -> League:
    """The organiser makes the league's games, seasons and standings public (anyone may look,
    logged out included) or club-only again (its members and the games' players):
    docs/visibility.md."""
    _require_organiser(league.club, user)
    with transaction.atomic():
        league.public = bool(public)
        league.save(update_fields=["public"])
        _log(league.club, user, "league visibility", league=league.name, public=league.public)
    return league


def rotate_feeds(league: League, user) -> League:
    """New secret addresses for the league's calendar and results feed: the old ones answer 404
    from now on (e.g. after a member has left the club)."""
    import secrets

    _require_organiser(league.club, user)
    with transaction.atomic():
        league.feed_key = secrets.token_hex(16)
        league.save(update_fields=["feed_key"])
        _log(league.club, user, "rotate feeds", league=league.name)
    return league


def _check_vacation_days(days) -> None:
    if days is not None and (not isinstance(days, int) or isinstance(days, bool) or not 0 <= days <= 366):
        raise LeagueError(_("Vacation days per season are 0 (not allowed) to 366, or empty for no cap."))


def set_vacation_days(league: League, user, days: int | None) -> League:
    """The organiser caps (N days per season), forbids (0) or frees (None) vacation in the league's
    games; it applies from the next day a game would be held (days already held stay counted)."""
    _require_organiser(league.club, user)
    _check_vacation_days(days)
    with transaction.atomic():
        league.vacation_days = days
        league.save(update_fields=["vacation_days"])
        _log(league.club, user, "vacation days", league=league.name, vacation_days=days)
    return league


# How far ahead a season may be planned (its dates stay far from the calendar's end).
SEASON_LEAD_DAYS = 5 * 366


def create_season(league: League, user, *, starts_at, rounds: int, deadline_hours: int | None = None,
                  round_days: int = 14, signup_closes=None, promote: int = 1, relegate: int = 1,
                  name: str = "", previous: Season | None = None) -> Season:
    """A new season, open for sign-up straight away."""
    _require_organiser(league.club, user)
    if not 1 <= rounds <= 50:
        raise LeagueError(_("A season has between 1 and 50 rounds."))
    if round_days < 1:
        raise LeagueError(_("Rounds must be at least a day apart."))
    now = timezone.now()
    for moment in (starts_at, signup_closes):  # dates a season's round starts and deadlines can reach
        if moment is not None and not now - timedelta(days=365) <= moment <= now + timedelta(days=SEASON_LEAD_DAYS):
            raise LeagueError(_("A season starts, and its sign-up closes, within five years from now (and not "
                                "more than a year ago)."))
    with transaction.atomic():
        number = (league.seasons.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        season = Season.objects.create(
            league=league, number=number, name=name[:80], status=Season.SIGNUP, signup_opens=timezone.now(),
            signup_closes=signup_closes, starts_at=starts_at, rounds=rounds, round_days=round_days,
            deadline_hours=deadline_hours or league.club.default_deadline_hours, promote=promote,
            relegate=relegate, previous=previous,
        )
        _log(league.club, user, "create season", season, number=number, rounds=rounds,
             starts_at=starts_at.isoformat())
    return season


def _locked_season(season_id: int) -> Season:
    # Only the season's row is locked (not its league's and club's, which are read along).
    season = (Season.objects.select_for_update(of=("self",)).select_related("league__club")
              .filter(pk=season_id).order_by().first())
    if season is None:
        raise LeagueError(_("There is no such season."))
    return season


def sign_up(season: Season, user) -> Entry:
    with transaction.atomic():
        season = _locked_season(season.pk)
        if not is_member(season.league.club, user):
            raise LeagueError(_("Join the club first: only members can sign up for its leagues."))
        if season.status != Season.SIGNUP:
            raise LeagueError(_("Sign-up for this season is not open."))
        now = timezone.now()
        if season.signup_opens and season.signup_opens > now:
            raise LeagueError(_("Sign-up opens on %(when)s UTC.") % {"when": f"{season.signup_opens:%Y-%m-%d %H:%M}"})
        if season.signup_closes and season.signup_closes < now:
            raise LeagueError(_("Sign-up for this season has closed."))
        if Entry.objects.filter(season=season, user=user).exists():
            raise LeagueError(_("You have already signed up for this season."))
        # A season carried over from the last one (divisions already filled by promotion and
        # relegation): newcomers start in the bottom division; the organiser can move them.
        bottom = season.divisions.order_by("-level").first()
        return Entry.objects.create(season=season, user=user, division=bottom,
                                    seed_rating=rating_of(user, season.league.engine))


def remove_entry(season: Season, user, player) -> None:
    """The organiser takes a sign-up out before the start."""
    with transaction.atomic():
        season = _locked_season(season.pk)
        _require_organiser(season.league.club, user)
        if season.status not in (Season.SIGNUP, Season.DRAFT):
            raise LeagueError(_("The season has started: drop or replace the player instead."))
        deleted, _count = Entry.objects.filter(season=season, user=player).delete()
        if not deleted:
            raise LeagueError(_("%(name)s has not signed up.") % {"name": player})
        _log(season.league.club, user, "remove sign-up", season, player=str(player))


def withdraw(season: Season, user) -> None:
    with transaction.atomic():
        season = _locked_season(season.pk)
        if season.status not in (Season.SIGNUP, Season.DRAFT):
            raise LeagueError(_("The season has started: ask an organiser to take you out."))
        deleted, _count = Entry.objects.filter(season=season, user=user).delete()
        if not deleted:
            raise LeagueError(_("You have not signed up for this season."))


def rating_of(user, engine: str) -> float | None:
    """The player's rating ordinal for this game, if ratings exist (else None)."""
    try:
        from .ratings import ordinal_of
    except ImportError:
        return None
    return ordinal_of(user, engine)


def _table_title(league, season, rnd, division, index: int, players: list) -> str:
    """A league game's title in its players' language (the one most of them read; a game keeps
    one title): ``Lente 2, ronde 1, Divisie 1, tafel 1``."""
    from collections import Counter

    from django.utils import translation

    languages = Counter(getattr(p, "language", None) or "en" for p in players)
    lang = sorted(languages.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] if languages else "en"
    with translation.override(lang):
        return _("%(league)s %(season)s, round %(round)s, %(division)s, table %(table)s") % {
            "league": league.name, "season": season.number, "round": rnd.number, "division": division.name,
            "table": index + 1}


def seed_divisions(season: Season, user, divisions: int) -> list[Division]:
    """Split the entries into ``divisions`` divisions of (nearly) equal size, best first: by seed
    rating (highest first; unrated last), then alphabetically by name. Replaces any earlier
    seeding; the organiser can move players by hand afterwards (``move_entry``)."""
    with transaction.atomic():
        season = _locked_season(season.pk)
        _require_organiser(season.league.club, user)
        if season.status not in (Season.DRAFT, Season.SIGNUP):
            raise LeagueError(_("Divisions can only be seeded before the season starts."))
        entries = list(season.entries.filter(status=Entry.ACTIVE).select_related("user"))
        engine = get_engine(season.league.engine)
        if divisions < 1 or len(entries) < divisions * engine.min_players:
            raise LeagueError(_("%(players)d players cannot fill %(divisions)d division(s) of at least %(min)d players.")
                              % {"players": len(entries), "divisions": divisions, "min": engine.min_players})
        for entry in entries:
            entry.seed_rating = rating_of(entry.user, season.league.engine)
        entries.sort(key=lambda e: (e.seed_rating is None, -(e.seed_rating or 0),
                                    (e.user.display_name or e.user.email).lower(), e.user_id))
        Entry.objects.filter(season=season).update(division=None)
        season.divisions.all().delete()
        # named in the organiser's language (the page's, active now): the club's own words
        made = [Division.objects.create(season=season, level=level, name=_("Division %(n)d") % {"n": level})
                for level in range(1, divisions + 1)]
        base, extra = divmod(len(entries), divisions)
        start = 0
        for i, division in enumerate(made):
            count = base + (1 if i < extra else 0)
            for entry in entries[start:start + count]:
                entry.division = division
            start += count
        Entry.objects.bulk_update(entries, ["division", "seed_rating"])
        _log(season.league.club, user, "seed divisions", season, divisions=divisions,
             by="rating" if any(e.seed_rating is not None for e in entries) else "name")
        return made


def move_entry(season: Season, user, player, level: int) -> Entry:
    """Seeding by hand: put ``player`` into the division of ``level`` (before the start)."""
    with transaction.atomic():
        season = _locked_season(season.pk)
        _require_organiser(season.league.club, user)
        if season.status not in (Season.DRAFT, Season.SIGNUP):
            raise LeagueError(_("Divisions can only be changed before the season starts."))
        division = season.divisions.filter(level=level).first()
        if division is None:
            raise LeagueError(_("There is no division %(level)s.") % {"level": level})
        entry = season.entries.filter(user=player).first()
        if entry is None:
            raise LeagueError(_("%(name)s has not signed up.") % {"name": player})
        entry.division = division
        entry.save(update_fields=["division"])
        _log(season.league.club, user, "move player", season, player=str(player), division=division.name)
        return entry


def _engine_bounds(season: Season) -> tuple[int, int, int]:
    engine = get_engine(season.league.engine)
    return season.league.table_size, engine.min_players, engine.max_players


def _deviation(season: Season) -> dict:
    """The pairing's ``max_deviation``: 0 for a league of exact table sizes (byes instead)."""
    return {"max_deviation": 0} if season.league.exact_size else {}


def _plan_seed(season: Season, division: Division, salt: str = "") -> str:
    return f"season-{season.pk}/division-{division.pk}{salt}"


def _as_json(rounds: list[pairing.Round]) -> list[dict]:
    return [{"tables": [list(t) for t in r.tables], "byes": list(r.byes)} for r in rounds]


def _as_rounds(items: list[dict]) -> list[pairing.Round]:
    return [pairing.Round(tables=item["tables"], byes=item.get("byes", [])) for item in items]


def start_season(season: Season, user) -> Season:
    """Close sign-up, plan every division's whole round robin (stored on the season), and make
    the rounds; the beat creates each round's games when it is due (``start_due_rounds``)."""
    with transaction.atomic():
        season = _locked_season(season.pk)
        _require_organiser(season.league.club, user)
        if season.status not in (Season.DRAFT, Season.SIGNUP):
            raise LeagueError(_("This season has already started."))
        active = list(season.entries.filter(status=Entry.ACTIVE))
        if any(e.division_id is None for e in active):
            raise LeagueError(_("Every player needs a division: seed the divisions first."))
        size, low, high = _engine_bounds(season)
        plan = {}
        for division in season.divisions.all():
            players = sorted(e.user_id for e in active if e.division_id == division.pk)
            if len(players) < low or not pairing.table_sizes(len(players), size, low, high, **_deviation(season)):
                raise LeagueError(_("%(division)s has %(players)d players: too few for a table of %(size)d.")
                                  % {"division": division.name, "players": len(players), "size": size})
            if season.league.format == League.SWISS:
                plan[str(division.pk)] = []  # each round is paired at its start
                continue
            plan[str(division.pk)] = _as_json(
                pairing.round_robin(players, season.rounds, size, low, high, _plan_seed(season, division),
                                    **_deviation(season)))
        season.plan = plan
        season.status = Season.RUNNING
        season.save(update_fields=["plan", "status"])
        for number in range(1, season.rounds + 1):
            Round.objects.get_or_create(
                season=season, number=number,
                defaults={"starts_at": season.starts_at + timedelta(days=season.round_days * (number - 1))})
        _log(season.league.club, user, "start season", season,
             players=len(active), divisions=len(plan), rounds=season.rounds)
        return season


def set_paused(season: Season, user, paused: bool) -> Season:
    """Pause: no new round starts (running games go on). Resume: the rounds not yet started move
    on by the length of the pause, so the schedule continues where it stopped."""
    with transaction.atomic():
        season = _locked_season(season.pk)
        _require_organiser(season.league.club, user)
        if paused and season.status != Season.RUNNING:
            raise LeagueError(_("Only a running season can be paused."))
        if not paused and season.status != Season.PAUSED:
            raise LeagueError(_("This season is not paused."))
        now = timezone.now()
        shift = None
        if paused:
            season.paused_at = now
        else:
            # The pause does not count: rounds not yet started move on by its length.
            shift = now - (season.paused_at or now)
            if shift > timedelta(0):
                for rnd in season.round_set.filter(created_at__isnull=True):
                    rnd.starts_at += shift
                    rnd.save(update_fields=["starts_at"])
            season.paused_at = None
        season.status = Season.PAUSED if paused else Season.RUNNING
        season.save(update_fields=["status", "paused_at"])
        details = {"rounds_moved_by_hours": round(shift.total_seconds() / 3600, 1)} if shift else {}
        _log(season.league.club, user, "pause season" if paused else "resume season", season, **details)
        return season


# --- rounds ------------------------------------------------------------------------

def start_due_rounds(now=None) -> int:
    """Create the games of every round that is due in a running season. Idempotent: a round is
    done once (``Round.created_at``, under the season's row lock) and a table once (unique
    round/division/index). Returns the number of games created."""
    now = now or timezone.now()
    made = 0
    due = (Round.objects.filter(season__status=Season.RUNNING, created_at__isnull=True, starts_at__lte=now)
           .order_by("season_id").values_list("season_id", flat=True).distinct())
    for season_id in list(due):
        try:
            made += _start_rounds_of(season_id, now)
        except LeagueError:
            # One season's failure (rolled back whole) must not hold up the others; the next
            # beat tries again.
            log.exception("could not start the due rounds of season %s", season_id)
    return made


def _start_rounds_of(season_id: int, now) -> int:
    made = 0
    with transaction.atomic():
        season = _locked_season(season_id)
        if season.status != Season.RUNNING:
            return 0
        for rnd in season.round_set.filter(created_at__isnull=True, starts_at__lte=now).order_by("number"):
            made += _create_tables(season, rnd)
            rnd.created_at = timezone.now()
            rnd.save(update_fields=["created_at"])
    return made


def _create_tables(season: Season, rnd: Round) -> int:
    league = season.league
    users = {u.pk: u for u in get_user_model().objects.filter(league_entries__season=season)}
    bot_played = set(season.entries.filter(status=Entry.DROPPED, bot_plays=True).values_list("user_id", flat=True))
    made = 0
    for division in season.divisions.all():
        if league.format == League.SWISS:
            _pair_swiss(season, division, rnd)
        planned = season.plan.get(str(division.pk), [])
        if rnd.number > len(planned):
            continue
        for index, order in enumerate(planned[rnd.number - 1]["tables"]):
            if Table.objects.filter(round=rnd, division=division, index=index).exists():
                continue
            players = [users[uid] for uid in order]
            creator = players[0]
            title = _table_title(league, season, rnd, division, index, players)
            try:
                game = games.create_game(
                    creator=creator, engine=league.engine, title=title, players=len(players),
                    options=league.options, listed=False, seat_order=Game.SEAT_ORDER_CREATOR,
                    move_deadline_hours=season.deadline_hours)
                for player in players[1:]:
                    games.join_game(game.pk, player, invite_code=game.invite_code)
                games.start_game(game.pk, creator, list(order))
                for player in players:  # dropped, a bot plays their seat (drop_player(bot_plays=True))
                    if player.pk in bot_played:
                        games.resign(game.pk, player)
            except games.GameError as exc:
                raise LeagueError(_("Could not create %(title)s: %(reason)s") % {"title": title, "reason": exc}) from exc
            table = Table.objects.create(round=rnd, division=division, index=index, game=game,
                                         seat_order=list(order))
            _mail_table(table, [p for p in players if p.pk not in bot_played])
            made += 1
        _mail_byes(season, rnd, division, [users[uid] for uid in planned[rnd.number - 1].get("byes", [])
                                           if uid in users])
    return made


def _pair_swiss(season: Season, division: Division, rnd: Round) -> None:
    """A Swiss round, paired at its start from the division's standings then (finished games
    only; the standings' order with its tie-breaks) and the rounds so far (avoiding repeat
    tables); stored in the plan like a round robin's rounds."""
    key = str(division.pk)
    history = season.plan.get(key, [])
    if len(history) >= rnd.number:
        return
    rows = [row for row in division_standings(division) if row.entry is not None and row.entry.status == Entry.ACTIVE]
    if not any(row.played for row in rows):
        # no game finished yet (round 1): empty standings would sort by name; seed by rating as
        # the divisions are (highest first, unrated last, then by name)
        rows.sort(key=lambda row: (row.entry.seed_rating is None, -(row.entry.seed_rating or 0), row.name))
    order = [row.player for row in rows]
    size, low, high = _engine_bounds(season)
    if len(order) < low:
        return
    made = pairing.swiss(order, _as_rounds(history), size, low, high, _plan_seed(season, division, "/swiss"),
                         **_deviation(season))
    season.plan = {**season.plan, key: history + _as_json([made])}
    season.save(update_fields=["plan"])


def _mail_table(table: Table, players: list, *, only=None, took_over_from=None) -> None:
    """The new-table mail to every player of the table (``only``: to that one; ``took_over_from``:
    they take over that player's seat in a running game). A new table is news a player should not
    miss: it goes out at once under every notification policy but "off" (docs/leagues.md "Mails")."""
    from hanseweb.mail.outbox import absolute, queue_mail

    season = table.round.season
    names = [str(p) for p in players]
    from .mail import mail_at_all

    for seat, player in enumerate(players):
        if only is not None and player.pk != only.pk:
            continue
        if not mail_at_all(player):  # the policy (hanseweb/leagues/mail.py): off: none
            continue
        queue_mail(to=player.email, template="leagues/mail/new_table", user=player, kind="league_table", context={
            "took_over_from": str(took_over_from) if took_over_from is not None else "",
            "player": player, "season": season, "league": season.league, "round": table.round,
            "division": table.division, "seat": seat + 1, "names": names, "game": table.game,
            "game_url": absolute(table.game.get_absolute_url()),
            "season_url": absolute(season.get_absolute_url()),
            "deadline_hours": season.deadline_hours,
        })


def _mail_byes(season: Season, rnd: Round, division: Division, players: list) -> None:
    """The players a round leaves without a table (the league's table size leaves them over):
    a mail too, so that every player hears of every round (the round is started once)."""
    from hanseweb.mail.outbox import absolute, queue_mail

    from .mail import mail_now

    active = set(season.entries.filter(status=Entry.ACTIVE).values_list("user_id", flat=True))
    for player in players:
        if player.pk not in active or not mail_now(player):  # the policy: digest lists it, off: none
            continue
        queue_mail(to=player.email, template="leagues/mail/bye", user=player, kind="league_table", context={
            "player": player, "season": season, "league": season.league, "round": rnd, "division": division,
            "season_url": absolute(season.get_absolute_url()),
        })


def played_rounds(season: Season) -> int:
    return season.round_set.filter(created_at__isnull=False).count()


# --- organiser tools during the season -------------------------------------------------

def _resign_from_season_games(season: Season, player) -> list[int]:
    ids = list(Table.objects.filter(round__season=season, game__status=Game.RUNNING,
                                    game__seats__user=player, game__seats__resigned=False)
               .values_list("game_id", flat=True))
    for game_id in ids:
        games.resign(game_id, player)
    return ids


def drop_player(season: Season, user, player, bot_plays: bool = False) -> Entry:
    """Take ``player`` out of a running season (an organiser, or the player themselves): their
    running games of the season go on with the autopilot (``games.services.resign``), the entry
    is marked dropped at the number of rounds already started, and their division's rounds still
    to come are re-formed without them (``pairing.reform``). With ``bot_plays`` (an organiser's
    choice) the rounds to come keep their seats instead, and a bot (the autopilot) plays them from
    the start of each game (``_create_tables``)."""
    with transaction.atomic():
        season = _locked_season(season.pk)
        if user.pk != player.pk or bot_plays:
            _require_organiser(season.league.club, user)
        if season.status not in (Season.RUNNING, Season.PAUSED):
            raise LeagueError(_("Players can be dropped only from a running or paused season; "
                              "before the start they withdraw."))
        entry = season.entries.select_for_update(of=("self",)).order_by().filter(user=player).first()
        if entry is None or entry.status != Entry.ACTIVE:
            raise LeagueError(_("%(name)s is not an active player of this season.") % {"name": player})
        played = played_rounds(season)
        resigned = _resign_from_season_games(season, player)
        entry.status, entry.dropped_at_round, entry.bot_plays = Entry.DROPPED, played, bot_plays
        entry.save(update_fields=["status", "dropped_at_round", "bot_plays"])
        if entry.division_id is not None and season.league.format == League.ROUND_ROBIN and not bot_plays:
            _reform(season, entry.division, [player.pk], played)
        _log(season.league.club, user, "drop player", season, player=str(player), after_round=played,
             resigned_games=resigned, bot_plays=bot_plays)
        return entry


def _reform(season: Season, division: Division, dropped: list[int], played: int) -> None:
    key = str(division.pk)
    schedule = _as_rounds(season.plan.get(key, []))
    active = list(season.entries.filter(division=division, status=Entry.ACTIVE).values_list("user_id", flat=True))
    size, low, high = _engine_bounds(season)
    if len(active) < low:
        # Too few left for a table: the division's remaining rounds have no tables (byes).
        later = [{"tables": [], "byes": sorted(active)} for _round in schedule[played:]]
        season.plan = {**season.plan, key: _as_json(schedule[:played]) + later}
        season.save(update_fields=["plan"])
        return
    reformed = pairing.reform(schedule, dropped, played, size, low, high,
                              _plan_seed(season, division, f"/reform-{played}-{len(active)}"), players=active,
                              **_deviation(season))
    season.plan = {**season.plan, key: _as_json(reformed)}
    season.save(update_fields=["plan"])


TAKE_OVER, AUTOPILOT = "take-over", "autopilot"


def replace_player(season: Season, user, old, new, *, running: str = TAKE_OVER) -> Entry:
    """``new`` takes ``old``'s place: in the rounds still to come (same division, same planned
    seats) and, with ``running="take-over"`` (the default), in ``old``'s running games of the
    season too (the same seat, ``games.services.take_over_seat``: the decisions and mails are
    ``new``'s from then on, the game's log says who played which moves). With
    ``running="autopilot"`` those games go on with the autopilot instead (``old`` resigns them).
    ``old`` is marked dropped either way."""
    if running not in (TAKE_OVER, AUTOPILOT):
        raise LeagueError(_("Choose what happens to the running games: taken over or played by the autopilot."))
    with transaction.atomic():
        season = _locked_season(season.pk)
        _require_organiser(season.league.club, user)
        if season.status not in (Season.RUNNING, Season.PAUSED):
            raise LeagueError(_("Players can be replaced only in a running or paused season."))
        if old.pk == new.pk:
            raise LeagueError(_("Choose a different player as the replacement."))
        if not is_member(season.league.club, new):
            raise LeagueError(_("%(name)s is not a member of this club.") % {"name": new})
        if season.entries.filter(user=new).exists():
            raise LeagueError(_("%(name)s already plays in this season.") % {"name": new})
        entry = season.entries.select_for_update(of=("self",)).order_by().filter(user=old, status=Entry.ACTIVE).first()
        if entry is None:
            raise LeagueError(_("%(name)s is not an active player of this season.") % {"name": old})
        played = played_rounds(season)
        taken, resigned = [], []
        if running == TAKE_OVER:
            tables = list(Table.objects.filter(round__season=season, game__status=Game.RUNNING,
                                               game__seats__user=old, game__seats__resigned=False)
                          .select_related("game", "round", "division"))
            for table in tables:
                try:
                    games.take_over_seat(table.game_id, old, new)
                except games.GameError as exc:
                    raise LeagueError(_("Could not hand over %(title)s: %(reason)s")
                                      % {"title": table.game.title, "reason": exc}) from exc
                table.seat_order = [new.pk if uid == old.pk else uid for uid in table.seat_order]
                table.save(update_fields=["seat_order"])
                taken.append(table.game_id)
        else:
            resigned = _resign_from_season_games(season, old)
        entry.status, entry.dropped_at_round = Entry.DROPPED, played
        entry.save(update_fields=["status", "dropped_at_round"])
        replacement = Entry.objects.create(season=season, division=entry.division, user=new, replaces=entry,
                                           seed_rating=rating_of(new, season.league.engine))
        key = str(entry.division_id)
        rounds = season.plan.get(key, [])
        for item in rounds[played:]:
            item["tables"] = [[new.pk if uid == old.pk else uid for uid in t] for t in item["tables"]]
            item["byes"] = [new.pk if uid == old.pk else uid for uid in item.get("byes", [])]
        season.plan = {**season.plan, key: rounds}
        season.save(update_fields=["plan"])
        if taken:
            _mail_taken_over(season, new, old, taken)
        _log(season.league.club, user, "replace player", season, player=str(old), replacement=str(new),
             after_round=played, running_games="take over" if running == TAKE_OVER else "autopilot",
             **({"taken_over_games": taken} if running == TAKE_OVER else {"resigned_games": resigned}))
        return replacement


def _mail_taken_over(season: Season, new, old, game_ids: list[int]) -> None:
    """The replacement hears of every running game whose seat is now theirs (the new-table mail of
    each game: the table, their seat, the deadline, the links), under every policy but "off"."""
    from .mail import mail_at_all

    if not mail_at_all(new):
        return
    for table in (Table.objects.filter(game_id__in=game_ids)
                  .select_related("game", "round__season__league", "division")):
        users = {u.pk: u for u in get_user_model().objects.filter(pk__in=table.seat_order)}
        _mail_table(table, [users[uid] for uid in table.seat_order], only=new, took_over_from=old)


def award_forfeit(season: Season, user, game_id: int, losers) -> Game:
    """The organiser rules that ``losers`` (one player or several) forfeit a running game of this
    season: each seat is resigned through ``games.services.resign(forfeit=True)`` (ranked below
    everyone who plays on; shown as a forfeit everywhere). At least one player must stay in."""
    if not isinstance(losers, (list, tuple)):
        losers = [losers]
    with transaction.atomic():
        season = _locked_season(season.pk)
        _require_organiser(season.league.club, user)
        if not losers:
            raise LeagueError(_("Tick the player or players who forfeit the game."))
        table = Table.objects.filter(round__season=season, game_id=game_id).select_related("game").first()
        if table is None:
            raise LeagueError(_("That game is not part of this season."))
        game = table.game
        if game.status != Game.RUNNING:
            raise LeagueError(_("%(title)s is over: a forfeit can only be given in a running game.")
                              % {"title": game.title})
        seats = {s.user_id: s for s in game.seats.select_related("user")}
        in_game = [s for s in seats.values() if not s.resigned]
        for loser in losers:
            seat = seats.get(loser.pk)
            if seat is None:
                raise LeagueError(_("%(name)s does not play in %(title)s.") % {"name": loser, "title": game.title})
            if seat.resigned:
                raise LeagueError(_("%(name)s has already left %(title)s (resigned or forfeited).")
                                  % {"name": loser, "title": game.title})
        if len({p.pk for p in losers}) >= len(in_game):
            raise LeagueError(_("At least one player must stay in %(title)s: a forfeit cannot rule out every "
                                "player still in the game.") % {"title": game.title})
        for loser in {p.pk: p for p in losers}.values():
            try:
                game = games.resign(game_id, loser, forfeit=True)
            except games.GameError as exc:
                raise LeagueError(_("No forfeit for %(name)s: %(reason)s") % {"name": loser, "reason": exc}) from None
        names = [str(p) for p in {p.pk: p for p in losers}.values()]
        _log(season.league.club, user, "award forfeit", season, game=game_id,
             **({"player": names[0]} if len(names) == 1 else {"players": names}))
        return game


def finish_season(season: Season, user) -> Season:
    with transaction.atomic():
        season = _locked_season(season.pk)
        _require_organiser(season.league.club, user)
        if season.status not in (Season.RUNNING, Season.PAUSED):
            raise LeagueError(_("Only a running or paused season can be finished."))
        season.status = Season.FINISHED
        season.save(update_fields=["status"])
        _log(season.league.club, user, "finish season", season)
        return season


def finish_completed_seasons() -> int:
    """Mark running seasons finished whose rounds have all started and whose games have all
    ended (logged without an actor). Returns how many."""
    from django.db.models import Exists, OuterRef

    done = 0
    # one query, whatever the number of running seasons: those with rounds, all started, and no
    # table whose game is not over (each check an index lookup per season)
    complete = (Season.objects.filter(status=Season.RUNNING)
                .filter(Exists(Round.objects.filter(season=OuterRef("pk"))))
                .exclude(Exists(Round.objects.filter(season=OuterRef("pk"), created_at__isnull=True)))
                .exclude(Exists(Table.objects.filter(round__season=OuterRef("pk")).exclude(game__status=Game.FINISHED)))
                .values_list("pk", flat=True))
    for season_id in list(complete):
        with transaction.atomic():
            season = _locked_season(season_id)
            if season.status != Season.RUNNING:
                continue
            season.status = Season.FINISHED
            season.save(update_fields=["status"])
            _log(season.league.club, None, "season complete", season)
            done += 1
    return done


def promotion(season: Season) -> dict[int, int]:
    """Where each active player of a season goes next: {user id: division level}. In every
    division, ordered by the standings, the top ``promote`` go up one level (not from the top
    division) and the bottom ``relegate`` go down one (not from the bottom division); players who
    dropped out are not carried over."""
    divisions = list(season.divisions.order_by("level"))
    moves = {}
    for i, division in enumerate(divisions):
        players = [row.player for row in division_standings(division)
                   if row.entry is not None and row.entry.status == Entry.ACTIVE]
        up = set(players[:season.promote]) if i > 0 else set()
        down = set(players[max(len(players) - season.relegate, 0):]) if i < len(divisions) - 1 and season.relegate else set()
        for player in players:
            moves[player] = division.level - 1 if player in up else division.level + 1 if player in down - up \
                else division.level
    return moves


def next_season(season: Season, user, *, starts_at=None) -> Season:
    """The next season of the league in one step, from a finished season: same settings, the
    same divisions, every active player carried over with promotion and relegation applied
    (``promotion``), open for sign-up (players may withdraw, newcomers join the bottom division)."""
    with transaction.atomic():
        season = _locked_season(season.pk)
        club = season.league.club
        _require_organiser(club, user)
        if season.status != Season.FINISHED:
            raise LeagueError(_("Finish this season first: the next one starts from its final standings."))
        if season.next_seasons.exists():
            raise LeagueError(_("The next season has already been created."))
        moves = promotion(season)
        last = season.round_set.order_by("-number").first()
        if starts_at is None:
            starts_at = max(timezone.now(), last.starts_at if last else season.starts_at) + timedelta(days=season.round_days)
        new = create_season(season.league, user, starts_at=starts_at, rounds=season.rounds,
                            deadline_hours=season.deadline_hours, round_days=season.round_days,
                            promote=season.promote, relegate=season.relegate, previous=season)
        levels = {}
        for division in season.divisions.order_by("level"):
            levels[division.level] = Division.objects.create(season=new, level=division.level, name=division.name)
        users = {u.pk: u for u in get_user_model().objects.filter(pk__in=moves)}
        for uid, level in moves.items():
            Entry.objects.create(season=new, user_id=uid, division=levels[level],
                                 seed_rating=rating_of(users[uid], season.league.engine))
        old_level = dict(season.entries.filter(user_id__in=moves).values_list("user_id", "division__level"))
        _log(club, user, "next season", new, previous=season.number,
             promoted=sorted(str(users[u]) for u, lv in moves.items() if lv < old_level[u]),
             relegated=sorted(str(users[u]) for u, lv in moves.items() if lv > old_level[u]))
        return new


# --- reading -----------------------------------------------------------------------

def division_standings(division: Division) -> list:
    """The division's standings (``standings.Row`` list) from its finished games; each row has
    ``entry`` (dropped players stay listed, marked) and its ``games`` linked by id."""
    return season_standings(None, divisions=[division])[division.pk]


# A game's columns the standings read: its result (no state snapshot, no undo state).
RESULT_COLUMNS = ("game__id", "game__status", "game__result")


def season_standings(season: Season | None, divisions=None, tables=None, entries=None,
                     results=None) -> dict[int, list]:
    """{division id: the division's standings} for every division of ``season`` (or those given),
    in a fixed number of queries whatever the number of divisions, players and games: the
    season's entries (or ``entries``), its finished tables' results with their seats (or the
    ``tables`` a page has read already, with ``game__seats`` prefetched; or ``results``, {division
    id: its games' ``standings.GameResult`` in round order})."""
    from . import standings as st

    divisions = list(season.divisions.all()) if divisions is None else divisions
    wanted = {d.pk for d in divisions}
    if entries is None:
        entries = Entry.objects.filter(division__in=wanted).select_related("user")
    if tables is None and results is None:
        tables = (Table.objects.filter(division__in=wanted, game__status=Game.FINISHED)
                  .select_related("game").only("id", "division_id", *RESULT_COLUMNS).prefetch_related("game__seats")
                  .order_by("round__number", "division__level", "index"))  # each player's games in round order
    by_division = {pk: {} for pk in wanted}
    for entry in entries:
        if entry.division_id in wanted:
            by_division[entry.division_id][entry.user_id] = entry
    if results is None:
        games = {pk: [] for pk in wanted}
        for table in tables:
            if table.division_id in wanted:
                games[table.division_id].append(table.game)
        results = {pk: st.results_from_games(games[pk]) for pk in wanted}
    out = {}
    for pk in wanted:
        people = by_division[pk]
        rows = st.standings(people, results.get(pk, []),
                            names={uid: str(e.user) for uid, e in people.items()})
        for row in rows:
            row.entry = people.get(row.player)
        out[pk] = rows
    return out