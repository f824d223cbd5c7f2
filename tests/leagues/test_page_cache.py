"""The club, league and season pages and the league's results feed come whole from the cache on a
repeated view (``hanseweb.pagecache``, issue 26), and never show a fact that is no longer true:
each test views a page (twice: the second view is the cached copy), changes one fact through the
product's own write path (committed, so the writes' bumps run), and sees the page change. The
cached views cost the session's and the user's queries and the one that reads the page's
version with its club, league or season (the feed: the one that checks its address)."""
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.models import Game
from hanseweb.leagues import feeds, ratings, services
from hanseweb.leagues.models import ClubInvite, Entry, Membership, Rating, Table

from ..conftest import committed
from ..factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def list_cache(settings):
    settings.HANSEWEB_LIST_CACHE_SECONDS = 300


def cached(client, url, most=3) -> str:
    """The page at ``url`` viewed twice: the second view comes from the cache (at most ``most``
    queries: the session, the user, the page's version)."""
    first = client.get(url)
    assert first.status_code == 200, (url, first.status_code)
    with CaptureQueriesContext(connection) as ctx:
        second = client.get(url)
    assert second.status_code == 200
    assert len(ctx.captured_queries) <= most, [q["sql"][:120] for q in ctx.captured_queries]
    assert second.content.decode().count("<") == first.content.decode().count("<")
    return second.content.decode()


def after_post(client, url) -> str:
    """The page at ``url`` after a form's post: the first view shows the post's message (and is
    made afresh for it), the second is the one the cache could have answered."""
    client.get(url)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _pages(season):
    club, league = season.league.club, season.league
    return {"club": club.get_absolute_url(), "league": league.get_absolute_url(), "season": season.get_absolute_url()}


def _finish(game):
    """The game ends through the write path: every seat but the first resigns."""
    with committed():
        for seat in sorted(game.seats.all(), key=lambda s: -s.number)[:-1]:
            games.resign(game.pk, seat.user)
    game.refresh_from_db()
    assert game.status == Game.FINISHED


def test_repeated_views_are_served_from_the_cache(client, started):
    season, organiser, members = started
    client.force_login(members[0])
    for name, url in _pages(season).items():
        cached(client, url, most=3)
    client.logout()
    url = feeds.league_results_url(season.league)
    cached(client, url, most=1)  # the address's check only
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    assert len(ctx.captured_queries) == 1


def test_a_game_of_the_season_finishing_shows_on_the_club_and_season_pages_and_in_the_feed(client, started):
    season, organiser, members = started
    table = Table.objects.filter(round__season=season, division__level=1).select_related("game").first()
    game = table.game
    client.force_login(members[0])
    urls = _pages(season)
    feed_url = feeds.league_results_url(season.league)
    before = {name: cached(client, url) for name, url in urls.items() if name != "league"}
    assert f"{game.title}</a>: " in before["club"] and "Results" in before["club"]
    assert f'href="{game.get_absolute_url()}">1.</a>' not in before["season"]  # no place in the standings yet
    client.logout()
    assert game.title not in cached(client, feed_url, most=1)
    _finish(game)
    assert game.title in client.get(feed_url).content.decode()
    client.force_login(members[0])
    season_page = client.get(urls["season"]).content.decode()
    assert f'href="{game.get_absolute_url()}">1.</a>' in season_page  # the winner's place, linked
    club_page = client.get(urls["club"]).content.decode()
    results = club_page.split("<h2>Results</h2>")[1]
    assert game.title in results and "— Finished" in results


def test_a_forfeit_and_a_drop_out_show_on_the_season_page_and_in_the_organiser_log(client, started):
    season, organiser, members = started
    table = Table.objects.filter(round__season=season, division__level=2).select_related("game").first()
    losers = [table.game.seats.get(number=n).user for n in (1, 2)]
    client.force_login(organiser)
    url = season.get_absolute_url()
    assert "(forfeit)" not in cached(client, url)
    assert "award forfeit" not in cached(client, season.league.club.get_absolute_url())
    with committed():
        client.post(reverse("leagues:organise", args=[season.pk, "forfeit"]),
                    {"game": table.game_id, "player": [u.pk for u in losers], "confirm": "yes"})
    page = after_post(client, url)
    assert "(forfeit)" in page and "award forfeit" in page
    assert "award forfeit" in client.get(season.league.club.get_absolute_url()).content.decode()
    quitter = next(e.user for e in Entry.objects.filter(season=season, status=Entry.ACTIVE).select_related("user")
                   if e.user not in losers)
    assert "(dropped out after round" not in cached(client, url)
    with committed():
        client.post(reverse("leagues:organise", args=[season.pk, "dropbot"]), {"player": quitter.pk, "confirm": "yes"})
    page = after_post(client, url)
    assert "(dropped out after round" in page and "(a bot plays their seats)" in page


