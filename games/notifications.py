"""Game mails: queued in the move's transaction (outbox), sent by a Celery worker after commit."""
from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils import translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from hanseweb.i18n import language_of

from hanseweb.accounts.models import User
from hanseweb.mail.outbox import absolute, queue_mail, queue_rendered_later

from . import chat, history, presentation
from . import signals
from .mail_checks import decision_spec
from .models import Game, Seat
from .reply_tokens import reply_address
from .services import mark_told, set_seats, with_users


def _seats(game: Game) -> dict[int, Seat]:
    """The seats by number: the game's loaded seats (the write path loads them once, with users)."""
    return {s.number: s for s in game.seats.all() if s.number is not None}


def thread_of(game: Game, seat_number: int) -> dict:
    """The mail headers that make one game one conversation for one seat (``queue_mail``'s
    thread and List-Id arguments): every mail of the game to that seat threads under one root."""
    return {"thread": f"game-{game.pk}.seat-{seat_number}", "list_key": f"game-{game.pk}", "list_name": game.title}


def away(game: Game) -> list[dict]:
    """Who in ``game`` is on vacation, until when (everyone in the game is told)."""
    from hanseweb.accounts.vacation import is_away

    names = presentation.player_names(game)
    return [{"name": names[number], "until": seat.user.vacation_until}
            for number, seat in sorted(_seats(game).items()) if is_away(seat.user)]


def decision_mail(game: Game, seat: Seat, *, template: str, kind: str, with_news: bool = False,
                  wanted_while: dict | None = None, **extra) -> None:
    """A mail about a decision that is ``seat``'s now: its private view as text, the menu of its
    legal moves, the deadline, the link, and (when replies are on) a reply address for this move
    number. Turn mails, reminders and answers to email replies are all of this kind (turn mails
    are rendered by the sending worker, see ``your_turn``).

    The move number in the reply address (as in the page's form) is the per-seat stale check: a
    reply is taken while the seat's own decision has not changed since (``services.decision_current``).
    Everything in it is in the language of the seat's player."""
    with translation.override(language_of(seat.user)):
        made = decision_content(game, seat, template=template, with_news=with_news, after_seq=seat.seen_seq, **extra)
        queue_mail(to=seat.user.email, user=seat.user, kind=kind, wanted_while=wanted_while, **made,
                   **thread_of(game, seat.number))


def decision_content(game: Game, seat: Seat, *, template: str, with_news: bool, after_seq: int, **extra) -> dict:
    """``queue_mail``'s template, context, Reply-To and picture of a decision mail for ``seat``
    with the game as ``game`` holds it (its ``state_cache`` at move ``move_count``), in the
    language active (the caller's ``translation.override``)."""
    engine = game.engine_obj
    state = game.state_cache
    names = presentation.player_names(game)
    view = engine.view(state, seat.number)
    legal = engine.legal_moves(state, seat.number)
    reply_to = reply_address(game.pk, seat.number, game.move_count)
    context = {
        "can_reply": bool(reply_to),
        "game": game,
        "engine_name": engine.name,
        "player": seat.user,
        "prompt": presentation.prompt_text(view),
        # the prompt is the mail's first line; the view below does not say it again
        "view_text": presentation.view_text(game.engine, view, names, prompt=False),
        "legal": legal,
        # the menu: each move in words, its notation (what a reply may say) small beside it
        "choices": [{"move": m, "label": presentation.move_label(game.engine, view, m, names)} for m in legal],
        "deadline": game.deadline_at,
        "game_url": absolute(reverse("game", args=[game.pk])),
        "rules_url": absolute(reverse("rules", args=[game.engine]) + f"?game={game.pk}"),
        "away": away(game),
        **extra,
    }
    said = None
    if with_news:  # what happened since the seat last acted or was told
        context["since"], context["since_skipped"] = history.since(game, seat.number, names, after_seq)
        context["said"] = said = chat.said_since(game, seat)  # table talk (None: muted)
    if said:  # the mail is made now (queued or rendered by the sending worker): the seat is told
        chat.mark_told(seat, said["last_id"])
    return {"template": template, "context": context, "headers": {"Reply-To": reply_to} if reply_to else None,
            # the seat's own board, the same SVG as its game page (engine.view for this seat
            # only), sent as an inline PNG: it shows nothing the seat's page does not
            "inline_svg": presentation.board_svg(game.engine, view, names, legal=legal)}


def render_your_turn(params: dict) -> dict:
    """The renderer of turn mails (registered with ``hanseweb.mail.renderers``): the turn mail of
    seat ``seat`` as the game stood after move ``seq``, with the news after move ``after``.
    Usually the game is still at ``seq`` (the worker renders within milliseconds of the commit);
    otherwise the state at ``seq`` is replayed (``replay.state_at``, from cached snapshots)."""
    from . import replay

    game = Game.objects.defer("setup_events").get(pk=params["game"])
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    set_seats(game, seats)
    seq = int(params["seq"])
    if game.move_count != seq or game.state_seq != seq:
        game.state_cache = replay.state_at(game, seq)
        game.move_count = game.state_seq = seq
    deadline = params.get("deadline")
    game.deadline_at = parse_datetime(deadline) if deadline else None
    seat = next(s for s in seats if s.number == params["seat"])
    return decision_content(game, seat, template="games/mail/your_turn", with_news=True, after_seq=params["after"])


