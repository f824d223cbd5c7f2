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
def test_update_can_copy_a_column_as_the_row_held_it(started_game):
    from django.db import transaction

    game, _ = started_game("hansa", 2)
    game.state_cache, game.undo_state = {"old": 1}, None
    fastsql.update(game, ["state_cache", "undo_state"])
    # SET expressions read the row as it was before the statement, whatever the order
    game.state_cache = {"new": 2}
    fastsql.update(game, ["state_cache"], copied={"undo_state": "state_cache"})
    game.refresh_from_db()
    assert (game.state_cache, game.undo_state) == ({"new": 2}, {"old": 1})
    with transaction.atomic(), fastsql.batched():  # kept, merged, then sent: the same
        game.state_cache = {"newer": 3}
        fastsql.update(game, ["move_count"], copied={"undo_state": "state_cache"})
        fastsql.update(game, ["state_cache"])
    game.refresh_from_db()
    assert (game.state_cache, game.undo_state) == ({"newer": 3}, {"new": 2})
    with transaction.atomic(), fastsql.batched():  # a later plain value of the field wins
        game.undo_state = {"plain": 4}
        fastsql.update(game, ["state_cache"], copied={"undo_state": "state_cache"})
        fastsql.update(game, ["undo_state"])
    game.refresh_from_db()
    assert game.undo_state == {"plain": 4}


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


@pytest.mark.django_db
def test_batched_writes_go_together_before_the_next_read_and_updates_of_a_row_merge(started_game):
    from django.db import transaction

    from games.models import Seat

    if not fastsql.can_batch():
        pytest.skip("several statements in one round trip: PostgreSQL")
    game, users = started_game("hansa", 2)
    seat = game.seats.get(number=0)
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        with fastsql.batched():
            before = len(ctx)  # the savepoint of the test's transaction
            seat.decision_key = "first"
            fastsql.update(seat, ["decision_key"])
            move = fastsql.insert(Move(game=game, seq=game.move_count + 1, seat=0, user=users[0], text="x",
                                       channel="web", events=[]))
            seat.seen_seq = 5
            seat.decision_key = "second"
            fastsql.update(seat, ["seen_seq"])
            assert len(ctx) == before and move.pk is None  # nothing sent yet
            # any other statement sends them first: the read sees them
            assert Seat.objects.values_list("decision_key", "seen_seq").get(pk=seat.pk) == ("second", 5)
            assert move.pk is not None and Move.objects.get(pk=move.pk).text == "x"
            sent = ctx.captured_queries[before]["sql"]
            assert sent.count("UPDATE") == 1 and sent.count("INSERT") == 1  # one UPDATE with both columns
            assert '"decision_key"' in sent and '"seen_seq"' in sent
            seat.reminded_seq = 3
            fastsql.update(seat, ["reminded_seq"])
            assert fastsql.exists(Move, "text", "x")  # sent together with the kept UPDATE
            seat.seen_seq = 6
            fastsql.update(seat, ["seen_seq"])
        # the end of the block sends the rest
        assert Seat.objects.values_list("seen_seq", "reminded_seq").get(pk=seat.pk) == (6, 3)
    assert len([q for q in ctx.captured_queries if "UPDATE" in q["sql"]]) == 3


@pytest.mark.django_db
def test_a_refused_batched_statement_fails_the_transaction(started_game):
    from django.db import transaction

    if not fastsql.can_batch():
        pytest.skip("several statements in one round trip: PostgreSQL")
    game, users = started_game("hansa", 2)
    move = fastsql.insert(Move(game=game, seq=game.move_count + 1, seat=0, user=users[0], text="x", channel="web",
                               events=[]))
    seat = game.seats.get(number=0)
    before = seat.decision_key
    with pytest.raises(Exception), transaction.atomic(), fastsql.batched():
        seat.decision_key = "changed"
        fastsql.update(seat, ["decision_key"])
        move.text = "rewritten"
        fastsql.update(move, ["text"])  # the append-only guard refuses it when the batch is sent
    seat.refresh_from_db()
    assert seat.decision_key == before and Move.objects.get(pk=move.pk).text == "x"


