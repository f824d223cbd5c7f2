"""Three players in headless Chromium (Playwright, Debian's chromium): log in through the form,
create a Hansa game, join by the link, and play moves by clicking the buttons on the pages."""
import os
import shutil
import time

import pytest
from django.core import mail

from games.engines import available_slugs, get_engine
from games.models import Game

from .factories import PASSWORD, UserFactory

CHROMIUM = os.environ.get("HANSEWEB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]


@pytest.fixture
def browser():
    # Playwright's sync API runs an event loop in this thread; the ORM calls of the test are
    # still plain synchronous calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from django.db import connections
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()
            # While that event loop runs, Django keeps this thread's database connections apart
            # from the usual thread-local ones (asgiref: context-local in an async thread), so
            # the test database's teardown would never close them: close them here.
            connections.close_all()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    _assert_no_other_sessions()


def _assert_no_other_sessions():
    """No connection of this run but the main one is left on the test database (it could not be
    dropped at the end). The live server closes its connections when the browser's sockets close."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + 10
    while True:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND pid <> pg_backend_pid()")
            others = cursor.fetchone()[0]
        if others == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert others == 0, f"{others} other database session(s) left open on the test database"


def _login(browser, live_server, user):
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", user.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    assert user.display_name in page.content()
    return page


@pytest.mark.parametrize("slug", available_slugs())
def test_three_players_create_join_and_play(slug, browser, live_server, transactional_db, tmp_path):
    players = min(max(get_engine(slug).min_players, 3), get_engine(slug).max_players)
    users = UserFactory.create_batch(players)
    pages = [_login(browser, live_server, u) for u in users]
    alice = pages[0]
    alice.goto(f"{live_server.url}/games/new/")
    alice.select_option("#id_engine", slug)
    alice.wait_for_url(f"**/games/new/?engine={slug}")
    alice.select_option("#id_players", str(players))
    if any(spec["key"] == "start_player" for spec in get_engine(slug).option_specs):
        # the page's script offers only the seats of the chosen player count
        enabled = alice.eval_on_selector_all("#id_opt_start_player option:not([disabled])", "os => os.map(o => o.value)")
        assert enabled == ["random"] + [str(i) for i in range(players)]
    alice.fill("#id_title", "Browser game")
    alice.select_option("#id_seat_order", "joined")
    alice.click("button[name=create]")
    share = alice.locator("input.share").input_value()
    assert "/join/" in share
    for page in pages[1:]:
        page.goto(share)
        page.click("#join-form button[type=submit]")
    game = Game.objects.get()
    assert game.status == Game.RUNNING

    engine = game.engine_obj
    due = set()  # seats that had a decision waiting at some point
    for step in range(8):
        game.refresh_from_db()
        due.update(game.to_act)
        seat = game.to_act[0]
        page = pages[seat]
        page.goto(f"{live_server.url}/games/{game.pk}/")
        if page.locator("details#board-choices").count():  # the choices the board offers, listed under it
            page.click("details#board-choices summary")
        buttons = page.locator('#move-form button.move:not(.undo), button.move[form="move-form"]')
        assert buttons.count() == len(engine.legal_moves(game.state_cache, seat))
        # the other players see no move form
        other = pages[(seat + 1) % players]
        other.goto(f"{live_server.url}/games/{game.pk}/")
        assert other.locator("#move-form").count() == 0
        chosen = buttons.first.get_attribute("value")
        buttons.first.click()
        page.wait_for_load_state()
        game.refresh_from_db()
        assert game.move_count == step + 1
        assert game.moves.get(seq=step + 1).text == chosen
        assert game.moves.get(seq=step + 1).user == users[seat]
    # a highlighted place on the board is a move too: clicking it submits that move
    game.refresh_from_db()
    seat = game.to_act[0]
    page = pages[seat]
    page.goto(f"{live_server.url}/games/{game.pk}/")
    targets = page.locator("svg [data-move]")
    if targets.count():
        wanted = targets.first.get_attribute("data-move")
        assert wanted in engine.legal_moves(game.state_cache, seat)
        before = game.move_count
        targets.first.click()
        page.wait_for_load_state()
        game.refresh_from_db()
        assert game.move_count == before + 1 and game.moves.get(seq=before + 1).text == wanted
    page.screenshot(path=str(tmp_path / "game.png"), full_page=True)
    # a stale page: the form of an old move number is refused with an explanation
    game.refresh_from_db()
    seat = game.to_act[0]
    page = pages[seat]
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("document.querySelector('#move-form input[name=seq]').value = '0'")
    page.locator("#move-form button.move:not(.undo)").first.click()
    page.wait_for_load_state()
    assert "moved on" in page.content()
    assert Game.objects.get().move_count == game.move_count
    # everyone was mailed when their turn came
    game.refresh_from_db()
    due.update(game.to_act)
    mailed = {m.to[0] for m in mail.outbox if "Your turn" in m.subject}
    assert mailed == {users[s].email for s in due}
