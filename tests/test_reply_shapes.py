"""Replies from real mail clients, in English, Dutch and German, each built as a whole RFC 5322
message (quoted-printable, base64, windows-1252, HTML only) and fed through the inbound path
(``hanseweb.mail.receiving.receive``, as ``manage.py receive_mail`` and the IMAP poller do).

The shapes are those of issue 27 and of the public reply-parser corpora (github/email_reply_parser,
crisp-oss/email-reply-parser, mailgun/talon): the moves on top, then a tagline, a separator, a
closing or a signature, then the quoted original. Each must play as meant: the move on top is
played, nothing after it is refused as a move or counted as an ignored line."""
import html
from email.message import EmailMessage
from email.policy import SMTP

import pytest
from django.core import mail

from games import email_replies
from hanseweb.mail.models import InboundEmail
from hanseweb.mail.receiving import receive

from .conftest import committed

DOMAIN = "play.localhost"

OUTLOOK_EN = ("From: Hanseweb <noreply@hanseweb.localhost>\nSent: Wednesday, November 25, 2026 8:54:40 PM\n"
              "To: Alice <alice@example.com>\nSubject: [Hanseweb] Your turn\n\nHello Alice,\nYour choices now:\n  1. pass\n")
OUTLOOK_NL = ("Van: Hanseweb <noreply@hanseweb.localhost>\nVerzonden: woensdag 25 november 2026 20:54\n"
              "Aan: Marieke <marieke@example.nl>\nOnderwerp: [Hanseweb] Je beurt\n\nHallo Marieke,\n  1. pass\n")
OUTLOOK_DE = ("Von: Hanseweb <noreply@hanseweb.localhost>\nGesendet: Mittwoch, 25. November 2026 20:54\n"
              "An: Hans <hans@example.de>\nBetreff: [Hanseweb] Du bist am Zug\n\nHallo Hans,\n  1. pass\n")
RULE = "________________________________"
GMAIL_NL = "Op wo 25 nov 2026 om 20:54 schreef Hanseweb <noreply@hanseweb.localhost>:\n\n> Hallo,\n>   1. pass\n"
GMAIL_EN = "On Wed, Nov 25, 2026 at 8:54 PM Hanseweb <noreply@hanseweb.localhost> wrote:\n\n> Hello,\n>   1. pass\n"

