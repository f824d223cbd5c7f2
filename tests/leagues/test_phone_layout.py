"""Issue 25 item 5: league pages at 390 px make no sideways page scroll (tables scroll inside
their box, long URLs sit in a field to copy). Headless Chromium (Playwright), as the browser tests."""
import os
from datetime import timedelta

import pytest

from hanseweb.leagues import services

from ..factories import PASSWORD, UserFactory
from ..test_browser import ARGS, CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]


def test_league_pages_do_not_scroll_sideways_at_390(live_server, transactional_db):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    organiser = UserFactory(display_name="Olga Organiser")
    club = services.create_club(organiser, "Lübeck and Hamburg Hanseatic Trading Society")
    invite = services.create_invite(club, organiser)
    members = [UserFactory(display_name=f"Bartholomäus-Friedrich {chr(65 + i)}") for i in range(6)]
    for member in members:
        services.join_club(invite.code, member)
    league = services.create_league(club, organiser, name="The Long Winter Hansa Teutonica League",
                                    engine="hansa-teutonica", table_size=3)
    from django.utils import timezone

    season = services.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1), rounds=4,
                                    round_days=7, name="Winter 2026")
    for member in members:
        services.sign_up(season, member)
    services.seed_divisions(season, organiser, 1)
    services.start_season(season, organiser)
    services.start_due_rounds()
    services.create_invite(club, organiser)
    services.invite_by_mail(club, organiser, "a.very.long.address.for.a.friend@example.com")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("input[name=username]", organiser.email)
            page.fill("input[name=password]", PASSWORD)
            page.click("#login-form button[type=submit]")
            page.wait_for_url(f"{live_server.url}/")
            for url in (club.get_absolute_url(), league.get_absolute_url(), season.get_absolute_url()):
                page.goto(live_server.url + url)
                for details in page.query_selector_all("details"):
                    details.evaluate("d => d.open = true")
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, (url, width)
        finally:
            browser.close()
