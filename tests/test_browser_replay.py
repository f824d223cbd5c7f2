"""The replay page in Chromium at a phone's and a desktop's width: from the game page's link,
stepping with the buttons and the arrow keys, the board inside the viewport."""
import os
from pathlib import Path

import pytest

from games.models import Game

from .factories import PASSWORD
from .test_browser import CHROMIUM, browser  # noqa: F401  (the fixture)
from .test_replay import _play

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]


def _shot(page, tmp_path, name):
    """Screenshots go to HANSEWEB_SCREENSHOTS when set (to look at them), else to tmp_path."""
    folder = Path(os.environ.get("HANSEWEB_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width", [390, 1280])
def test_stepping_through_a_game(width, browser, live_server, transactional_db, started_game, tmp_path):  # noqa: F811
    game, users = started_game("die-hanse", 3)
    game = _play(game, 30)
    assert game.status == Game.RUNNING
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", users[0].email)
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("a.replay-link")
    page.wait_for_url(f"**/replay/?at={game.move_count}")
    assert f"After move {game.move_count}" in page.inner_text("#replay-nav")
    page.click("#replay-nav a.step.back")
    page.wait_for_url(f"**/replay/?at={game.move_count - 1}")
    page.keyboard.press("Home")
    page.wait_for_url("**/replay/?at=0")
    assert "The setup" in page.inner_text("#replay-nav")
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/replay/?at=1")
    page.fill("#replay-at", "12")
    page.click("#replay-nav button[type=submit]")
    page.wait_for_url("**/replay/?at=12")
    assert page.locator("#replay-log li.this-move").count() >= 1
    # the board's box lies inside the screen (on a phone the board inside it opens readable and pans)
    box = page.locator("section.board").first.bounding_box()
    assert box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    _shot(page, tmp_path, f"replay-die-hanse-{width}")
    page.context.close()


def _login(browser, live_server, user, width):  # noqa: F811
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", user.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


@pytest.mark.parametrize("slug", ["hansa", "hansa-teutonica", "die-hanse", "zanzibar"])
@pytest.mark.parametrize("width", [390, 1280])
def test_move_buttons_read_as_words_and_fit(slug, width, browser, live_server, transactional_db, started_game, tmp_path):  # noqa: F811
    game, users = started_game(slug, 3)
    game = _play(game, 7)
    seat = game.to_act[0]
    page = _login(browser, live_server, users[seat], width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    if page.locator("details#board-choices").count():  # the choices the board offers, listed under it
        page.click("details#board-choices summary")
    buttons = page.locator('#move-form button.move:not(.undo), button.move[form="move-form"]')
    assert buttons.count() == len(game.engine_obj.legal_moves(game.state_cache, seat))
    for i in range(min(buttons.count(), 12)):
        b = buttons.nth(i)
        box = b.bounding_box()
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
        assert b.locator(".notation").inner_text() == b.get_attribute("value")
        assert b.locator(".move-label").inner_text() != b.get_attribute("value")
    _shot(page, tmp_path, f"game-{slug}-{width}")
    page.context.close()


@pytest.mark.parametrize("width", [390])
def test_board_targets_are_named_buttons_pressed_with_space(width, browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    page = _login(browser, live_server, users[seat], width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("section.board svg").first.get_attribute("role") == "group"
    target = page.locator("svg [data-move]").first
    move = target.get_attribute("data-move")
    button = page.locator(f'button.move[value="{move}"]')  # beside the board, or in the list under it
    assert target.get_attribute("role") == "button"
    assert target.get_attribute("aria-label").startswith(button.locator(".move-label").inner_text())
    target.focus()
    page.keyboard.press("Space")
    page.wait_for_url("**#play")
    game.refresh_from_db()
    assert game.move_count == 1 and game.moves.get(seq=1).text == move
    page.context.close()


# the smallest text of the board as drawn, in CSS px (halos, drawn without fill, left out)
SMALLEST_TEXT_PX = """() => {
  const svg = document.querySelector("section.board svg"), a = svg.getScreenCTM().a;
  let m = Infinity;
  svg.querySelectorAll("text").forEach(t => {
    const st = getComputedStyle(t);
    if (st.fill !== "none" && t.textContent.trim()) m = Math.min(m, parseFloat(st.fontSize) * a);
  });
  return m;
}"""


@pytest.mark.parametrize("slug", ["hansa", "hansa-teutonica", "die-hanse", "zanzibar"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_board_fits_and_zooms(slug, width, browser, live_server, transactional_db, started_game, tmp_path):  # noqa: F811
    game, users = started_game(slug, 3)
    page = _login(browser, live_server, users[0], width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    box = page.locator("section.board")
    svg = box.locator("svg").first
    outer = box.bounding_box()
    if width == 390:
        # a phone: the board opens where its smallest text is readable at the decision's target,
        # panning inside its box; without a target on the board, at the board's width ("Aa" zooms)
        if not page.locator("section.board svg [data-move]").count():
            assert page.inner_text(".zoom-level") == "100%"
            page.click(".board-tools .zoom-readable")
        assert page.evaluate(SMALLEST_TEXT_PX) >= 8.9
        assert 0 <= outer["x"] and outer["x"] + outer["width"] <= width + 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        _shot(page, tmp_path, f"readable-{slug}-{width}")
        page.click(".board-tools .zoom-fit")
    fit = svg.bounding_box()
    # fitted: the board lies inside its box and the screen
    assert 0 <= outer["x"] and outer["x"] + outer["width"] <= width + 1
    assert fit["x"] >= outer["x"] - 1 and fit["x"] + fit["width"] <= outer["x"] + outer["width"] + 1
    page.click(".board-tools .zoom-in")
    page.click(".board-tools .zoom-in")
    zoomed = svg.bounding_box()
    assert zoomed["width"] > fit["width"] * 2
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # pans inside its box
    assert box.bounding_box()["width"] == pytest.approx(outer["width"], abs=1)  # the page does not grow
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    _shot(page, tmp_path, f"zoomed-{slug}-{width}")
    page.click(".board-tools .zoom-fit")
    # "Fit" shows the whole board: its width and its height inside the box
    fitted, inner = svg.bounding_box(), box.bounding_box()
    assert fitted["width"] <= fit["width"] + 1 and fitted["height"] <= inner["height"] + 1, (fitted, inner)
    assert fitted["x"] >= inner["x"] - 1 and fitted["x"] + fitted["width"] <= inner["x"] + inner["width"] + 1
    page.context.close()


def test_focusing_a_move_button_marks_its_target(browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game("hansa", 3)
    page = _login(browser, live_server, users[game.to_act[0]], 1280)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    target = page.locator("svg [data-move]").first
    move = target.get_attribute("data-move")
    if page.locator("details#board-choices").count():  # the choices the board offers, listed under it
        page.click("details#board-choices summary")
    page.locator(f'button.move[value="{move}"]').focus()
    assert "hl" in target.get_attribute("class").split()
    page.locator("button.move").last.focus()
    assert "hl" not in target.get_attribute("class").split() or page.locator("button.move").last.get_attribute("value") == move
    page.context.close()