# --- the notification policy (User.notify) ----------------------------------------------------

def _quiet(game: Game, seat: Seat) -> None:
    """A debounced seat was mailed about a decision: no more until it acts or opens the page."""
    seat.quiet_since_seq = game.move_count
    seat.save(update_fields=["quiet_since_seq"])


def may_mail_decision(game: Game, seat: Seat) -> bool:
    """Whether a mail about ``seat``'s decision (a turn mail) goes out under its player's policy;
    a debounced seat is marked quiet when it does."""
    policy = seat.user.mail_policy
    if policy == User.NOTIFY_EVERY_TURN:
        return True
    if policy == User.NOTIFY_DEBOUNCED and seat.quiet_since_seq is None:
        _quiet(game, seat)
        return True
    return False  # digest (the daily mail lists it), off, or debounced and already told


def next_digest_at(user: User, now):
    """When ``user``'s next daily digest goes out: today at its hour (the player's time zone), or at
    the next beat when that hour has passed without one, or tomorrow when today's is sent."""
    from hanseweb.timezones import zone_of

    zone = zone_of(user)
    local = timezone.localtime(now, zone)
    due = local.replace(hour=user.digest_hour, minute=0, second=0, microsecond=0)
    if user.digest_sent_at is not None and timezone.localtime(user.digest_sent_at, zone).date() == local.date():
        return due + timedelta(days=1)
    return max(due, local)


def may_remind(game: Game, seat: Seat, now) -> bool:
    """Whether the reminder before ``game``'s deadline goes to ``seat`` under its policy: every
    decision, yes; debounced, only while the seat is not quiet (then it is); digest, only when the
    deadline comes before the next digest would list the game; off, no."""
    policy = seat.user.mail_policy
    if policy == User.NOTIFY_DIGEST:
        return game.deadline_at is not None and game.deadline_at <= next_digest_at(seat.user, now)
    return may_mail_decision(game, seat)


def mark_seen(game_id: int, user_id: int) -> int:
    """The player opened the game page: a debounced seat may be mailed again. One UPDATE that
    touches a row only when the seat is quiet (the game page calls it outside its cached body)."""
    return Seat.objects.filter(game_id=game_id, user_id=user_id, quiet_since_seq__isnull=False) \
        .update(quiet_since_seq=None)


def your_turn(game: Game, seat_numbers: list[int]) -> None:
    if not seat_numbers:
        return
    with_users(game)
    seats = _seats(game)
    for number in seat_numbers:
        seat = seats.get(number)
        if seat is None or seat.resigned:
            continue
        if may_mail_decision(game, seat):
            # queued now, in the move's transaction; rendered by the worker that sends it, so the
            # player who moved does not wait for the next player's mail (render_your_turn)
            queue_rendered_later(
                to=seat.user.email, user=seat.user, kind="your_turn", renderer="games.your_turn",
                params={"game": game.pk, "seat": number, "seq": game.move_count, "after": seat.seen_seq,
                        "deadline": game.deadline_at.isoformat() if game.deadline_at else None},
                wanted_while=decision_spec(game.pk, number, game.move_count), **thread_of(game, number))
            mark_told(seat, game.move_count)
        elif seat.user.mail_policy == User.NOTIFY_OFF:
            mark_told(seat, game.move_count)  # as before: no mail will tell it later either


def _on_decisions_due(sender, *, game: Game, seats: list[int], **kwargs) -> None:
    your_turn(game, seats)


def _on_game_ended(sender, *, game: Game, **kwargs) -> None:
    game_over(game)


def _on_seat_resigned(sender, *, game: Game, seat: Seat, **kwargs) -> None:
    """The seat's decision mails not sent yet are no longer wanted: the autopilot decides for it.
    A league round's game starts and, in the same transaction, a seat a bot plays resigns
    (``leagues.services._create_tables``): without this its player got the turn mail."""
    from hanseweb.mail.models import OutboundEmail

    OutboundEmail.objects.filter(
        user_id=seat.user_id, kind="your_turn", sent_at__isnull=True, given_up_at__isnull=True,
        wanted_while__params__game=game.pk, wanted_while__params__seat=seat.number,
    ).update(given_up_at=timezone.now(), given_up_reason=OutboundEmail.OBSOLETE,
             last_error="no longer worth sending: the player left the game (the autopilot plays the seat)")


signals.decisions_due.connect(_on_decisions_due, dispatch_uid="games.notifications.your_turn")
signals.seat_resigned.connect(_on_seat_resigned, dispatch_uid="games.notifications.withdraw")
signals.game_ended.connect(_on_game_ended, dispatch_uid="games.notifications.game_over")