# name: (the text the player's client sends, what it means: the menu numbers played in order)
SHAPES = {
    # issue 27, 1: the Outlook for Android tagline (en, nl) and its iOS and German twins
    "outlook android en": (f"2\n\nDownload Outlook for Android<https://aka.ms/ghei36>\n\n{RULE}\n{OUTLOOK_EN}", [2]),
    "outlook android en, no blank lines": (f"2\nDownload Outlook for Android<https://aka.ms/ghei36>\n{RULE}\n{OUTLOOK_EN}", [2]),
    "outlook android nl": (f"2\n\nVerzonden vanaf Outlook voor Android<https://aka.ms/AAb9ysg>\n{RULE}\n{OUTLOOK_NL}", [2]),
    "outlook android nl, download": (f"2\n\nOutlook voor Android downloaden<https://aka.ms/ghei36>\n\n{RULE}\n{OUTLOOK_NL}", [2]),
    "outlook android de": (f"2\n\nOutlook für Android herunterladen<https://aka.ms/ghei36>\n\n{RULE}\n{OUTLOOK_DE}", [2]),
    "outlook ios en": (f"2\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n{RULE}\n{OUTLOOK_EN}", [2]),
    # issue 27, 2: localised Outlook separators
    "outlook separator de": ("2\n\n-----Ursprüngliche Nachricht-----\n" + OUTLOOK_DE, [2]),
    "outlook separator nl": ("2\n\n-----Oorspronkelijk bericht-----\n" + OUTLOOK_NL, [2]),
    "outlook separator en": ("2\n\n-----Original Message-----\n" + OUTLOOK_EN, [2]),
    # issue 27, 3: closings and signatures after the last move
    "groetjes and a name": ("2\n\nGroetjes,\nMarieke\n\n" + GMAIL_NL, [2]),
    "cheers": ("2\n\nCheers,\nTom\n\n" + GMAIL_EN, [2]),
    "groeten": ("2\nGroeten,\nJan\n\n" + GMAIL_NL, [2]),
    "mit freundlichen gruessen": ("2\n\nMit freundlichen Grüßen\nHans Müller\n\n-----Ursprüngliche Nachricht-----\n" + OUTLOOK_DE, [2]),
    "a bare first name": ("2\n\nZoë\n\n" + GMAIL_EN, [2]),
    "closing and name on one line": ("2\nGroetjes, Marieke\n", [2]),
    # issue 27, 4: the ways people write a menu number
    "hash": ("#2\n\n" + GMAIL_EN, [2]),
    "option": ("option 3\n\n" + GMAIL_EN, [3]),
    "parenthesised": ("(2)\n", [2]),
    "number and bracket": ("2)\n", [2]),
    "number and dot": ("2.\n", [2]),
    "nr.": ("nr. 2\n\n" + GMAIL_NL, [2]),
    "keuze": ("keuze 2\n\nGroetjes,\nMarieke\n", [2]),
    "Wahl": ("Wahl 2\n\nViele Grüße\nHans\n", [2]),
    "Option with hash": ("Option #3\n", [3]),
    # more clients, from the public reply-parser corpora
    "yahoo": ("2\n\n\n----- Original Message -----\nFrom: \"Hanseweb\" <noreply@hanseweb.localhost>\nTo: a@b.c\nCc:\n"
              "Sent: Wednesday, November 25, 2026 8:54 PM\nSubject: Your turn\n\nHello\n", [2]),
    "hotmail, quoted headers": ("\n2\n\n> Subject: Your turn\n> From: noreply@hanseweb.localhost\n> To: a@b.c\n"
                                "> Date: Wed, 25 Nov 2026 20:54:22 +0100\n>\n> Hello\n", [2]),
    "aol": ("2\n\n\n\n-----Original Message-----\nFrom: Hanseweb <noreply@hanseweb.localhost>\nTo: a@b.c\n"
            "Sent: Wed, Nov 25, 2026 8:54 pm\nSubject: Your turn\n\n\nHello\n", [2]),
    "samsung en": ("2\n\n\nSent from my Galaxy\n\n\n-------- Original message --------\nFrom: Hanseweb "
                   "<noreply@hanseweb.localhost>\nDate: 25/11/2026 20:54 (GMT+01:00)\nTo: a@b.c\nSubject: Your turn\n\nHi\n", [2]),
    "samsung de": ("Wahl 2\n\n\nVon meinem Samsung Galaxy Smartphone gesendet.\n\n\n-------- Ursprüngliche Nachricht "
                   "--------\nVon: Hanseweb <noreply@hanseweb.localhost>\nDatum: 25.11.26 20:54 (GMT+01:00)\nAn: a@b.c\n"
                   "Betreff: Du bist am Zug\n\nHallo\n", [2]),
    "samsung nl": ("keuze 2\n\n\nVerzonden vanaf mijn Galaxy\n\n\n-------- Oorspronkelijk bericht --------\nVan: "
                   "Hanseweb <noreply@hanseweb.localhost>\nDatum: 25-11-2026 20:54 (GMT+01:00)\nAan: a@b.c\n"
                   "Onderwerp: Je beurt\n\nHallo\n", [2]),
    "outlook for mac de": ("2\n\nVon: Hanseweb <noreply@hanseweb.localhost>\nDatum: Mittwoch, 25. November 2026 um 20:54\n"
                           "An: Hans <h@example.de>\nBetreff: Du bist am Zug\n\nHallo\n", [2]),
    "proton mail": ("2\n\nSent with Proton Mail secure email.\n\nOn Wednesday, November 25th, 2026 at 20:54, Hanseweb "
                    "<noreply@hanseweb.localhost> wrote:\n\n> Hello\n", [2]),
    "fairemail": ("2\n\n25.11.2026 20:54:00 Hanseweb <noreply@hanseweb.localhost>:\n\n> Hallo\n", [2]),
    "k-9 mail signature": ("2\n-- \nSent from my Android device with K-9 Mail. Please excuse my brevity.\n", [2]),
    # a greeting above the moves
    "greeting en": ("Hi,\n\n2\n\nCheers,\nTom\n\n" + GMAIL_EN, [2]),
    "greeting nl": ("Hoi Hanseweb,\n\nkeuze 2\n\nGroetjes,\nMarieke\n", [2]),
    "greeting de": ("Hallo!\nWahl 2\nLG Hans\n", [2]),
}

