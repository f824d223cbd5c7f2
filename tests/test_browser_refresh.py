"""The game page updates itself (issue 12) in Chromium: when another player moves, the page puts
the new position in place without a reload; a half-typed move, its caret and the focus survive
the update; the status endpoint it polls is one query."""
import os

import pytest
from playwright.sync_api import expect
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services

from .conftest import act, committed, user_of
from .test_browser import CHROMIUM, browser  # noqa: F401  (the fixture)
from .test_browser_replay import _login

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]


def _status(client, game):
    return client.get(f"/games/{game.pk}/status/").json()


def test_status_is_one_query(client, started_game):
    game, _ = started_game("hansa", 3)
    with CaptureQueriesContext(connection) as q:
        s = _status(client, game)
    assert len(q.captured_queries) == 1
    assert s["move_count"] == game.move_count and s["version"].startswith(f"{game.move_count}:running:")


def test_page_updates_when_another_player_moves(browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game("hansa", 3)
    mover = game.to_act[0]
    watcher = next(s for s in range(3) if s != mover)
    page = _login(browser, live_server, users[watcher], 390)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.__sameDocument = 1")
    before = page.get_attribute("#moved-on", "data-version")
    act(game, mover, game.engine_obj.legal_moves(game.state_cache, mover)[0])
    game.refresh_from_db()
    # (an assertion that polls, not wait_for_function: the page's CSP rightly refuses its eval)
    expect(page.locator("#moved-on")).not_to_have_attribute("data-version", before, timeout=15000)
    assert page.evaluate("window.__sameDocument") == 1  # put in place, not reloaded
    assert page.get_attribute("#moved-on", "data-version").startswith(f"{game.move_count}:")
    assert page.inner_text("#moved-on") in ("The game has moved on.", "Your turn.")
    # the board of the new body is wired again (zoom buttons once, targets named)
    assert page.locator(".board-tools").count() == 1
    page.context.close()


def test_half_typed_move_and_focus_survive_an_update(browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    other = next(s for s in range(3) if s != seat)
    page = _login(browser, live_server, users[seat], 1280)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.__sameDocument = 1")
    page.click("details summary")
    field = page.locator("details input[name=move]")
    field.fill("move lueb")
    field.focus()
    page.keyboard.press("ArrowLeft")  # caret one back from the end
    before = page.get_attribute("#moved-on", "data-version")
    with committed():
        services.resign(game.pk, user_of(game, other))
    # (an assertion that polls, not wait_for_function: the page's CSP rightly refuses its eval)
    expect(page.locator("#moved-on")).not_to_have_attribute("data-version", before, timeout=15000)
    assert page.evaluate("window.__sameDocument") == 1
    assert page.locator("details input[name=move]").input_value() == "move lueb"
    assert page.evaluate("document.activeElement.name") == "move"
    assert page.evaluate("document.activeElement.selectionStart") == len("move lueb") - 1
    assert page.evaluate("document.querySelector('details').open") is True
    page.context.close()