def test_a_new_round_started_by_the_beat_shows_its_tables(client, started):
    season, organiser, members = started
    client.force_login(members[0])
    url = season.get_absolute_url()
    assert "Round 2</h3>" not in cached(client, url)
    with committed():
        services.start_due_rounds(season.starts_at + timedelta(days=7, seconds=1))
    page = client.get(url).content.decode()
    assert "Round 2</h3>" in page
    for table in Table.objects.filter(round__season=season, round__number=2).select_related("game"):
        assert table.game.get_absolute_url() in page


def test_a_member_joining_and_a_role_change_show_on_the_club_page(client, started):
    season, organiser, members = started
    club = season.league.club
    url = club.get_absolute_url()
    newcomer = UserFactory(display_name="Newcomer Nele")
    invite = services.create_invite(club, organiser)
    client.force_login(members[0])
    page = cached(client, url)
    assert "Newcomer Nele" not in page and "You are member of this club." in page
    assert "New league" not in page
    client.force_login(newcomer)
    with committed():
        client.post(reverse("leagues:join", args=[invite.code]))
    client.force_login(members[0])
    assert "Newcomer Nele" in after_post(client, url)
    # the organiser makes the member an organiser (the set-role form)
    client.force_login(organiser)
    assert f"{members[0].display_name}</a> (organiser)" not in cached(client, url)
    with committed():
        client.post(reverse("leagues:set_role", args=[club.slug]), {"member": members[0].pk, "role": "organiser"})
    assert f"{members[0].display_name}</a> (organiser)" in after_post(client, url)
    client.force_login(members[0])
    page = client.get(url).content.decode()
    assert "You are organiser of this club." in page and "New league" in page
    season_page = client.get(season.get_absolute_url()).content.decode()
    assert "Organiser tools" in season_page


def test_the_role_is_part_of_the_version(client, started):
    """A role changed without the write path's bump (as if its counter were lost) still shows:
    the club, league and season pages read the viewer's role with their version."""
    season, organiser, members = started
    client.force_login(members[0])
    urls = _pages(season)
    for url in urls.values():
        cached(client, url)
    Membership.objects.filter(club=season.league.club, user=members[0]).update(role=Membership.ORGANISER)
    assert "You are organiser of this club." in client.get(urls["club"]).content.decode()
    assert "Organiser tools" in client.get(urls["league"]).content.decode()
    assert "Organiser tools" in client.get(urls["season"]).content.decode()


def test_organiser_member_stranger_and_visitor_each_see_their_own_page(client, started):
    season, organiser, members = started
    urls = _pages(season)
    tools = {"club": "New league", "league": "Organiser tools", "season": "Organiser tools"}
    client.force_login(organiser)
    for name, url in urls.items():
        assert tools[name] in cached(client, url)
    client.force_login(members[0])
    for name, url in urls.items():
        assert tools[name] not in cached(client, url)
    client.force_login(UserFactory(display_name="Stranger"))
    for url in urls.values():
        assert client.get(url).status_code == 403
        assert client.get(url).status_code == 403
    assert client.get(reverse("leagues:club", args=["no-such-club"])).status_code == 404
    client.logout()
    for url in urls.values():
        assert client.get(url).status_code == 302


def test_a_public_league_turned_club_only_is_closed_at_once_to_visitors(client, started):
    season, organiser, members = started
    league = season.league
    client.force_login(organiser)
    with committed():
        client.post(reverse("leagues:league_settings", args=[league.pk]), {"action": "visibility", "public": "yes"})
    client.logout()
    assert "Public league:" in cached(client, league.get_absolute_url(), most=1)
    page = cached(client, season.get_absolute_url(), most=1)
    assert "Division 1" in page and "Organiser log" not in page  # the log is for the members
    client.force_login(organiser)
    with committed():
        client.post(reverse("leagues:league_settings", args=[league.pk]), {"action": "visibility", "public": "no"})
    client.logout()
    for url in (league.get_absolute_url(), season.get_absolute_url()):
        assert client.get(url).status_code == 302


def test_rotated_feed_addresses_stop_at_once(client, started):
    season, organiser, members = started
    league = season.league
    old = feeds.league_results_url(league)
    cached(client, old, most=1)
    with committed():
        services.rotate_feeds(league, organiser)
    league.refresh_from_db()
    assert client.get(old).status_code == 404
    assert client.get(feeds.league_results_url(league)).status_code == 200


def test_an_organiser_action_shows_in_the_logs(client, started):
    season, organiser, members = started
    client.force_login(members[0])
    urls = _pages(season)
    assert "pause season" not in cached(client, urls["club"])
    assert "pause season" not in cached(client, urls["season"])
    assert "Running" in cached(client, urls["league"])
    with committed():
        services.set_paused(season, organiser, True)
    assert "pause season" in client.get(urls["club"]).content.decode()
    assert "pause season" in client.get(urls["season"]).content.decode()
    assert "Paused" in client.get(urls["league"]).content.decode()


