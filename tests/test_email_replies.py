"""Moves by email: signed reply addresses, the inbound webhook, and every way a reply can be wrong."""
import base64
import json

import pytest
from django.core import mail

from games import email_replies
from games.models import Move
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail
from hanseweb.mail.tasks import sweep_inbound

from .conftest import committed, user_of
from .factories import UserFactory

DOMAIN = "play.hanseweb.test"


@pytest.fixture(autouse=True)
def reply_domain(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN


def _turn_mail(user):
    return [m for m in mail.outbox if m.to == [user.email] and "Your turn" in m.subject][-1]


def _reply(user, to, text, subject="Re: your turn"):
    mail.outbox = []
    with committed():
        row = store(sender=user.email.upper(), recipients=[to], subject=subject, text=text)
    row.refresh_from_db()
    return row


@pytest.fixture
def game_with_mail(started_game):
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    return game, seat, player, _turn_mail(player).extra_headers["Reply-To"]


@pytest.mark.django_db
def test_turn_mail_carries_a_signed_reply_address(game_with_mail):
    game, seat, player, reply_to = game_with_mail
    assert reply_to == email_replies.reply_address(game.pk, seat, 0)
    assert reply_to.startswith(f"play+{game.pk}-{seat}-0-") and reply_to.endswith("@" + DOMAIN)
    assert "Reply to this mail with your move" in _turn_mail(player).body


@pytest.mark.django_db
def test_no_reply_address_without_a_reply_domain(settings, started_game):
    settings.HANSEWEB_REPLY_DOMAIN = ""
    game, _ = started_game("hansa", 2)
    msg = _turn_mail(user_of(game, game.to_act[0]))
    assert "Reply-To" not in msg.extra_headers and "Reply to this mail" not in msg.body


@pytest.mark.django_db
def test_a_reply_with_a_legal_move_is_played(game_with_mail):
    game, seat, player, reply_to = game_with_mail
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    row = _reply(player, reply_to, f"  {legal[2].upper()}  \n\nOn Monday, Hanseweb wrote:\n> {legal[0]}\n")
    assert row.status == InboundEmail.ACCEPTED
    game.refresh_from_db()
    move = game.moves.get()
    assert (move.seq, move.seat, move.text, move.channel, move.user) == (1, seat, legal[2], Move.EMAIL, player)
    (answer,) = [m for m in mail.outbox if m.to == [player.email]]
    assert "Accepted" in answer.body and legal[2] in answer.body


@pytest.mark.django_db
def test_a_token_works_once(game_with_mail):
    game, seat, player, reply_to = game_with_mail
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    assert _reply(player, reply_to, legal[0]).status == InboundEmail.ACCEPTED
    row = _reply(player, reply_to, legal[1])
    assert row.status == InboundEmail.REJECTED
    game.refresh_from_db()
    assert game.move_count == 1
    (answer,) = mail.outbox
    assert "not accepted" in answer.subject and "moved on" in answer.body


@pytest.mark.django_db
def test_a_forged_token_changes_nothing(game_with_mail):
    game, seat, player, reply_to = game_with_mail
    local, domain = reply_to.split("@")
    forged = local[:-1] + ("a" if local[-1] != "a" else "b") + "@" + domain
    other_game = f"play+{game.pk + 1}-{seat}-0-{local.rsplit('-', 1)[1]}@{domain}"
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    for address in (forged, other_game):
        row = _reply(player, address, legal[0])
        assert row.status == InboundEmail.REJECTED and "not one we made" in row.outcome
        assert mail.outbox == []  # not answered, even to a registered sender (backscatter)
    game.refresh_from_db()
    assert game.move_count == 0


@pytest.mark.django_db
def test_a_reply_from_another_address_changes_nothing(game_with_mail):
    game, seat, player, reply_to = game_with_mail
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    intruder = UserFactory()
    row = _reply(intruder, reply_to, legal[0])
    assert row.status == InboundEmail.REJECTED and "does not play this seat" in row.outcome
    assert [m.to for m in mail.outbox] == [[intruder.email]]
    # a stranger with no account gets no answer at all (no backscatter)
    mail.outbox = []
    with committed():
        row = store(sender="spoofer@elsewhere.test", recipients=[reply_to], subject="x", text=legal[0])
    row.refresh_from_db()
    assert row.status == InboundEmail.REJECTED and mail.outbox == []
    game.refresh_from_db()
    assert game.move_count == 0


@pytest.mark.django_db
def test_an_illegal_or_empty_reply_changes_nothing(game_with_mail):
    game, seat, player, reply_to = game_with_mail
    row = _reply(player, reply_to, "place atlantis")
    assert row.status == InboundEmail.REJECTED
    (answer,) = mail.outbox
    assert "place atlantis" in answer.body and "Nothing was changed" in answer.body
    assert answer.extra_headers["Reply-To"] == reply_to  # still the same decision: try again
    row = _reply(player, reply_to, "\n\n> quoted only\n")
    assert row.status == InboundEmail.REJECTED and "No move" in row.outcome
    game.refresh_from_db()
    assert game.move_count == 0


@pytest.mark.django_db
def test_several_moves_in_one_reply_and_what_comes_after_the_turn(started_game):
    game, users = started_game("hansa", 2)
    engine = game.engine_obj
    while game.state_cache["phase"] == "place":  # play the initial placement on the web
        seat = game.to_act[0]
        with committed():
            from games import services
            services.submit_move(game.pk, user_of(game, seat), engine.legal_moves(game.state_cache, seat)[0],
                                 expected_seq=game.move_count)
        game.refresh_from_db()
    seat = game.to_act[0]
    player = user_of(game, seat)
    reply_to = _turn_mail(player).extra_headers["Reply-To"]
    first = engine.legal_moves(game.state_cache, seat)
    state = engine.apply(game.state_cache, seat, first[-1])
    lines = [first[-1]]
    while seat in engine.to_act(state) and len(lines) < 6:
        nxt = engine.legal_moves(state, seat)
        move = "end" if "end" in nxt else nxt[-1]
        lines.append(move)
        state = engine.apply(state, seat, move)
    before = game.move_count
    row = _reply(player, reply_to, "\n".join(lines + ["see you at the table", "-- ", "my signature"]))
    game.refresh_from_db()
    assert row.status == InboundEmail.ACCEPTED
    assert game.move_count == before + len(lines)
    assert [m.channel for m in game.moves.filter(seq__gt=before)] == [Move.EMAIL] * len(lines)
    answer = [m for m in mail.outbox if m.to == [player.email]][0]
    assert "1 more line of your reply came after your decisions were done" in answer.body


@pytest.mark.django_db
def test_the_postmark_inbound_webhook_delivers_a_reply(client, settings, game_with_mail):
    game, seat, player, reply_to = game_with_mail
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": "hook:secret"}
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    payload = {
        "FromFull": {"Email": player.email, "Name": player.display_name},
        "ToFull": [{"Email": reply_to, "Name": ""}],
        "Subject": "Re: your turn", "TextBody": f"{legal[1]}\n\n> old text", "Headers": [],
    }
    auth = "Basic " + base64.b64encode(b"hook:secret").decode()
    with committed():
        response = client.post("/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json",
                               HTTP_AUTHORIZATION=auth)
    assert response.status_code == 200
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.ACCEPTED and row.sender == player.email
    game.refresh_from_db()
    assert game.moves.get().text == legal[1]
    # without the webhook secret the ESP's post is refused
    response = client.post("/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json")
    assert response.status_code in (400, 401, 403)
    assert InboundEmail.objects.count() == 1


@pytest.mark.django_db
def test_unprocessed_mail_is_kept_and_the_sweep_processes_it(game_with_mail):
    game, seat, player, reply_to = game_with_mail
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    row = InboundEmail.objects.create(sender=player.email, recipients=[reply_to], text=legal[0])
    InboundEmail.objects.filter(pk=row.pk).update(received_at=row.received_at.replace(year=2000))
    with committed():
        assert sweep_inbound() == 1
    row.refresh_from_db()
    assert row.status == InboundEmail.ACCEPTED
    game.refresh_from_db()
    assert game.move_count == 1


# Realistic replies: the moves "build lübeck" and "end" on top of what each client adds.
MOVES = "build lübeck\nend\n"
QUOTED_MENU = "> Hello Alice,\n>\n> Your choices now:\n>   - place bremen\n>   - place hamburg\n"
REPLIES = {
    "gmail, English": f"{MOVES}\nOn Mon, 23 Nov 2026 at 10:00, Hanseweb <noreply@hanseweb.localhost> wrote:\n\n{QUOTED_MENU}",
    "gmail, English, header wrapped": f"{MOVES}\nOn Mon, Nov 23, 2026 at 10:00 AM Hanseweb <\nnoreply@hanseweb.localhost> wrote:\n\n{QUOTED_MENU}",
    "gmail, German": f"{MOVES}\nAm Mo., 23. Nov. 2026 um 10:00 Uhr schrieb Hanseweb <\nnoreply@hanseweb.localhost>:\n\n{QUOTED_MENU}",
    "gmail, Dutch": f"{MOVES}\nOp ma 23 nov 2026 om 10:00 schreef Hanseweb <noreply@hanseweb.localhost>:\n\n{QUOTED_MENU}",
    "outlook, English": f"{MOVES}\n________________________________\nFrom: Hanseweb <noreply@hanseweb.localhost>\n"
                        "Sent: Monday, November 23, 2026 10:00 AM\nTo: Alice <alice@example.com>\n"
                        "Subject: [Hanseweb] Your turn in Test (Hansa)\n\nHello Alice,\n\nYour choices now:\n  - place bremen\n",
    "outlook, German": f"{MOVES}\nMit freundlichen Grüßen\nAlice Müller\n\nVon: Hanseweb <noreply@hanseweb.localhost>\n"
                       "Gesendet: Montag, 23. November 2026 10:00\nAn: Alice <alice@example.com>\n"
                       "Betreff: [Hanseweb] Your turn\n\nHello Alice,\n  - place bremen\n",
    "outlook, Dutch": f"{MOVES}\nMet vriendelijke groet,\nAnneke\n\nVan: Hanseweb <noreply@hanseweb.localhost>\n"
                      "Verzonden: maandag 23 november 2026 10:00\nAan: Anneke <anneke@example.nl>\n"
                      "Onderwerp: [Hanseweb] Your turn\n\nHello Anneke,\n  - place bremen\n",
    "outlook, old style": f"{MOVES}\n-----Original Message-----\nFrom: Hanseweb\nSent: Monday\n\nHello\n  - place bremen\n",
    "apple mail, English": f"{MOVES}\nSent from my iPhone\n\n> On 23 Nov 2026, at 10:00, Hanseweb "
                           f"<noreply@hanseweb.localhost> wrote:\n> \n{QUOTED_MENU}",
    "apple mail, German": f"{MOVES}\nVon meinem iPhone gesendet\n\n> Am 23.11.2026 um 10:00 schrieb Hanseweb "
                          f"<noreply@hanseweb.localhost>:\n> \n{QUOTED_MENU}",
    "apple mail, Dutch": f"{MOVES}\nVerstuurd vanaf mijn iPhone\n\n> Op 23 nov. 2026 om 10:00 heeft Hanseweb "
                         f"<noreply@hanseweb.localhost> het volgende geschreven:\n> \n{QUOTED_MENU}",
    "thunderbird, English": f"{MOVES}\nOn 23.11.26 10:00, Hanseweb wrote:\n{QUOTED_MENU}",
    "thunderbird, German": f"{MOVES}\nAm 23.11.26 um 10:00 schrieb Hanseweb:\n{QUOTED_MENU}",
    "thunderbird, Dutch": f"{MOVES}\nOp 23-11-2026 om 10:00 schreef Hanseweb:\n{QUOTED_MENU}",
    "signature": f"{MOVES}\n-- \nAlice Müller\nHansa club Lübeck\n",
    "thanks": f"{MOVES}Thanks,\nAlice\n",
    "german greeting": f"{MOVES}\nViele Grüße\nAlice\n",
    "windows line ends": MOVES.replace("\n", "\r\n") + "\r\nOn Mon, 23 Nov 2026 at 10:00, Hanseweb wrote:\r\n> x\r\n",
    "lines copied from the menu": "  - build lübeck\n* end\n\nOn Mon, 23 Nov 2026, Hanseweb wrote:\n> x\n",
    "comments and blank lines": f"# my moves\n\n{MOVES}\n\n> quoted\n",
}


@pytest.mark.parametrize("client", REPLIES)
def test_moves_are_the_lines_above_quotes_and_signatures(client):
    assert email_replies.moves_in(REPLIES[client]) == ["build lübeck", "end"]


@pytest.mark.parametrize("text", [
    "On Mon, 23 Nov 2026 at 10:00, Hanseweb <noreply@hanseweb.localhost> wrote:\n" + QUOTED_MENU,
    "From: Hanseweb <noreply@hanseweb.localhost>\nSent: Monday\nTo: Alice\nSubject: x\n\nHello Alice,\n  - place bremen\n",
    "Op 23-11-2026 om 10:00 schreef Hanseweb:\n" + QUOTED_MENU,
    "\n\n> quoted only\n", "", "   \n\n",
])
def test_a_reply_that_starts_with_the_quote_has_no_moves(text):
    """Nothing written above the original: none of the quoted menu lines is taken as a move."""
    assert email_replies.moves_in(text) == []


def test_route_moves_with_dashes_are_kept():
    assert email_replies.moves_in("duisburg-arnheim\nArnheim-Duisburg\n") == ["duisburg-arnheim", "Arnheim-Duisburg"]


@pytest.mark.django_db
@pytest.mark.parametrize("client", ["outlook, German", "apple mail, Dutch", "gmail, Dutch"])
def test_a_real_client_reply_plays_only_the_move_on_top(game_with_mail, client):
    game, seat, player, reply_to = game_with_mail
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    text = REPLIES[client].replace("build lübeck\nend\n", legal[3] + "\n").replace("place bremen", legal[0])
    row = _reply(player, reply_to, text)
    assert row.status == InboundEmail.ACCEPTED
    game.refresh_from_db()
    assert [m.text for m in game.moves.all()] == [legal[3]]
    (answer,) = [m for m in mail.outbox if m.to == [player.email]]
    assert "ignored" not in answer.body and "Not accepted" not in answer.body
