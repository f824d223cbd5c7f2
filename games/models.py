"""Games as an append-only move log.

State is never stored as truth: it is ``engine.setup(players, seed, options)`` followed by every
``Move`` through ``engine.apply``. ``Game.state_cache`` is a derived snapshot for speed, always
reproducible from the log (see ``games.services.replay``).
"""
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import F
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.engines import SLUG_MODULES, get_engine
from games.engines.fairness import SALT_BYTES, commitment


def new_seed() -> int:
    return secrets.randbits(62)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


def reminder_window(hours: int | None) -> timedelta:
    """How long before a deadline its reminder is due: when a quarter of the time for a decision
    is left, at least one hour before."""
    return max(timedelta(hours=1), timedelta(hours=hours or 0) / 4)


def remind_at_for(deadline_at, hours: int | None):
    """When the reminder of a decision whose deadline is ``deadline_at`` is due (None: none)."""
    return None if deadline_at is None else deadline_at - reminder_window(hours)


def remind_in_python(games) -> None:
    """Set ``remind_at`` from the deadline of each game in ``games`` (a queryset), where the
    database does not (SQLite; PostgreSQL's trigger of migration games/0019 does it itself)."""
    by_time = {}
    for pk, deadline, hours in games.values_list("pk", "deadline_at", "move_deadline_hours"):
        by_time.setdefault(remind_at_for(deadline, hours), []).append(pk)
    for remind_at, pks in by_time.items():
        games.model.objects.filter(pk__in=pks).update(remind_at=remind_at)


class GameQuerySet(models.QuerySet):
    def update(self, **kwargs):
        # ``remind_at`` follows ``deadline_at`` whoever writes it (an admin script, a test, a data
        # fix): on PostgreSQL by the database's trigger, elsewhere here
        from django.db import connections

        if connections[self.db].vendor == "postgresql" or not ({"deadline_at", "move_deadline_hours"} & set(kwargs)) \
                or "remind_at" in kwargs:
            return super().update(**kwargs)
        pks = list(self.values_list("pk", flat=True))
        done = super().update(**kwargs)
        remind_in_python(self.model.objects.filter(pk__in=pks))
        return done

    update.alters_data = True


