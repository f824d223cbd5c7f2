"""The one write path for games. The web pages, email replies and the deadline sweep all call these.

Every function that changes a game takes the game row's lock (``select_for_update``) inside a
transaction, so concurrent submissions for one game are serialised: no move is lost or logged
twice, and a move made against an older state is refused as stale.
"""
from __future__ import annotations

import functools
import hashlib
import logging
import threading
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import IllegalMove, get_engine
from games.engines.events import event
from games.engines.i18n import N_, moves, msg, say
from games.engines.fairness import SEAT_ORDER_STREAM, rank_with_resignations  # pure; verify_game draws the same
from games.engines.rng import Rng, seed_state

from hanseweb import fastsql, pagecache
from hanseweb.accounts.models import User

from . import signals
from .models import Game, Move, Seat, remind_at_for

log = logging.getLogger(__name__)

# The cached pages' scope (``hanseweb.pagecache``) of what games exist, who sits at them and which
# have ended: bumped after the commit of every write here that changes it (a game created, joined,
# left, cancelled, started, finished; a seat resigned or taken over). A move alone does not: pages
# that show moves read them into their own version.
GAMES_SCOPE = "games"


def _games_changed() -> None:
    pagecache.bump(GAMES_SCOPE)


UNDONE = N_("{player} took back their last step.")  # the log line of an undo (translated when shown)


class GameError(Exception):
    """A request that cannot be carried out; the message is shown to the player."""


class StaleMove(GameError):
    pass


class AlreadyMade(StaleMove):
    """The page (or mail) posted exactly the move its seat has made since it was made: a re-post
    (a reload, a response lost when the server was killed after the commit). ``move`` is the
    logged move; nothing was changed."""

    def __init__(self, move: Move):
        super().__init__(_("Your move was already made (move %(seq)s); it stands. Nothing else was changed.")
                         % {"seq": move.seq})
        self.move = move


@dataclass
class Outcome:
    game: Game
    move: Move | None
    newly_to_act: list[int]


# --- reading -------------------------------------------------------------------

def engine_options(game: Game) -> dict:
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    return {**game.options, "seats": [dict(s.options) for s in seats]}


def initial_state(game: Game) -> dict:
    return game.engine_obj.setup(players=game.players, seed=game.seed, options=engine_options(game))


UNDO = "undo"
HUMAN = (Move.WEB, Move.EMAIL)  # channels whose moves may be undone (and that may send "undo")


def undoable(engine, before: dict, after: dict, seat: int) -> bool:
    """A step may be taken back while it revealed nothing hidden and nobody else has to act
    (DESIGN: undo within one's own turn). Hidden information lives in the ``_`` keys of the state
    (engine contract), so a step that changed none of them revealed nothing."""
    if engine.to_act(before) != [seat] or engine.to_act(after) != [seat]:
        return False
    hidden = [k for k in set(before) | set(after) if k.startswith("_")]
    return all(before.get(k) == after.get(k) for k in hidden)


def replay(game: Game, upto: int | None = None) -> dict:
    """Rebuild the state from the seed and the log alone (the source of truth)."""
    return _replay(game, upto)[0]


def _replay(game: Game, upto: int | None = None) -> tuple[dict, dict | None, int | None]:
    """(state, state before the last step if it can still be undone, the seat that made it)."""
    moves = Move.objects.filter(game_id=game.pk).order_by("seq")
    if upto is not None:
        moves = moves.filter(seq__lte=upto)
    rows = moves.values_list("seat", "text", "channel").iterator(chunk_size=2000)
    return advance(game.engine_obj, (initial_state(game), None, None), rows)


def advance(engine, carry: tuple, rows) -> tuple[dict, dict | None, int | None]:
    """Apply logged ``rows`` ((seat, text, channel), in seq order) to ``carry`` = (state, state
    before the last step if it can still be undone, the seat that made it); returns the new carry.
    The replay of a whole game and the replay pages (games.replay, from a snapshot) share it."""
    state, undo_state, undo_seat = carry
    for seat, text, channel in rows:
        human = channel in HUMAN
        if text == UNDO and human:
            state, undo_state, undo_seat = undo_state, None, None
            continue
        after = engine.apply(state, seat, text)
        if human and undoable(engine, state, after, seat):
            undo_state, undo_seat = state, seat
        else:
            undo_state, undo_seat = None, None
        state = after
    return state, undo_state, undo_seat


def current_state(game: Game) -> dict:
    """The state after the last move: the cached snapshot when it is current, else a replay
    (which also rebuilds the derived undo step)."""
    if game.state_cache is not None and game.state_seq == game.move_count:
        return game.state_cache
    state, game.undo_state, game.undo_seat = _replay(game)
    return state


