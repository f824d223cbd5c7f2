"""Issue 29.3: an ESP retrying its webhook (or an IMAP message taken twice) gives one answer. A
mail is de-duplicated by its Message-ID (from the same sender) and by the ESP's event id: a repeat
is stored as a repeat of the first copy, never processed and never answered, also when the copies
are posted at the same moment (the database's unique index decides)."""
import json
import threading

import pytest
from django.core import mail
from django.db import connection
from django.test import Client

from hanseweb.mail.models import InboundEmail

from .conftest import committed, user_of
from .test_inbound_mail import AUTH, DOMAIN, POSTMARK, replies_on  # noqa: F401 (replies_on: an autouse fixture)


def _turn(started_game):
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    reply_to = [m for m in mail.outbox if m.to == [player.email]][-1].extra_headers["Reply-To"]
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    mail.outbox = []
    return game, seat, player, reply_to, legal


def _payload(player, reply_to, text, *, message_id="<reply-1@mail.example.net>", event="pm-0001"):
    return json.dumps({
        "FromFull": {"Email": player.email, "Name": "Player"}, "ToFull": [{"Email": reply_to, "Name": ""}],
        "Subject": "Re: your turn", "TextBody": text, "MessageID": event,
        "Headers": [{"Name": "Message-ID", "Value": message_id}] if message_id else [],
    })


def _post(body):
    with committed():
        return Client().post(POSTMARK, body, content_type="application/json", **AUTH)


def _answers_to(player):
    return [m for m in mail.outbox if m.to == [player.email]]


@pytest.mark.django_db
def test_the_same_post_three_times_is_played_and_answered_once(started_game):
    game, seat, player, reply_to, legal = _turn(started_game)
    body = _payload(player, reply_to, legal[1])
    assert [_post(body).status_code for _ in range(3)] == [200, 200, 200]
    first, *repeats = InboundEmail.objects.order_by("pk")
    assert first.status == InboundEmail.ACCEPTED and first.message_id == "<reply-1@mail.example.net>"
    assert first.esp_event_id == "pm-0001"
    assert [r.status for r in repeats] == [InboundEmail.REPEAT] * 2
    assert all(r.repeat_of_id == first.pk and f"a repeat of inbound #{first.pk}" in r.outcome for r in repeats)
    assert all(bytes(r.raw) == body.encode() for r in repeats)  # kept, byte for byte
    game.refresh_from_db()
    assert [m.text for m in game.moves.all()] == [legal[1]]
    (answer,) = _answers_to(player)  # one answer: "accepted", no "answers an older position"
    assert "older position" not in answer.body


@pytest.mark.django_db
def test_the_esp_event_id_alone_recognises_a_repeat_without_message_id(started_game):
    game, seat, player, reply_to, legal = _turn(started_game)
    body = _payload(player, reply_to, legal[0], message_id="", event="pm-77")
    _post(body)
    _post(body)
    first, second = InboundEmail.objects.order_by("pk")
    assert first.status == InboundEmail.ACCEPTED and second.status == InboundEmail.REPEAT
    assert "(the same ESP event)" in second.outcome
    assert len(_answers_to(player)) == 1


@pytest.mark.django_db
def test_a_new_mail_from_the_same_player_is_not_a_repeat(started_game):
    game, seat, player, reply_to, legal = _turn(started_game)
    _post(_payload(player, reply_to, legal[0]))
    _post(_payload(player, reply_to, legal[0], message_id="<reply-2@mail.example.net>", event="pm-0002"))
    assert InboundEmail.objects.filter(status=InboundEmail.REPEAT).count() == 0
    assert len(_answers_to(player)) == 2  # the second is refused (an older position) and told so


@pytest.mark.django_db
def test_the_same_message_id_from_another_sender_is_not_taken_for_a_repeat(started_game):
    game, seat, player, reply_to, legal = _turn(started_game)
    other = user_of(game, (seat + 1) % 3)
    _post(_payload(other, reply_to, legal[0], event="pm-9"))  # someone else's mail, same Message-ID
    _post(_payload(player, reply_to, legal[0], event="pm-10"))
    assert InboundEmail.objects.filter(status=InboundEmail.REPEAT).count() == 0
    game.refresh_from_db()
    assert game.move_count == 1


@pytest.mark.django_db(transaction=True)
def test_five_concurrent_posts_of_one_mail_give_one_move_and_one_answer(started_game):
    assert connection.vendor == "postgresql"
    game, seat, player, reply_to, legal = _turn(started_game)
    body = _payload(player, reply_to, legal[2])
    barrier = threading.Barrier(5)
    statuses = []

    def post():
        try:
            barrier.wait()
            statuses.append(Client().post(POSTMARK, body, content_type="application/json", **AUTH).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * 5
    rows = list(InboundEmail.objects.order_by("pk"))
    assert len(rows) == 5
    originals = [r for r in rows if r.repeat_of_id is None]
    assert len(originals) == 1 and originals[0].status == InboundEmail.ACCEPTED
    assert sorted(r.status for r in rows if r.repeat_of_id) == [InboundEmail.REPEAT] * 4
    game.refresh_from_db()
    assert [m.text for m in game.moves.all()] == [legal[2]]
    assert len(_answers_to(player)) == 1
