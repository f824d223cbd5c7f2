"""Moves by email. Every turn mail carries a reply address with a signed token that binds game,
seat and the move number it was sent at: ``play+<game>-<seat>-<seq>-<signature>@<reply domain>``.

A reply is accepted only if the token is genuine, the move number is still current (so a token
works once: after the first accepted reply the game has moved on), the sender is the seat's
account, and the moves in it are legal. Anything else is answered with the reason and changes
nothing. Only registered addresses ever get an answer, and only to mail sent to a reply address we
made (no backscatter); answers are rate-limited per address (``hanseweb.mail.inbound.may_answer``).
"""
from __future__ import annotations

import re

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from mailparser_reply.parser import EmailMessage

from hanseweb.accounts.models import User
from hanseweb.i18n import language_of
from hanseweb.mail.models import InboundEmail
from hanseweb.mail.outbox import absolute, queue_mail

from . import services
from .models import Game, Move
from .notifications import decision_mail, thread_of
from .reply_tokens import find_token, reply_address  # noqa: F401 - reply_address: made here for the mails

MAX_MOVES = 30
MAX_TEXT = 20000
# Mail clients the reply parser (mail-parser-reply) does not recognise yet, found in real replies:
# Dutch "Op <date> schreef <name>:" (Gmail, Thunderbird; the library expects "<name> schreef:"),
# Apple Mail's Dutch "... heeft <name> het volgende geschreven:", and the phones' "sent from"
# lines in German and Dutch. Each is one capturing group, as the library's own header patterns.
EXTRA_REPLY_HEADERS = (
    r"^((?:> ?)*Op\s[^\n]+?\sschreef\s[^\n]*(?:\n[^\n]*)?:)$",
    r"^((?:> ?)*Op\s[^\n]+?\sheeft\s[^\n]+?\shet volgende geschreven:)$",
    r"^((?:Von meinem|Gesendet von meinem|Gesendet mit|Verstuurd vanaf mijn|Verzonden vanaf mijn|Verzonden met)\s[^\n]{1,60})$",
)
REPLY_LANGUAGES = ("en", "de", "nl")
MENU_BULLET = re.compile(r"^(?:[-*\u2022]|\d{1,3}[.)])\s+(?=\S)")  # a line copied from the menu ("2. move")
COMMAND = re.compile(r"^(?:(vacation)(?:\s+(\S+))?|(back))$", re.IGNORECASE)  # account commands by mail
CHOICE = re.compile(r"^(\d{1,6})[.)]?$")  # a line that is just a number: a choice of the numbered menu
SAY = re.compile(r"^say:\s*(.*)$", re.IGNORECASE | re.DOTALL)  # "say: ..." posts to the game's chat
MAX_SAY = 5  # chat lines taken from one reply


class Applied(str):
    """A move taken from a reply, and the menu number it was chosen by (None: written as text)."""

    choice: int | None = None

    @classmethod
    def of(cls, move: str, choice: int | None) -> "Applied":
        applied = cls(move)
        applied.choice = choice
        return applied


class _Reply(EmailMessage):
    """mail-parser-reply's message, with the reply headers above added to the ones it knows."""

    @property
    def HEADER_REGEX(self):  # noqa: N802 - the library's name
        if getattr(self, "_with_extra_headers", None) is None:
            known = EmailMessage.HEADER_REGEX.fget(self).pattern
            self._with_extra_headers = re.compile("|".join((known, *EXTRA_REPLY_HEADERS)), re.MULTILINE | re.IGNORECASE)
        return self._with_extra_headers


def moves_in(text: str) -> list[str]:
    """The moves of a reply: its lines, one move a line, at the top of the reply, above the quoted
    original and the signature. mail-parser-reply finds where those start (the reply headers and
    signatures of English, German and Dutch mail clients); a line still quoted with ``>`` ends the
    moves too. Blank lines and ``#`` lines are skipped; a line copied from the menu (``- move``)
    counts as the move, and so does a line copied from the numbered menu (``2. move``: its text).
    A line that is just a number (``2``) stays as it is: ``handle`` reads it as a menu choice.
    A reply that starts with the quoted original has no moves."""
    message = _Reply(text=(text or "")[:MAX_TEXT], languages=list(REPLY_LANGUAGES), keep_hyphen_lists=True).read()
    top = message.replies[0] if message.replies else None
    if top is None or top.headers:
        return []
    moves = []
    for raw in top.body.splitlines():
        line = raw.strip()
        if line.startswith(">"):
            break
        if not line or line.startswith("#"):
            continue
        moves.append(MENU_BULLET.sub("", line))
    return moves


