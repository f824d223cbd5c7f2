"""The archive kept whole in the cache (issue 26, ``hanseweb.pagecache``): a repeated view is the
kept page, and every fact the archive shows, changed through the product's own write path, is
seen on the next view (a game ending by its last move or by resignation, a player's name and the
search by it, the viewer's language and time zone, who may see an unlisted game)."""
from datetime import timedelta, timezone

import pytest
from django.core.cache import cache

from games import services
from games.models import Game

from .conftest import committed
from .factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _list_cache(settings):
    settings.HANSEWEB_LIST_CACHE_SECONDS = 300
    assert settings.REDIS_URL  # the page cache works only with a shared cache
    cache.clear()


def _resign_all_but(game, winner_seat: int) -> Game:
    """The game ends by resignations through the write path (``services.resign``), ``winner_seat`` left."""
    with committed():
        for seat in game.seats.exclude(number=winner_seat).filter(resigned=False).order_by("-number"):
            services.resign(game.pk, seat.user)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    return game


def _archive(client, query: str = "") -> str:
    response = client.get("/archive/" + query)
    assert response.status_code == 200
    return response.content.decode()


def _profile(client, user, **changes):
    """The player's own profile form (the write path of a name, a language, a time zone)."""
    user.refresh_from_db()
    data = {"display_name": user.display_name, "notify": user.notify, "language": user.language,
            "time_zone": user.time_zone, **changes}
    with committed():
        assert client.post("/accounts/profile/", data).status_code == 302
    client.get("/accounts/profile/")  # the "Profile saved." message is shown (a page with one is never kept)


def test_a_repeated_view_is_the_kept_page_with_the_session_queries_only(client, started_game,
                                                                        django_assert_num_queries):
    game, users = started_game("zanzibar", 2)
    _resign_all_but(game, 0)
    client.force_login(UserFactory())
    first = _archive(client)
    assert game.title in first
    with django_assert_num_queries(2):  # the session and its user: no archive, seat or count query
        again = _archive(client)
    assert _per_request(again) == _per_request(first)


def _per_request(html: str) -> str:
    """The page without what each request has its own of (the CSRF token, the CSP nonce)."""
    import re

    return re.sub(r'(name="csrfmiddlewaretoken" value|nonce)="[^"]+"', "", html)


def test_a_game_ended_by_its_last_move_shows_at_once(client, started_game):
    import random

    game, users = started_game("zanzibar", 2)
    client.force_login(UserFactory())
    assert game.title not in _archive(client)
    assert game.title not in _archive(client)  # kept
    rng, engine = random.Random(5), game.engine_obj
    with committed():
        for _ in range(5000):  # to its end through the write path: services._store ends it
            game.refresh_from_db()
            if game.status != Game.RUNNING:
                break
            seat = game.to_act[0]
            services.submit_move(game.pk, game.seats.get(number=seat).user,
                                 rng.choice(engine.legal_moves(services.current_state(game), seat)),
                                 expected_seq=game.move_count)
    assert game.status == Game.FINISHED and "resigned" not in game.result
    html = _archive(client)
    assert game.title in html and f"{game.move_count} moves" in html


def test_a_game_ended_by_resignation_shows_with_the_resigned_player(client, started_game):
    game, users = started_game("hansa", 3)
    client.force_login(UserFactory())
    _archive(client)
    with committed():
        services.resign(game.pk, users[2])  # one of three: the game goes on (no row yet)
    assert game.title not in _archive(client)
    game = _resign_all_but(game, 0)
    html = _archive(client)
    row = html[html.index(game.title):]
    row = row[:row.index("</tr>")]
    assert "resigned" in row and users[2].display_name in row


def test_a_players_new_name_is_shown_and_searched(client, started_game):
    game, users = started_game("zanzibar", 2)
    _resign_all_but(game, 0)
    client.force_login(UserFactory())
    assert users[1].display_name in _archive(client)
    assert game.title not in _archive(client, "?player=Kunigunde")
    player = type(client)()
    player.force_login(users[1])
    _profile(player, users[1], display_name="Kunigunde Stoertebeker")
    assert "Kunigunde Stoertebeker" in _archive(client)
    assert game.title in _archive(client, "?player=Kunigunde")


