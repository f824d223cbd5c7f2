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
from hanseweb.mail import authentication
from hanseweb.mail.models import InboundEmail
from hanseweb.mail.outbox import absolute, queue_mail

from . import services
from .models import Game, Move
from .notifications import decision_mail, thread_of
from .reply_tokens import find_token, reply_address  # noqa: F401 - reply_address: made here for the mails

MAX_MOVES = 30
MAX_TEXT = 20000
# What the reply parser (mail-parser-reply) does not know, as data per language, from real
# replies and the public reply-parser corpora (github/email_reply_parser, crisp-oss/email-reply-parser,
# mailgun/talon). Each is a regular expression for one whole line (case does not matter):
#   "separators": the line an Outlook puts above the quoted original ("-----Original Message-----");
#   "sent_from":  a phone's or app's tagline ("Sent from my iPhone", "Download Outlook for Android<…>");
#   "closings":   a closing that starts the signature ("Cheers,", "Groetjes,", "Mit freundlichen Grüßen");
#   "choice":     the words that name a menu entry before its number ("option 2", "keuze 2", "Wahl 2");
#   "openings":   a greeting above the moves ("Hi,", "Hoi Hanseweb,", "Guten Morgen!"): skipped.
# Everything from a separator, a tagline or a closing on is not read for moves; the reply headers
# the library misses follow as patterns of their own.
REPLY_SHAPES = {
    "en": {
        "separators": [r"original message", r"forwarded message", r"reply message"],
        "sent_from": [r"sent from (?:my |the )?\S[^\n]{0,60}", r"(?:get|download) outlook for (?:android|ios|windows)\b[^\n]{0,60}",
                      r"sent (?:with|via|using) \S[^\n]{0,60}"],
        "closings": [r"cheers", r"thanks(?: a lot| again)?", r"thank you", r"thx", r"best(?: wishes| regards)?",
                     r"(?:kind|warm|warmest|many|with) regards", r"regards", r"all the best", r"yours(?: truly| sincerely)?",
                     r"sincerely", r"greetings", r"love", r"bye", r"take care", r"have fun", r"good luck",
                     r"br", r"rgds"],
        "choice": [r"option", r"choice", r"number", r"no\.?", r"num\.?", r"nr\.?", r"#"],
        "openings": [r"hi", r"hello", r"hey", r"dear", r"good (?:morning|afternoon|evening)"],
    },
    "nl": {
        "separators": [r"oorspronkelijk bericht", r"origineel bericht", r"doorgestuurd bericht"],
        "sent_from": [r"(?:verzonden|verstuurd) (?:vanaf|via|met) \S[^\n]{0,60}",
                      r"outlook voor (?:android|ios) downloaden\b[^\n]{0,60}", r"download outlook voor (?:android|ios)\b[^\n]{0,60}"],
        "closings": [r"groetjes", r"groeten", r"groet", r"gr\.?", r"mvg", r"m\.v\.g\.?", r"met vriendelijke groet(?:en)?",
                     r"vriendelijke groet(?:en)?", r"hartelijke groet(?:en)?", r"(?:veel|hele) groeten", r"liefs",
                     r"dank(?: je| u)?(?: wel)?", r"dankjewel", r"bedankt", r"doei", r"tot (?:ziens|later|snel)",
                     r"succes", r"veel plezier"],
        "choice": [r"keuze", r"optie", r"nummer", r"nr\.?", r"no\.?"],
        "openings": [r"hoi", r"hallo", r"hey", r"beste", r"lieve", r"goede(?:morgen|middag|navond)", r"dag"],
    },
    "de": {
        "separators": [r"ursprüngliche nachricht", r"urspr\S*ngliche nachricht", r"originalnachricht",
                       r"weitergeleitete nachricht"],
        "sent_from": [r"(?:von meinem|gesendet von meinem|gesendet mit|gesendet von) \S[^\n]{0,60}",
                      r"outlook für (?:android|ios) (?:herunterladen|beziehen)\b[^\n]{0,60}",
                      r"von outlook für (?:android|ios) gesendet\b[^\n]{0,60}"],
        "closings": [r"mit freundlichen grüßen", r"mit freundlichen gruessen", r"mfg", r"freundliche grüße",
                     r"(?:viele|liebe|beste|herzliche|schöne|sonnige) grüße", r"(?:viele|liebe|beste) gruesse", r"grüße",
                     r"gruß", r"gruss", r"lg", r"vg", r"danke(?: schön| dir| euch)?", r"vielen dank", r"tschüss",
                     r"tschüs", r"ciao", r"bis bald", r"servus", r"viel spaß"],
        "choice": [r"wahl", r"auswahl", r"option", r"nummer", r"nr\.?", r"zug"],
        "openings": [r"hallo", r"hi", r"moin", r"servus", r"liebe[rs]?", r"guten (?:morgen|tag|abend)"],
    },
}
REPLY_LANGUAGES = ("en", "de", "nl")