def can_undo(game: Game, seat_number: int | None) -> bool:
    return (seat_number is not None and game.status == Game.RUNNING and game.undo_state is not None
            and game.undo_seat == seat_number and game.to_act == [seat_number])


def seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def decision_current(seat: Seat, seen_at: int | None, move_count: int) -> bool:
    """Is a page or mail made for ``seat`` at move count ``seen_at`` still about the seat's
    current decision? Only that seat's own decision counts (DESIGN "Stale checks are per seat"):
    other seats answering in a simultaneous window do not make it stale."""
    if seen_at is None:
        return True
    try:
        seen_at = int(seen_at)
    except (TypeError, ValueError):
        return False
    return 0 <= seen_at <= move_count and seat.decision_seq <= seen_at


def _locked(game_id: int) -> Game:
    """The game row, locked until the transaction ends (serialises every change of one game),
    with its seats and their users, loaded once and shared by everything in the transaction.

    The write path runs these reads (and its inserts and updates, ``hanseweb.fastsql``) as SQL
    made once per process, and on PostgreSQL the three reads go in one round trip: for the ORM,
    compiling a statement costs more CPU than running it, and a move is the request players wait
    for. Seats and users are read after the lock is granted, by statements of their own: a join in
    the locking query would give the seats as they were before a concurrent move committed."""
    game = _read(game_id, lock=True)
    if game is None:
        raise GameError(_("There is no such game (it may have been cancelled)."))
    return game


def loaded(game_id: int) -> Game | None:
    """The whole game row with its seats and their users, read without a lock, in one round trip
    as ``_locked`` reads them: what a page made afresh shows (None: no such game)."""
    return _read(game_id, lock=False)


_GAME_UNREAD = ("setup_events", "undo_state")  # not needed by moves but an undo; loaded on access


def _read(game_id: int, *, lock: bool) -> Game | None:
    unread = _GAME_UNREAD if lock else ()
    games, seats, users = fastsql.select_models([
        (Game, unread, _game_sql(unread, lock), [game_id]),
        (Seat, (), _seats_sql(), [game_id]),
        (User, (), _users_sql(), [game_id]),
    ])
    if not games:
        return None
    _with_seats(games[0], seats, users)
    return games[0]


@functools.cache
def _game_sql(unread: tuple, lock: bool) -> str:
    """The game row but its ``unread`` columns, locked FOR UPDATE when ``lock``."""
    # SQLite has no FOR UPDATE: its write transactions are IMMEDIATE
    lock_clause = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    return (f"SELECT {fastsql.columns(Game, unread)} FROM {connection.ops.quote_name(Game._meta.db_table)} "
            f"WHERE {connection.ops.quote_name('id')} = %s{lock_clause}")


@functools.cache
def _seats_sql() -> str:
    quote = connection.ops.quote_name
    order = ", ".join(quote(Seat._meta.get_field(n).column) for n in Seat._meta.ordering)  # as Seat.objects
    return (f"SELECT {fastsql.columns(Seat)} FROM {quote(Seat._meta.db_table)} "
            f"WHERE {quote('game_id')} = %s ORDER BY {order}")


@functools.cache
def _users_sql() -> str:
    quote = connection.ops.quote_name
    return (f"SELECT {fastsql.columns(User)} FROM {quote(User._meta.db_table)} WHERE {quote('id')} IN "
            f"(SELECT {quote('user_id')} FROM {quote(Seat._meta.db_table)} WHERE {quote('game_id')} = %s)")


def _with_seats(game: Game, seats: list[Seat], users: list[User]) -> None:
    by_id = {u.pk: u for u in users}
    for seat in seats:
        if seat.user_id in by_id:
            Seat.user.field.set_cached_value(seat, by_id[seat.user_id])
    set_seats(game, seats)


def set_seats(game: Game, seats: list[Seat]) -> None:
    """Make ``seats`` what ``game.seats.all()`` returns, each pointing at this game object."""
    for seat in seats:
        seat.game = game
    cached = Seat.objects.filter(game=game)
    cached._result_cache, cached._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": cached}


def _load_seats(game: Game) -> None:
    """(Re)load ``game.seats.all()`` with their users for everything that follows."""
    seats, users = fastsql.select_models([(Seat, (), _seats_sql(), [game.pk]), (User, (), _users_sql(), [game.pk])])
    _with_seats(game, seats, users)


def with_users(game: Game) -> None:
    """Load the users of the game's loaded seats in one query (for mails), where not loaded yet."""
    seats = [s for s in game.seats.all() if s.user_id is not None and not Seat.user.is_cached(s)]
    if seats:
        users = User.objects.in_bulk({s.user_id for s in seats})
        for seat in seats:
            Seat.user.field.set_cached_value(seat, users[seat.user_id])


# --- creating and joining --------------------------------------------------------

