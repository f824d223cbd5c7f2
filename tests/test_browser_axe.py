"""axe-core (WCAG 2.1 A and AA rules) on the pages of a game, in Chromium at 390 px: the game page
of every title as the player to act and as a spectator, the replay page, the open game page, the
lobby and the profile. axe-core comes from node_modules (package.json, installed by scripts/test)."""
import json
import os
from pathlib import Path

import pytest

from games import services

from .factories import PASSWORD
from .test_browser import CHROMIUM, browser  # noqa: F401  (the fixture)
from .test_replay import _play

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm install)"),
]


def _violations(page):
    # evaluated by the browser's devtools, not as a <script> of the page: the page's
    # Content-Security-Policy rightly refuses an injected inline script
    page.evaluate("source => { (0, eval)(source); }", AXE.read_text())
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
    return [{"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"]),
             "first": v["nodes"][0]["target"], "why": v["nodes"][0]["failureSummary"][:200]}
            for v in result["violations"]]


def _login(browser, live_server, user, width=390):  # noqa: F811
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", user.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


@pytest.mark.parametrize("slug", ["hansa", "hansa-teutonica", "die-hanse", "zanzibar"])
def test_axe_finds_no_wcag_21_aa_violation(slug, browser, live_server, transactional_db, started_game):  # noqa: F811
    game, users = started_game(slug, 3)
    game = _play(game, 6)
    seat = game.to_act[0]
    open_game = services.create_game(creator=users[seat], engine=slug, title="open", players=4)
    page = _login(browser, live_server, users[seat])
    found = {}
    for name, url in [("game", f"/games/{game.pk}/"), ("replay", f"/games/{game.pk}/replay/?at=3"),
                      ("log", f"/games/{game.pk}/log/"), ("lobby", "/"), ("profile", "/accounts/profile/"),
                      ("open game", f"/games/{open_game.pk}/")]:
        page.goto(live_server.url + url)
        found[name] = _violations(page)
    page.context.close()
    spectator = browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    spectator.goto(f"{live_server.url}/games/{game.pk}/")
    found["spectator"] = _violations(spectator)
    spectator.context.close()
    found = {k: v for k, v in found.items() if v}
    assert not found, json.dumps(found, indent=1)