def _alternatives(key: str) -> str:
    return "|".join(p for language in REPLY_LANGUAGES for p in REPLY_SHAPES[language][key])


# Reply headers the library misses, found in real replies: Dutch "Op <date> schreef <name>:"
# (Gmail, Thunderbird; the library expects "<name> schreef:"), Apple Mail's Dutch "... heeft <name>
# het volgende geschreven:", Outlook's separators in every language ("-----Ursprüngliche
# Nachricht-----"), and the taglines above. Each is one capturing group, as the library's own.
EXTRA_REPLY_HEADERS = (
    r"^((?:> ?)*Op\s[^\n]+?\sschreef\s[^\n]*(?:\n[^\n]*)?:)$",
    r"^((?:> ?)*Op\s[^\n]+?\sheeft\s[^\n]+?\shet volgende geschreven:)$",
    rf"^((?:> ?)*[-_=*]{{2,}}\s*(?:{_alternatives('separators')})\s*[-_=*]{{2,}})$",
    rf"^((?:{_alternatives('sent_from')}))$",
    # FairEmail and other Android clients: "25.11.2026 20:54:00 Hanseweb <noreply@…>:" above the quote
    r"^((?:> ?)*\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+\d{1,2}:\d{2}(?::\d{2})?\s[^\n]*<[^\n@>]+@[^\n>]+>:?)$",
)
# A closing line: the closing alone or with a name after it ("Groetjes, Marieke"; "Cheers!").
CLOSING = re.compile(rf"^(?:{_alternatives('closings')})(?:\s*[,.!:;]+\s*|\s+)?(?:[^\W\d_][\w'’.\-]*\s*){{0,3}}[,.!]*$",
                     re.IGNORECASE)
# A line that names a menu entry by its number: "2", "2.", "2)", "#2", "(2)", "[2]", "option 2",
# "nr. 2", "keuze 2", "Wahl 2", … (a legal move with the same text is taken as the move).
CHOICE = re.compile(rf"^(?:(?:{_alternatives('choice')})\s*[:#]?\s*)?[(\[]?\s*(\d{{1,6}})\s*[)\]]?\s*[.):!]?$",
                    re.IGNORECASE)
