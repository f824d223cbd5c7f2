"""The profile page's API token section and the token page, in Chromium: made and revoked by
clicking, and axe-core (WCAG 2.1 A and AA) finds nothing on either page."""
import json
import os

import pytest

from hanseweb.api.models import ApiToken, digest

from ..test_browser import CHROMIUM, browser  # noqa: F401  (the fixture)
from ..test_browser_axe import AXE, _login, _violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm install)"),
]


def test_make_and_revoke_a_token_in_the_browser(browser, live_server, transactional_db, make_user):  # noqa: F811
    user = make_user()
    page = _login(browser, live_server, user)
    page.goto(f"{live_server.url}/accounts/profile/")
    page.fill("#api-tokens input[name=name]", "Browser bot")
    page.click("#api-tokens form.stack button[type=submit]")
    token = page.input_value("#new-token")
    row = ApiToken.objects.get(user=user)
    assert row.digest == digest(token) and row.name == "Browser bot"
    found = {"token page": _violations(page)}
    page.goto(f"{live_server.url}/accounts/profile/")
    assert token not in page.content() and token[:8] in page.content()
    found["profile with a token"] = _violations(page)
    page.click("#api-tokens table button[type=submit]")
    page.wait_for_url(f"{live_server.url}/accounts/profile/")
    row.refresh_from_db()
    assert row.revoked_at is not None
    found["profile with a revoked token"] = _violations(page)
    page.context.close()
    found = {k: v for k, v in found.items() if v}
    assert not found, json.dumps(found, indent=1)