def create_game(*, creator, engine: str, title: str, players: int, options: dict | None = None,
                listed: bool = True, seat_order: str = Game.SEAT_ORDER_RANDOM,
                move_deadline_hours: int | None = None, seat_options: dict | None = None,
                bots: list[str] | tuple = ()) -> Game:
    try:
        eng = get_engine(engine)
    except KeyError as exc:
        raise GameError(str(exc)) from None
    try:
        eng.check_players(players)
        full = {**(options or {}), "seats": [seat_options or {}] + [{}] * (players - 1)}
        normalised = eng.normalise_options(full, players)
        eng.setup(players=players, seed=0, options=full)  # the variants must fit this player count
    except IllegalMove as exc:
        raise GameError(str(exc)) from None
    normalised.pop("seats")
    title = (title or "").strip() or f"{eng.name} by {creator}"
    with transaction.atomic():
        game = Game.objects.create(
            engine=engine, title=title[:100], players=players, options=normalised, listed=listed,
            seat_order=seat_order, move_deadline_hours=move_deadline_hours, created_by=creator,
        )
        Seat.objects.create(game=game, user=creator, options=_seat_options(eng, seat_options))
        if bots:
            _seat_bots(game, list(bots))
        _games_changed()
    return game


BOT_EMAIL_DOMAIN = "bots.hanseweb.invalid"  # .invalid never delivers (RFC 2606): bots get no mail


def bot_user(number: int) -> User:
    """The account of the ``number``-th bot at a table (1, 2, …): no password, not active, no
    mail (policy "off", an address that cannot receive), named "Bot 1", "Bot 2", …"""
    email = f"bot-{number}@{BOT_EMAIL_DOMAIN}"
    user = User.objects.filter(email=email).first()
    if user is None:
        user = User(email=email, display_name=f"Bot {number}", is_active=False, notify=User.NOTIFY_OFF)
        user.set_unusable_password()
        user.save()
    return user


def is_bot_user(user) -> bool:
    return bool(user and user.email.endswith("@" + BOT_EMAIL_DOMAIN))


def _seat_bots(game: Game, levels: list[str]) -> None:
    """Seat bots of ``levels`` in a practice game (issue 30); it starts when the seats are full."""
    from games.bots import LEVELS

    if len(levels) > game.players - 1 or any(level not in LEVELS for level in levels):
        raise GameError(_("A game can seat at most one bot fewer than its players, each at a known level."))
    for index, level in enumerate(levels, start=1):
        Seat.objects.create(game=game, user=bot_user(index), bot=level)
    if len(levels) + 1 == game.players and game.seat_order != Game.SEAT_ORDER_CREATOR:
        _load_seats(game)
        _start(game)


def _seat_options(engine, seat_options: dict | None) -> dict:
    try:
        return engine.normalise_options({"seats": [seat_options or {}]}, 1)["seats"][0]
    except IllegalMove as exc:
        raise GameError(str(exc)) from None


def join_game(game_id: int, user, seat_options: dict | None = None, invite_code: str | None = None) -> Game:
    """Take a free seat. The game starts by itself when the last seat is taken.

    A game that is not listed can be joined only with its invite code (the join link)."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.OPEN:
            raise GameError(_("This game has already started; you can watch it but not join."))
        if not game.listed and invite_code != game.invite_code:
            raise GameError(_("This game is by invitation only: open the join link you were sent."))
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise GameError(_("You have already joined this game."))
        if len(seats) >= game.players:
            raise GameError(_("This game is full."))
        Seat.objects.create(game=game, user=user, options=_seat_options(game.engine_obj, seat_options))
        _games_changed()
        _load_seats(game)
        if len(seats) + 1 == game.players and game.seat_order != Game.SEAT_ORDER_CREATOR:
            _start(game)
        return game


def start_game(game_id: int, user, order: list[int]) -> Game:
    """The creator starts a full game with the seat order they set (``order``: user ids, seat 0
    first). Only for games created with seat order "creator"."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.created_by_id != user.pk:
            raise GameError(_("Only the creator can start this game."))
        if game.status != Game.OPEN:
            raise GameError(_("This game has already started."))
        seats = {s.user_id: s for s in game.seats.all()}
        if len(seats) != game.players:
            raise GameError(_("The game starts when all %(players)d seats are taken (%(taken)d so far).")
                            % {"players": game.players, "taken": len(seats)})
        if sorted(order) != sorted(seats):
            raise GameError(_("The seat order must name every player exactly once."))
        _start(game, [seats[user_id] for user_id in order])
        return game


def leave_game(game_id: int, user) -> None:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.OPEN:
            raise GameError(_("The game has started: resign instead of leaving."))
        if game.created_by_id == user.pk:
            raise GameError(_("You created this game; cancel it instead."))
        deleted, _count = game.seats.filter(user=user).delete()
        if not deleted:
            raise GameError(_("You are not in this game."))
        _games_changed()


