#!/usr/bin/env python3
"""The query plans of the club, league and season pages, the league feeds and the API's games
list on PostgreSQL with a site of a few thousand rows (issue 26): prints, per page, its queries,
their summed execution time and every sequential scan of a table that grows with the site.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<scratch db> REDIS_URL=redis://127.0.0.1:6379/<n> \\
        nice -n 10 .venv/bin/python scripts/explain_league_pages.py --build --games 6000

``--build`` empties the scratch database's tables (migrating it first) and fills them in bulk
(not through the write path: the plans depend on the rows' number and shape, not their history):
users, 40 clubs (the first of 80 members), leagues, seasons with divisions, rounds and tables,
``--games`` games of 3-4 seats each with a state snapshot of realistic size, ratings and rating
changes, organiser-log rows. Without ``--build`` it explains an earlier build. A script that
prints figures, not a test; never point it at a database that holds anything of value.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanseweb.settings")
GROWING = ("games_game", "games_seat", "leagues_table", "leagues_ratingchange", "leagues_rating",
           "leagues_organiseraction", "leagues_entry", "accounts_user", "leagues_round", "leagues_season")
SLOW = 5.0  # ms: --verbose prints the plan of a query slower than this
SMALL = 500  # a scan that returns fewer rows than this reads a small table: the planner's right choice


def build(games: int, seed: int) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games.models import Game, Seat
    from hanseweb.leagues.models import (Club, Division, Entry, League, Membership, OrganiserAction, Rating,
                                         RatingChange, Round, Season, Table)

    rng = random.Random(seed)
    call_command("migrate", verbosity=0)
    with connection.cursor() as cur:
        cur.execute("SET session_replication_role = replica")  # the append-only guards' triggers off
        cur.execute("TRUNCATE accounts_user, games_game, leagues_club RESTART IDENTITY CASCADE")
        cur.execute("SET session_replication_role = DEFAULT")
    User = get_user_model()
    now = timezone.now()
    users = User.objects.bulk_create([
        User(email=f"u{i}@example.org", display_name=f"Player {i:05d}", display_name_key=f"player {i:05d}",
             display_name_shape=f"player{i:05d}", password="!") for i in range(max(200, games // 3))])
    snapshot = {"board": [{"city": f"c{i}", "stalls": [rng.randrange(4) for _ in range(6)]} for i in range(60)]}
    engines = ["hansa", "zanzibar", "die-hanse", "hansa-teutonica"]
    rows = []
    for i in range(games):
        status = rng.choices(["finished", "running", "open"], [70, 27, 3])[0]
        players = rng.choice((3, 4))
        created = now - timedelta(days=rng.uniform(1, 900))
        rows.append(Game(
            engine=rng.choice(engines), title=f"Game {i}", players=players, status=status, created_by=users[0],
            listed=rng.random() < 0.5, created_at=created, started_at=created, move_count=rng.randrange(40, 400),
            last_move_at=None if status == "open" else created + timedelta(days=rng.uniform(0, 30)),
            finished_at=created + timedelta(days=31) if status == "finished" else None,
            deadline_at=now + timedelta(hours=rng.uniform(1, 72)) if status == "running" else None,
            to_act=[rng.randrange(players)] if status == "running" else [],
            result={"ranking": list(range(1, players + 1)), "scores": [rng.randrange(60) for _ in range(players)]}
            if status == "finished" else None,
            state_cache=snapshot if status != "open" else None, undo_state=snapshot if status == "running" else None))
    game_rows = Game.objects.bulk_create(rows, batch_size=1000)
    seats = []
    heavy = users[1]
    for game in game_rows:
        chosen = rng.sample(users[2:], game.players)
        if rng.random() < 0.05:
            chosen[0] = heavy
        for number, user in enumerate(chosen[:game.players if game.status != "open" else 1]):
            seats.append(Seat(game=game, user=user, number=None if game.status == "open" else number,
                              resigned=False, decision_key="d" * 32 if number in game.to_act else ""))
    Seat.objects.bulk_create(seats, batch_size=2000)
    # clubs, leagues, seasons: the league games are a share of the games above
    league_games = [g for g in game_rows if g.status != "open"]
    rng.shuffle(league_games)
    actions = []
    for c in range(40):
        size = 80 if c == 0 else rng.randrange(10, 80)
        members = [heavy] + rng.sample(users[2:], size - 1) if c == 0 else rng.sample(users[2:], size)
        club = Club.objects.create(name=f"Club {c:02d}", slug=f"club-{c:02d}", created_by=members[0])
        Membership.objects.bulk_create([Membership(club=club, user=u, role="organiser" if i == 0 else "member")
                                        for i, u in enumerate(members)])
        for l_ in range(rng.choice((1, 2))):
            league = League.objects.create(club=club, name=f"League {c}-{l_}", engine=rng.choice(engines), table_size=4)
            for number in range(1, rng.randrange(2, 6)):
                season = Season.objects.create(league=league, number=number, status="finished" if number > 1 else "running",
                                               starts_at=now - timedelta(days=100 * number), rounds=4,
                                               deadline_hours=72)
                divisions = [Division.objects.create(season=season, level=d, name=f"Division {d}") for d in (1, 2)]
                entries = []
                for d, division in enumerate(divisions):
                    for user in members[d * 20:(d + 1) * 20]:
                        entries.append(Entry(season=season, division=division, user=user))
                Entry.objects.bulk_create(entries, ignore_conflicts=True)
                for r in range(1, 5):
                    rnd = Round.objects.create(season=season, number=r, starts_at=season.starts_at + timedelta(days=14 * r),
                                               created_at=season.starts_at)
                    tables = []
                    for division in divisions:
                        for index in range(5):
                            if league_games:
                                tables.append(Table(round=rnd, division=division, index=index, game=league_games.pop(),
                                                    seat_order=[]))
                    Table.objects.bulk_create(tables)
                actions += [OrganiserAction(club=club, season=season, actor=members[0], action="start season",
                                            details={"rounds": 4}) for _ in range(20)]
    OrganiserAction.objects.bulk_create(actions, batch_size=2000)
    Game.objects.filter(league_table__isnull=False).update(listed=False)
    ratings = {}
    for user in users:
        for engine in engines:
            ratings[(user.pk, engine)] = Rating(user=user, engine=engine, mu=rng.gauss(25, 3), sigma=rng.uniform(1, 8))
    Rating.objects.bulk_create(ratings.values(), batch_size=2000)
    by_key = {(r.user_id, r.engine): r for r in Rating.objects.all()}
    engine_of = {g.pk: g.engine for g in game_rows}
    changes = [RatingChange(rating=by_key[(s.user_id, engine_of[s.game_id])], game_id=s.game_id, place=1 + (s.number or 0),
                            mu_before=25, sigma_before=8, mu_after=25, sigma_after=7)
               for s in Seat.objects.filter(game__status="finished").only("user_id", "game_id", "number")]
    RatingChange.objects.bulk_create(changes, batch_size=5000, ignore_conflicts=True)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")


def explain(verbose: bool = False) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games.models import Game
    from hanseweb.api.models import ApiToken
    from hanseweb.leagues import feeds
    from hanseweb.leagues.models import Club, Membership, Season

    club = Club.objects.get(slug="club-00")
    organiser = Membership.objects.get(club=club, role="organiser").user
    season = Season.objects.filter(league__club=club, status="running").first()
    league = season.league
    heavy = Game.objects.filter(seats__user__email="u1@example.org").first().seats.get(user__email="u1@example.org").user
    token = ApiToken.issue(heavy, "explain")[1]
    client = Client()
    client.force_login(organiser)
    counts = {"games": Game.objects.count(), "seats": heavy.seats.model.objects.count(),
              "heavy player's games": heavy.seats.count(), "club members": club.memberships.count()}
    print("site:", ", ".join(f"{k} {v}" for k, v in counts.items()))
    pages = [("club page", club.get_absolute_url(), {}),
             ("league page", league.get_absolute_url(), {}),
             ("season page", season.get_absolute_url(), {}),
             ("standings CSV", reverse("leagues:standings_csv", args=[season.pk]), {}),
             ("results feed", feeds.league_results_url(league), {}),
             ("league calendar", feeds.league_calendar_url(league), {}),
             ("player calendar", feeds.player_calendar_url(heavy), {}),
             ("API games", "/api/v1/games", {"HTTP_AUTHORIZATION": f"Bearer {token}"}),
             ("API games finished", "/api/v1/games?status=finished", {"HTTP_AUTHORIZATION": f"Bearer {token}"})]
    for name, url, headers in pages:
        client.get(url, **headers)
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url, **headers)
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, (name, response.status_code)
        total, scans = 0.0, []
        with connection.cursor() as cur:
            for query in ctx.captured_queries:
                sql = query["sql"]
                if not sql.lstrip().upper().startswith("SELECT"):
                    continue
                cur.execute("EXPLAIN (ANALYZE, FORMAT TEXT) " + sql)
                plan = [row[0] for row in cur.fetchall()]
                spent = float(re.search(r"Execution Time: ([\d.]+)", plan[-1]).group(1))
                total += spent
                if verbose and spent > SLOW:
                    print(f"-- {name}: {spent} ms", sql[:600], *plan, sep="\n")
                for line in plan:
                    hit = re.search(r"Seq Scan on (\w+).*actual time=[\d.]+\.\.([\d.]+) rows=(\d+)", line)
                    if hit and hit.group(1) in GROWING and int(hit.group(3)) >= SMALL:
                        scans.append(f"{hit.group(1)} ({hit.group(3)} rows, {hit.group(2)} ms)")
                        if verbose:
                            print(sql[:600], *plan, sep="\n")
        print(f"{name:20s} {len(ctx.captured_queries):3d} queries, {total:7.2f} ms in the database, "
              f"{elapsed:7.1f} ms the request; seq scans of growing tables: {', '.join(scans) or 'none'}")
    ApiToken.objects.filter(user=heavy, name="explain").delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="store_true", help="empty the database and build the site first")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--verbose", action="store_true", help="print the plans with a sequential scan")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("DATABASE_URL must name a scratch PostgreSQL database")
    import django

    django.setup()
    if args.build:
        started = time.perf_counter()
        build(args.games, args.seed)
        print(f"built in {time.perf_counter() - started:.1f} s")
    explain(args.verbose)


if __name__ == "__main__":
    main()
