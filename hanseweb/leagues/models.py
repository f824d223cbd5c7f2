"""Clubs, leagues, seasons, divisions, entries, rounds and tables (docs/leagues.md).

Games are created only through ``games.services`` (``hanseweb.leagues.services``); a ``Table``
links a planned table of a round to the game made for it. ``OrganiserAction`` is the club's
append-only audit log, shown to its members.
"""
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games.engines import SLUG_MODULES


def new_code() -> str:
    return secrets.token_urlsafe(16)


class Club(models.Model):
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    default_deadline_hours = models.PositiveIntegerField(
        default=72, help_text=_("Hours per decision for the club's league games unless a season says otherwise"))

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leagues:club", args=[self.slug])


class Membership(models.Model):
    ORGANISER, MEMBER = "organiser", "member"
    ROLE_CHOICES = [(ORGANISER, _("Organiser")), (MEMBER, _("Member"))]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships")
    role = models.CharField(max_length=16, choices=ROLE_CHOICES, default=MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user__display_name"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class ClubInvite(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    code = models.CharField(max_length=40, unique=True, default=new_code)
    email = models.EmailField(blank=True, help_text="The address it was mailed to (empty: a link handed out)")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    uses = models.PositiveIntegerField(default=0, help_text=_("How many joined the club by this link"))
    revoked_at = models.DateTimeField(null=True, blank=True, help_text=_("Set when revoked: the link no longer works"))

    def __str__(self) -> str:
        return f"invite to {self.club} until {self.expires:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("leagues:join", args=[self.code])


class League(models.Model):
    ROUND_ROBIN, SWISS = "round-robin", "swiss"
    FORMAT_CHOICES = [(ROUND_ROBIN, _("Round robin in each division (planned at the start)")),
                      (SWISS, _("Swiss: each round by the standings at its start"))]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    format = models.CharField(max_length=16, choices=FORMAT_CHOICES, default=ROUND_ROBIN)
    name = models.CharField(max_length=80)
    engine = models.CharField(max_length=40, choices=[(slug, slug) for slug in SLUG_MODULES])
    options = models.JSONField(default=dict, blank=True, help_text=_("The game's variant options (normalised)"))
    table_size = models.PositiveSmallIntegerField()
    exact_size = models.BooleanField(
        default=False, help_text=_("Only tables of exactly the table size, with byes for the players left over; "
                                 "otherwise tables of ±1 (then ±2) seat everyone whenever the game allows"))
    rated = models.BooleanField(default=True)
    # Who may see the league's games (docs/visibility.md): False = the club's members and the
    # games' players (the default); True = anyone, logged out included.
    public = models.BooleanField(default=False, help_text=_("Anyone may look at the league's games and results"))
    # Part of the secret of the league's feed addresses: a new one (``rotate_feeds``) retires the
    # old addresses, e.g. when a member has left the club.
    feed_key = models.CharField(max_length=32, blank=True, default="")
    # Vacation in this league's games (docs/leagues.md "Vacation"): empty = no cap (the player's own
    # yearly allowance holds them like any game), 0 = forbidden, N = held at most N days per season.
    vacation_days = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Days per season a player's vacation may hold this league's games: "
                                         "empty = no cap, 0 = vacation does not hold them")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leagues:league", args=[self.pk])