def test_the_viewers_language_and_time_zone_are_their_own(client, started_game):
    game, users = started_game("zanzibar", 2)
    _resign_all_but(game, 0)
    viewer = UserFactory()
    client.force_login(viewer)
    # UTC+14 and UTC-11 are 25 hours apart: the day the game ended differs between them
    _profile(client, viewer, time_zone="Pacific/Kiritimati")
    ended = game.finished_at
    east = (ended + timedelta(hours=14)).astimezone(timezone.utc)
    west = (ended - timedelta(hours=11)).astimezone(timezone.utc)
    assert east.date() != west.date()
    html = _archive(client)
    assert "Finished games" in html and f"{east.day} {east.strftime('%b')} {east.year}" in html
    _profile(client, viewer, time_zone="Pacific/Pago_Pago")
    assert f"{west.day} {west.strftime('%b')} {west.year}" in _archive(client)
    _profile(client, viewer, language="de")
    html = _archive(client)
    assert "Beendete Spiele" in html and _date(ended, "de", "Pacific/Pago_Pago") in html
    _profile(client, viewer, language="nl")
    html = _archive(client)
    assert "Afgelopen spellen" in html and _date(ended, "nl", "Pacific/Pago_Pago") in html


def _date(at, language: str, zone: str) -> str:
    """The day as the date filter writes it in ``language`` and ``zone``."""
    from django.template.defaultfilters import date
    from django.utils import timezone as zones
    from django.utils import translation

    with translation.override(language), zones.override(zone):
        return date(zones.localtime(at), translation.gettext("j M Y"))


def test_an_unlisted_game_shows_to_its_players_and_staff_not_to_a_stranger(client):
    users = UserFactory.create_batch(2)
    with committed():
        game = services.create_game(creator=users[0], engine="zanzibar", title="By invitation", players=2,
                                    listed=False, seat_order=Game.SEAT_ORDER_JOINED)
        services.join_game(game.pk, users[1], invite_code=game.invite_code)
    stranger = UserFactory()
    client.force_login(stranger)
    assert game.title not in _archive(client)  # kept for the stranger
    player = type(client)()
    player.force_login(users[1])
    assert game.title not in _archive(player)  # kept for the player: still running
    _resign_all_but(game, 0)
    assert game.title in _archive(player)
    assert game.title not in _archive(client)
    stranger.is_staff = True
    stranger.save()
    assert game.title in _archive(client)  # staff may see every game


def test_the_games_scope_moves_with_each_write_that_changes_who_sits_where(started_game):
    """Every write of ``games.services`` that adds, removes, starts, ends or hands over a seat or a
    game bumps the scope "games" after its commit (other cached pages may rely on it too)."""
    from hanseweb import pagecache

    pagecache._bump_now(["games"])

    def bumped(call) -> bool:
        before = cache.get("pagegen:games")
        with committed():
            call()
        return cache.get("pagegen:games") != before

    owner, joiner, other, heir = UserFactory.create_batch(4)
    made = {}
    assert bumped(lambda: made.update(game=services.create_game(creator=owner, engine="zanzibar", title="T",
                                                                 players=3, seat_order=Game.SEAT_ORDER_JOINED)))
    game = made["game"]
    assert bumped(lambda: services.join_game(game.pk, joiner))
    assert bumped(lambda: services.leave_game(game.pk, joiner))
    assert bumped(lambda: services.join_game(game.pk, joiner))
    assert bumped(lambda: services.join_game(game.pk, other))  # full: it starts
    game.refresh_from_db()
    assert game.status == Game.RUNNING
    seat = game.to_act[0]
    assert not bumped(lambda: services.submit_move(  # a move alone: pages that show moves version them
        game.pk, game.seats.get(number=seat).user, game.engine_obj.legal_moves(game.state_cache, seat)[0],
        expected_seq=game.move_count))
    game.refresh_from_db()
    assert bumped(lambda: services.take_over_seat(game.pk, other, heir))
    assert bumped(lambda: services.resign(game.pk, heir))
    assert bumped(lambda: services.resign(game.pk, joiner))  # the last but one: it ends
    cancelled = services.create_game(creator=owner, engine="hansa", title="C", players=3)
    assert bumped(lambda: services.cancel_game(cancelled.pk, owner))

