"""Fixtures for the Django tests. Imports of Django code are lazy so that the pure engine tests
(tests/engines) also run without Django: ``pytest tests/engines -p no:django``."""
import pytest

# The whole suite runs a test file at a time per xdist worker (--dist loadfile, scripts/test), handed
# out in collection order (scripts/test: --no-loadscope-reorder; xdist's default hands out the files
# with the most tests first). The longest files go first so that the two workers end together (longest
# processing time first); a file ending last would otherwise run on alone for minutes. The order
# comes from a full run's --durations (the longest first); files not named keep their order after them.
LONGEST_FIRST = [  # by their time in a full run (--durations), longest first
    "tests/api/test_api_whole_games.py", "tests/leagues/test_season_end_to_end.py",
    "tests/engines/test_contract.py", "tests/test_browser_replay.py", "tests/engines/test_bots.py",
    "tests/test_fairness.py", "tests/test_whole_game_by_mail.py", "tests/test_words_not_ids.py",
    "tests/test_browser.py", "tests/api/test_api_schemathesis.py", "tests/test_full_games.py",
    "tests/test_flat_cost.py", "tests/test_page_size.py", "tests/test_simultaneous.py",
    "tests/test_browser_layout.py", "tests/test_startup.py", "tests/test_reply_shapes.py",
    "tests/test_replay.py", "tests/test_mail_play_worker.py", "tests/test_embedded_server.py",
    "tests/test_browser_axe.py", "tests/test_decision_mails.py", "tests/test_worker_kill.py",
    "tests/api/test_api_privacy.py", "tests/test_chat_alive.py", "tests/leagues/test_page_cache.py",
    "tests/engines/test_bots_die_hanse.py", "tests/test_i18n.py", "tests/test_browser_refresh.py",
    "tests/test_browser_refusal.py", "tests/test_celery_worker.py", "tests/test_chat.py",
    "tests/test_board_contrast.py", "tests/test_throttling.py", "tests/test_mail_menu.py",
    "tests/test_inbound_mail.py", "tests/leagues/test_bot_fills_seat.py", "tests/test_bot_table_worker.py",
    "tests/test_archive_cache.py", "tests/test_game_pages.py", "tests/leagues/test_end_to_end.py",
]


def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable



def committed():
    """Run the on-commit callbacks (mail tasks) of what happens inside, as a real commit would.

    Tests marked ``django_db`` run inside one transaction that never commits."""
    from django.test import TestCase

    return TestCase.captureOnCommitCallbacks(execute=True)


@pytest.fixture(scope="session", autouse=True)
def _flush_past_the_truncate_guard(request):
    """Transactional tests empty the test database between tests with TRUNCATE (Django's flush),
    which the move log refuses (migration games/0007). This one legitimate truncate runs with
    session_replication_role = replica, under which triggers do not fire; only a superuser (the
    test run's database user, never the application's role in a deployment) may set it."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        return original(self, ["SET LOCAL session_replication_role = replica", *sql_list])

    DatabaseOperations.execute_sql_flush = execute_sql_flush
    yield
    DatabaseOperations.execute_sql_flush = original


@pytest.fixture(autouse=True)
def anymail_test_backend(request):
    """Mail goes through anymail's test backend (pytest-django would swap in locmem)."""
    if not request.config.pluginmanager.hasplugin("django") or "tests/engines/" in str(request.node.path):
        yield
        return
    from django.core import mail

    settings = request.getfixturevalue("settings")
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    yield


@pytest.fixture(autouse=True)
def no_throttle_state(request):
    """Every test starts with no rate-limit counts and leaves none behind: they live in Django's
    cache (the test Redis database, or local memory), which is emptied before and after, and
    the accounts a process holds blocked for refused posts (``hanseweb.throttle.blocked``). Login
    failures counted by axes are database rows, rolled back (or flushed) with the test's database
    like every other row."""
    if not request.config.pluginmanager.hasplugin("django") or "tests/engines/" in str(request.node.path):
        yield
        return
    from django.core.cache import caches

    from hanseweb.cache import breaker
    from hanseweb.throttle import blocked

    def fresh():
        # a cache outage another test made (or a Redis answer slower than the 1 s timeout on a loaded
        # machine) leaves the process's breaker open for seconds: the cache is then not asked, and
        # rate limits count nothing. Each test starts with the cache asked again.
        breaker.skip_until, breaker.down_since, breaker.error = 0.0, None, ""
        caches["default"].clear()
        blocked.clear()

    fresh()
    yield
    fresh()