def handle(row: InboundEmail) -> tuple[str, str]:
    """Process one received mail. Returns (status, outcome) for the row. Everything said back
    (and the outcome noted on the row) is in the language of the sender's account."""
    sender = User.objects.filter(email__iexact=row.sender, is_active=True).first()
    with translation.override(language_of(sender) if sender is not None else settings.LANGUAGE_CODE):
        return _handle(row, sender)


def _handle(row: InboundEmail, sender) -> tuple[str, str]:
    token = find_token(row.recipients)
    if token is None:
        return InboundEmail.IGNORED, "not addressed to a game's reply address"
    game_id, seat_number, seq, genuine = token
    if not genuine:  # never answered: the From of such mail is most likely forged (backscatter)
        return InboundEmail.REJECTED, ("The reply address of this mail is not one we made (forged, changed or "
                                       "cut); not answered.")
    game = Game.objects.filter(pk=game_id).first()
    seat = game.seats.select_related("user").filter(number=seat_number).first() if game else None
    if seat is None:
        return _refuse(sender, row, _("The game of this reply address no longer exists. Please use the game page."))
    if sender is None or sender.pk != seat.user_id:
        return _refuse(sender, row, _("This reply came from an address that does not play this seat. Replies "
                                      "are accepted only from the address of the player's account."), game=game)
    lines = moves_in(row.text)
    said, problem = _say(game, sender, [SAY.match(line).group(1) for line in lines if SAY.match(line)])
    moves = [line for line in lines if not SAY.match(line)]
    if problem or (said and not moves):  # only chat (or a chat line that was refused): no moves read
        _answer(sender, row, game, seat, accepted=said, problem=problem, ignored=len(moves) if problem else 0)
        if said and not problem:
            return InboundEmail.ACCEPTED, f"said {len(said)} chat line(s)"
        return InboundEmail.REJECTED, f"{problem[0]!r}: {problem[1]}"
    if not moves:
        return _refuse(sender, row, _("No move was found in your reply. Write each move on its own line at "
                                      "the top of the reply (and \"say: ...\" to talk to the table)."),
                       game=game, seat=seat)
    command = COMMAND.match(moves[0])
    if command and not _is_legal_move(game, seat, moves[0]):  # a game's own move "back" stays a move
        return _command(sender, row, game, seat, command, ignored=len(moves) - 1)
    accepted, problem = list(said), None
    expected = seq
    for text in moves[:MAX_MOVES]:
        choice = None
        number = CHOICE.match(text)
        if number:
            resolved = _menu_choice(game, seat, expected, int(number.group(1)), text)
            if isinstance(resolved, tuple):
                problem = resolved
                break
            choice, text = int(number.group(1)), resolved
        try:
            outcome = services.submit_move(game.pk, sender, text, expected_seq=expected, channel=Move.EMAIL)
        except services.StaleMove:
            problem = (text, _("This mail answers an older position: the game has moved on since it was "
                               "sent, so nothing more was taken from it."))
            break
        except services.GameError as exc:
            problem = (text, str(exc))
            break
        accepted.append(Applied.of(outcome.move.text, choice))
        game = outcome.game
        expected = game.move_count
        if seat_number not in game.to_act:
            break
    ignored = len(moves) - (len(accepted) - len(said)) - (1 if problem else 0)
    _answer(sender, row, game, seat, accepted=accepted, problem=problem, ignored=max(0, ignored))
    if accepted:
        return InboundEmail.ACCEPTED, f"accepted {accepted}" + (f"; stopped at {problem[0]!r}: {problem[1]}" if problem else "")
    return InboundEmail.REJECTED, f"{problem[0]!r}: {problem[1]}" if problem else "nothing to do"


def _say(game: Game, sender, texts: list[str]) -> tuple[list[Applied], tuple[str, str] | None]:
    """Post the reply's ``say:`` lines to the game's chat (games.chat: same checks and throttle as
    the page; no stale check, so a ``say:`` works from any turn mail of the seat). Returns what was
    said and the first refusal, if any (nothing after it is taken)."""
    from . import chat

    said = []
    for text in texts[:MAX_SAY]:
        try:
            chat.post(game.pk, sender, text, channel="email")
        except chat.ChatError as exc:
            return said, (f"say: {text}", str(exc))
        said.append(Applied.of(f"said: {text}", None))
    if len(texts) > MAX_SAY:
        return said, (f"say: {texts[MAX_SAY]}", f"At most {MAX_SAY} chat lines are taken from one reply.")
    return said, None