class Game(models.Model):
    OPEN, RUNNING, FINISHED = "open", "running", "finished"
    STATUS_CHOICES = [(OPEN, _("Waiting for players")), (RUNNING, _("Running")), (FINISHED, _("Finished"))]
    SEAT_ORDER_RANDOM, SEAT_ORDER_JOINED, SEAT_ORDER_CREATOR = "random", "joined", "creator"
    SEAT_ORDER_CHOICES = [
        (SEAT_ORDER_RANDOM, _("Random (drawn from the game's seed); starts when full")),
        (SEAT_ORDER_JOINED, _("In the order players joined (creator first); starts when full")),
        (SEAT_ORDER_CREATOR, _("I set the order and start the game when it is full")),
    ]

    engine = models.CharField(max_length=40, choices=[(slug, slug) for slug in SLUG_MODULES])
    title = models.CharField(max_length=100)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(default=new_seed, editable=False)
    # Verifiable fairness (docs/fairness.md): SHA-256 of the seed and the salt, public from the
    # start; the seed and the salt are shown only once the game is over.
    salt = models.CharField(max_length=64, default=new_salt, editable=False)
    commitment = models.CharField(max_length=64, blank=True, editable=False)
    # True for games created before commitments existed: theirs was made after the fact.
    commitment_late = models.BooleanField(default=False, editable=False)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=OPEN, db_index=True)
    listed = models.BooleanField(default=True, help_text=_("Shown in the lobby's open games; otherwise join by link only"))
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code, editable=False)
    seat_order = models.CharField(max_length=16, choices=SEAT_ORDER_CHOICES, default=SEAT_ORDER_RANDOM)
    move_deadline_hours = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Hours a player has for each decision; empty = no deadline")
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Derived from the log (rebuilt by replay); kept on the row for speed and lobby queries.
    move_count = models.PositiveIntegerField(default=0)
    to_act = models.JSONField(default=list, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the reminder of the pending decisions is due (``remind_at_for``: a quarter of the time
    # before the deadline, at least an hour), kept with ``deadline_at`` by a trigger on PostgreSQL
    # (migration 0019) and by ``save``, the write path (``services._store``) and
    # ``GameQuerySet.update`` (SQLite); cleared by ``games.tasks.send_reminders``
    # once the game's seats have been seen to. Only games with a reminder to come are indexed.
    remind_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When the finished game was applied to the ratings (``hanseweb.leagues.ratings``; a RatedGame
    # row's insert sets it, migration leagues/0008); the ratings task reads only finished games
    # without it, through a partial index.
    rated_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When a practice bot or the autopilot of a resigned seat that is to act counts as stalled
    # (issue 30): set by the write path while one is due (``services._schedule_bots``: the change's
    # time plus ``HANSEWEB_BOT_STALL_SECONDS``), moved on by each of their moves, cleared when none
    # is due. ``games.tasks.sweep_bots`` queues their task again for a game whose time has come (a
    # task the broker refused, or one that failed); only such games are indexed.
    bots_due_at = models.DateTimeField(null=True, blank=True, editable=False)
    state_cache = models.JSONField(null=True, blank=True, editable=False)
    state_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    result = models.JSONField(null=True, blank=True)
    # One step of undo (derived, like the snapshot): the state before the last move, while that
    # move may still be taken back (see games.services.undoable), and the seat that made it.
    undo_state = models.JSONField(null=True, blank=True, editable=False)
    undo_seat = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # The log events of the setup (derived from the seed, like the snapshot); the events of each
    # move are stored with its Move row. Neither lives in the state (DESIGN: the state holds the
    # game, not its history).
    setup_events = models.JSONField(default=list, blank=True, editable=False)
    last_move_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        # Each list reads one status in one order (docs/architecture.md "Lists at any size"): a
        # partial index per list, so a page reads its rows in index order and stops.
        indexes = [
            # the archive, newest first, keyset (finished_at, id); and the same for one game
            models.Index(F("finished_at").desc(), F("id").desc(), condition=models.Q(status="finished"),
                         name="game_finished_order"),
            models.Index(F("engine"), F("finished_at").desc(), F("id").desc(),
                         condition=models.Q(status="finished"), name="game_finished_engine_order"),
            # the lobby's games being played and open games
            models.Index(F("last_move_at").desc(), condition=models.Q(status="running"), name="game_running_recent"),
            models.Index(F("created_at").desc(), condition=models.Q(status="open"), name="game_open_recent"),
            # the periodic tasks (games.tasks, hanseweb.leagues.ratings): due items in due order
            models.Index(fields=["remind_at", "id"], condition=models.Q(remind_at__isnull=False), name="game_remind_due"),
            models.Index(fields=["bots_due_at", "id"], condition=models.Q(bots_due_at__isnull=False),
                         name="game_bots_due"),
            models.Index(fields=["deadline_at", "id"], condition=models.Q(status="running", deadline_at__isnull=False),
                         name="game_running_deadline"),
            models.Index(fields=["finished_at", "id"], condition=models.Q(status="finished", rated_at__isnull=True),
                         name="game_unrated"),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.engine_obj.name})"

    @property
    def engine_obj(self):
        return get_engine(self.engine)

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    def save(self, *args, **kwargs):
        if not self.commitment:  # made once, when the game is created (with its seed and salt)
            self.commitment = commitment(self.seed, self.salt)
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "commitment"}
        fields = kwargs.get("update_fields")
        if fields is None or "deadline_at" in fields:  # the reminder follows the deadline
            self.remind_at = remind_at_for(self.deadline_at, self.move_deadline_hours)
            if fields is not None:
                kwargs["update_fields"] = {*fields, "remind_at"}
        super().save(*args, **kwargs)

    def commitment_holds(self) -> bool:
        return self.commitment == commitment(self.seed, self.salt)

    @property
    def bot_seats(self) -> list:
        """The seats of a practice game's bots (issue 30)."""
        return [s for s in self.seats.all() if s.bot]

    def invite_url(self) -> str:
        return reverse("join_by_code", args=[self.invite_code])


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Seat in turn order, from 0; set at start"))
    options = models.JSONField(default=dict, blank=True, help_text=_("This player's private settings for this game"))
    joined_at = models.DateTimeField(auto_now_add=True)
    resigned = models.BooleanField(default=False)
    resigned_at = models.DateTimeField(null=True, blank=True)
    # The seat did not resign: an organiser ruled it forfeited (a league's ``award_forfeit``);
    # pages, mails, standings, feeds and exports say "forfeit", not "resigned".
    forfeited = models.BooleanField(default=False)
    # How far this seat has been told what happened (turn mail / own move): a Move ``seq``.
    seen_seq = models.PositiveIntegerField(default=0)
    # Per-seat stale checks (DESIGN "Stale checks are per seat"): the move count at which this
    # seat's pending decision last changed (it became or stopped being due, its legal moves or its
    # prompt changed, or it moved itself), and a digest of that decision. A page or mail made at
    # move count m is current for this seat while ``decision_seq <= m``.
    decision_seq = models.PositiveIntegerField(default=0, editable=False)
    decision_key = models.CharField(max_length=40, blank=True, editable=False)
    # The move count at which this seat was last reminded of a deadline (one reminder per decision).
    reminded_seq = models.PositiveIntegerField(null=True, blank=True)
    # The "debounced" notification policy: the move count at which a mail about a decision went
    # out; no more decision mails for this seat until it acts (write path) or its player opens the
    # game page (``notifications.mark_seen``), which clear it.
    quiet_since_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Table talk (games.chat): the last chat message this seat was told of by mail (its "said since
    # your last turn" cursor), and whether its player muted the game's chat in mails.
    chat_told_id = models.PositiveBigIntegerField(default=0, editable=False)
    chat_muted = models.BooleanField(default=False)
    # A practice game's bot (games.bots, docs/bots.md): its level, or "" for a human player.
    # The player's record (hanseweb.players.records), kept by the write path with each move so that
    # no page counts a player's moves: decisions this seat's player made on the page or by mail
    # (web, email; an undo included), and decisions its deadline made (timeout). A seat taken over
    # starts again at zero; the counts so far stay with the old player (``SeatTakeover``).
    decisions_made = models.PositiveIntegerField(default=0, editable=False)
    timed_out = models.PositiveIntegerField(default=0, editable=False)
    bot = models.CharField(max_length=16, blank=True, default="", choices=[
        ("", _("a human player")), ("random", _("bot: random moves")), ("basic", _("bot: basic")),
        ("strong", _("bot: strong"))])

    class Meta:
        ordering = ["number", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "number"], name="unique_seat_number"),
        ]
        # A player's games newest first (the API's list_my_games pages by game id): a page is read
        # in index order from where the cursor points and stops, however many games the player has.
        indexes = [models.Index(fields=["user", "game"], name="seat_user_game")]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_id} (seat {self.number})"


