"""Issue 24 item 1: a refused move is seen. One game open in two tabs of one player: a move made in
the first makes a move sent from the second stale; a typo is refused by the engine. Either way the
reloaded page shows the refusal inside "Your move", in the viewport, focused (role=alert), in the
page's language, and what was typed is back in the field."""
import os

import pytest

from games.engines import get_engine

from .conftest import act
from .test_browser import CHROMIUM, browser  # noqa: F401  (the fixture)
from .test_browser_replay import _login

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]


def _to_multi_step(game):
    """Play default moves until the seat to act has a move after which it is still to act (a
    turn of several steps): returns that seat and move."""
    engine = get_engine(game.engine)
    for _ in range(200):
        game.refresh_from_db()
        state = game.state_cache
        seat = game.to_act[0]
        for move in engine.legal_moves(state, seat):
            if seat in engine.to_act(engine.apply(state, seat, move)):
                return seat, move
        act(game, seat, engine.default_move(state, seat))
    raise AssertionError("no turn of several steps found")


def _in_viewport(page, selector):
    return page.evaluate(f"""(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }})()""")


@pytest.mark.parametrize("width", [390, 1280])
def test_stale_move_from_a_second_tab_is_seen_in_german(width, browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game("hansa", 3)
    seat, made = _to_multi_step(game)
    game.refresh_from_db()
    # a different move from the same old position: a re-post of exactly the move just made is
    # answered "already made" (it stands), not refused as stale
    move = next(m for m in get_engine(game.engine).legal_moves(game.state_cache, seat) if m != made)
    user = users[seat]
    user.language = "de"
    user.save(update_fields=["language"])
    first = _login(browser, live_server, user, width)
    url = f"{live_server.url}/games/{game.pk}/"
    first.goto(url)
    second = first.context.new_page()
    second.goto(url)
    # the first tab moves
    first.click(f'#move-form button[value="{made}"]')
    first.wait_for_load_state()
    # the second tab, still at the old position, sends a typed move
    second.click("details.type-move summary")
    second.fill("details.type-move input[name=move]", move)
    second.press("details.type-move input[name=move]", "Enter")
    second.wait_for_selector("#refused")
    alert = second.locator("#refused")
    assert alert.get_attribute("role") == "alert"
    text = alert.inner_text()
    assert "Die Partie ist weitergegangen" in text, text
    assert "moved on" not in text
    assert _in_viewport(second, "#refused")
    assert second.evaluate("document.activeElement.id") == "refused"
    assert second.locator("details.type-move input[name=move]").input_value() == move
    assert second.evaluate("document.querySelector('details.type-move').open") is True
    first.context.close()


@pytest.mark.parametrize("language, word", [("de", "Unbekannter Zug"), ("nl", "Onbekende zet")])
def test_typo_is_refused_in_the_readers_language(language, word, browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    user = users[seat]
    user.language = language
    user.save(update_fields=["language"])
    page = _login(browser, live_server, user, 390)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("details.type-move summary")
    page.fill("details.type-move input[name=move]", "verzonden")
    page.press("details.type-move input[name=move]", "Enter")
    page.wait_for_selector("#refused")
    text = page.locator("#refused").inner_text()
    assert word.lower() in text.lower(), text
    assert "unknown move" not in text
    assert _in_viewport(page, "#refused")
    assert page.evaluate("document.activeElement.id") == "refused"
    assert page.locator("details.type-move input[name=move]").input_value() == "verzonden"
    page.context.close()
