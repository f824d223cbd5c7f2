"""The lobby, the archive and the player pages at any size of the site (issue 26): a fixed number
of queries whether the site holds N or 3N games, no query that counts the whole archive or a
player's moves, keyset pages ("older"/"newer") that visit every finished game exactly once with
every filter kept, and plans that read the lists through their partial indexes."""
import html as htmllib
import re
from datetime import datetime, timedelta, timezone

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, Move, Seat
from hanseweb.players import records

from .conftest import act, committed, user_of
from .factories import UserFactory

ENGINES = ["hansa", "zanzibar", "die-hanse", "hansa-teutonica"]
BASE = datetime(2026, 6, 1, 12, tzinfo=timezone.utc)

SEQ_SCAN = re.compile(r"Seq Scan on games_(game|seat)\b")


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def _build(count, users, *, start=0, status=Game.FINISHED, listed=lambda i: i % 5 != 4, ties=2):
    """``count`` games in bulk (as a site's years of games), three seats each from ``users`` in
    turn; finished ones end ``ties`` to an hour (so the keyset's tie on finished_at is exercised)."""
    games = []
    for i in range(start, start + count):
        at = BASE - timedelta(hours=i // ties)
        games.append(Game(engine=ENGINES[i % 4], title=f"G{i:05d}", players=3, status=status, listed=listed(i),
                          created_by=users[0], started_at=at - timedelta(days=30), move_count=40 + i % 7,
                          finished_at=at if status == Game.FINISHED else None, last_move_at=at,
                          to_act=[] if status == Game.FINISHED else [i % 3],
                          result={"ranking": [1, 2, 3], "scores": [50, 40, 30]} if status == Game.FINISHED else None,
                          state_cache={"big": "x" * 2000}))
    games = Game.objects.bulk_create(games)
    seats = []
    for k, game in enumerate(games):
        for n in range(3):
            seats.append(Seat(game=game, user=users[(start + k + n) % len(users)], number=n,
                              decisions_made=10 + n, timed_out=n))
    Seat.objects.bulk_create(seats)
    return games


def _queries(client, url):
    cache.clear()  # a record cached by the first call would hide its queries
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return [q["sql"] for q in ctx.captured_queries]


def _titles(page_html):
    return re.findall(r">(G\d{5})</a>", page_html)


def _link(page_html, rel):
    found = re.search(rf'<a href="(\?[^"]*)" rel="{rel}">', page_html)
    return htmllib.unescape(found.group(1)) if found else None


@pytest.mark.django_db
def test_each_page_costs_the_same_queries_with_n_and_with_3n_games(client):
    users = UserFactory.create_batch(7)
    hero, viewer = users[0], users[1]
    _build(1, users, start=0, status=Game.RUNNING)
    _build(40, users, start=100)
    client.force_login(hero)
    urls = ["/", "/archive/", "/archive/?game=zanzibar", f"/archive/?player={users[2].display_name}",
            "/archive/?since=2026-01-01&until=2026-12-31", f"/players/{hero.pk}/"]
    first = client.get("/archive/").content.decode()
    urls.append("/archive/" + _link(first, "next"))

    def counts():
        mine = {url: len(_queries(client, url)) for url in urls}
        client.force_login(viewer)
        mine["other's player page"] = len(_queries(client, f"/players/{hero.pk}/"))
        client.force_login(hero)
        return mine

    small = counts()
    _build(2, users, start=1, status=Game.RUNNING)
    _build(80, users, start=1000)
    assert counts() == small
    assert small["/archive/"] <= 8 and small[f"/players/{hero.pk}/"] <= 20, small


@pytest.mark.django_db
def test_no_page_counts_the_archive_reads_past_it_or_counts_moves(client):
    users = UserFactory.create_batch(5)
    _build(60, users)
    client.force_login(users[0])
    first = client.get("/archive/").content.decode()
    for sql in _queries(client, "/archive/") + _queries(client, "/archive/" + _link(first, "next")):
        assert "COUNT(" not in sql.upper() and "OFFSET" not in sql.upper(), sql
    for sql in _queries(client, f"/players/{users[0].pk}/"):
        assert "games_move" not in sql, sql  # the record comes from the seats' counters
    record, seats = records.record_of(users[0]), Seat.objects.filter(user=users[0])
    assert (record.games, record.finished, record.wins) == (seats.count(), seats.count(), seats.filter(number=0).count())
    assert record.decisions == sum(s.decisions_made for s in seats) and record.timed_out == sum(s.timed_out for s in seats)
    assert record.wins > 0
    for sql in _queries(client, "/"):
        assert "state_cache" not in sql, sql  # no list loads a snapshot


@pytest.mark.django_db
@pytest.mark.parametrize("query", [
    {}, {"game": "zanzibar"}, {"player": "Walker"}, {"since": "2026-05-25", "until": "2026-05-30"},
    {"game": "hansa", "player": "Walker", "since": "2026-05-01"},
])
def test_walking_older_visits_every_finished_game_once_in_order_and_newer_walks_back(client, query):
    users = UserFactory.create_batch(6)
    walker = users[3]
    walker.display_name = "Walker"
    walker.save()
    viewer = users[5]
    games = _build(130, users[:5], listed=lambda i: i % 4 != 3)  # a quarter unlisted: not the viewer's
    _build(3, users[:5], start=500, status=Game.RUNNING)
    # unlisted but the viewer sits there: shown to them
    mine = _build(4, [viewer, *users[:2]], start=900, listed=lambda i: False)
    since = datetime(2026, 5, 25, tzinfo=timezone.utc) if "since" in query else None
    since = datetime(2026, 5, 1, tzinfo=timezone.utc) if query.get("since") == "2026-05-01" else since
    until = datetime(2026, 5, 30, 23, 59, 59, tzinfo=timezone.utc) if "until" in query else None
    seated = {s.game_id for s in Seat.objects.filter(user=walker)}
    expected = [g for g in [*games, *mine]
                if (g.listed or g in mine) and (not query.get("game") or g.engine == query["game"])
                and (not query.get("player") or g.pk in seated)
                and (since is None or g.finished_at >= since) and (until is None or g.finished_at <= until)]
    expected = [g.title for g in sorted(expected, key=lambda g: (g.finished_at, g.pk), reverse=True)]
    assert len(expected) > 25 or query  # more than a page without a filter

    client.force_login(viewer)
    seen, pages, url = [], [], "/archive/?" + "&".join(f"{k}={v}" for k, v in query.items())
    while url:
        page = client.get(url).content.decode()
        pages.append(_titles(page))
        seen += pages[-1]
        older = _link(page, "next")
        url = "/archive/" + older if older else None
        if older:
            for name, value in query.items():  # every filter kept in the link
                assert f"{name}={value}" in older
    assert seen == expected
    assert all(len(p) == 25 for p in pages[:-1])
    # and back: "newer" from the last page gives the same pages, in reverse
    back = [pages[-1]]
    newer = _link(page, "prev")
    while newer:
        page = client.get("/archive/" + newer).content.decode()
        back.append(_titles(page))
        newer = _link(page, "prev")
    assert back[::-1] == pages


@pytest.mark.django_db
def test_a_bad_page_key_gives_the_first_page(client):
    users = UserFactory.create_batch(3)
    _build(30, users)
    client.force_login(users[0])
    first = _titles(client.get("/archive/").content.decode())
    for key in ("x", "-1-5", "12-", "99999999999999999999999-1", "1-99999999999999999999999", "\ufffd"):
        response = client.get("/archive/", {"older": key})
        assert response.status_code == 200 and _titles(response.content.decode()) == first


@pytest.mark.django_db
def test_the_lobby_shows_every_running_game_behind_hundreds_finished(client):
    users = UserFactory.create_batch(4)
    hero = users[0]
    old = _build(1, users, start=0, status=Game.RUNNING)[0]
    Game.objects.filter(pk=old.pk).update(last_move_at=BASE - timedelta(days=400))  # quiet for a year
    finished = _build(280, users, start=10, listed=lambda i: True)  # all newer than the running game
    client.force_login(hero)
    page = client.get("/").content.decode()
    assert old.title in page
    hers = set(Seat.objects.filter(user=hero).values_list("game_id", flat=True))
    newest = sorted((g for g in finished if g.pk in hers), key=lambda g: (g.last_move_at, g.created_at), reverse=True)
    assert len(newest) > 200
    shown = set(_titles(page))
    assert {g.title for g in newest[:20]} <= shown and not {g.title for g in newest[20:]} & shown


@pytest.mark.django_db
def test_the_record_counters_follow_the_log_through_moves_timeouts_and_a_takeover(started_game):
    from games import services
    from hanseweb.players.records import record_of

    game, users = started_game("hansa", 3)
    for _ in range(4):
        game.refresh_from_db()
        seat = game.to_act[0]
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(move_deadline_hours=24, deadline_at=BASE - timedelta(days=999))
    with committed():
        assert services.time_out(game.pk) > 0
    game.refresh_from_db()
    leaving = user_of(game, game.to_act[0])
    stand_in = UserFactory()
    with committed():
        services.take_over_seat(game.pk, leaving, stand_in)
    game.refresh_from_db()
    seat = game.to_act[0]
    act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    assert Move.objects.filter(game=game, user=stand_in).count() == 1

    def from_log(user):
        made = Move.objects.filter(game=game, user=user, channel__in=[Move.WEB, Move.EMAIL]).count()
        held = [(s.number, 0) for s in Seat.objects.filter(game=game, user=user)]
        handed = game.takeovers.filter(old_user=user)
        late = 0
        for number, _ in held:
            after = game.takeovers.filter(seat=number).order_by("-after_seq").values_list("after_seq", flat=True).first()
            late += Move.objects.filter(game=game, seat=number, channel=Move.TIMEOUT, seq__gt=after or 0).count()
        for t in handed:
            late += Move.objects.filter(game=game, seat=t.seat, channel=Move.TIMEOUT, seq__lte=t.after_seq).count()
        return made, late

    everyone = [*users, stand_in]
    expected = {u.pk: from_log(u) for u in everyone}
    assert sum(made for made, _ in expected.values()) == 5 and sum(late for _, late in expected.values()) > 0
    for user in everyone:
        cache.clear()
        record = record_of(user)
        assert (record.decisions, record.timed_out) == expected[user.pk], user

    # the migration's count from the log gives the same counters on data made before them
    import importlib

    from django.apps import apps

    fill = importlib.import_module("games.migrations.0018_lists_and_records").fill_records
    Seat.objects.update(decisions_made=0, timed_out=0)
    game.takeovers.update(old_decisions_made=0, old_timed_out=0)
    fill(apps, None)
    for user in everyone:
        cache.clear()
        record = record_of(user)
        assert (record.decisions, record.timed_out) == expected[user.pk], user


@pytest.mark.django_db(transaction=True)
def test_the_plans_read_the_lists_through_their_indexes():
    """On a few thousand games, each archive page (first, deep, by game, by player, for a member
    of the public and for staff) and a player's pages read through an index: no sequential scan
    of the games or seats."""
    if connection.vendor != "postgresql":
        pytest.skip("plans are PostgreSQL's")
    users = UserFactory.create_batch(40)
    viewer, staff = users[0], UserFactory(is_staff=True)
    _build(4000, users, ties=3)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game; ANALYZE games_seat; ANALYZE accounts_user")
    deep = sorted(Game.objects.filter(status=Game.FINISHED).values_list("finished_at", "pk"), reverse=True)[3500]

    def plans(call):
        with CaptureQueriesContext(connection) as ctx:
            call()
        out = []
        with connection.cursor() as cursor:
            for q in ctx.captured_queries:
                if q["sql"].startswith("SELECT"):
                    cursor.execute("EXPLAIN " + q["sql"])
                    out.append("\n".join(r[0] for r in cursor.fetchall()))
        return out

    cases = {
        "first": lambda: records.archive(records.Search(), viewer),
        "deep": lambda: records.archive(records.Search(), viewer, after=deep),
        "newer": lambda: records.archive(records.Search(), viewer, before=deep),
        "engine": lambda: records.archive(records.Search(engine="zanzibar"), viewer, after=deep),
        "staff": lambda: records.archive(records.Search(), staff, after=deep),
        "player": lambda: records.archive(records.Search(player=users[7].display_name), viewer),
        "record": lambda: records.record_of(users[7], viewer),
        "games_of": lambda: records.games_of(users[7], viewer, Game.FINISHED, 50),
    }
    for name, call in cases.items():
        cache.clear()
        found = plans(call)
        assert found, name
        for plan in found:
            # a whole word: the planner may well scan the few rows of games_seattakeover
            assert not SEQ_SCAN.search(plan), f"{name}\n{plan}"
        if name in ("first", "deep", "newer", "staff"):
            assert "game_finished_order" in found[0], f"{name}\n{found[0]}"
        if name == "engine":
            assert "game_finished_engine_order" in found[0], found[0]


@pytest.mark.django_db
def test_the_lobby_counts_who_joined_an_open_game_without_loading_its_seats(client):
    from games import services

    creator, joiner, visitor = UserFactory.create_batch(3)
    with committed():
        game = services.create_game(creator=creator, engine="hansa", title="Open table", players=3, listed=True)
        services.join_game(game.pk, joiner)
    client.force_login(visitor)
    with CaptureQueriesContext(connection) as ctx:
        page = client.get("/").content.decode()
    assert re.search(r">Open table</a>\s*<span class=\"muted\">Hansa · 2/3 joined", page)
    for q in ctx.captured_queries:
        found = re.search(r'FROM "games_seat" WHERE "games_seat"."game_id" IN \(([^)]*)\)', q["sql"])
        assert not found or str(game.pk) not in found.group(1).replace(" ", "").split(","), q["sql"]


@pytest.mark.django_db
def test_the_record_another_player_sees_counts_only_the_games_they_may_see(client):
    users = UserFactory.create_batch(4)
    hero, viewer = users[0], UserFactory()
    _build(24, users, listed=lambda i: i % 3 != 0)  # a third unlisted: the viewer sits in none
    seats = Seat.objects.filter(user=hero)
    shown = seats.filter(game__listed=True)
    assert 0 < shown.count() < seats.count()
    record = records.record_of(hero, viewer)
    assert (record.games, record.finished) == (shown.count(), shown.count())
    assert record.decisions == sum(s.decisions_made for s in shown) and record.timed_out == sum(s.timed_out for s in shown)
    assert record.wins == shown.filter(number=0).count()
    own = records.record_of(hero)
    assert own.games == seats.count() and own.decisions == sum(s.decisions_made for s in seats)