# A greeting on a line of its own above the moves ("Hi,", "Hallo Hanseweb!").
OPENING = re.compile(rf"^(?:{_alternatives('openings')})(?:\s+[^\W\d_][\w'’.\-]*){{0,3}}\s*[,!:]?$", re.IGNORECASE)
# A line that reads as a signature's name ("Zoë", "Anne-Marie", "Tom B."): 1 to 3 words of letters.
NAME_LINE = re.compile(r"^[^\W\d_][\w'’.\-]*(?:\s+[^\W\d_][\w'’.\-]*){0,2}\s*[.!]?$")
MENU_BULLET = re.compile(r"^(?:[-*\u2022]|\d{1,3}[.)])\s+(?=\S)")  # a line copied from the menu ("2. move")
# a menu line copied whole: the move in words, its notation in brackets ("Put a stall in Kalmar  [place kalmar]")
MENU_NOTATION = re.compile(r"^[^\[\]]*\[([^\[\]]+)\]\s*$")
COMMAND = re.compile(r"^(?:(vacation)(?:\s+(\S+))?|(back))$", re.IGNORECASE)  # account commands by mail
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
    signatures of English, German and Dutch mail clients, with ``REPLY_SHAPES`` added); a line
    still quoted with ``>`` ends the moves too, and so does a closing ("Cheers,", "Groetjes,",
    "Mit freundlichen Grüßen") after the first line. Blank lines and ``#`` comments are skipped (but
    ``#2`` names menu entry 2); a line copied from the menu (``- move``) counts as the move, and so
    does a line copied from the numbered menu (``2. move``: its text). A line that names a number
    (``2``, ``option 2``, ``keuze 2``) stays as it is: ``handle`` reads it as a menu choice.
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
        if not line or (line.startswith("#") and not CHOICE.match(line)):
            continue
        if CLOSING.match(line):
            if moves:
                break  # the signature starts: nothing after it is a move
            continue  # "Thanks!" above the moves
        if not moves and OPENING.match(line) and not CHOICE.match(line):
            continue  # "Hi," above the moves
        if CHOICE.match(line):
            moves.append(line)
            continue
        line = MENU_BULLET.sub("", line)
        copied = MENU_NOTATION.match(line)
        moves.append(copied.group(1).strip() if copied else line)
    return moves


def signature_from(lines: list[str]) -> int:
    """Where a signature's name may start: the first of the reply's last lines that read as a name
    ("Zoë", "Tom B."), after at least one other line. Such a line is still tried as a move first
    (a game's own one-word moves win); one that is not a legal move ends the reply quietly: it is
    neither refused nor counted as ignored. ``len(lines)``: no such lines."""
    start = len(lines)
    while start > 1 and NAME_LINE.match(lines[start - 1]) and not CHOICE.match(lines[start - 1]) \
            and not SAY.match(lines[start - 1]):
        start -= 1
    return start


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
    checked = authentication.verdict(row)
    if checked == authentication.FAIL:  # never answered: the From is forged (backscatter otherwise)
        return InboundEmail.REJECTED, (f"the ESP ({row.esp}) found that neither SPF nor DKIM vouch for the sender "
                                       f"{row.sender}: most likely forged; nothing done, not answered")
    lines = moves_in(row.text)
    texts = [SAY.match(line).group(1) for line in lines if SAY.match(line)]
    moves = [line for line in lines if not SAY.match(line)]
    command = COMMAND.match(moves[0]) if moves else None
    if (texts or command) and not _fresh(game, seat, seq):
        if not (command and _is_legal_move(game, seat, moves[0])):
            line = f"say: {texts[0]}" if texts else moves[0]
            return _refuse(sender, row, _("This reply address is too old for chat lines and for \"vacation\" or "
                                          "\"back\": they are taken only while the game runs, from the latest mail "
                                          "of your turn or for %(days)d days after a mail. Reply to your latest mail "
                                          "from this game or use the game page.") % {
                "days": settings.HANSEWEB_REPLY_COMMAND_DAYS}, game=game, seat=seat, line=line)
    said, problem = _say(game, sender, texts)
    if problem or (said and not moves):  # only chat (or a chat line that was refused): no moves read
        _answer(sender, row, game, seat, accepted=said, problem=problem, ignored=len(moves) if problem else 0)
        if said and not problem:
            return InboundEmail.ACCEPTED, f"said {len(said)} chat line(s)"
        return InboundEmail.REJECTED, f"{problem[0]!r}: {problem[1]}"
    if not moves:
        return _refuse(sender, row, _("No move was found in your reply. Write each move on its own line at "
                                      "the top of the reply (and \"say: ...\" to talk to the table)."),
                       game=game, seat=seat)
    if command and not _is_legal_move(game, seat, moves[0]):  # a game's own move "back" stays a move
        return _command(sender, row, game, seat, command, ignored=len(moves) - 1)
    accepted, problem = list(said), None
    expected = seq
    signature = signature_from(moves)  # trailing lines that may be the signature's name
    read = 0  # lines of ``moves`` read (taken, or the one refused)
    signed = ""  # the line taken as the signature's name (said in the answer, not refused)
    for index, text in enumerate(moves[:MAX_MOVES]):
        read = index + 1
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
            if index >= signature:  # "Zoë" under the moves: the signature, not a refused move
                read, signed = len(moves), text
                break
            problem = (text, str(exc))
            break
        accepted.append(Applied.of(outcome.move.text, choice))
        game = outcome.game
        expected = game.move_count
        if seat_number not in game.to_act:
            break
    ignored = max(0, min(len(moves), signature) - read)  # lines left unread, the signature's name not counted
    _answer(sender, row, game, seat, accepted=accepted, problem=problem, ignored=ignored, signature=signed)
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
            until = date_format(timezone.localtime(user.vacation_until), _("D j M Y, H:i e"))
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
    engine, state = game.engine_obj, services.current_state(game)
    menu = engine.legal_moves(state, seat.number)
    try:  # an engine whose move reads like a number ("2", "no 2"): the text wins
        if line in menu or engine.canonical(state, seat.number, line) in menu:
            return line
    except Exception:  # noqa: BLE001 - not a move of this game: a menu number
        pass
    if not 1 <= number <= len(menu):
        if len(menu) == 1:
            return line, _("There is no choice %(number)d: the menu had 1 choice.") % {"number": number}
        return line, _("There is no choice %(number)d: the menu had %(n)d choices (1 to %(n)d).") % {
            "number": number, "n": len(menu)}
    return menu[number - 1]


