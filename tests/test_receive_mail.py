"""Local mail play without an ESP: ``manage.py receive_mail`` reads a raw .eml on stdin or a
Maildir's new messages and feeds them through the same inbound path as the webhooks."""
import io
import mailbox
import sys

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

from games.models import Move
from hanseweb.mail.models import InboundEmail

from .conftest import committed

DOMAIN = "play.localhost"


@pytest.fixture(autouse=True)
def reply_domain(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN


def _eml(sender, to, body, subject="Re: Your turn", extra="", message_id="<reply-1@example.test>"):
    """A reply as Thunderbird writes it: multipart, quoted-printable text, the turn mail quoted."""
    quoted = "\r\n".join(f"> {line}" for line in ["Hello,", "it is your turn.", "  1. something"])
    return (
        f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Mon, 23 Nov 2026 22:00:00 +0000\r\n"
        f"Message-ID: {message_id}\r\nIn-Reply-To: <game-1.seat-0@hanseweb.localhost>\r\n{extra}"
        "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n"
        "--b1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
        f"{body}\r\n\r\nOn 23.11.26 21:00, Hanseweb wrote:\r\n{quoted}\r\n"
        "--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>ignored when there is text</p>\r\n--b1--\r\n"
    ).encode()


def _run(stdin: bytes, *args):
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with committed():
            call_command("receive_mail", *args, stdout=out, stderr=io.StringIO())
    finally:
        sys.stdin = old
    return out.getvalue()


@pytest.mark.django_db
def test_a_reply_on_stdin_plays_the_numbered_choice_and_is_answered(turn):
    game, seat, player, reply_to = turn
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    raw = _eml(player.email, reply_to, "2")
    out = _run(raw)
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.ACCEPTED and bytes(row.raw) == raw and row.esp == "stdin"
    assert f"inbound #{row.pk} from {player.email}: accepted" in out
    assert ["Message-ID", "<reply-1@example.test>"] in row.headers
    move = game.moves.get()
    assert (move.text, move.channel, move.seat) == (legal[1], Move.EMAIL, seat)
    (answer,) = [m for m in mail.outbox if m.to == [player.email]]
    assert f"{legal[1]} (your choice 2)" in answer.body


@pytest.mark.django_db
def test_the_envelope_recipient_of_a_local_mda_is_read(turn):
    game, seat, player, reply_to = turn
    raw = _eml(player.email, "Player Friends <friends@example.test>", "1", extra=f"Delivered-To: {reply_to}\r\n")
    _run(raw)
    assert InboundEmail.objects.get().status == InboundEmail.ACCEPTED and game.moves.count() == 1


@pytest.mark.django_db
def test_an_out_of_office_note_on_stdin_is_ignored(turn):
    game, seat, player, reply_to = turn
    _run(_eml(player.email, reply_to, "1", subject="Automatic reply: Your turn", extra="Auto-Submitted: auto-replied\r\n"))
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.IGNORED and "auto-reply ignored" in row.outcome
    assert game.moves.count() == 0 and mail.outbox == []


@pytest.mark.django_db
@pytest.mark.parametrize("raw", [b"\x00\xff\xfe garbage \r\n\r\n\x80", b"From: nobody\r\n\r\n2\r\n",
                                 b"Subject: =?utf-8?q?broken\r\nTo: play+1-0-0-aaaaaaaaaaaaaaaa@play.localhost\r\n\r\n2"])
def test_any_bytes_are_kept_and_change_nothing(turn, raw):
    game, seat, player, reply_to = turn
    _run(raw)
    row = InboundEmail.objects.get()
    assert bytes(row.raw) == raw and row.status in (InboundEmail.IGNORED, InboundEmail.REJECTED, InboundEmail.UNREADABLE)
    assert game.moves.count() == 0 and mail.outbox == []


@pytest.mark.django_db
def test_empty_stdin_is_refused_and_stores_nothing():
    with pytest.raises(CommandError, match="No mail on stdin"):
        _run(b"  \n")
    assert InboundEmail.objects.count() == 0


@pytest.mark.django_db
def test_a_maildir_is_processed_and_its_messages_moved_to_cur(turn, tmp_path):
    game, seat, player, reply_to = turn
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(mailbox.MaildirMessage(_eml(player.email, reply_to, "1")))
    box.add(mailbox.MaildirMessage(b"From: stranger@example.test\r\nTo: someone@example.test\r\n\r\nhello\r\n"))
    out = _run(b"", "--maildir", str(tmp_path / "Maildir"))
    assert out.count("inbound #") == 2
    assert list((tmp_path / "Maildir" / "new").iterdir()) == []
    assert sorted(p.name.endswith(":2,S") for p in (tmp_path / "Maildir" / "cur").iterdir()) == [True, True]
    assert sorted(InboundEmail.objects.values_list("status", flat=True)) == [InboundEmail.ACCEPTED, InboundEmail.IGNORED]
    assert game.moves.count() == 1
    assert "no new mail" in _run(b"", "--maildir", str(tmp_path / "Maildir"))  # a second run finds nothing
    assert InboundEmail.objects.count() == 2


@pytest.mark.django_db
def test_a_directory_that_is_not_a_maildir_is_refused(tmp_path):
    with pytest.raises(CommandError, match="is not a Maildir"):
        _run(b"", "--maildir", str(tmp_path))
