"""The game page's layout in Chromium at a phone's (390 px) and a desktop's (1280 px) width
(issue 24, items 2 and 7): what the player holds is in the viewport, beside the decision, without
scrolling the board; on a desktop the board starts above the fold (1280x900) with the decision
beside it; choices the board offers are chosen on the board, their list folded under it; the
last moves are marked on the board and in the log; a phone opens a board without targets at its
width. Screenshots go to HANSEWEB_SCREENSHOTS when set."""
import os
from pathlib import Path

import pytest

from games import marks

from .factories import PASSWORD
from .test_browser import CHROMIUM, browser  # noqa: F401  (the fixture)
from .test_replay import _play

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]

HEIGHT = {390: 844, 1280: 900}
# moves played before looking: a placement with many targets (Zanzibar), a step without a board
# target (Hansa Teutonica), a special-card window (Die Hanse), a ship on its way (Hansa)
MOVES = {"hansa": 9, "hansa-teutonica": 9, "die-hanse": 9, "zanzibar": 9}


def _shot(page, tmp_path, name):
    folder = Path(os.environ.get("HANSEWEB_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


def _login(browser, live_server, user, width):  # noqa: F811
    page = browser.new_context(viewport={"width": width, "height": HEIGHT[width]}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", user.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


def _box(page, selector):
    return page.evaluate("""s => { const e = document.querySelector(s); if (!e) return null;
        const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
        width: r.width, height: r.height}; }""", selector)


@pytest.mark.parametrize("slug", list(MOVES))
@pytest.mark.parametrize("width", [390, 1280])
def test_holdings_beside_the_decision_and_the_board_first(slug, width, browser, live_server, transactional_db,  # noqa: F811
                                                          started_game, tmp_path):
    game, users = started_game(slug, 3)
    game = _play(game, MOVES[slug])
    seat = game.to_act[0]
    page = _login(browser, live_server, users[seat], width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.querySelector('section.board').scrollTop") == 0
    # what I hold: the whole panel in the viewport, the prompt above it
    panel = _box(page, "#holdings")
    assert panel is not None, "no holdings panel"
    assert 0 <= panel["top"] and panel["bottom"] <= HEIGHT[width], (slug, width, panel)
    facts = page.inner_text("#holdings")
    assert page.locator("#holdings dd").count() >= 3
    prompt = _box(page, "#play .prompt")
    assert prompt["bottom"] <= panel["top"] + 1
    if slug == "hansa-teutonica":
        desk = game.engine_obj.view(game.state_cache, seat)["desks"][seat]
        assert f"{desk['supply']['traders']} trader" in facts and "Stock" in facts and "Abilities" in facts
    board = _box(page, "section.board")
    if width == 1280:
        assert board["top"] < HEIGHT[width] - 300, board  # the board's top well above the fold
        assert panel["left"] >= board["right"], "the holdings sit beside the board"
        assert _box(page, "#play")["left"] >= board["right"], "the decision sits beside the board"
    else:
        assert panel["right"] <= width + 1 and page.evaluate("document.documentElement.scrollWidth") <= width + 1
    # the last move is marked in the log (and on the board where it names a place)
    assert page.locator(".log li.last-move").count() >= 1
    marked = marks.recent(game, seat)
    view = game.engine_obj.view(game.state_cache, seat)
    if marks.marked_places(slug, view, marked):
        ring = page.locator("section.board svg g.last-moves > *").first
        assert ring.count() == 1 and ring.bounding_box()["width"] > 0
    _shot(page, tmp_path, f"layout-{slug}-{width}")
    page.context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_zanzibar_targets_are_chosen_on_the_board_with_the_list_folded_below(width, browser, live_server,  # noqa: F811
                                                                             transactional_db, started_game, tmp_path):
    game, users = started_game("zanzibar", 3)
    game = _play(game, 3)
    seat = game.to_act[0]
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    page = _login(browser, live_server, users[seat], width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # the list is folded under the board, its buttons hidden but reachable by the keyboard once opened
    folded = page.locator("details#board-choices")
    assert folded.count() == 1 and folded.get_attribute("open") is None
    assert _box(page, "details#board-choices")["top"] >= _box(page, "section.board")["bottom"] - 1
    assert page.locator("#move-form button.move:not(.undo)").count() < 5
    if width == 1280:
        assert _box(page, "section.board")["top"] < 400
    # choosing on the board: the target is a button named by the move
    target = page.locator("section.board svg [data-move]").first
    wanted = target.get_attribute("data-move")
    assert wanted in legal and target.get_attribute("role") == "button" and target.get_attribute("aria-label")
    target.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    game.refresh_from_db()
    assert game.moves.order_by("-seq").first().text == wanted
    # another game at the same decision: the folded list opens, and its buttons submit the move form
    game, users = started_game("zanzibar", 3)
    game = _play(game, 3)
    seat = game.to_act[0]
    page.context.close()
    page = _login(browser, live_server, users[seat], width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    button = page.locator("details#board-choices button.move").nth(1)
    assert not button.is_visible()
    page.click("details#board-choices summary")
    assert button.is_visible()
    chosen = button.get_attribute("value")
    assert chosen in game.engine_obj.legal_moves(game.state_cache, seat)
    with page.expect_navigation():
        button.click()
    game.refresh_from_db()
    assert game.moves.order_by("-seq").first().text == chosen
    # now waiting for another player: what I hold is still in view, without the decision card
    if seat not in game.to_act:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        assert page.locator("#play").count() == 0
        panel = _box(page, "#holdings")
        assert panel and 0 <= panel["top"] and panel["bottom"] <= HEIGHT[width], panel
    _shot(page, tmp_path, f"layout-zanzibar-choose-{width}")
    page.context.close()


def test_a_phone_opens_a_board_without_targets_at_its_width(browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game("hansa-teutonica", 3)
    game = _play(game, 9)
    seat = game.to_act[0]
    engine = game.engine_obj
    page = _login(browser, live_server, users[seat], 390)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    targets = page.locator("section.board svg [data-move]").count()
    level = page.inner_text(".zoom-level")
    if targets == 0:
        assert level == "100%"
        assert page.evaluate("document.querySelector('section.board').scrollLeft") == 0
    else:
        assert level != "100%"
    assert engine.legal_moves(game.state_cache, seat)
    # "Fit" shows the whole board: its height fits the box
    page.click("button.zoom-fit")
    fit = page.evaluate("""() => { const b = document.querySelector('section.board'), s = b.querySelector('svg');
        return {svg: s.getBoundingClientRect().height, box: b.clientHeight}; }""")
    assert fit["svg"] <= fit["box"] + 1, fit
    page.context.close()