@pytest.mark.django_db
def test_a_move_waits_on_the_database_a_fixed_small_number_of_times(started_game):
    from django.db import transaction

    from games import services

    from .conftest import user_of

    if not fastsql.can_batch():
        pytest.skip("several statements in one round trip: PostgreSQL")
    game, _ = started_game("hansa", 3)
    for _ in range(3):
        game.refresh_from_db()
        seat = game.to_act[0]
        move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
        player = user_of(game, seat)
        with CaptureQueriesContext(connection) as ctx, transaction.atomic():
            services.submit_move(game.pk, player, move, expected_seq=game.move_count)
        statements = [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        # the game, seats and users in one; the move, the seat and game writes and the next
        # player's turn mail (first of its thread or a reply to it) in another
        assert len(statements) == 2, [s[:80] for s in statements]
        assert "games_move" in statements[1] and "mail_outboundemail" in statements[1]
        assert "FOR UPDATE" in statements[0] and '"games_seat"' in statements[0] and '"accounts_user"' in statements[0]


@pytest.mark.django_db
def test_insert_first_takes_the_unique_value_once_then_the_alternative(started_game):
    from django.db import transaction

    if not fastsql.can_batch():
        pytest.skip("PostgreSQL")

    def mail(text):
        return OutboundEmail(to="a@example.com", kind="k", subject="s", text=text, headers={"X": "1"},
                             message_id="<thread@x>")

    first = fastsql.insert_first(mail("one"), "message_id", {"message_id": "<other-1@x>", "headers": {"R": "1"}})
    with transaction.atomic(), fastsql.batched():
        second = fastsql.insert_first(mail("two"), "message_id", {"message_id": "<other-2@x>", "headers": {"R": "2"}})
        assert second.pk is None  # kept for the batch
    rows = {r.text: r for r in OutboundEmail.objects.filter(to="a@example.com")}
    assert (first.pk, first.message_id, first.headers) == (rows["one"].pk, "<thread@x>", {"X": "1"})
    assert (second.pk, second.message_id, second.headers) == (rows["two"].pk, "<other-2@x>", {"R": "2"})
    assert rows["two"].message_id == "<other-2@x>" and rows["two"].headers == {"R": "2"}
    assert rows["two"].created_at is not None and rows["two"].subject == "s"


@pytest.mark.django_db(transaction=True)
def test_two_first_mails_of_one_thread_at_once_both_go_one_as_the_reply():
    """Two transactions queue the first mail of one thread at the same time: the second waits for
    the first's commit and becomes the reply (no error, no lost mail)."""
    import threading

    from django.db import connections, transaction

    from hanseweb.mail.outbox import queue_rendered_later

    if not fastsql.can_batch():
        pytest.skip("PostgreSQL")
    inserted, go_on, errors = threading.Event(), threading.Event(), []

    def queue(name, hold):
        try:
            with transaction.atomic():
                queue_rendered_later(to=f"{name}@example.com", kind="your_turn", renderer="games.your_turn",
                                     params={}, thread="game-999.seat-0")
                if hold:
                    inserted.set()
                    go_on.wait(10)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    first = threading.Thread(target=queue, args=("first", True))
    first.start()
    assert inserted.wait(10)
    second = threading.Thread(target=queue, args=("second", False))
    second.start()
    second.join(0.5)
    assert second.is_alive()  # waiting for the first transaction's row
    go_on.set()
    first.join(10), second.join(10)
    assert not errors
    rows = {r.to: r for r in OutboundEmail.objects.filter(to__in=["first@example.com", "second@example.com"])}
    root = rows["first@example.com"].message_id
    assert root.startswith("<game-999.seat-0@")
    assert rows["second@example.com"].message_id != root
    assert rows["second@example.com"].headers["In-Reply-To"] == root



def _sent(statements):
    """An execute wrapper that keeps the SQL of every statement sent."""
    def wrapper(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)
    return wrapper


def _status():
    return connection.connection.pgconn.transaction_status


@pytest.fixture
def first_seat(started_game):
    """A two-player game of Hansa, its players and its first seat (batches: PostgreSQL only)."""
    if not fastsql.can_batch():
        pytest.skip("several statements in one round trip: PostgreSQL")
    game, users = started_game("hansa", 2)
    return game, users, game.seats.get(number=0)


@pytest.mark.django_db(transaction=True)
def test_a_move_commits_with_its_last_writes_in_one_round_trip(started_game):
    from games import services
    from games.models import Game
    from hanseweb import handover

    from .conftest import user_of

    if not fastsql.can_batch():
        pytest.skip("several statements in one round trip: PostgreSQL")
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    statements, published, player = [], [], user_of(game, seat)
    handover.request_started()  # as in a request: the tasks queued on commit wait for the response
    with connection.execute_wrapper(_sent(statements)):
        services.submit_move(game.pk, player, move, expected_seq=game.move_count)
    published, handover._request.tasks = handover._request.tasks, None
    assert len(statements) == 2, [s[:80] for s in statements]
    assert "FOR UPDATE" in statements[0]
    assert "games_move" in statements[1] and statements[1].rstrip().endswith("COMMIT")
    assert Game.objects.get(pk=game.pk).move_count == game.move_count + 1
    assert published  # the on_commit hooks ran: the next player's turn mail is handed to the worker


@pytest.mark.django_db(transaction=True)
def test_the_commit_goes_with_the_writes_only_when_the_outermost_block_ends_next(first_seat):
    from django.db import transaction
    from django.db.transaction import TransactionManagementError
    from psycopg.pq import TransactionStatus

    _game, _users, seat = first_seat
    hooks = []

    def write(key):
        seat.decision_key = key
        fastsql.update(seat, ["decision_key"])

    with transaction.atomic():
        transaction.on_commit(lambda: hooks.append("ran"))
        with fastsql.batched(commit=True):
            write("outermost")
        assert _status() == TransactionStatus.IDLE  # committed with the write
        assert hooks == []  # the atomic block runs them as it ends
    assert hooks == ["ran"]
    seat.refresh_from_db()
    assert seat.decision_key == "outermost"

    with transaction.atomic(), transaction.atomic():  # a savepoint: the outer block decides
        with fastsql.batched(commit=True):
            write("nested")
        assert _status() == TransactionStatus.INTRANS

    with pytest.raises(TransactionManagementError), transaction.atomic():
        with fastsql.batched(commit=True):
            write("rolled back")
            transaction.set_rollback(True)  # nothing may be sent now: neither the write nor a COMMIT
    seat.refresh_from_db()
    assert seat.decision_key == "nested"


@pytest.mark.django_db(transaction=True)
def test_a_commit_refused_with_the_writes_rolls_everything_back(first_seat):
    from django.db import IntegrityError, transaction

    game, users, seat = first_seat
    before = seat.decision_key
    hooks = []
    with pytest.raises(IntegrityError), transaction.atomic():
        transaction.on_commit(lambda: hooks.append("ran"))
        with fastsql.batched(commit=True):
            seat.decision_key = "changed"
            fastsql.update(seat, ["decision_key"])
            # a user that does not exist: the foreign key is checked at COMMIT (deferred)
            fastsql.insert(Move(game=game, seq=game.move_count + 1, seat=0, user_id=users[0].pk + 10_000,
                                text="x", channel="web", events=[]))
    assert hooks == []
    seat.refresh_from_db()
    assert seat.decision_key == before
    assert not Move.objects.filter(game=game, seq=game.move_count + 1).exists()