@pytest.fixture(autouse=True)
def no_mail_png(request):
    """Mails go without the board's PNG, unless the test is marked ``mail_png``. The send worker
    converts each mail's SVG with CairoSVG (0.05-0.3 s a mail: 420 s of the suite's CPU when every
    test made them, most of it in tests that play whole games or seasons by the hundreds of mails
    and never look at the picture). The conversion and the attachment are tested on their own
    (tests/test_mail_board_png.py, tests/test_mail_rendered_by_worker.py, marked), and by the tests
    with a real Celery worker process (tests/test_celery_worker.py), which this does not reach.
    The mail's HTML, SVG and text are still made, and the mail goes as it does when a picture
    cannot be made (``hanseweb.mail.images.inline_png``: without it)."""
    if "mail_png" in request.keywords or "tests/engines/" in str(request.node.path) \
            or not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    monkeypatch = request.getfixturevalue("monkeypatch")
    monkeypatch.setattr("hanseweb.mail.tasks.svg_to_png", lambda svg: b"")  # the render worker's
    monkeypatch.setattr("hanseweb.mail.tasks.inline_png", lambda svg: None)  # the send worker's
    yield


@pytest.fixture
def make_user(db):
    from .factories import UserFactory

    return UserFactory


@pytest.fixture
def started_game(db):
    """A running game of ``engine`` with ``players`` fresh accounts, seats in joining order."""
    from games import services
    from games.models import Game

    from .factories import UserFactory

    def make(engine="hansa", players=3, options=None, seat_options=None, deadline=None, seed=None):
        users = UserFactory.create_batch(players)
        with committed():
            game = services.create_game(
                creator=users[0], engine=engine, title=f"Test {engine}", players=players, options=options or {},
                seat_order=Game.SEAT_ORDER_JOINED, move_deadline_hours=deadline,
                seat_options=(seat_options or {}).get(0),
            )
            if seed is not None:
                from games.engines.fairness import commitment

                Game.objects.filter(pk=game.pk).update(seed=seed, commitment=commitment(seed, game.salt))
            for i, user in enumerate(users[1:], start=1):
                services.join_game(game.pk, user, seat_options=(seat_options or {}).get(i))
        game.refresh_from_db()
        assert game.status == Game.RUNNING
        return game, users

    return make


def user_of(game, seat_number):
    return game.seats.get(number=seat_number).user


def act(game, seat_number, move, channel="web"):
    """Submit ``move`` for a seat through the one write path, with the current sequence number."""
    from games import services

    game.refresh_from_db()
    with committed():
        return services.submit_move(game.pk, user_of(game, seat_number), move, expected_seq=game.move_count, channel=channel)


@pytest.fixture(autouse=True)
def english_by_default():
    """Each test starts in the site's default language: a page served in nl or de (the test
    client runs in this thread) must not leave its language active for the next test."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture
def turn(started_game):
    """A fresh three-player Hansa game: the seat to act, its player and the reply address of
    its first turn mail (empty outbox)."""
    from django.core import mail

    from games import email_replies

    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    mail.outbox = []
    return game, seat, player, email_replies.reply_address(game.pk, seat, 0)


@pytest.fixture
def list_cache(settings):
    """List pages kept whole (hanseweb/pagecache.py) as in production: on, with Redis."""
    settings.HANSEWEB_LIST_CACHE_SECONDS = 300
    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/15"


def count_calls(monkeypatch, owner, name: str) -> dict:
    """Counts the calls of ``owner.name`` (how often a kept page was really made): ``{"n": calls}``."""
    count = {"n": 0}
    real = getattr(owner, name)

    def counting(*args, **kwargs):
        count["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return count


def rename_on_profile(client_class, user, name: str) -> None:
    """``user`` renames themself through the profile form in a committed transaction (the write
    path a cached page must notice)."""
    other = client_class()
    other.force_login(user)
    with committed():
        answer = other.post("/accounts/profile/", {"display_name": name, "language": "en", "time_zone": "",
                                                   "notify": user.notify, "digest_hour": user.digest_hour or 8})
    assert answer.status_code == 302