def _is_legal_move(game: Game, seat, text: str) -> bool:
    if game.status != Game.RUNNING or seat.number not in (game.to_act or []):
        return False
    engine = game.engine_obj
    state = services.current_state(game)
    try:
        return engine.canonical(state, seat.number, text) in engine.legal_moves(state, seat.number)
    except Exception:  # noqa: BLE001 - not a move of this game
        return False


def _command(sender, row, game: Game, seat, match, *, ignored: int) -> tuple[str, str]:
    """``vacation N`` (go away for N days) or ``back`` as the first line of a reply: the account
    commands by mail. Lines after the command are not read as moves."""
    from django.utils import timezone

    from hanseweb.accounts import vacation

    try:
        if match.group(3):
            user = vacation.end(sender)
            done = _("back: your vacation has ended (%(days)d vacation days left this year)") % {
                "days": vacation.days_left(user)}
        else:
            raw = match.group(2) or ""
            if not raw.isdigit() or len(raw) > 4:
                raise vacation.VacationError(
                    _("\"vacation %(raw)s\" is not a number of days: write for example \"vacation 5\" "
                      "(1 to %(max)d days).") % {"raw": raw, "max": vacation.MAX_DAYS})
            user = vacation.start(sender, int(raw))
            until = date_format(timezone.localtime(user.vacation_until), "D j M Y, H:i")
            done = _("vacation: you are away until %(until)s (%(days)d vacation days left this year); your "
                     "deadlines wait for you meanwhile. Reply \"back\" to end it early.") % {
                "until": until, "days": vacation.days_left(user)}
            done = " ".join([done, *vacation.notes(user)])  # a league's cap or ban
    except vacation.VacationError as exc:
        return _refuse(sender, row, str(exc), game=game, seat=seat)
    _answer(sender, row, game, seat, accepted=[done], problem=None, ignored=ignored)
    return InboundEmail.ACCEPTED, done


def _menu_choice(game: Game, seat, expected: int, number: int, line: str) -> str | tuple[str, str]:
    """The move that menu number ``number`` stands for, or ``(line, reason)`` when there is none.

    The menu is the seat's legal moves in the order the mail listed them. A number on the first
    line refers to the menu of the mail replied to (its move count ``expected``); a number on a
    later line to the menu of the decision current after the steps before it (the one the answer
    mail will list). The state is read without the game's lock: that is safe because the move is
    then submitted with ``expected_seq=expected``, and the write path's per-seat stale check takes
    it only while the seat's own decision is still the one read here (its legal moves unchanged).
    A stale or not-your-turn reply gets the write path's own answer: the text goes through."""
    game.refresh_from_db()
    fresh = game.seats.filter(pk=seat.pk).first()
    if fresh is None or not services.decision_current(fresh, expected, game.move_count) \
            or game.status != Game.RUNNING or seat.number not in (game.to_act or []):
        return line  # submit_move answers why (moved on, not your turn, game over)
    menu = game.engine_obj.legal_moves(services.current_state(game), seat.number)
    if line in menu:  # an engine whose move is a bare number: the text wins
        return line
    if not 1 <= number <= len(menu):
        if len(menu) == 1:
            return line, _("There is no choice %(number)d: the menu had 1 choice.") % {"number": number}
        return line, _("There is no choice %(number)d: the menu had %(n)d choices (1 to %(n)d).") % {
            "number": number, "n": len(menu)}
    return menu[number - 1]


def _refuse(sender, row, reason: str, *, game: Game | None = None, seat=None) -> tuple[str, str]:
    if sender is not None:
        _answer(sender, row, game, seat, accepted=[], problem=("", reason), ignored=0)
    return InboundEmail.REJECTED, reason


def _answer(user, row, game, seat, *, accepted, problem, ignored) -> None:
    """Tell the sender what happened. While a decision is still theirs, the answer is a decision
    mail with a new reply address for the current move number, so they can go on by email."""
    from hanseweb.mail.inbound import may_answer

    if not may_answer(row, user.email):  # a flood of replies does not make a flood of answers
        return
    outcome = {"accepted": accepted, "problem": problem, "ignored": ignored, "subject": row.subject}
    if game is not None:
        game.refresh_from_db()
        if seat is not None and seat.user_id == user.pk and game.status == Game.RUNNING \
                and seat.number in (game.to_act or []):
            decision_mail(game, seat, template="games/mail/reply_result", kind="reply_result", **outcome)
            return
        outcome.update(game=game, game_url=absolute(reverse("game", args=[game.pk])))
    thread = thread_of(game, seat.number) if game is not None and seat is not None and seat.user_id == user.pk else {}
    queue_mail(to=user.email, user=user, template="games/mail/reply_result", kind="reply_result",
               context={"player": user, **outcome}, **thread)