def test_a_rating_change_shows_on_the_club_page(client, started):
    season, organiser, members = started
    game = Table.objects.filter(round__season=season).select_related("game").first().game
    client.force_login(members[0])
    url = season.league.club.get_absolute_url()
    _finish(game)
    page = cached(client, url)
    assert "No rated games yet." in page and "Latest rating changes" not in page
    with committed():
        assert ratings.rate_finished_games() == 1
    page = client.get(url).content.decode()
    assert "Latest rating changes" in page and game.title in page.split("Latest rating changes")[1]
    assert Rating.objects.filter(engine="hansa").count() == game.players


def test_a_move_in_a_running_league_game_reorders_the_club_pages_running_games(client, started):
    """The running games are listed by their last move, latest first: the club page's version
    reads the last move of the club's running games, which no write path bumps for."""
    season, organiser, members = started
    client.force_login(members[0])
    url = season.league.club.get_absolute_url()
    first, second = [t.game for t in Table.objects.filter(round__season=season).select_related("game")[:2]]

    def move(game):
        game.refresh_from_db()
        seat = game.to_act[0]
        state = games.current_state(game)
        with committed():
            games.submit_move(game.pk, game.seats.get(number=seat).user, game.engine_obj.legal_moves(state, seat)[0],
                              expected_seq=game.move_count)

    def ahead(page) -> bool:
        """Whether ``first`` is listed before ``second`` among the running games."""
        running = page.split("<h2>Running games</h2>")[1].split("</ul>")[0]
        return running.index(f">{first.title}<") < running.index(f">{second.title}<")

    move(second)
    move(first)
    assert ahead(cached(client, url))
    move(second)
    assert not ahead(client.get(url).content.decode())
    assert not ahead(cached(client, url))
    move(first)
    assert ahead(client.get(url).content.decode())


def test_an_invitation_link_expiring_leaves_the_club_page(client, started):
    """Time passing (no write) ends an invitation link: the club page's version counts the open links."""
    season, organiser, members = started
    club = season.league.club
    invite = services.create_invite(club, organiser)
    client.force_login(organiser)
    url = club.get_absolute_url()
    assert invite.code in cached(client, url)
    ClubInvite.objects.filter(pk=invite.pk).update(expires=timezone.now() - timedelta(seconds=1))  # as time would
    assert invite.code not in client.get(url).content.decode()


def test_a_name_change_shows_on_every_page(client, started):
    season, organiser, members = started
    game = Table.objects.filter(round__season=season).first().game
    renamed = game.seats.get(number=1).user  # seated in round 1 (a member may sit it out)
    client.force_login(members[0])
    urls = _pages(season)
    for name in ("club", "season"):
        assert "Renamed Rieke" not in cached(client, urls[name])
    feed_url = feeds.league_results_url(season.league)
    _finish(game)
    client.logout()
    assert "Renamed Rieke" not in cached(client, feed_url, most=1)
    client.force_login(renamed)
    with committed():
        response = client.post(reverse("profile"), {"display_name": "Renamed Rieke", "language": "en",
                                                    "time_zone": renamed.time_zone or "", "notify": renamed.notify,
                                                    "digest_hour": renamed.digest_hour or 7})
    assert response.status_code in (200, 302)
    renamed.refresh_from_db()
    assert renamed.display_name == "Renamed Rieke"
    client.force_login(members[0])
    for name in ("club", "season"):
        assert "Renamed Rieke" in after_post(client, urls[name])
    client.logout()
    assert "Renamed Rieke" in client.get(feed_url).content.decode()


def test_language_and_time_zone_switches_show(client, started):
    season, organiser, members = started
    viewer = members[0]
    client.force_login(viewer)
    url = season.league.club.get_absolute_url()
    page = cached(client, url)
    assert "Organiser log" in page
    with committed():
        client.post(reverse("profile"), {"display_name": viewer.display_name, "language": "de",
                                         "time_zone": "UTC", "notify": viewer.notify,
                                         "digest_hour": viewer.digest_hour or 7})
    page = after_post(client, url)
    assert "Organiser log" not in page and "Mitglieder" in page
    utc_page = cached(client, url)
    when = timezone.localtime(season.league.club.actions.first().at, timezone.get_fixed_timezone(0))
    assert when.strftime("%Y-%m-%d %H:%M") in utc_page
    with committed():
        client.post(reverse("profile"), {"display_name": viewer.display_name, "language": "de",
                                         "time_zone": "Asia/Kathmandu", "notify": viewer.notify,
                                         "digest_hour": viewer.digest_hour or 7})
    page = after_post(client, url)
    shifted = when + timedelta(hours=5, minutes=45)
    assert shifted.strftime("%Y-%m-%d %H:%M") in page and when.strftime("%Y-%m-%d %H:%M") not in page
