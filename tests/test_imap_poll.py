"""The optional IMAP poller (``manage.py poll_imap``, ``hanseweb.mail.imap``) against a real IMAP
server: pymap's in-memory server, started on a free local port for these tests. Messages are put
in the mailbox with IMAP APPEND (as a mail server delivering them would) and taken through the
same inbound path as ``receive_mail``."""
import io
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from imap_tools import AND, MailBoxUnencrypted

from games.models import Move
from hanseweb.mail import imap
from hanseweb.mail.models import InboundEmail
from hanseweb.mail.tasks import poll_imap

from .conftest import committed
from .test_receive_mail import _eml

DOMAIN = "play.localhost"
USER, PASSWORD = "club@hanseweb.test", "secret-imap"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def imap_server():
    port = _free_port()
    pymap = Path(sys.executable).with_name("pymap")
    proc = subprocess.Popen([str(pymap), "--host", "127.0.0.1", "--port", str(port), "--no-tls", "dict",
                             "--demo-user", USER, "--demo-password", PASSWORD],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(f"pymap did not start: {proc.stderr.read().decode()[-2000:]}")
                time.sleep(0.1)
        else:
            raise RuntimeError("pymap did not open its port")
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def server(imap_server, settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN
    settings.HANSEWEB_IMAP_HOST, settings.HANSEWEB_IMAP_PORT = "127.0.0.1", imap_server
    settings.HANSEWEB_IMAP_SECURITY = "none"
    settings.HANSEWEB_IMAP_USER, settings.HANSEWEB_IMAP_PASSWORD = USER, PASSWORD
    settings.HANSEWEB_IMAP_FOLDER, settings.HANSEWEB_IMAP_DONE_FOLDER = "INBOX", ""
    with _client(imap_server) as box:  # an empty INBOX for every test
        uids = box.uids()
        if uids:
            box.delete(uids)
    return imap_server


def _client(port):
    return MailBoxUnencrypted("127.0.0.1", port=port).login(USER, PASSWORD, initial_folder="INBOX")


def _deliver(port, raw: bytes, folder="INBOX"):
    with _client(port) as box:
        box.append(raw, folder, dt=None, flag_set=[])


def _poll(*args):
    out, err = io.StringIO(), io.StringIO()
    with committed():
        call_command("poll_imap", *args, stdout=out, stderr=err)
    return out.getvalue() + err.getvalue()


@pytest.mark.django_db
def test_a_reply_in_the_mailbox_is_played_answered_and_marked_read(server, turn):
    game, seat, player, reply_to = turn
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    raw = _eml(player.email, reply_to, "2")
    _deliver(server, raw)
    out = _poll()
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.ACCEPTED and row.esp == "imap"
    assert bytes(row.raw).replace(b"\r\n", b"\n") == raw.replace(b"\r\n", b"\n")  # stored as the server sent it
    assert f"inbound #{row.pk} from {player.email}: accepted" in out
    move = game.moves.get()
    assert (move.text, move.channel) == (legal[1], Move.EMAIL)
    (answer,) = [m for m in mail.outbox if m.to == [player.email]]
    assert f"{legal[1]} (your choice 2)" in answer.body
    with _client(server) as box:  # marked read, left in the folder
        assert box.uids(AND(seen=False)) == [] and len(box.uids()) == 1
    assert "no new mail" in _poll()  # a second poll takes nothing
    assert InboundEmail.objects.count() == 1 and game.moves.count() == 1


@pytest.mark.django_db
def test_taken_messages_move_to_the_done_folder_and_out_of_office_is_ignored(server, turn, settings):
    game, seat, player, reply_to = turn
    settings.HANSEWEB_IMAP_DONE_FOLDER = "Hanseweb-done"
    _deliver(server, _eml(player.email, reply_to, "I am out of the office until Monday.",
                          subject="Automatic reply: Your turn", extra="Auto-Submitted: auto-replied\r\n",
                          message_id="<auto-1@example.test>"))
    _deliver(server, _eml(player.email, reply_to, "1"))
    with committed():
        assert poll_imap() == 2  # the beat's task
    rows = list(InboundEmail.objects.order_by("pk"))
    assert [r.status for r in rows] == [InboundEmail.IGNORED, InboundEmail.ACCEPTED]
    assert "auto-reply ignored" in rows[0].outcome
    assert game.moves.count() == 1
    assert not [m for m in mail.outbox if m.to == [player.email] and "out of the office" in m.body]
    with _client(server) as box:
        assert box.uids() == []
        box.folder.set("Hanseweb-done")
        assert len(box.uids()) == 2


@pytest.mark.django_db
def test_a_bad_login_or_no_configuration_is_a_clear_error_and_takes_nothing(server, turn, settings):
    game, seat, player, reply_to = turn
    _deliver(server, _eml(player.email, reply_to, "1"))
    settings.HANSEWEB_IMAP_PASSWORD = "wrong"
    with pytest.raises(CommandError, match="IMAP poll failed"):
        _poll()
    settings.HANSEWEB_IMAP_HOST = ""
    with pytest.raises(CommandError, match="HANSEWEB_IMAP_HOST"):
        _poll()
    settings.HANSEWEB_IMAP_HOST, settings.HANSEWEB_IMAP_SECURITY = "127.0.0.1", "plain"
    with pytest.raises(CommandError, match="HANSEWEB_IMAP_SECURITY"):
        _poll()
    with pytest.raises(CommandError, match="--limit"):
        _poll("--limit", "0")
    assert InboundEmail.objects.count() == 0 and game.moves.count() == 0
    with _client(server) as box:
        assert len(box.uids(AND(seen=False))) == 1  # still there for the next (configured) poll


@pytest.mark.django_db
def test_only_one_poll_runs_at_a_time(server, turn):
    from django.core.cache import cache

    game, seat, player, reply_to = turn
    _deliver(server, _eml(player.email, reply_to, "1"))
    cache.add(imap.LOCK, 1, timeout=60)  # another poll is running
    try:
        assert imap.poll() == []
        assert InboundEmail.objects.count() == 0
    finally:
        cache.delete(imap.LOCK)
    assert len(imap.poll()) == 1


def test_the_beat_polls_only_when_a_server_is_configured():
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='hanseweb.settings'; django.setup(); "
            "from django.conf import settings as s; e = s.CELERY_BEAT_SCHEDULE.get('imap-poll'); "
            "print(e and (e['task'], e['schedule'].total_seconds()))")
    import os

    base = {k: v for k, v in os.environ.items() if not k.startswith("HANSEWEB_IMAP_")}
    run = lambda env: subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,  # noqa: E731
                                     check=True, cwd=Path(__file__).resolve().parents[1]).stdout.strip()
    assert run(base) == "None"
    assert run({**base, "HANSEWEB_IMAP_HOST": "imap.example.org", "HANSEWEB_IMAP_POLL_SECONDS": "120"}) == \
        "('hanseweb.mail.tasks.poll_imap', 120.0)"