# how a client encodes it: (content type, charset, transfer encoding)
ENCODINGS = {
    "quoted-printable": ("plain", "utf-8", "quoted-printable"),
    "base64": ("plain", "utf-8", "base64"),
    "windows-1252": ("plain", "windows-1252", "quoted-printable"),
    "html only": ("html", "utf-8", "quoted-printable"),
}


def _html(text: str) -> str:
    """The text as Outlook's HTML editor writes it: a <div> a line, the quoted original under a rule."""
    lines = text.split("\n")
    body = "".join(f"<div>{html.escape(line) or '<br>'}</div>" for line in lines)
    return (f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head>'
            f'<body dir="ltr">{body}</body></html>')


def eml(sender: str, to: str, text: str, encoding: str) -> bytes:
    """A whole RFC 5322 message with ``text`` as its only body part, encoded as ``encoding``."""
    subtype, charset, cte = ENCODINGS[encoding]
    message = EmailMessage(policy=SMTP)
    message["From"] = f"Player <{sender}>"
    message["To"] = to
    message["Subject"] = "RE: [Hanseweb] Your turn"
    message["Date"] = "Wed, 25 Nov 2026 21:00:00 +0100"
    message["Message-ID"] = "<shape-1@example.test>"
    body = _html(text) if subtype == "html" else text
    try:
        body.encode(charset)
    except UnicodeEncodeError:  # windows-1252 cannot hold every text: such a client would not send it
        pytest.skip(f"{charset} cannot encode this text")
    message.set_content(body, subtype=subtype, charset=charset, cte=cte)
    raw = message.as_bytes()
    assert f"charset=\"{charset}\"".encode() in raw or f"charset={charset}".encode() in raw
    return raw


