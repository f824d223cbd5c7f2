"""A player's page kept whole per version and viewer (hanseweb/pagecache.py, issue 26): a repeated
view is the kept page, and every fact the page shows changes it once changed through the
product's own write path (hanseweb.players.views._player_version, the scope "names")."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from hanseweb.leagues import ratings
from hanseweb.leagues import services as leagues

from .conftest import act, committed, count_calls, rename_on_profile, user_of
from .factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("list_cache")]


@pytest.fixture
def made(monkeypatch):
    """How many times a player's page was really made (not taken from the cache)."""
    from hanseweb.players import records

    return count_calls(monkeypatch, records, "record_of")


def _page(client, person) -> str:
    page = client.get(f"/players/{person.pk}/")
    assert page.status_code == 200
    return page.content.decode()


def _seen_twice(client, person, made) -> str:
    """The page, viewed twice: the second view is the kept page (not made again)."""
    first = _page(client, person)
    before = made["n"]
    _page(client, person)
    assert made["n"] == before
    return first


def _section(html: str, heading_id: str) -> str:
    return html.split(f'id="{heading_id}"')[1].split("</section>")[0]


def _finish(game, winner_seat=0):
    with committed():
        for seat in sorted(game.seats.all(), key=lambda s: -s.number):
            if seat.number != winner_seat:
                services.resign(game.pk, seat.user)


def test_a_repeated_view_is_the_kept_page_read_with_the_version_query(client, started_game, made):
    # (the page's version: the player's seats; the scopes "games", "leagues" and "names" come with
    # the page in one cache round trip)
    game, users = started_game("hansa", 3)
    for viewer in (users[0], users[1]):  # the player's own page, and another player's view of it
        client.force_login(viewer)
        _page(client, users[0])
        with CaptureQueriesContext(connection) as ctx:
            html = _page(client, users[0])
        # the session, the viewer, the page's version (with the player): nothing else
        assert len(ctx.captured_queries) <= 3, [q["sql"][:120] for q in ctx.captured_queries]
        assert game.title in html
    assert made["n"] == 2


def test_a_move_changes_the_move_count_the_turn_and_the_record(client, started_game, made):
    game, users = started_game("hansa", 3)
    number = game.to_act[0]
    player = user_of(game, number)
    client.force_login(UserFactory())
    html = _seen_twice(client, player, made)
    assert "move 0" in _section(html, "running-h") and "to move" in _section(html, "running-h")
    assert "no decisions yet" in _section(html, "record-h")
    while number in game.to_act:  # the player's whole turn
        act(game, number, game.engine_obj.legal_moves(game.state_cache, number)[0])
        game.refresh_from_db()
    html = _page(client, player)
    assert f"move {game.move_count}" in _section(html, "running-h") and "to move" not in _section(html, "running-h")
    assert "no decisions yet" not in _section(html, "record-h") and "100 %" in _section(html, "record-h")


def test_a_game_finishing_moves_it_to_the_finished_games_with_its_place(client, started_game, made):
    game, users = started_game("hansa", 2)
    client.force_login(users[1])
    html = _seen_twice(client, users[0], made)
    assert game.title in _section(html, "running-h") and "No finished games yet." in html
    _finish(game, winner_seat=0)
    html = _page(client, users[0])
    assert game.title in _section(html, "finished-h") and "place 1" in _section(html, "finished-h")
    assert "No running games." in html


def test_a_name_change_and_a_takeover_change_the_names(client, started_game, made):
    game, users = started_game("hansa", 3)
    newcomer = UserFactory(display_name="Nora Newcomer")
    client.force_login(users[0])
    assert users[1].display_name in _seen_twice(client, users[0], made)
    rename_on_profile(client.__class__, users[1], "Renamed Rieke")
    assert "Renamed Rieke" in _seen_twice(client, users[0], made)
    with committed():
        services.take_over_seat(game.pk, users[2], newcomer)
    assert "Nora Newcomer" in _page(client, users[0])


def test_a_rating_a_membership_and_a_season_change_the_page(client, started_game, made):
    game, users = started_game("hansa", 3)
    person, viewer = users[1], UserFactory()
    _finish(game, winner_seat=1)
    client.force_login(person)
    assert "No rated games yet" in _seen_twice(client, person, made)
    with committed():
        ratings.rate_finished_games()  # the beat's task
    html = _seen_twice(client, person, made)
    assert "Hansa:" in html and "place 1" in html
    # another viewer sees no ratings and no clubs until they share a club with the player
    client.force_login(viewer)
    html = _seen_twice(client, person, made)
    assert "Hansa:" not in html and "Clubs and league seasons" not in html
    club = leagues.create_club(person, "Stralsund Club")
    with committed():
        leagues.join_club(leagues.create_invite(club, person).code, viewer)
    html = _seen_twice(client, person, made)
    assert "Hansa:" in html and "Stralsund Club" in html
    # an organiser's action: a season the player signs up for is listed
    from datetime import timedelta

    from django.utils import timezone

    league = leagues.create_league(club, person, name="Autumn League", engine="hansa", table_size=3)
    season = leagues.create_season(league, person, starts_at=timezone.now() + timedelta(days=3), rounds=2,
                                   round_days=7)
    assert "Autumn League" not in _seen_twice(client, person, made)
    with committed():
        leagues.sign_up(season, person)
    assert "Autumn League" in _page(client, person)


def test_language_switch_and_logging_out(client, started_game, made):
    game, users = started_game("hansa", 3)
    client.force_login(users[0])
    assert "Running games" in _seen_twice(client, users[0], made)
    client.post("/accounts/profile/", {"display_name": users[0].display_name, "language": "nl", "time_zone": "",
                                       "notify": users[0].notify, "digest_hour": users[0].digest_hour or 8})
    html = _page(client, users[0])
    assert "Running games" not in html and "Lopende spellen" in html
    client.post("/accounts/logout/")
    assert client.get(f"/players/{users[0].pk}/").status_code == 302


def test_a_player_who_left_is_no_page_any_more(client, started_game, made):
    game, users = started_game("hansa", 3)
    client.force_login(users[1])
    _seen_twice(client, users[0], made)
    users[0].is_active = False
    users[0].save(update_fields=["is_active"])  # not a name change: no scope is bumped
    assert client.get(f"/players/{users[0].pk}/").status_code == 404
    assert client.get("/players/987654/").status_code == 404