class SeatTakeover(models.Model):
    """A player took over a running game's seat from another (a league's replacement): from
    ``after_seq`` on the seat is ``new_user``'s; the moves up to it were ``old_user``'s. Shown
    on the game page, its log and its export; written once."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="takeovers")
    seat = models.PositiveSmallIntegerField()
    old_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    new_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    after_seq = models.PositiveIntegerField(help_text=_("The game's move count when the seat changed hands"))
    # the old player's record at this seat up to the takeover (``Seat.decisions_made``, ``timed_out``)
    old_decisions_made = models.PositiveIntegerField(default=0, editable=False)
    old_timed_out = models.PositiveIntegerField(default=0, editable=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "after_seq", "pk"]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id}: {self.old_user_id} -> {self.new_user_id} after {self.after_seq}"


class AppendOnlyError(Exception):
    pass


class AppendOnly(models.Model):
    """A row that is written once: ``save`` only inserts, ``delete`` refuses (the database's
    triggers refuse updates and deletes too). Subclasses name what is refused."""

    CHANGED = "append-only: a row cannot be changed"
    DELETED = "append-only: a row cannot be deleted"

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(self.CHANGED)
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(self.DELETED)


class Move(AppendOnly):
    """One logged decision. Rows are never updated or deleted (database triggers refuse it)."""

    CHANGED = "moves are append-only: a logged move cannot be changed"
    DELETED = "moves are append-only: a logged move cannot be deleted"

    WEB, EMAIL, TIMEOUT, ADMIN, AUTOPILOT, RESIGN = "web", "email", "timeout", "admin", "autopilot", "resign"
    BOT = "bot"
    CHANNEL_CHOICES = [
        (WEB, _("web")), (EMAIL, _("email reply")), (TIMEOUT, _("deadline passed")), (ADMIN, _("admin")),
        (AUTOPILOT, _("autopilot for a resigned player")), (RESIGN, _("resignation")),
        (BOT, _("bot of a practice game")),
    ]

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField(help_text=_("1, 2, 3, … per game"))
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    text = models.CharField(max_length=200)
    channel = models.CharField(max_length=16, choices=CHANNEL_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)
    # The log events this step produced (``engine.events``), unfiltered: ``{"n", "seat", "text"}``
    # with ``only``/``redacted`` for private ones; pages and mails filter them per seat.
    # NULL on rows logged before events were stored with their move.
    events = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_move_seq")]
        # the few decisions a deadline made, per game and seat (a player's record counts them)
        indexes = [models.Index(fields=["game", "seat"], condition=models.Q(channel="timeout"), name="move_timeouts")]

    def __str__(self) -> str:
        return f"#{self.seq} seat {self.seat}: {self.text}"


# --- table talk (games.chat; docs/chat.md) ------------------------------------------------------

class ChatMessage(AppendOnly):
    """One thing said at a game's table. Append-only like the move log (database triggers refuse
    UPDATE, DELETE and TRUNCATE); a moderator hides a message with a ``ChatModeration`` row."""

    CHANGED = "chat messages are append-only: a message cannot be changed"
    DELETED = "chat messages are append-only: a message cannot be deleted (hide it)"

    WEB, EMAIL, API = "web", "email", "api"
    CHANNEL_CHOICES = [(WEB, "web"), (EMAIL, "email reply"), (API, "api")]
    MAX_LENGTH = 1000

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="chat_messages")
    seat = models.PositiveSmallIntegerField(help_text="The author's seat number")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    move_count = models.PositiveIntegerField(help_text="The game's move count when it was said")
    channel = models.CharField(max_length=16, choices=CHANNEL_CHOICES, default=WEB)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "id"], name="games_chat_game_id"),
                   # the chat mail sweep (games/chat_mail.py) reads the lines of the last day
                   models.Index(fields=["created_at"], name="games_chat_created")]

    def __str__(self) -> str:
        return f"chat {self.pk} in {self.game_id} by seat {self.seat}"


class ChatModeration(AppendOnly):
    """A moderator (staff, or an organiser of the game's club) hid a chat message: who, when and
    why. Append-only too; the message row itself stays as it was."""

    CHANGED = "chat moderation is append-only"
    DELETED = "chat moderation is append-only"

    message = models.OneToOneField(ChatMessage, on_delete=models.PROTECT, related_name="moderation")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="chat_moderations")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"chat {self.message_id} hidden by {self.by_id}"


class SeatNote(models.Model):
    """A seat's private notepad: only that seat's player ever sees it (never other seats,
    spectators, mails, replays or exports). Not part of the game log, so it is editable: one row
    per seat holding the latest text."""

    MAX_LENGTH = 5000

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="note")
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"note of seat {self.seat_id}"
