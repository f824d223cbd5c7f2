"""A whole game played only by replying to the mails, with a real Celery worker: the worker (its
own process, Redis broker, PostgreSQL) processes every stored reply, plays it through the write
path and sends the answer and turn mails; the players read their latest sent mail (its numbered
menu and reply address) and reply with a number or the move's text."""
import os
import random
import re
import time
import uuid

import pytest
from django.db import connection

from games.models import Game, Move
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail, OutboundEmail

from .celery_process import celery_worker, published_to
from .conftest import user_of

DOMAIN = "play.hanseweb.test"

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis broker (REDIS_URL)"),
]


@pytest.fixture
def mail_worker(tmp_path, transactional_db, settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN
    queue = f"test-{uuid.uuid4().hex[:8]}"
    with published_to(queue), celery_worker(tmp_path, consume=queue, default_queue=queue, loglevel="warning",
                                            HANSEWEB_REPLY_DOMAIN=DOMAIN,
                                            # a whole game in a minute is far faster than any player: lift the answer rate limits
                                            HANSEWEB_RATE_REPLY_ANSWERS_PER_SENDER="100000/h",
                                            HANSEWEB_RATE_REPLY_ANSWERS_PER_REPLY_ADDRESS="100000/h"):
        yield tmp_path


def _settled(worker_dir, timeout=60):
    """Wait until the worker has processed every reply and sent every mail."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not InboundEmail.objects.filter(status=InboundEmail.PENDING).exists() and \
                not OutboundEmail.objects.filter(sent_at__isnull=True).exists():
            return
        time.sleep(0.05)
    raise AssertionError("the worker did not settle: " + (worker_dir / "worker.log").read_text()[-3000:])


def _menu(text):
    part = text.split("Your choices now:", 1)[1]
    return [choice for _, choice in re.findall(r"^  (\d+)\. (.+)$", part, re.MULTILINE)]


def test_a_whole_game_played_by_mail_through_a_real_worker(mail_worker, started_game):
    assert connection.vendor == "postgresql"
    game, users = started_game("hansa", 2)
    chooser = random.Random("worker")
    replies = 0
    for _ in range(2000):
        _settled(mail_worker)
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            break
        seat = chooser.choice(game.to_act)
        player = user_of(game, seat)
        latest = OutboundEmail.objects.filter(to=player.email, sent_at__isnull=False,
                                              headers__has_key="Reply-To").latest("pk")
        menu = _menu(latest.text)
        n = chooser.randrange(len(menu))
        text = menu[n] if chooser.random() < 0.2 else str(n + 1)
        row = store(sender=player.email, recipients=[latest.headers["Reply-To"]], subject="Re: " + latest.subject,
                    text=f"{text}\n\n> {latest.text[:200]}")  # committed: the worker takes it from the queue
        _settled(mail_worker)
        row.refresh_from_db()
        assert row.status == InboundEmail.ACCEPTED, (row.outcome, text, menu)
        replies += 1
    game.refresh_from_db()
    assert game.status == Game.FINISHED, f"not finished after {replies} replies"
    assert set(game.moves.exclude(channel=Move.AUTOPILOT).values_list("channel", flat=True)) == {Move.EMAIL}
    assert game.moves.filter(channel=Move.EMAIL).count() >= replies  # chained steps may add more
    log = (mail_worker / "worker.log").read_text()
    assert "Traceback" not in log, log[-3000:]
    # every mail was sent by the worker, through the file backend
    assert OutboundEmail.objects.filter(sent_at__isnull=True).count() == 0
    sent = "".join(f.read_text(errors="replace") for f in (mail_worker / "mail").glob("*.log"))
    assert sent.count("Subject: ") >= replies  # an answer to every reply, at least
    assert sent.count(f"Subject: [Hanseweb] {game.title} is over") == 2  # each player's result mail