def cancel_game(game_id: int, user) -> None:
    with transaction.atomic():
        game = _locked(game_id)
        if game.created_by_id != user.pk:
            raise GameError(_("Only the creator can cancel a game."))
        if game.status != Game.OPEN:
            raise GameError(_("A started game cannot be cancelled."))
        game.seats.all().delete()
        game.delete()
        _games_changed()


def _start(game: Game, seats: list[Seat] | None = None) -> None:
    if seats is None:
        seats = sorted(game.seats.all(), key=lambda s: (s.joined_at, s.pk))
        if game.seat_order == Game.SEAT_ORDER_RANDOM:
            seats = Rng(seed_state(game.seed ^ SEAT_ORDER_STREAM)).shuffle(seats)
    for number, seat in enumerate(seats):
        seat.number = number
    Seat.objects.bulk_update(seats, ["number"])
    game.status = Game.RUNNING
    game.started_at = timezone.now()
    _games_changed()
    state = initial_state(game)
    game.setup_events = game.engine_obj.events(state)
    _store(game, state)
    _after_change(game, previous_to_act=[])
    game.save()


# --- moves -----------------------------------------------------------------------

def submit_move(game_id: int, user, text: str, *, expected_seq: int | None = None,
                channel: str = Move.WEB) -> Outcome:
    """Validate and log one move of ``user``'s seat. Raises GameError/StaleMove with a reason."""
    with transaction.atomic(), fastsql.batched(commit=True):  # its writes go together, with the COMMIT
        game = _locked(game_id)
        seat = seat_of(game, user)
        if seat is None:
            raise GameError(_("You are not playing in this game."))
        return _submit(game, seat, text, expected_seq=expected_seq, channel=channel, user=user)


def _submit(game: Game, seat: Seat, text: str, *, expected_seq, channel, user) -> Outcome:
    if game.status == Game.FINISHED:
        raise GameError(_("This game is over."))
    if game.status != Game.RUNNING:
        raise GameError(_("This game has not started yet."))
    if seat.resigned:
        raise GameError(_("You have resigned from this game."))
    engine = game.engine_obj
    state = current_state(game)
    held = state is game.state_cache  # the snapshot the locked row holds (not rebuilt by replay)
    previous = engine.to_act(state)
    if not decision_current(seat, expected_seq, game.move_count):
        made = _just_made(game, seat, text, expected_seq, user)
        if made is not None:
            raise AlreadyMade(made)
        raise StaleMove(_(
            "The game has moved on since you looked at it: your decision is no longer the one that page "
            "or mail showed (it showed move %(shown)s; the game is at move %(now)s). "
            "Nothing was changed; look at the board again and choose anew."
        ) % {"shown": expected_seq, "now": game.move_count})
    if seat.number not in previous:
        raise GameError(_("It is not your turn: nothing is waiting for your decision in this game."))
    text = " ".join(str(text or "").replace("\x00", " ").split())
    if not text:
        raise GameError(_("The move is empty."))
    if len(text) > 200:
        raise GameError(_("That move is too long to be a move (at most 200 characters)."))
    if text.lower() == UNDO and channel in (Move.WEB, Move.EMAIL):
        return _undo(game, seat, channel, user)
    try:
        canonical = engine.canonical(state, seat.number, text)
        # A player's move must be one of the listed choices. Some engines accept moves that only
        # the deadline sweep may make (Die Hanse's "timeout", HANSE-C4/C5); players cannot.
        if canonical not in engine.legal_moves(state, seat.number):
            raise IllegalMove(say(N_("{move} is not one of your choices now"), move=moves([canonical])))
        new_state = engine.apply(state, seat.number, canonical)
    except IllegalMove as exc:
        from django.utils.html import escape

        from .presentation import error_html, error_text, fill_names, fill_names_in_html, move_namer, player_names

        # the moves a refusal names (the choices, the move refused) in words, notation beside them
        view, names = engine.view(state, seat.number), player_names(game)
        reason = fill_names(error_text(exc, move_namer(game.engine, view, names)), names)
        refused = GameError(_("Not accepted: %(reason)s") % {"reason": reason})
        # the same for the page, notation marked as such (games/_refusal.html)
        reason = fill_names_in_html(error_html(exc, move_namer(game.engine, view, names, as_html=True)), names)
        refused.html = str(escape(_("Not accepted: %(reason)s"))) % {"reason": reason}
        raise refused from None
    undo = (state, seat.number) if undoable(engine, state, new_state, seat.number) else None
    since = game.move_count
    move = _log(game, seat.number, canonical, channel, user, new_state, undo=undo, told=True)
    if seat.quiet_since_seq is not None:  # the player acted: the debounced policy may mail again
        seat.quiet_since_seq = None
        fastsql.update(seat, ["quiet_since_seq"])
    # the player who moved on the page sees their next decision there; one who moved by mail gets
    # it in the answer to the reply (games.email_replies): neither is mailed for their own step
    present = seat.number if channel in HUMAN else None
    newly = _after_change(game, previous_to_act=previous, since=since, present=present)
    _save_move(game, undo_held=held and game.undo_state is state)
    return Outcome(game=game, move=move, newly_to_act=newly)