class Season(models.Model):
    DRAFT, SIGNUP, RUNNING, PAUSED, FINISHED = "draft", "signup", "running", "paused", "finished"
    STATUS_CHOICES = [(DRAFT, _("Draft")), (SIGNUP, _("Sign-up open")), (RUNNING, _("Running")),
                      (PAUSED, _("Paused")), (FINISHED, _("Finished"))]

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=80, blank=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=DRAFT)
    signup_opens = models.DateTimeField(null=True, blank=True)
    signup_closes = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(help_text=_("When round 1 starts"))
    rounds = models.PositiveSmallIntegerField()
    round_days = models.PositiveSmallIntegerField(default=14, help_text=_("Days between round starts"))
    deadline_hours = models.PositiveIntegerField(help_text=_("Hours per decision in the season's games"))
    promote = models.PositiveSmallIntegerField(default=1)
    relegate = models.PositiveSmallIntegerField(default=1)
    previous = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_seasons")
    paused_at = models.DateTimeField(null=True, blank=True, help_text=_("Set while paused: resuming moves the rounds "
                                                                      "not yet started on by the pause's length"))
    # The planned round robin per division: {"<division id>": [{"tables": [[uid, ...], ...],
    # "byes": [uid, ...]}, ...]} (one item per round), made at the start, re-formed on a dropout.
    plan = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["league", "-number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="unique_season_number")]

    def __str__(self) -> str:
        # shown on pages and in mails: in the reader's language
        return self.name or gettext("%(league)s season %(number)s") % {"league": self.league, "number": self.number}

    def get_absolute_url(self) -> str:
        return reverse("leagues:season", args=[self.pk])


class Division(models.Model):
    """``name`` is ``Division <level>`` unless an organiser named it: ``str()`` says the default in
    the reader's language."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField(help_text=_("1 = top division"))
    name = models.CharField(max_length=80)

    class Meta:
        ordering = ["season", "level"]
        constraints = [models.UniqueConstraint(fields=["season", "level"], name="unique_division_level")]

    def __str__(self) -> str:
        if self.name == f"Division {self.level}":
            return gettext("Division %(level)s") % {"level": self.level}
        return self.name


class Entry(models.Model):
    ACTIVE, DROPPED = "active", "dropped"
    STATUS_CHOICES = [(ACTIVE, _("Active")), (DROPPED, _("Dropped out"))]

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    division = models.ForeignKey(Division, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_entries")
    seed_rating = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=ACTIVE)
    dropped_at_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # The entry whose place this one took (``replace_player``): the plan's place is the same, so
    # the fairness figures count the place, not the person.
    replaces = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="replaced_by")
    # Dropped with "a bot plays their seats": the rounds to come keep their planned seats, played by
    # the autopilot from the start (issue 30; services.drop_player).
    bot_plays = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "division__level", "user__display_name"]
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="one_entry_per_season")]

    def __str__(self) -> str:
        return f"{self.user} in {self.season}"


class Round(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    created_at = models.DateTimeField(null=True, blank=True, help_text=_("When its games were created (pairing done)"))

    class Meta:
        ordering = ["season", "number"]
        constraints = [models.UniqueConstraint(fields=["season", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return f"{self.season} round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="tables")
    index = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="league_table")
    seat_order = models.JSONField(help_text=_("User ids, seat 0 first"))

    class Meta:
        ordering = ["round", "division__level", "index"]
        constraints = [models.UniqueConstraint(fields=["round", "division", "index"], name="unique_table")]

    def __str__(self) -> str:
        return f"{self.round} {self.division} table {self.index + 1}"


class VacationHold(models.Model):
    """A day on which a player's vacation held a game of a season whose league caps vacation (one
    row per season, player and day, however many of the season's games were held that day): the
    cap counts these rows."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="vacation_holds")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["season", "user", "day"], name="one_hold_per_season_day")]

    def __str__(self) -> str:
        return f"{self.user} away on {self.day} in {self.season}"


def _engine_name(slug: str) -> str:
    """A game title's name as its box prints it (``hansa-teutonica`` -> ``Hansa Teutonica``)."""
    from games.engines import get_engine

    try:
        return get_engine(slug).name
    except KeyError:
        return slug


class OrganiserAction(models.Model):
    """Append-only: what an organiser did, shown to the club's members."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="actions")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40)
    details = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]

    # the actions as services.py logs them, for translation on the pages (``label``)
    ACTION_LABELS = {a: a for a in (
        gettext_noop("create club"), gettext_noop("club settings"), gettext_noop("invite by mail"),
        gettext_noop("set role"), gettext_noop("create league"), gettext_noop("create season"),
        gettext_noop("remove sign-up"), gettext_noop("seed divisions"), gettext_noop("move player"),
        gettext_noop("start season"), gettext_noop("pause season"), gettext_noop("resume season"),
        gettext_noop("drop player"), gettext_noop("replace player"), gettext_noop("award forfeit"),
        gettext_noop("finish season"), gettext_noop("season complete"), gettext_noop("next season"),
        gettext_noop("league visibility"), gettext_noop("rotate feeds"), gettext_noop("revoke invitation"))}

    # the keys of ``details`` and the words among their values, for translation on the pages
    DETAIL_WORDS = {w: w for w in (
        gettext_noop("name"), gettext_noop("default_deadline_hours"), gettext_noop("email"), gettext_noop("member"),
        gettext_noop("role"), gettext_noop("engine"), gettext_noop("table_size"), gettext_noop("format"),
        gettext_noop("number"), gettext_noop("rounds"), gettext_noop("starts_at"), gettext_noop("divisions"),
        gettext_noop("by"), gettext_noop("division"), gettext_noop("player"), gettext_noop("players"),
        gettext_noop("after_round"), gettext_noop("resigned_games"), gettext_noop("replacement"), gettext_noop("game"),
        gettext_noop("previous"), gettext_noop("promoted"), gettext_noop("relegated"),
        gettext_noop("rating"), gettext_noop("organiser"), gettext_noop("round-robin"), gettext_noop("swiss"),
        gettext_noop("running_games"), gettext_noop("taken_over_games"), gettext_noop("autopilot"),
        gettext_noop("take over"), gettext_noop("public"), gettext_noop("league"))}

    # keys stored with an underscore, as a reader says them (the stored key stays as it is)
    DETAIL_KEYS = {
        "starts_at": gettext_noop("starts at"), "resigned_games": gettext_noop("resigned games"),
        "default_deadline_hours": gettext_noop("default deadline (hours)"), "table_size": gettext_noop("table size"),
        "after_round": gettext_noop("after round")}

    @property
    def details_shown(self) -> list[tuple[str, str]]:
        """``details`` as (label, value) pairs in the reader's language: keys in words, a game
        title's slug as its name, a time as a date and time in the reader's time zone."""
        from django.utils import formats, timezone
        from django.utils.dateparse import parse_datetime

        def word(value):
            if isinstance(value, list):
                return ", ".join(word(v) for v in value)
            value = str(value)
            if value in SLUG_MODULES:
                return _engine_name(value)
            if "T" in value and value[:4].isdigit():
                try:
                    at = parse_datetime(value)
                except ValueError:
                    at = None
                if at is not None:
                    at = timezone.localtime(at) if timezone.is_aware(at) else at
                    return formats.date_format(at, "Y-m-d H:i")
            return gettext(value) if value in self.DETAIL_WORDS else value

        def key(k):
            return gettext(self.DETAIL_KEYS[k]) if k in self.DETAIL_KEYS else word(k)

        return [(key(k), word(v)) for k, v in (self.details or {}).items()]

    @property
    def label(self) -> str:
        """The action in the reader's language (the stored ``action`` stays English)."""
        return gettext(self.action) if self.action in self.ACTION_LABELS else self.action

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("the organiser log is append-only")
        super().save(*args, **kwargs)


class Rating(models.Model):
    """A player's OpenSkill (Plackett–Luce) rating for one game title (docs/leagues.md "Ratings")."""

    PROVISIONAL_GAMES = 5

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    engine = models.CharField(max_length=40, choices=[(slug, slug) for slug in SLUG_MODULES])
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["engine", "-mu"]
        constraints = [models.UniqueConstraint(fields=["user", "engine"], name="one_rating_per_game")]

    def __str__(self) -> str:
        return f"{self.user} {self.engine} {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown and used for seeding: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < self.PROVISIONAL_GAMES


class RatedGame(models.Model):
    """A finished game whose result has been applied to the ratings (or deliberately skipped):
    each game counts once."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rated")
    applied = models.BooleanField(default=True, help_text=_("False: not rated (an unrated league's game)"))
    at = models.DateTimeField(auto_now_add=True)


class RatingChange(models.Model):
    """The history: one row per player and rated game."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["rating", "game"], name="one_change_per_game")]

    @property
    def ordinal_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def ordinal_after(self) -> float:
        return self.mu_after - 3 * self.sigma_after
