"""``hanseweb.fastsql`` writes the same rows as the ORM's ``save()`` would."""
import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from games.models import Move
from hanseweb import fastsql
from hanseweb.mail.models import OutboundEmail


@pytest.mark.django_db
def test_insert_applies_defaults_json_and_auto_now_add_like_save():
    fast = fastsql.insert(OutboundEmail(to="a@example.com", kind="k", subject="s", text="t",
                                        headers={"X-A": "ü"}, message_id="<fast@x>", render={"name": "n", "params": {"a": [1]}}))
    orm = OutboundEmail.objects.create(to="a@example.com", kind="k", subject="s", text="t",
                                       headers={"X-A": "ü"}, message_id="<orm@x>", render={"name": "n", "params": {"a": [1]}})
    assert fast.pk and fast.pk != orm.pk and not fast._state.adding
    a, b = (model_to_dict(OutboundEmail.objects.get(pk=pk)) for pk in (fast.pk, orm.pk))
    for row in (a, b):
        row.pop("id"), row.pop("message_id")
    assert a == b
    assert OutboundEmail.objects.get(pk=fast.pk).created_at is not None
    assert OutboundEmail.objects.get(pk=fast.pk).headers == {"X-A": "ü"}


@pytest.mark.django_db
def test_update_writes_only_the_named_columns(started_game):
    game, _ = started_game("hansa", 2)
    seat = game.seats.get(number=0)
    seat.decision_key, seat.seen_seq, seat.reminded_seq = "abc", 7, 99
    with CaptureQueriesContext(connection) as ctx:
        fastsql.update(seat, ["decision_key", "seen_seq"])
    assert len(ctx) == 1 and ctx.captured_queries[0]["sql"].startswith('UPDATE "games_seat" SET "decision_key"')
    seat.refresh_from_db()
    assert (seat.decision_key, seat.seen_seq) == ("abc", 7) and seat.reminded_seq != 99
    game.state_cache = {"x": [1, {"y": None}]}
    fastsql.update(game, ["state_cache"])
    game.refresh_from_db()
    assert game.state_cache == {"x": [1, {"y": None}]}


@pytest.mark.django_db
def test_exists_and_moves_stay_append_only(started_game):
    from hanseweb.mail.models import OutboundEmail as Out

    assert not fastsql.exists(Out, "message_id", "<nobody@x>")
    game, users = started_game("hansa", 2)
    move = fastsql.insert(Move(game=game, seq=game.move_count + 1, seat=0, user=users[0], text="x", channel="web",
                               events=[{"n": 1, "seat": None, "text": "hi"}]))
    stored = Move.objects.get(pk=move.pk)
    assert stored.events == [{"n": 1, "seat": None, "text": "hi"}] and stored.created_at == move.created_at
    with pytest.raises(Exception):
        fastsql.update(stored, ["text"])  # the database's append-only guard refuses it