def _just_made(game: Game, seat: Seat, text: str, expected_seq, user) -> Move | None:
    """The move ``seat`` made since move ``expected_seq`` if it is its only move since then, made
    by ``user``, and ``text`` is that very move: then a refused post is a re-post of it."""
    try:
        seen = int(expected_seq)
    except (TypeError, ValueError):
        return None
    if not 0 <= seen < game.move_count:
        return None
    mine = list(Move.objects.filter(game=game, seat=seat.number, seq__gt=seen).order_by("seq")[:2])
    text = " ".join(str(text or "").split()).lower()
    if len(mine) == 1 and mine[0].user_id == user.pk and mine[0].text.lower() == text:
        return mine[0]
    return None


def _save_move(game: Game, *, undo_held: bool) -> None:
    """Save what a player's move changed on the game row. ``undo_held``: the undo step is the
    snapshot the locked row holds (the engines never change a state they are given), so the row
    copies it (SET undo_state = state_cache) rather than being sent a second snapshot, encoded
    and parsed again. This is the row's only update in the move's transaction, so it still
    holds that snapshot."""
    if undo_held:
        fastsql.update(game, GAME_DERIVED_BUT_UNDO, copied={"undo_state": "state_cache"})
    else:
        fastsql.update(game, GAME_DERIVED)


def _undo(game: Game, seat: Seat, channel: str, user) -> Outcome:
    """Take back the seat's last step: logged as the move ``undo`` (the log stays append-only)."""
    current_state(game)  # rebuilds the undo step if the snapshot was stale
    if not can_undo(game, seat.number):
        raise GameError(_("There is nothing to undo: only your own last step can be taken back, and only "
                        "while it revealed nothing hidden and nobody else has had to decide since."))
    move = _log(game, seat.number, UNDO, channel, user, game.undo_state, told=True,
                events=[event(0, seat.number, msg(UNDONE, player="{p%d}" % seat.number))])
    fastsql.update(game, GAME_DERIVED)
    return Outcome(game=game, move=move, newly_to_act=[])


def mark_told(seat: Seat, seq: int) -> None:
    """The seat knows what happened up to move ``seq`` (its own move, or a mail that told it)."""
    if seat.seen_seq != seq:
        seat.seen_seq = seq
        fastsql.update(seat, ["seen_seq"])


# The Game columns that moves change: saved once per transaction, after its last move.
GAME_DERIVED = ["move_count", "state_cache", "state_seq", "to_act", "deadline_at", "remind_at", "undo_state", "undo_seat",
                "last_move_at", "status", "finished_at", "result", "bots_due_at"]
GAME_DERIVED_BUT_UNDO = [name for name in GAME_DERIVED if name != "undo_state"]


def _log(game: Game, seat: int, text: str, channel: str, user, new_state: dict,
         undo: tuple[dict, int] | None = None, events: list | None = None, told: bool = False) -> Move:
    """Append one move with the log events of its step, and update what derives from it on the
    game object (snapshot, to_act, undo step, result, each seat's decision). The caller saves the
    game row once (``GAME_DERIVED``) when the moves of its transaction are done. ``told``: the
    seat made this move itself, so it knows everything up to it."""
    game.move_count += 1
    game.undo_state, game.undo_seat = undo if undo else (None, None)
    if events is None:
        events = game.engine_obj.events(new_state)
    move = fastsql.insert(Move(game=game, seq=game.move_count, seat=seat, user=user, text=text,
                               channel=channel, events=events))
    game.last_move_at = move.created_at
    _count_for_record(game, seat, channel, user)
    _store(game, new_state, mover=seat, told=told)
    return move


def _count_for_record(game: Game, number: int, channel: str, user) -> None:
    """Keep the seat's record counters (``Seat.decisions_made``, ``timed_out``) with the move: the
    seat's row is written in this step anyway (``_refresh_decisions`` always updates the mover)."""
    if channel in (Move.WEB, Move.EMAIL) and user is not None:
        for seat in game.seats.all():
            if seat.number == number and seat.user_id == user.pk:
                seat.decisions_made += 1
    elif channel == Move.TIMEOUT:
        for seat in game.seats.all():
            if seat.number == number:
                seat.timed_out += 1


