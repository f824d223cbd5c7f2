"""A player's page (games, results, ratings, record of decisions in time) and the archive of
finished games (search by game, player and date), with the visibility of unlisted games."""
from datetime import datetime, timezone

import pytest
from django.core.cache import cache
from django.utils.html import escape

from games.models import Game, Move

from .conftest import act, user_of
from .factories import UserFactory


def _finish(game, ranking, scores, when):
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, result={"ranking": ranking, "scores": scores},
                                           finished_at=when, to_act=[])
    game.refresh_from_db()
    return game


def _timeout(game):
    """The deadline plays the turn of whoever is to act (through the write path, as the beat does);
    returns the seats it played for."""
    from games import services

    game.refresh_from_db()
    seats = list(game.to_act)
    Game.objects.filter(pk=game.pk).update(move_deadline_hours=24, deadline_at=datetime(2000, 1, 1, tzinfo=timezone.utc))
    assert services.time_out(game.pk) > 0
    game.refresh_from_db()
    return seats


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


@pytest.mark.django_db
def test_a_players_page_shows_games_places_record_and_no_email(client, started_game):
    game, users = started_game("hansa", 3)
    first = game.to_act[0]  # the starting player comes from the seed
    hero = user_of(game, first)
    act(game, first, game.engine_obj.legal_moves(game.state_cache, first)[0])  # one decision made
    game.refresh_from_db()
    while first not in game.to_act:  # the others' turns, left to the deadline: not the hero's
        _timeout(game)
    assert _timeout(game) == [first]  # the hero's turn, left to the deadline
    assert first not in _timeout(game)  # the next player's turn: not counted for the hero
    others = Move.objects.filter(game=game, channel=Move.TIMEOUT).exclude(seat=first).count()
    late = Move.objects.filter(game=game, channel=Move.TIMEOUT, seat=first).count()
    assert late >= 1 and others >= 1 and Move.objects.filter(game=game, user=hero).count() == 1
    ranking, scores = [3, 3, 3], [12, 12, 12]
    ranking[first], scores[first] = 1, 40
    _finish(game, ranking, scores, datetime(2026, 5, 1, 12, tzinfo=timezone.utc))
    running, _ = started_game("zanzibar", 2)
    client.force_login(users[2])
    page = client.get(f"/players/{hero.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert hero.display_name in html and hero.email not in html
    assert game.title in html and "place 1" in html and "40 points" in html
    assert f"{round(100 / (1 + late))} % — 1 made, {late} left to the deadline" in html, others
    assert running.title not in html  # the hero does not sit there
    own = client.get(f"/players/{user_of(running, 0).pk}/").content.decode()
    assert running.title in own and "Running games" in own


@pytest.mark.django_db
def test_unlisted_games_show_only_to_the_people_at_the_table(client, started_game):
    game, users = started_game("hansa", 2)
    Game.objects.filter(pk=game.pk).update(listed=False)
    _finish(game, [1, 2], [30, 20], datetime(2026, 6, 1, tzinfo=timezone.utc))
    stranger = UserFactory()
    client.force_login(stranger)
    assert game.title not in client.get(f"/players/{users[0].pk}/").content.decode()
    assert game.title not in client.get("/archive/").content.decode()
    client.force_login(users[1])
    assert game.title in client.get(f"/players/{users[0].pk}/").content.decode()
    assert game.title in client.get("/archive/").content.decode()


@pytest.mark.django_db
def test_the_archive_searches_by_game_player_and_date(client, started_game):
    a, users_a = started_game("hansa", 2)
    b, users_b = started_game("zanzibar", 2)
    _finish(a, [1, 2], [30, 20], datetime(2026, 3, 10, tzinfo=timezone.utc))
    _finish(b, [2, 1], [10, 50], datetime(2026, 9, 10, tzinfo=timezone.utc))
    client.force_login(UserFactory())

    def found(**query):
        html = client.get("/archive/", query).content.decode()
        return {g.title for g in (a, b) if f">{g.title}<" in html}

    assert found() == {a.title, b.title}
    assert found(game="zanzibar") == {b.title}
    assert found(player=users_a[1].display_name) == {a.title}
    assert found(since="2026-06-01") == {b.title}
    assert found(until="2026-06-01") == {a.title}
    assert found(since="2026-01-01", until="2026-12-31", game="hansa") == {a.title}
    # each game's players in finishing order, each with a link to their page and their score
    html = client.get("/archive/", {"game": "zanzibar"}).content.decode()
    second, first = (f'<a href="/players/{u.pk}/">{escape(u.display_name)}</a>' for u in users_b)
    assert f"1. {first} (50), 2. {second} (10)" in html


@pytest.mark.django_db
@pytest.mark.parametrize("query", [
    {"since": "yesterday"}, {"since": "2026-13-45"}, {"until": "99999-01-01"}, {"game": "chess"},
    {"player": "a\x00b"}, {"player": "x" * 500}, {"page": "9999"}, {"page": "-1"}, {"page": "\ufffd"},
    {"since": "2026-09-01", "until": "2026-01-01"},
])
def test_bad_searches_get_an_answer_not_an_error(client, started_game, query):
    game, _ = started_game("hansa", 2)
    _finish(game, [1, 2], [1, 0], datetime(2026, 3, 10, tzinfo=timezone.utc))
    client.force_login(UserFactory())
    response = client.get("/archive/", query)
    assert response.status_code == 200


@pytest.mark.django_db
def test_pages_need_an_account_and_an_existing_player(client):
    assert client.get("/archive/").status_code == 302
    assert client.get("/players/1/").status_code == 302
    client.force_login(UserFactory())
    assert client.get("/players/987654/").status_code == 404


@pytest.mark.django_db
def test_ratings_with_their_recent_results(client, started_game):
    from hanseweb.leagues.models import Rating, RatingChange

    game, users = started_game("hansa", 2)
    _finish(game, [1, 2], [30, 20], datetime(2026, 3, 10, tzinfo=timezone.utc))
    rating = Rating.objects.create(user=users[0], engine="hansa", mu=29.0, sigma=6.0, games=1)
    RatingChange.objects.create(rating=rating, game=game, place=1, mu_before=25.0, sigma_before=8.3,
                                mu_after=29.0, sigma_after=6.0)
    # ratings are shown to the player and to members of a club they are in (docs/visibility.md)
    from hanseweb.leagues import services as leagues

    client.force_login(UserFactory())
    assert "Ratings" not in client.get(f"/players/{users[0].pk}/").content.decode()
    club = leagues.create_club(users[0], "Rated club")
    leagues.join_club(leagues.create_invite(club, users[0]).code, users[1])
    client.force_login(users[1])
    html = client.get(f"/players/{users[0].pk}/").content.decode()
    assert "Hansa" in html and f"{rating.ordinal:.1f}" in html and "place 1" in html
    assert ("provisional" in html) == rating.provisional


@pytest.mark.django_db
def test_a_rating_change_names_its_game_only_to_who_may_see_it_and_loads_no_snapshot(client, started_game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from hanseweb.leagues import services as leagues
    from hanseweb.leagues.models import Rating, RatingChange

    game, users = started_game("hansa", 2)
    Game.objects.filter(pk=game.pk).update(listed=False, title="Table behind the door")
    _finish(game, [1, 2], [30, 20], datetime(2026, 3, 10, tzinfo=timezone.utc))
    rating = Rating.objects.create(user=users[0], engine="hansa", mu=29.0, sigma=6.0, games=1)
    RatingChange.objects.create(rating=rating, game=game, place=1, mu_before=25.0, sigma_before=8.3,
                                mu_after=29.0, sigma_after=6.0)
    club = leagues.create_club(users[0], "Rated club")
    member = UserFactory()
    for who in (users[1], member):
        leagues.join_club(leagues.create_invite(club, users[0]).code, who)
    # two viewers who both see the ratings: the one who sat at the unlisted table sees its title
    # and link, the club member who did not sees the place only
    client.force_login(users[1])
    with CaptureQueriesContext(connection) as ctx:
        seated = client.get(f"/players/{users[0].pk}/").content.decode()
    assert "Table behind the door" in seated and game.get_absolute_url() in seated
    for query in ctx.captured_queries:
        assert "state_cache" not in query["sql"], query["sql"]  # a change shows no snapshot
    client.force_login(member)
    other = client.get(f"/players/{users[0].pk}/").content.decode()
    assert "place 1" in other and f"{rating.ordinal:.1f}" in other
    assert "Table behind the door" not in other and game.get_absolute_url() not in other


@pytest.mark.django_db
def test_ratings_show_each_titles_latest_changes_in_one_query_whatever_the_number_of_titles():
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from hanseweb.leagues.models import Rating, RatingChange
    from hanseweb.leagues.templatetags.leagues_tags import ratings_of

    from .test_lists_at_scale import _build

    users = UserFactory.create_batch(3)
    games = _build(12, users)
    at = datetime(2026, 5, 1, tzinfo=timezone.utc)

    def rate(engine, some):
        rating = Rating.objects.create(user=users[0], engine=engine, mu=27.0, sigma=7.0, games=len(some))
        for k, game in enumerate(some):  # the k-th game a day later than the one before
            change = RatingChange.objects.create(rating=rating, game=game, place=1 + k % 3, mu_before=25.0 + k,
                                                 sigma_before=8.0, mu_after=26.0 + k, sigma_after=7.5)
            RatingChange.objects.filter(pk=change.pk).update(at=at + timedelta(days=k))
        return rating

    def queries():
        with CaptureQueriesContext(connection) as ctx:
            shown = ratings_of(users[0], 2)
        return len(ctx.captured_queries), shown

    hansa = rate("hansa", games[0:3])
    one, shown = queries()
    assert [[c.game_id for c in row["changes"]] for row in shown["rows"]] == [[games[2].pk, games[1].pk]]
    zanzibar = rate("zanzibar", games[3:7])
    rate("die-hanse", games[7:8])
    rate("hansa-teutonica", [])
    four, shown = queries()
    assert four == one
    by_engine = {row["rating"].engine: [c.game_id for c in row["changes"]] for row in shown["rows"]}
    assert by_engine == {"die-hanse": [games[7].pk], "hansa": [games[2].pk, games[1].pk],
                         "hansa-teutonica": [], "zanzibar": [games[6].pk, games[5].pk]}
    assert {row["rating"].pk for row in shown["rows"]} >= {hansa.pk, zanzibar.pk}