def game_over(game: Game) -> None:
    with_users(game)
    names = presentation.player_names(game)
    result = game.result or {}
    standings = []
    for number, seat in sorted(_seats(game).items()):
        standings.append({
            "name": names[number],
            "place": (result.get("ranking") or [None] * game.players)[number],
            "score": (result.get("scores") or [None] * game.players)[number],
            "breakdown": (result.get("breakdown") or [None] * game.players)[number],
            "resigned": seat.resigned,
            "forfeited": seat.forfeited,
        })
    standings.sort(key=lambda r: (r["place"] or 99))
    for number, seat in _seats(game).items():
        # the result goes out under every policy but "off"; digest readers get it in the digest
        if seat.user.mail_policy not in (User.NOTIFY_EVERY_TURN, User.NOTIFY_DEBOUNCED):
            continue
        with translation.override(language_of(seat.user)):
            _result_mail(game, number, seat, names, standings, result)


def _result_mail(game, number, seat, names, standings, result) -> None:
    engine = game.engine_obj
    since, _skipped = history.since(game, number, names, seat.seen_seq)
    queue_mail(
        to=seat.user.email,
        user=seat.user,
        template="games/mail/game_over",
        kind="game_over",
        **thread_of(game, number),
        context={
            "game": game,
            "engine_name": engine.name,
            "player": seat.user,
            "standings": standings,
            "ended_by": result.get("ended_by"),
            "since": since,
            "game_url": absolute(reverse("game", args=[game.pk])),
        },
    )


def reminder(game: Game, seat: Seat) -> None:
    """The deadline of a decision is near: remind the seat (once per move number, see tasks)."""
    decision_mail(game, seat, template="games/mail/reminder", kind="reminder",
                  default=game.engine_obj.default_move(game.state_cache, seat.number),
                  wanted_while=decision_spec(game.pk, seat.number, game.move_count))


def digest(user: User, now) -> bool:
    """The daily digest: every game waiting for ``user``, sorted by time left (no deadline last),
    the games that ended since the last digest, and the registered sections' news (league mails). Returns whether a mail was queued (nothing
    waiting and nothing ended: no mail)."""
    seats = (Seat.objects.filter(user=user, resigned=False, game__status=Game.RUNNING, number__isnull=False)
             .select_related("game"))
    waiting = [s for s in seats if s.number in (s.game.to_act or [])]
    waiting.sort(key=lambda s: (s.game.deadline_at is None, s.game.deadline_at or now, s.game.pk))
    since = user.digest_sent_at or now - timedelta(days=1)
    ended = list(Game.objects.filter(seats__user=user, status=Game.FINISHED, finished_at__gt=since,
                                     finished_at__lte=now).order_by("finished_at"))
    from hanseweb import hooks  # sections other apps add (the leagues app: new tables, invitations)

    news = [{"heading": heading, "items": found} for items, heading in hooks.callables("digest_sections")
            if (found := items(user, since, now))]
    if not waiting and not ended and not news:
        return False
    with translation.override(language_of(user)):
        _digest_mail(user, now, waiting, ended, news)
    return True


def _digest_mail(user, now, waiting, ended, news) -> None:
    rows, told = [], []
    for seat in waiting:
        game = seat.game
        left = game.deadline_at - now if game.deadline_at else None
        said = chat.said_since(game, seat)  # table talk since the seat's last mail (None: muted)
        told.append((seat, said))
        rows.append({"game": game, "engine_name": game.engine_obj.name, "deadline": game.deadline_at,
                     "left": _left(left), "overdue": left is not None and left.total_seconds() <= 0,
                     "url": absolute(reverse("game", args=[game.pk])),
                     "reply_to": reply_address(game.pk, seat.number, game.move_count), "said": said})
    results = []
    for game in ended:
        result = game.result or {}
        number = next((s.number for s in game.seats.all() if s.user_id == user.pk), None)
        ranking = result.get("ranking") or []
        results.append({"game": game, "place": ranking[number] if number is not None and number < len(ranking) else None,
                        "url": absolute(reverse("game", args=[game.pk]))})
    queue_mail(to=user.email, user=user, template="games/mail/digest", kind="digest",
               context={"player": user, "waiting": rows, "ended": results, "news": news, "now": now})
    for seat, said in told:
        if said:
            chat.mark_told(seat, said["last_id"])


def _left(delta) -> str:
    if delta is None:
        return _("no deadline")
    seconds = int(delta.total_seconds())
    if seconds <= 0:
        return _("deadline passed")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return ngettext("%(days)d day %(hours)d h left", "%(days)d days %(hours)d h left", days) % {
            "days": days, "hours": hours}
    if hours:
        return _("%(hours)d h %(minutes)d min left") % {"hours": hours, "minutes": minutes}
    return _("%(minutes)d min left") % {"minutes": minutes}