@pytest.fixture(autouse=True)
def reply_domain(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("shape", SHAPES)
def test_a_real_client_reply_plays_as_meant(turn, shape, encoding):
    game, seat, player, reply_to = turn
    text, choices = SHAPES[shape]
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    assert len(legal) >= max(choices)
    mail.outbox = []
    with committed():
        row = receive(eml(player.email, reply_to, text, encoding), source="stdin")
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    assert [m.text for m in game.moves.order_by("seq")][:len(choices)] == [legal[c - 1] for c in choices]
    (answer,) = [m for m in mail.outbox if m.to == [player.email]]
    for word in ("Not accepted", "ignored", "No move was found", "There is no choice"):
        assert word not in answer.body, (word, answer.body)
    assert f"(your choice {choices[0]})" in answer.body


@pytest.mark.parametrize("line", ["2", "2.", "2)", "#2", "(2)", "[2]", "option 2", "Option 2", "choice 2", "no. 2",
                                  "nr. 2", "Nr 2", "keuze 2", "Keuze: 2", "optie 2", "nummer 2", "Wahl 2",
                                  "Auswahl 2", "Nummer 2", "Option #2", "# 2"])
def test_the_ways_to_name_menu_entry_2(line):
    assert email_replies.moves_in(line + "\n") == [line]
    assert email_replies.CHOICE.match(line).group(1) == "2"


@pytest.mark.parametrize("line", ["move 2", "place 2", "no fill", "2 moves", "option", "# a comment 2", "20 30"])
def test_a_move_or_a_comment_is_not_a_menu_number(line):
    assert email_replies.CHOICE.match(line) is None


@pytest.mark.parametrize("closing", ["Groetjes,", "Cheers,", "Groeten,", "Mit freundlichen Grüßen", "Thanks!",
                                     "Met vriendelijke groet,", "Viele Grüße", "LG", "Liebe Grüße, Anna",
                                     "Best regards", "Kind regards,", "Mvg", "Doei!"])
def test_a_closing_ends_the_moves(closing):
    assert email_replies.moves_in(f"pass\nend\n{closing}\nMarieke van Dijk\nHansa club\n") == ["pass", "end"]


def test_a_name_at_the_end_may_be_the_signature_but_a_first_line_never_is():
    lines = ["2", "Zoë"]
    assert email_replies.signature_from(lines) == 1
    assert email_replies.signature_from(["Zoë"]) == 1  # one line: a move (or refused as one)
    assert email_replies.signature_from(["2", "pass", "done"]) == 1  # tried as moves first


def _mid_turn(game):
    """Play the game (web moves, the first choice) on until the seat to act has a choice after
    which it still has to act: (game, seat, the menu number of that choice)."""
    from games import services

    from .conftest import user_of

    engine = game.engine_obj
    for _step in range(200):
        game.refresh_from_db()
        state = game.state_cache
        seat = game.to_act[0]
        legal = engine.legal_moves(state, seat)
        for number, move in enumerate(legal, start=1):
            if seat in engine.to_act(engine.apply(state, seat, move)):
                return game, seat, number
        with committed():
            services.submit_move(game.pk, user_of(game, seat), legal[0], expected_seq=game.move_count)
    raise AssertionError("no turn of several steps found")


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ["hansa", "zanzibar"])
@pytest.mark.parametrize("tail, quiet", [("Zoë", True), ("Groetjes,\nMarieke", True), ("Cheers,", True),
                                         ("buy seven ships now", False)])
def test_after_a_step_with_more_to_decide_the_signature_is_not_refused(started_game, engine, tail, quiet):
    """Issue 27: "Niet aangenomen: 'Groetjes,'". The seat still has to act after the first line, so
    the next line is tried as a move: a closing or a name is the signature (not refused, not
    ignored); anything else is refused with its reason as before."""
    from .conftest import user_of

    game, _users = started_game(engine, 3)
    game, seat, number = _mid_turn(game)
    player = user_of(game, seat)
    before = game.move_count
    mail.outbox = []
    with committed():
        row = receive(eml(player.email, email_replies.reply_address(game.pk, seat, before), f"{number}\n\n{tail}\n",
                          "quoted-printable"), source="stdin")
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    game.refresh_from_db()
    assert game.move_count == before + 1
    (answer,) = [m for m in mail.outbox if m.to == [player.email]]
    assert seat in game.to_act and "Reply to this mail" in answer.body  # still theirs: a fresh menu
    if quiet:
        assert "Not accepted" not in answer.body and "ignored" not in answer.body and "stopped" not in row.outcome
        if tail == "Zoë":  # tried as a move, not one: said to be read as the signature, not refused
            assert '"Zoë" was read as your signature, not as a move.' in answer.body
    else:
        assert f"stopped at {tail!r}" in row.outcome and tail in answer.body


@pytest.mark.django_db
@pytest.mark.parametrize("language, example", [("en", "“option 2”"), ("nl", "“keuze 2”"), ("de", "„Wahl 2“")])
def test_the_mail_footer_says_how_to_reply_in_one_line(started_game, language, example):
    from .conftest import user_of

    game, _users = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    player.language = language
    player.save(update_fields=["language"])
    mail.outbox = []
    with committed():
        row = receive(eml(player.email, email_replies.reply_address(game.pk, seat, 0), "Zoë\n", "quoted-printable"),
                      source="stdin")
    assert row.status == InboundEmail.REJECTED  # one line: tried as a move and refused; answered with the menu
    (answer,) = [m for m in mail.outbox if m.to == [player.email]]
    footer = answer.body.split("\n--\n", 1)[1]
    (line,) = [line for line in footer.splitlines() if example in line]
    assert "#2" in line and "(2)" in line
    html = answer.alternatives[0][0]
    assert example in html