def _decision_key(engine, state: dict, seat: int) -> str:
    """A digest of what ``seat`` is asked to decide now: the list of its legal moves."""
    raw = "\n".join(engine.legal_moves(state, seat))
    return hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()


def _refresh_decisions(game: Game, state: dict, mover: int | None, told: bool = False) -> None:
    """Advance ``decision_seq`` of every seat whose pending decision changed with this step (it
    became or stopped being due, or its legal moves changed) and of the seat that moved: the
    per-seat stale check of pages, mails and reply addresses (with the mover's ``seen_seq`` when
    it moved itself)."""
    engine = game.engine_obj
    changed = []
    for seat in game.seats.all():
        if seat.number is None:
            continue
        key = _decision_key(engine, state, seat.number) if seat.number in game.to_act else ""
        if key != seat.decision_key or seat.number == mover:
            seat.decision_key, seat.decision_seq = key, game.move_count
            if told and seat.number == mover:
                seat.seen_seq = game.move_count
            changed.append(seat)
    for seat in changed:  # usually the mover alone; a plain UPDATE is far cheaper than bulk_update's CASE
        fastsql.update(seat, ("decision_key", "decision_seq", "seen_seq", "decisions_made", "timed_out"))


def _store(game: Game, state: dict, mover: int | None = None, told: bool = False) -> None:
    engine = game.engine_obj
    game.state_cache = state
    game.state_seq = game.move_count
    game.to_act = engine.to_act(state)
    if game.to_act and game.move_deadline_hours:
        game.deadline_at = timezone.now() + timedelta(hours=game.move_deadline_hours)
    else:
        game.deadline_at = None
    game.remind_at = remind_at_for(game.deadline_at, game.move_deadline_hours)
    result = engine.result(state)
    if result is not None and game.status == Game.RUNNING:
        game.status = Game.FINISHED
        game.finished_at = timezone.now()
        game.result = _with_resignations(game, result)
        _games_changed()
    _refresh_decisions(game, state, mover, told)


def _with_resignations(game: Game, result: dict) -> dict:
    # A resigned seat is placed below every seat that played on, whatever its score.
    resigned = sorted(s.number for s in game.seats.all() if s.resigned)
    ranked = rank_with_resignations(result, resigned, game.players)
    forfeited = sorted(s.number for s in game.seats.all() if s.forfeited)
    return {**ranked, "forfeited": forfeited} if forfeited else ranked


def take_over_seat(game_id: int, old_user, new_user) -> Game:
    """``new_user`` takes over ``old_user``'s seat in a running game (a league's replacement):
    the same seat, its decisions and mails are ``new_user``'s from now on (a mail or page made
    for ``old_user`` no longer plays it: replies must come from the seat's account); the moves so
    far stay logged with the account that made them and a ``SeatTakeover`` row says from which
    move on the seat changed hands. The old player's private notes of the seat are not passed on."""
    from .models import SeatNote, SeatTakeover

    with transaction.atomic():
        game = _locked(game_id)
        seat = seat_of(game, old_user)
        if seat is None or game.status != Game.RUNNING or seat.resigned:
            raise GameError(_("%(name)s has no seat to hand over in this game (it is over, or they have "
                              "left it).") % {"name": old_user})
        if seat_of(game, new_user) is not None:
            raise GameError(_("%(name)s already plays in this game.") % {"name": new_user})
        SeatNote.objects.filter(seat=seat).delete()
        Seat.objects.filter(pk=seat.pk).update(user=new_user, quiet_since_seq=None, reminded_seq=None,
                                               seen_seq=game.move_count, chat_told_id=0,
                                               decisions_made=0, timed_out=0)
        SeatTakeover.objects.create(game=game, seat=seat.number, old_user=old_user, new_user=new_user,
                                    after_seq=game.move_count, old_decisions_made=seat.decisions_made,
                                    old_timed_out=seat.timed_out)
        _games_changed()
        _load_seats(game)
        if seat.number in (game.to_act or []):  # the new player is told (games.notifications listens)
            signals.decisions_due.send(sender=Game, game=game, seats=[seat.number])
        return game


def _after_change(game: Game, *, previous_to_act: list[int], since: int | None = None,
                  present: int | None = None) -> list[int]:
    """The bots' task when a bot or the autopilot (a resigned seat) is to act, then the announcement of
    what is new: the game ended, or these seats have a new decision to make (``games.signals``; ``games.notifications`` listens
    and queues the mails in this transaction). Returns the seats newly to act.

    A new decision is one a seat was not asked before this change (moves after move ``since``):
    the seat is newly to act, or it was to act already and its decision changed (its legal moves:
    another seat's move changed them, or its own move opened a window in which it decides again,
    as Zanzibar's last placement opens the set-aside). The seat that made the change in person
    (``present``: on the page or by mail) is told there, not by a turn mail."""
    _schedule_bots(game)
    if game.status == Game.FINISHED:
        signals.game_ended.send(sender=Game, game=game)
        return []
    newly = [s for s in game.to_act if s not in previous_to_act]
    changed = []
    if since is not None:
        changed = [s.number for s in game.seats.all()
                   if s.number in game.to_act and s.number not in newly and s.number != present
                   and s.decision_seq > since]
    signals.decisions_due.send(sender=Game, game=game, seats=newly + changed)
    return newly