def _refuse(sender, row, reason: str, *, game: Game | None = None, seat=None, line: str = "") -> tuple[str, str]:
    if sender is not None:
        _answer(sender, row, game, seat, accepted=[], problem=(line, reason), ignored=0)
    return InboundEmail.REJECTED, f"{line!r}: {reason}" if line else reason


def _fresh(game: Game, seat, seq: int) -> bool:
    """May a reply to the mail made at move count ``seq`` carry chat lines and the vacation commands?
    While the game runs: when the seat's decision is still the one that mail showed (its current
    mail), or for ``HANSEWEB_REPLY_COMMAND_DAYS`` days after the mail was made (the time of move
    ``seq``, or the start for 0). So an old turn mail in the wrong hands cannot talk or spend
    vacation days for the player, and a used address works for chat only for a while."""
    from datetime import timedelta

    from django.utils import timezone

    if game.status != Game.RUNNING:
        return False
    if seq <= game.move_count and services.decision_current(seat, seq, game.move_count):
        return True
    if seq > game.move_count:
        return False
    made = (game.moves.filter(seq=seq).values_list("created_at", flat=True).first() if seq
            else game.started_at)
    return made is not None and timezone.now() - made <= timedelta(days=settings.HANSEWEB_REPLY_COMMAND_DAYS)


def _answer(user, row, game, seat, *, accepted, problem, ignored, signature: str = "") -> None:
    """Tell the sender what happened. While a decision is still theirs, the answer is a decision
    mail with a new reply address for the current move number, so they can go on by email."""
    from hanseweb.mail.inbound import may_answer

    if not may_answer(row, user.email):  # a flood of replies does not make a flood of answers
        return
    outcome = {"accepted": accepted, "problem": problem, "ignored": ignored, "subject": row.subject,
               "signature": signature}
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
