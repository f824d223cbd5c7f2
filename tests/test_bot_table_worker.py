"""Issue 30, timing: a table of four bots plays a whole game without a human, in the bots' worker
on a queue of its own, without blocking other work (docs/bots.md, deploy/systemd/hanseweb-bots.service).

The table: a 4-player practice game of Die Hanse (some 300-500 moves, ten seconds or more here,
so the other work has time to happen during it) whose one human resigned, so three practice bots
and the autopilot play on. Two real Celery workers run, as deployed: one on the bots' queue, one on the
default queue (mail). The bots' task plays for at most ``HANSEWEB_BOT_TASK_SECONDS`` (1 s here)
and queues itself again; while the bots play, a turn mail of another game (two humans) is sent by
the other worker. Both workers are ready before the bots begin, so neither's start-up is timed."""
import time
import uuid

import pytest
from django.db import connection

from games import services
from games.engines.fairness import verify
from games.models import Game, Move
from hanseweb.mail.models import OutboundEmail

from .celery_process import celery_worker, published_to
from .conftest import user_of
from .factories import UserFactory

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_workers(tmp_path, settings):
    default, bots = f"test-{uuid.uuid4().hex[:8]}", f"test-bots-{uuid.uuid4().hex[:8]}"
    settings.HANSEWEB_BOT_QUEUE = bots
    settings.HANSEWEB_BOT_DELAY_SECONDS = 0
    env = {"HANSEWEB_BOT_QUEUE": bots, "HANSEWEB_BOT_DELAY_SECONDS": "0", "HANSEWEB_BOT_TASK_SECONDS": "1"}
    with published_to(default), \
            celery_worker(tmp_path, consume=bots, default_queue=default, log_name="bots.log", ready=True, **env), \
            celery_worker(tmp_path, consume=default, default_queue=default, log_name="mail.log", ready=True, **env):
        yield tmp_path


def _wait(condition, timeout: float, what: str, logs) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    raise AssertionError(f"{what} within {timeout} s\n" + "\n".join(log.read_text()[-3000:] for log in logs))


def test_a_table_of_four_bots_plays_a_whole_game_in_the_bots_worker_while_mail_goes_on(two_workers, started_game, client):
    assert connection.vendor == "postgresql"
    logs = [two_workers / "bots.log", two_workers / "mail.log"]
    human = UserFactory()
    table = services.create_game(creator=human, engine="die-hanse", title="Bots only", players=4,
                                 bots=["basic", "random", "basic"])
    table.refresh_from_db()
    assert table.status == Game.RUNNING
    services.resign(table.pk, human)  # commits: the bots' task is queued on the bots' queue
    me = table.seats.get(user=human).number
    _wait(lambda: Game.objects.get(pk=table.pk).move_count >= 1, 120, "the bots did not start playing", logs)

    # other work goes on meanwhile: a move in a game of two humans gets its turn mail sent
    other, users = started_game("hansa", 2)
    seat = other.to_act[0]
    services.submit_move(other.pk, user_of(other, seat), other.engine_obj.legal_moves(other.state_cache, seat)[0],
                         expected_seq=0)
    other.refresh_from_db()
    nxt = user_of(other, other.to_act[0])
    turn_mail = OutboundEmail.objects.filter(to=nxt.email, sent_at__isnull=False, subject__contains="Your turn")
    _wait(turn_mail.exists, 60, "the turn mail of the humans' game was not sent", logs)

    _wait(lambda: Game.objects.get(pk=table.pk).status == Game.FINISHED, 600, "the table of bots did not finish", logs)
    table.refresh_from_db()
    # sent while the bots were playing: after their first move, before their game ended (the
    # workers' clocks and the database's are one; both workers were ready before the bots began)
    first_bot_move = table.moves.exclude(seat=me).earliest("created_at").created_at
    sent = turn_mail.get().sent_at
    assert first_bot_move < sent < table.finished_at, (first_bot_move, sent, table.finished_at, table.move_count)
    assert table.result.get("ended_by") != "resignation" and table.result["scores"] is not None  # by the rules
    channels = set(table.moves.values_list("channel", flat=True))
    assert channels <= {Move.BOT, Move.AUTOPILOT}, channels
    assert table.moves.filter(seat=me, channel=Move.AUTOPILOT).exists()
    bots_log = (two_workers / "bots.log").read_text()
    runs = bots_log.count("games.tasks.play_bots[")
    assert bots_log.count("succeeded") >= 2 and runs >= 4, bots_log[-3000:]  # tasks of ~1 s, each queued anew
    assert "games.tasks.play_bots[" not in (two_workers / "mail.log").read_text()  # never on the mail worker
    # bots read and get no mail
    assert not OutboundEmail.objects.filter(to__endswith="@" + services.BOT_EMAIL_DOMAIN).exists()
    client.force_login(human)
    data = client.get(f"/games/{table.pk}/export.json").json()
    assert verify(data).ok, verify(data).text()