def autopilot_level() -> str:
    """The bot level of the autopilot (setting ``HANSEWEB_AUTOPILOT_LEVEL``, docs/bots.md)."""
    from django.conf import settings

    from games.bots import LEVELS

    level = getattr(settings, "HANSEWEB_AUTOPILOT_LEVEL", "basic")
    return level if level in LEVELS else "basic"


def autopilot_move(game: Game, state: dict, seat: int) -> str:
    """The autopilot's decision for a resigned seat: the bot of the configured level, which sees
    only that seat's view (games.bots); its seed is the game's number and the seat, both public."""
    from games.bots import choose_move

    engine = game.engine_obj
    if len(engine.legal_moves(state, seat)) <= 1:
        return engine.default_move(state, seat) or engine.legal_moves(state, seat)[0]
    return choose_move(engine, state, seat, autopilot_level(), seed=game.pk * 8 + seat)


def autopilot_to_act(game: Game) -> list[Seat]:
    """The resigned seats (played by the autopilot) with a decision pending now."""
    if game.status != Game.RUNNING:
        return []
    return [s for s in game.seats.all() if s.resigned and s.number in (game.to_act or [])]


def _autopilot_play(game: Game, seat: int, move: str, expected_seq: int) -> None:
    """Log the autopilot's ``move`` for the resigned ``seat`` in the locked ``game``: the write
    path's steps as for a player's move (log, then ``_after_change``, then the row), with channel
    ``autopilot`` and no account. Raises ``StaleMove`` if the game moved on since
    ``expected_seq`` or the seat has nothing to decide."""
    engine = game.engine_obj
    state = current_state(game)
    previous = engine.to_act(state)
    if game.status != Game.RUNNING or game.move_count != expected_seq or seat not in previous:
        raise StaleMove("the game moved on")
    since = game.move_count
    _log(game, seat, move, Move.AUTOPILOT, None, engine.apply(state, seat, move))
    _after_change(game, previous_to_act=previous, since=since)
    fastsql.update(game, GAME_DERIVED)


def bots_to_act(game: Game) -> list[Seat]:
    """The bot seats (practice games) with a decision pending now."""
    if game.status != Game.RUNNING:
        return []
    return [s for s in game.seats.all() if s.bot and not s.resigned and s.number in (game.to_act or [])]


class _BotTask(threading.local):
    """Set while ``games.tasks.play_bots`` moves in this thread: it goes on by itself, no new task."""
    active = False


BOT_TASK = _BotTask()


def _schedule_bots(game: Game) -> None:
    """Queue the bots' task (``games.tasks.play_bots``) after this transaction commits, a few
    seconds later (``HANSEWEB_BOT_DELAY_SECONDS``), on the bots' queue (``HANSEWEB_BOT_QUEUE``),
    when a practice bot or the autopilot of a resigned seat is to act. Neither decides in the
    transaction (a web request, a mail, the deadline sweep) that made its turn come.

    The task is handed over as mail is (``hanseweb.handover.enqueue``): a broker that is down does not undo
    or fail the change that was committed. ``game.bots_due_at`` (saved with the change, as the
    write path saves the row) says when the bots count as stalled should no move of theirs come
    first (``HANSEWEB_BOT_STALL_SECONDS``): the beat's ``games.tasks.sweep_bots`` then queues the
    task again. Inside the bots' task (``BOT_TASK``) each move only moves that time on."""
    from django.conf import settings

    due = bool(bots_to_act(game) or autopilot_to_act(game))
    game.bots_due_at = timezone.now() + timedelta(seconds=settings.HANSEWEB_BOT_STALL_SECONDS) if due else None
    if BOT_TASK.active or not due:
        return
    queue_bots(game.pk, game.move_count, countdown=settings.HANSEWEB_BOT_DELAY_SECONDS)


def queue_bots(game_id: int, seq: int | None, countdown: float | None = None) -> None:
    """Hand the bots' task of a game to the broker when this transaction commits (at once outside
    one), on the bots' queue; a refused hand-over is logged and left to the bots' sweep."""
    from django.conf import settings

    from hanseweb.handover import enqueue

    from .tasks import play_bots

    transaction.on_commit(lambda: enqueue(play_bots, game_id, seq, queue=settings.HANSEWEB_BOT_QUEUE,
                                          countdown=countdown))