# HTML-only replies as the clients write them (their quoted original under a rule or in a blockquote)
HTML_SHAPES = {
    "outlook nl (web)": '''<html><body><div dir="ltr"><div>2</div><div><br></div><div>Groetjes,</div><div>Marieke</div></div>
<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">
<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000"><b>Van:</b>
Hanseweb &lt;noreply@hanseweb.localhost&gt;<br><b>Verzonden:</b> woensdag 25 november 2026 20:54<br><b>Aan:</b>
Marieke &lt;m@example.nl&gt;<br><b>Onderwerp:</b> [Hanseweb] Je beurt</font><div>&nbsp;</div></div>
<div><p>Hallo Marieke,</p><ol><li>pass</li><li>keep</li></ol></div></body></html>''',
    "gmail en": '''<div dir="ltr">#2<br><br>Cheers,<br>Tom</div><br><div class="gmail_quote"><div dir="ltr"
class="gmail_attr">On Wed, Nov 25, 2026 at 8:54 PM Hanseweb &lt;<a href="mailto:noreply@hanseweb.localhost">
noreply@hanseweb.localhost</a>&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">
<div>Hello,<ol><li>pass</li></ol></div></blockquote></div>''',
    "outlook for android en": '''<html><body><div dir="auto">option 2</div><div dir="auto"><br></div><div dir="auto">
Download <a href="https://aka.ms/ghei36">Outlook for Android</a></div><hr style="display:inline-block;width:98%">
<div id="divRplyFwdMsg" dir="ltr"><font><b>From:</b> Hanseweb &lt;noreply@hanseweb.localhost&gt;<br><b>Sent:</b>
Wednesday, November 25, 2026 8:54:40 PM<br><b>To:</b> a@b.c<br><b>Subject:</b> Your turn</font></div>
<div>1. pass</div></body></html>''',
    "apple mail de": '''<html><body dir="auto"><div dir="ltr">Wahl 2</div><div dir="ltr"><br></div><div dir="ltr">Mit
freundlichen Grüßen</div><div dir="ltr">Hans</div><div dir="ltr"><br><blockquote type="cite">Am 25.11.2026 um 20:54
schrieb Hanseweb &lt;noreply@hanseweb.localhost&gt;:<br><br></blockquote></div><blockquote type="cite"><div>Hallo,
<ol><li>pass</li></ol></div></blockquote></body></html>''',
}


@pytest.mark.django_db
@pytest.mark.parametrize("cte", ["base64", "quoted-printable"])
@pytest.mark.parametrize("shape", HTML_SHAPES)
def test_an_html_only_reply_of_a_real_client_plays_choice_2(turn, shape, cte):
    game, seat, player, reply_to = turn
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    message = EmailMessage(policy=SMTP)
    message["From"], message["To"], message["Subject"] = f"Player <{player.email}>", reply_to, "Re: your turn"
    message.set_content(HTML_SHAPES[shape].replace("\n", " "), subtype="html", charset="utf-8", cte=cte)
    mail.outbox = []
    with committed():
        row = receive(message.as_bytes(), source="stdin")
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    assert [m.text for m in game.moves.all()] == [legal[1]]
    (answer,) = [m for m in mail.outbox if m.to == [player.email]]
    assert "Not accepted" not in answer.body and "ignored" not in answer.body


@pytest.mark.parametrize("line, move", [("Put a stall in Kalmar  [place kalmar]", "place kalmar"),
                                        ("3. Put a stall in Kalmar  [place kalmar]", "place kalmar"),
                                        ("Cancel  [cancel]", "cancel")])
def test_a_menu_line_copied_whole_plays_its_notation(line, move):
    assert email_replies.moves_in(line + "\n") == [move]