def bot_step(game_id: int) -> bool:
    """One decision of a bot of a practice game, or of the autopilot of a resigned seat, whose
    turn it is, through the write path (channel ``bot`` or ``autopilot``). The bot decides outside
    the game's lock from its seat's view; the move is then submitted with the move count it saw,
    so a game that moved on meanwhile refuses it as stale. Returns whether a move was made (or a
    stale one refused: decide again)."""
    from games.bots import choose_move

    game = loaded(game_id)
    if game is None:
        return False
    seats = bots_to_act(game)
    pilot = autopilot_to_act(game) if not seats else []
    if not seats and not pilot:
        return False
    state = current_state(game)
    try:
        if seats:
            seat = seats[0]
            move = _decided(game, state, seat.number,
                            lambda: choose_move(game.engine_obj, state, seat.number, seat.bot, seed=game.pk * 8 + seat.number))
            with transaction.atomic(), fastsql.batched(commit=True):
                locked = _locked(game_id)
                mine = next(s for s in locked.seats.all() if s.pk == seat.pk)
                _submit(locked, mine, move, expected_seq=game.move_count, channel=Move.BOT, user=mine.user)
        else:
            number = pilot[0].number
            move = _decided(game, state, number, lambda: autopilot_move(game, state, number))
            with transaction.atomic(), fastsql.batched(commit=True):
                _autopilot_play(_locked(game_id), number, move, game.move_count)
    except StaleMove:
        return True  # the game moved on: decide again
    return True


def _decided(game: Game, state: dict, seat: int, decide) -> str:
    """The bot's decision (``decide()``), or, should the bot fail (a fault in its code), the
    spec's default move of the seat, as the deadline would take it: the game goes on, and the
    fault is logged with the game and the seat for the operators."""
    try:
        return decide()
    except Exception:  # noqa: BLE001 - any fault of a bot must not stall the table
        log.exception("the bot of game %s seat %s failed to decide; it takes the default move", game.pk, seat)
        engine = game.engine_obj
        return engine.default_move(state, seat) or engine.legal_moves(state, seat)[0]


def resign(game_id: int, user, *, forfeit: bool = False) -> Game:
    """Leave a running game. With one player left the game ends; otherwise the resigned seat's
    decisions are taken by the autopilot (a bot, ``autopilot_move``) and it is ranked last.
    ``forfeit``: not the player's choice but an organiser's ruling (a league's forfeit): the seat
    is marked ``forfeited`` and the result says so (``forfeited``, ``ended_by: "forfeit"``)."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = seat_of(game, user)
        if seat is None or game.status != Game.RUNNING:
            raise GameError(_("You can resign only from a running game you play in."))
        if seat.resigned:
            raise GameError(_("You have already resigned."))
        seat.resigned = True
        seat.resigned_at = timezone.now()
        seat.forfeited = forfeit
        seat.save(update_fields=["resigned", "resigned_at", "forfeited"])
        _games_changed()  # the seat is marked, and the game may end here
        remaining = [s for s in game.seats.all() if not s.resigned]
        if len(remaining) <= 1:
            game.status = Game.FINISHED
            game.finished_at = timezone.now()
            game.to_act = []
            game.deadline_at = None
            ranking = [1 if not s.resigned else 2 for s in sorted(game.seats.all(), key=lambda s: s.number)]
            game.result = {"scores": None, "ranking": ranking, "breakdown": None,
                           "resigned": sorted(s.number for s in game.seats.all() if s.resigned),
                           "forfeited": sorted(s.number for s in game.seats.all() if s.forfeited),
                           "ended_by": "forfeit" if forfeit else "resignation"}
            game.save()
            signals.game_ended.send(sender=Game, game=game)
            return game
        signals.seat_resigned.send(sender=Game, game=game, seat=seat)
        previous = list(game.to_act)
        _after_change(game, previous_to_act=previous, since=game.move_count)
        fastsql.update(game, GAME_DERIVED)
        return game


def time_out(game_id: int, now=None) -> int:
    """Apply the default move for every seat whose deadline has passed. Returns moves made."""
    now = now or timezone.now()
    made = 0
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.RUNNING or not game.deadline_at or game.deadline_at > now:
            return 0
        engine = game.engine_obj
        state = current_state(game)
        previous = engine.to_act(state)
        since = game.move_count
        for seat in previous:
            # the seat's whole pending turn is played with the spec's defaults
            for _step in range(500):
                if seat not in engine.to_act(state):
                    break
                move = engine.default_move(state, seat)
                if move is None:
                    break
                state = engine.apply(state, seat, move)
                _log(game, seat, move, Move.TIMEOUT, None, state)
                made += 1
        if made:
            _after_change(game, previous_to_act=previous, since=since)
            fastsql.update(game, GAME_DERIVED)
    return made
