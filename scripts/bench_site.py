#!/usr/bin/env python3
"""What every page and every periodic task costs as a site grows (issue 26): a benchmark script
that builds a realistic site in its own PostgreSQL database and prints figures, not a test.

    nice -n 10 .venv/bin/python scripts/bench_site.py                          # a quick try (600 games)
    nice -n 10 .venv/bin/python scripts/bench_site.py --games 2500,10000       # the issue's two sizes

For each size (one database per size, ``<--db>_<games>``, built anew unless ``--reuse``; a child
process per size, so that each runs Django on its own database):

Build (not timed as part of the figures; its own time is printed):
- a few dozen games of each title (``--templates`` per title) made through the write path
  (``games.services.create_game``/``join_game``, which seat and start them) and played with random
  legal moves through the engine: every move's row holds what ``engine.events`` gave for its step,
  and the game row its snapshot, result, undo step and the seats' decision keys as the write path
  stores them. About a third are stopped part-way and stay running; a few stay open;
- users (``games / 5``), clubs of 10–80 members (``games / 250``; the first has 80), about 1.5
  leagues per club, 1–4 seasons per league (the last running, the others finished) with one or
  two divisions of up to 20 entries, four rounds per season of tables of the league's size;
- the site's games: every league table's game and casual games among random users, each a copy
  of a template of its title and player count with a new id, new players, new dates (its moves
  spread over its duration) and the template's seed, so replaying its log gives its snapshot.
  Copied in bulk, in the database (``INSERT … SELECT`` joined to a plan of new ids and players);
  one heavy player (user 1, an organiser of the biggest club) sits in about 3% of all games;
- chat lines (about 4 per game), ratings (OpenSkill-shaped numbers, not computed: one change per
  seat of every rated finished game, all but the newest ten marked rated), outbox rows (20 per
  game, sent), inbound mail rows (1 per game, processed), organiser-log rows per season.

Measure, on gunicorn (sync workers, DEBUG off) with one client, in rounds that also time the
floor (``GET /healthz`` logged in) as ``scripts/bench_web.py`` does: each page's p50/p95 and its
p95 over the floor's p95 of the same rounds, and its queries counted in-process (Django's test
client on the same database, after one warm-up request, under ``CaptureQueriesContext``). Then
each periodic task of the beat schedule (IMAP polling aside; a retention task too once the schedule
has one) run in-process twice: first what the built site has due (overdue decisions, reminders,
digests, chat news, unrated games), then again right after, with (almost) nothing left to do: what it
costs for what the site holds. Its time, query count and return value each time. The tasks change
the site (timeouts, mails): ``--reuse`` measures a site they have already run on.
"""
from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit  # noqa: E402

TITLES = ["hansa", "hansa-teutonica", "die-hanse", "zanzibar"]
# Share of the site's casual games per title (league engines are drawn with the same weights).
# Hansa Teutonica's random games run to 3,000+ moves, so fewer of them keep the build quick.
WEIGHTS = {"hansa": 0.3, "zanzibar": 0.3, "die-hanse": 0.34, "hansa-teutonica": 0.06}
PLAYERS = (3, 4)
PASSWORD = "bench-site-password-5127"
TEMPLATE_TITLE = "bench-site template"
FIRST = ["Anna", "Bernd", "Clara", "Dirk", "Eva", "Frank", "Greta", "Hanno", "Ilse", "Jan", "Katrin", "Lars",
         "Marie", "Nils", "Olga", "Piet", "Rieke", "Sven", "Tessa", "Uwe", "Vera", "Wim", "Yara", "Ziggy"]
LAST = ["Albers", "Brandt", "Claassen", "Dekker", "Eggers", "Fock", "Gerdes", "Hinrichs", "Jansen", "Kruse",
        "Lüders", "Meyer", "Nissen", "Ohlsen", "Petersen", "Quast", "Rathjen", "Schütt", "Thiessen", "Voss"]
TASKS = [
    ("sweep_deadlines", "games.tasks", "sweep_deadlines"),
    ("sweep_bots", "games.tasks", "sweep_bots"),
    ("send_reminders", "games.tasks", "send_reminders"),
    ("send_digests", "games.tasks", "send_digests"),
    ("send_chat_news", "games.tasks", "send_chat_news"),
    ("start_due_rounds", "hanseweb.leagues.tasks", "start_due_rounds"),
    ("rate_finished_games", "hanseweb.leagues.tasks", "rate_finished_games"),
    ("sweep_outbox", "hanseweb.mail.tasks", "sweep_outbox"),
    ("sweep_inbound", "hanseweb.mail.tasks", "sweep_inbound"),
]
# The retention task of issue 26, whichever name it has once it exists (looked up in the beat
# schedule by these words; measured when found).
RETENTION_WORDS = ("retention", "purge", "prune", "delete_old", "expire")
RATES = {"HANSEWEB_RATE_SEARCH_PAGES_PER_USER": "1000000/h", "HANSEWEB_RATE_API_PER_USER": "1000000/m",
         "HANSEWEB_RATE_API_PER_IP": "1000000/m", "HANSEWEB_RATE_GAME_EXPORT_PER_IP": "1000000/h"}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- templates: games played through the write path and the engine ---------------------------

def play_template(engine_slug: str, players: int, users: list, rng: random.Random, stop_at: int | None,
                  deadline_hours: int | None = None):
    """A game made through the write path (created, joined, started), then played with random legal
    moves through the engine; its moves and what derives from them are stored as the write path
    stores them. ``stop_at``: leave it running after that many moves (None: play to the end)."""
    from django.db import transaction

    from games import services
    from games.models import Game, Move, Seat

    game = services.create_game(creator=users[0], engine=engine_slug, title=TEMPLATE_TITLE, players=players,
                                listed=False, seat_order=Game.SEAT_ORDER_JOINED,
                                move_deadline_hours=deadline_hours)
    for user in users[1:players]:
        services.join_game(game.pk, user, invite_code=game.invite_code)
    game = Game.objects.get(pk=game.pk)
    engine = game.engine_obj
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    services.set_seats(game, seats)  # the seat objects the write path's helpers update
    seat_users = {s.number: s.user_id for s in seats}
    by_number = {s.number: s.user for s in seats}
    # what the write path keeps per move besides the log (the seats' record counters), if it has it
    count_for_record = getattr(services, "_count_for_record", None)
    carry = (services.current_state(game), None, None)
    rows, moves = [], []
    while engine.result(carry[0]) is None and (stop_at is None or len(rows) < stop_at):
        seat = min(engine.to_act(carry[0]))
        text = rng.choice(engine.legal_moves(carry[0], seat))
        carry = services.advance(engine, carry, [(seat, text, Move.WEB)])
        rows.append((seat, text))
        moves.append(Move(game=game, seq=len(rows), seat=seat, user_id=seat_users[seat], text=text,
                          channel=Move.WEB, events=engine.events(carry[0])))
        if count_for_record is not None:
            count_for_record(game, seat, Move.WEB, by_number[seat])
    state, undo_state, undo_seat = carry
    with transaction.atomic():
        Move.objects.bulk_create(moves, batch_size=2000)
        game = Game.objects.select_for_update().get(pk=game.pk)
        game.move_count = len(rows)
        game.undo_state, game.undo_seat = undo_state, undo_seat
        game.last_move_at = moves[-1].created_at if moves else game.started_at
        services._store(game, state, mover=rows[-1][0] if rows else None, told=True)
        game.save()
        for seat in seats:  # every seat as the write path leaves it (decision keys, counters)
            seat.save()
    return game


def make_templates(per_title: int, users: list, seed: int) -> dict:
    """{(engine, players, status): [template game ids]}: for each title, ``per_title`` games over the
    player counts, a third of them stopped part-way (running), and one open game per count."""
    from games import services
    from games.models import Game

    rng = random.Random(f"{seed}:templates")
    found: dict = {}
    for slug in TITLES:
        t0, moves = time.monotonic(), 0
        for i in range(max(4, per_title)):
            players = PLAYERS[i % len(PLAYERS)]
            running = (i // len(PLAYERS)) % 3 == 1  # a third stop part-way: 3 and 4 players each
            stop_at = None
            for _attempt in range(5):
                if running:  # part-way through a game of about this title's length
                    full = play_length(slug, players, rng)
                    stop_at = rng.randint(max(1, full // 10), max(2, full * 8 // 10))
                game = play_template(slug, players, users, rng, stop_at, deadline_hours=72)
                # every game played is a template of its status: a "running" one that ended early is a
                # finished game of the site like any other (left out, it stayed unrated and unlisted)
                moves += game.move_count
                found.setdefault((slug, players, game.status), []).append(game.pk)
                if not running or game.status == Game.RUNNING:
                    break
        for players in PLAYERS:
            game = services.create_game(creator=users[0], engine=slug, title=TEMPLATE_TITLE, players=players,
                                        listed=True, seat_order=Game.SEAT_ORDER_JOINED, move_deadline_hours=72)
            found.setdefault((slug, players, Game.OPEN), []).append(game.pk)
        log(f"  templates of {slug}: {per_title} games, {moves} moves in {time.monotonic() - t0:.1f} s")
    return found


def play_length(slug: str, players: int, rng: random.Random) -> int:
    """The length of one random game of ``slug`` (played in memory, nothing stored)."""
    from games.engines import get_engine

    engine = get_engine(slug)
    state = engine.setup(players=players, seed=rng.randrange(2 ** 62), options=engine.normalise_options({}, players))
    n = 0
    while engine.result(state) is None and n < 20000:
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
        n += 1
    return n


# --- the site ----------------------------------------------------------------------------------

def make_users(count: int, rng: random.Random, prefix: str = "site"):
    from django.contrib.auth.hashers import make_password

    from hanseweb.accounts.models import User
    from hanseweb.names import name_keys

    password = make_password(PASSWORD)
    users, shapes = [], set()
    for i in range(count):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]}"
        if prefix != "site":
            name = f"{prefix.title()} {LAST[i % len(LAST)]}"
        elif i >= len(FIRST) * len(LAST):
            name += f" {i // (len(FIRST) * len(LAST)) + 1}"
        folded, shape = name_keys(name)
        assert shape not in shapes, name
        shapes.add(shape)
        users.append(User(email=f"{prefix}{i}@bench.invalid", display_name=name, display_name_key=folded,
                          display_name_shape=shape, password=password, email_confirmed=True,
                          notify=rng.choice([User.NOTIFY_EVERY_TURN, User.NOTIFY_EVERY_TURN, User.NOTIFY_DEBOUNCED,
                                             User.NOTIFY_DIGEST, User.NOTIFY_OFF]),
                          digest_hour=rng.randrange(24), language=rng.choice(["en", "en", "nl", "de"])))
    return User.objects.bulk_create(users, batch_size=2000)


class Plan:
    """The games to copy: per game its template, players, dates and title; copied by ``copy_games``."""

    def __init__(self, templates: dict, rng: random.Random, now):
        self.templates, self.rng, self.now = templates, rng, now
        self.games: list[dict] = []

    def add(self, engine: str, user_ids: list[int], status: str, *, title: str, ended_days_ago: float = 0,
            listed: bool = True, size: int | None = None) -> dict:
        """``user_ids``: the players by seat (an open game: its creator alone, ``size`` its seats)."""
        from games.models import Game

        key = (engine, size or len(user_ids), status)
        template = self.rng.choice(self.templates[key])
        if status == Game.FINISHED:
            finished = self.now - timedelta(days=ended_days_ago, minutes=self.rng.randrange(1440))
            started = finished - timedelta(days=self.rng.uniform(5, 60))
            last, deadline = finished, None
        elif status == Game.RUNNING:
            started = self.now - timedelta(days=self.rng.uniform(1, 40))
            last = self.now - timedelta(hours=self.rng.uniform(0.1, 60))
            # a few decisions overdue (the deadline sweep has work), a few due within a day
            # (reminders), the rest later
            shift = self.rng.choice([-10] + [2] * 3 + [30] * 16)
            deadline = self.now + timedelta(hours=shift + self.rng.uniform(0, 8 if shift < 30 else 40))
            finished = None
        else:
            started = finished = last = deadline = None
        created = (started or self.now - timedelta(days=self.rng.uniform(0, 3))) - timedelta(hours=1)
        game = {"template": template, "users": user_ids, "status": status, "title": title[:100],
                "created": created, "started": started, "finished": finished, "last": last,
                "deadline": deadline, "listed": listed, "engine": engine}
        self.games.append(game)
        return game


def _columns(model, skip=("id",)) -> list[str]:
    return [f.column for f in model._meta.concrete_fields if f.column not in skip]


def _insert_select(table: str, cols: list[str], over: dict, alias: str) -> str:
    """``INSERT INTO table (cols) SELECT …``: each column from ``alias``'s row unless ``over`` gives
    its expression."""
    from django.db import connection

    q = connection.ops.quote_name
    return (f"INSERT INTO {table} ({', '.join(q(c) for c in cols)}) SELECT "
            + ", ".join(over.get(c, f"{alias}.{q(c)}") for c in cols))


def copy_games(plan: Plan, chunk: int = 500) -> None:
    """Copy the planned games in the database: game rows, seats and moves of their templates, with
    the plan's ids, players and dates (``INSERT … SELECT`` joined to the plan)."""
    import secrets

    from django.db import connection, transaction

    from games.models import Game, Move, Seat

    with connection.cursor() as cur:
        cur.execute("SELECT nextval(pg_get_serial_sequence('games_game', 'id')) FROM generate_series(1, %s)",
                    [len(plan.games)])
        ids = [r[0] for r in cur.fetchall()]
    for game, pk in zip(plan.games, ids):
        game["id"] = pk
    over = {"title": "p.title", "invite_code": "p.invite", "listed": "p.listed", "created_by_id": "p.creator",
            "created_at": "p.created", "started_at": "p.started", "finished_at": "p.finished",
            "last_move_at": "p.last", "deadline_at": "p.deadline"}
    game_cols = _columns(Game)
    seat_cols = _columns(Seat)
    seat_over = {"game_id": "s.game", "user_id": "s.user_id", "joined_at": "p.created"}
    move_cols = _columns(Move)
    move_over = {"game_id": "p.id", "user_id": "CASE WHEN m.user_id IS NULL THEN NULL ELSE s.user_id END",
                 "created_at": "p.started + (p.last - p.started) * (m.seq::float8 / GREATEST(t.move_count, 1))"}
    t0 = time.monotonic()
    done = 0
    with connection.cursor() as cur:
        cur.execute("CREATE TEMP TABLE IF NOT EXISTS bench_plan (id bigint primary key, template bigint, title text, "
                    "invite text, listed bool, creator bigint, created timestamptz, started timestamptz, "
                    "finished timestamptz, last timestamptz, deadline timestamptz)")
        cur.execute("CREATE TEMP TABLE IF NOT EXISTS bench_seats (game bigint, number int, user_id bigint, "
                    "primary key (game, number))")
    for start in range(0, len(plan.games), chunk):
        part = plan.games[start:start + chunk]
        with transaction.atomic(), connection.cursor() as cur:
            # Rows valid by construction (the plan's ids, its templates' rows): no trigger per row
            # (foreign-key checks, the log's append-only guard, which refuses only UPDATE and DELETE)
            # for this transaction's copies. Indexes and constraints stay as the product has them.
            cur.execute("SET LOCAL session_replication_role = replica")
            cur.execute("TRUNCATE bench_plan, bench_seats")
            cur.execute(
                "INSERT INTO bench_plan SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::text[], "
                "%s::bool[], %s::bigint[], %s::timestamptz[], %s::timestamptz[], %s::timestamptz[], "
                "%s::timestamptz[], %s::timestamptz[])",
                [[g["id"] for g in part], [g["template"] for g in part], [g["title"] for g in part],
                 [secrets.token_urlsafe(12) for _ in part], [g["listed"] for g in part],
                 [g["users"][0] for g in part], [g["created"] for g in part], [g["started"] for g in part],
                 [g["finished"] for g in part], [g["last"] for g in part], [g["deadline"] for g in part]])
            seats = [(g["id"], n, u) for g in part for n, u in enumerate(g["users"])]
            cur.execute("INSERT INTO bench_seats SELECT * FROM unnest(%s::bigint[], %s::int[], %s::bigint[])",
                        [[s[0] for s in seats], [s[1] for s in seats], [s[2] for s in seats]])
            cur.execute(_insert_select("games_game", ["id"] + game_cols, {"id": "p.id", **over}, "t")
                        + " FROM bench_plan p JOIN games_game t ON t.id = p.template")
            # an open game's template has one seat (its creator); the others are taken seats
            cur.execute(_insert_select("games_seat", seat_cols, seat_over, "t")
                        + " FROM bench_seats s JOIN bench_plan p ON p.id = s.game "
                          "JOIN games_seat t ON t.game_id = p.template AND "
                          "COALESCE(t.number, 0) = s.number")
            cur.execute(_insert_select("games_move", move_cols, move_over, "m")
                        + " FROM bench_plan p JOIN games_game t ON t.id = p.template "
                          "JOIN games_move m ON m.game_id = p.template "
                          "LEFT JOIN bench_seats s ON s.game = p.id AND s.number = m.seat")
        done += len(part)
        log(f"  copied {done}/{len(plan.games)} games ({time.monotonic() - t0:.0f} s)")


def tables_of(users: list[int], size: int, rng: random.Random) -> list[list[int]]:
    order = users[:]
    rng.shuffle(order)
    return [order[i:i + size] for i in range(0, len(order) - size + 1, size)]


def build_site(games: int, seed: int = 1, templates_per_title: int = 24, *, running: float = 0.19,
               heavy_share_of_games: float = 0.03, games_per_club: int = 250) -> dict:
    """Build a site of about ``games`` games in the current (empty, migrated) database. Returns what
    the measurement needs: the heavy player, the biggest club, a league, a season, a running game.
    The site's shape: ``running`` the share of casual games still running, ``heavy_share_of_games``
    the share of all games the heavy player sits in, one club per ``games_per_club`` games."""
    from django.db import connection
    from django.utils import timezone

    from games.models import Game
    from hanseweb.accounts.models import User
    from hanseweb.leagues.models import (
        Club, Division, Entry, League, Membership, OrganiserAction, RatedGame, Rating, RatingChange, Round, Season,
        Table)
    from hanseweb.mail.models import InboundEmail, OutboundEmail

    rng = random.Random(seed)
    now = timezone.now()
    t_all = time.monotonic()
    log(f"building a site of {games} games")
    tusers = make_users(4, rng, prefix="template")
    User.objects.filter(pk__in=[u.pk for u in tusers]).update(notify=User.NOTIFY_OFF)
    templates = make_templates(templates_per_title, tusers, seed)

    n_users = max(40, games // 5)
    users = make_users(n_users, rng)
    uids = [u.pk for u in users]
    heavy = uids[0]
    User.objects.filter(pk=heavy).update(language="en")  # the pages' links are read in English
    log(f"  {n_users} users")

    # clubs, leagues, seasons
    n_clubs = max(2, games // games_per_club)
    clubs = Club.objects.bulk_create([Club(name=f"Club {FIRST[i % len(FIRST)]} {i + 1}", slug=f"club-{i + 1}",
                                           created_by_id=uids[i % n_users]) for i in range(n_clubs)])
    members: dict[int, list[int]] = {}
    memberships = []
    for i, club in enumerate(clubs):
        size = 80 if i == 0 else rng.randint(10, 80)
        size = min(size, n_users)
        chosen = [heavy] + rng.sample(uids[1:], size - 1) if i == 0 else rng.sample(uids, size)
        members[club.pk] = chosen
        memberships += [Membership(club=club, user_id=u, role=Membership.ORGANISER if k < 2 else Membership.MEMBER)
                        for k, u in enumerate(chosen)]
    Membership.objects.bulk_create(memberships, batch_size=2000)

    plan = Plan(templates, rng, now)
    engines = list(WEIGHTS)
    weights = [WEIGHTS[e] for e in engines]
    leagues, seasons_made, tables = [], [], []
    actions = []
    league_games_target = games * 2 // 5
    for i, club in enumerate(clubs):
        for k in range(2 if i % 2 == 0 else 1):
            engine = rng.choices(engines, weights)[0]
            leagues.append(League(club=club, name=f"{club.name} league {k + 1}", engine=engine,
                                  table_size=rng.choice(PLAYERS), rated=True, public=(i + k) % 3 == 0))
    League.objects.bulk_create(leagues)
    for league in leagues:
        if len(plan.games) >= league_games_target and seasons_made:
            break  # the leagues left have no season yet
        club_members = members[league.club_id]
        # seasons of up to 2 divisions x 20 entries, 4 rounds: games per season
        n_seasons = rng.randint(1, 4)
        for number in range(1, n_seasons + 1):
            last = number == n_seasons
            status = Season.RUNNING if last else Season.FINISHED
            ago = (n_seasons - number) * 70 + 5
            season = Season.objects.create(
                league=league, number=number, status=status, starts_at=now - timedelta(days=ago + 56),
                rounds=4, round_days=14, deadline_hours=72)
            seasons_made.append(season)
            actions += [OrganiserAction(club_id=league.club_id, season=season, actor_id=club_members[0],
                                        action=a, details={"number": number}) for a in ("create season", "start season")]
            entrants = [u for u in club_members if u != heavy]
            rng.shuffle(entrants)
            if league.club_id == clubs[0].pk:  # the biggest club's seasons: 2 divisions x 20, the heavy player in
                entrants = [heavy] + entrants[:39]
            else:
                entrants = entrants[:24]
            n_div = 2 if len(entrants) >= 2 * league.table_size * 2 else 1
            divisions = []
            for level in range(1, n_div + 1):
                div = Division.objects.create(season=season, level=level, name=f"Division {level}")
                divisions.append((div, entrants[(level - 1) * len(entrants) // n_div: level * len(entrants) // n_div]))
            Entry.objects.bulk_create([Entry(season=season, division=div, user_id=u) for div, us in divisions for u in us])
            for rnum in range(1, 5):
                starts = season.starts_at + timedelta(days=14 * (rnum - 1))
                rnd = Round.objects.create(season=season, number=rnum, starts_at=starts, created_at=starts)
                for div, us in divisions:
                    for index, table in enumerate(tables_of(us, league.table_size, rng)):
                        game_status = Game.RUNNING if last and rnum >= 3 else Game.FINISHED
                        g = plan.add(league.engine, table, game_status,
                                     title=f"{league.name} S{number} R{rnum} T{index + 1}",
                                     ended_days_ago=max(0.0, (now - starts).days - 10 + rng.uniform(0, 9)),
                                     listed=False)
                        tables.append((rnd, div, index, g))
            if len(plan.games) >= league_games_target:
                break
    OrganiserAction.objects.bulk_create(actions)
    n_league = len(plan.games)
    log(f"  {len(clubs)} clubs, {len(leagues)} leagues, {len(seasons_made)} seasons, {n_league} league games")

    # casual games: the heavy player in about 3% of all games
    heavy_share = max(1, round(games * heavy_share_of_games)) - sum(1 for g in plan.games if heavy in g["users"])
    for i in range(max(games - n_league, games // 5)):
        engine = rng.choices(engines, weights)[0]
        size = rng.choice(PLAYERS)
        status = rng.choices([Game.FINISHED, Game.RUNNING, Game.OPEN], [max(0.0, 0.97 - running), running, 0.03])[0]
        # the first is the heavy player's running game (the game page measured), the second open
        status = {0: Game.RUNNING, 1: Game.OPEN}.get(i, status)
        if status == Game.OPEN:  # its creator's seat alone, like its template's
            players = [rng.choice(uids)]
        else:
            players = rng.sample(uids, size)
            if (i < heavy_share or i == 0) and heavy not in players:
                players[rng.randrange(size)] = heavy
        plan.add(engine, players, status, title=f"{FIRST[i % len(FIRST)]}'s {engine} game {i + 1}",
                 ended_days_ago=rng.uniform(0, 720), size=size)
    copy_games(plan)

    Table.objects.bulk_create([Table(round=rnd, division=div, index=index, game_id=g["id"], seat_order=g["users"])
                               for rnd, div, index, g in tables], batch_size=2000)

    t0 = time.monotonic()
    # chat: about 4 lines per started game, said while it ran
    chat = []
    lengths = dict(Game.objects.exclude(status=Game.OPEN).values_list("pk", "move_count"))
    for g in plan.games:
        if g["status"] == "open":
            continue
        for _ in range(rng.choice([0, 2, 4, 4, 6, 8])):
            seat = rng.randrange(len(g["users"]))
            when = rng.random()
            said = g["started"] + (g["last"] - g["started"]) * when
            chat.append((g["id"], seat, g["users"][seat], said, int(lengths[g["id"]] * when), rng.choice(
                ["Good luck, all!", "Sorry for the slow move.", "Well played.", "Back from holiday on Monday.",
                 "Nice route!"])))
    with connection.cursor() as cur:  # append-only rows, written as they would have been (no auto "now")
        cur.execute("INSERT INTO games_chatmessage (game_id, seat, user_id, created_at, text, channel, move_count) "
                    "SELECT c.game, c.seat, c.user_id, c.at, c.text, 'web', c.n FROM unnest(%s::bigint[], %s::int[], "
                    "%s::bigint[], %s::timestamptz[], %s::int[], %s::text[]) AS c(game, seat, user_id, at, n, text)",
                    [[c[i] for c in chat] for i in range(6)])
    log(f"  {len(chat)} chat lines ({time.monotonic() - t0:.0f} s)")

    # ratings: every finished game's seats, all but the newest ten rated
    t0 = time.monotonic()
    finished = sorted((g for g in plan.games if g["status"] == "finished"), key=lambda g: g["finished"])
    rated, unrated = finished[:-10], finished[-10:]
    RatedGame.objects.bulk_create([RatedGame(game_id=g["id"]) for g in rated], batch_size=5000)
    RatedGame.objects.bulk_create([RatedGame(game_id=pk, applied=False) for (_e, _p, status), pks in templates.items()
                                   if status == "finished" for pk in pks])  # the templates are not rated
    results = dict(Game.objects.filter(pk__in=[g["id"] for g in rated]).values_list("pk", "result"))
    ratings: dict = {}
    changes = []
    for g in rated:
        ranking = (results.get(g["id"]) or {}).get("ranking") or list(range(len(g["users"])))
        for seat, uid in enumerate(g["users"]):
            key = (uid, g["engine"])
            if key not in ratings:
                ratings[key] = Rating(user_id=uid, engine=g["engine"], mu=25.0, sigma=25 / 3, games=0)
            r = ratings[key]
            before = (r.mu, r.sigma)
            r.mu += rng.uniform(-1.5, 1.5) + (1.0 - ranking[seat]) * 0.5
            r.sigma = max(1.0, r.sigma * 0.97)
            r.games += 1
            changes.append((r, g["id"], ranking[seat], before, (r.mu, r.sigma)))
    Rating.objects.bulk_create(list(ratings.values()), batch_size=5000)
    RatingChange.objects.bulk_create([
        RatingChange(rating=r, game_id=gid, place=place, mu_before=b[0], sigma_before=b[1], mu_after=a[0],
                     sigma_after=a[1]) for r, gid, place, b, a in changes], batch_size=5000)
    with connection.cursor() as cur:
        cur.execute("UPDATE leagues_ratingchange c SET at = g.finished_at FROM games_game g WHERE g.id = c.game_id")
        cur.execute("UPDATE leagues_ratedgame c SET at = g.finished_at FROM games_game g WHERE g.id = c.game_id")
    log(f"  {len(ratings)} ratings, {len(changes)} rating changes, {len(unrated)} finished games not yet rated "
        f"({time.monotonic() - t0:.0f} s)")

    # mail: 20 sent outbox rows and one processed reply per game (one row per game made here, the
    # other 19 copied from it in the database with their own Message-IDs)
    t0 = time.monotonic()
    body = "It is your turn in a game of Hansa.\n" * 20
    out, inbound = [], []
    for g in plan.games:
        at = g["last"] or g["created"]
        out.append(OutboundEmail(user_id=g["users"][0], to=f"site{g['users'][0]}@bench.invalid", kind="turn",
                                 subject=f"Your turn: {g['title']}", text=body,
                                 message_id=f"<bench-{g['id']}@bench.invalid>", sent_at=at, attempts=1))
        if g["status"] != "open":
            inbound.append(InboundEmail(sender=f"site{g['users'][0]}@bench.invalid", recipients=["play@bench.invalid"],
                                        subject="Re: your turn", text="pass", status=InboundEmail.ACCEPTED,
                                        outcome="move made", processed_at=at, message_id=f"<re-{g['id']}@bench.invalid>"))
    OutboundEmail.objects.bulk_create(out, batch_size=5000)
    InboundEmail.objects.bulk_create(inbound, batch_size=5000)
    cols = _columns(OutboundEmail)
    copied = {"message_id": "replace(o.message_id, '@', '-' || k || '@')",
              "sent_at": "o.sent_at - k * interval '7 hours'", "created_at": "o.sent_at - k * interval '7 hours'"}
    with connection.cursor() as cur:  # their dates follow their games'
        cur.execute("UPDATE mail_outboundemail SET created_at = sent_at")
        cur.execute(_insert_select("mail_outboundemail", cols, copied, "o")
                    + " FROM mail_outboundemail o CROSS JOIN generate_series(1, 19) AS k")
        cur.execute("UPDATE mail_inboundemail SET received_at = processed_at")
        cur.execute("SELECT count(*) FROM mail_outboundemail")
        out = range(cur.fetchone()[0])
    log(f"  {len(out)} outbox rows, {len(inbound)} inbound rows ({time.monotonic() - t0:.0f} s)")

    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    running = [g for g in plan.games if g["status"] == "running" and heavy in g["users"]]
    biggest_season = max(seasons_made, key=lambda s: Entry.objects.filter(season=s).count())
    info = {
        "games": len(plan.games), "users": n_users, "clubs": len(clubs), "leagues": len(leagues),
        "seasons": len(seasons_made), "heavy": heavy, "club": clubs[0].slug,
        "league": biggest_season.league_id, "season": biggest_season.pk,
        "game": running[0]["id"],
        "heavy_games": sum(1 for g in plan.games if heavy in g["users"]),
        "running": sum(1 for g in plan.games if g["status"] == "running"),
        "finished": len(finished),
        "build_seconds": round(time.monotonic() - t_all, 1),
    }
    with connection.cursor() as cur:
        for table in ("games_move", "games_chatmessage", "leagues_ratingchange", "mail_outboundemail",
                      "mail_inboundemail"):
            cur.execute(f"SELECT count(*) FROM {table}")
            info[table] = cur.fetchone()[0]
    log(f"  built in {info['build_seconds']} s: " + json.dumps(info))
    return info


# --- measuring -----------------------------------------------------------------------------------

def pages(info: dict, deep_url: str | None) -> list[tuple[str, str, str]]:
    """(name, path, who): who is "user" (the heavy player's session) or "api" (their API token)."""
    from hanseweb.accounts.models import User
    from hanseweb.leagues import feeds
    from hanseweb.leagues.models import League

    heavy = User.objects.get(pk=info["heavy"])
    league = League.objects.get(pk=info["league"])
    found = [
        ("lobby (heavy player)", "/", "user"),
        ("/archive/ first page", "/archive/", "user"),
    ]
    if deep_url:
        found.append((f"/archive/ deep page ({info.get('deep_depth')} pages in)", deep_url, "user"))
    found += [
        ("/archive/ ?game=hansa", "/archive/?game=hansa", "user"),
        ("/archive/ ?player=<heavy>", "/archive/?player=" + heavy.display_name.split()[0] + "+"
         + heavy.display_name.split()[1], "user"),
        ("/players/<heavy>/", f"/players/{heavy.pk}/", "user"),
        ("club page (biggest club)", f"/clubs/{info['club']}/", "user"),
        ("league page", f"/leagues/{league.pk}/", "user"),
        ("season page (2 divisions)", f"/seasons/{info['season']}/", "user"),
        ("league Atom feed", feeds.league_results_url(league), "anon"),
        ("iCal feed (heavy player)", feeds.player_calendar_url(heavy), "anon"),
        ("API /api/v1/games", "/api/v1/games", "api"),
        ("API /api/v1/games?status=finished", "/api/v1/games?status=finished", "api"),
    ]
    if info.get("game"):
        found += [("game page (running)", f"/games/{info['game']}/", "user"),
                  ("game status poll", f"/games/{info['game']}/status/", "user")]
    return found


OLDER = re.compile(r'<a href="([^"]*)"[^>]*>([^<]*)</a>')


def deep_archive_url(client, depth: int) -> tuple[str | None, int]:
    """The archive page ``depth`` pages in, reached by its "older" links (a page number in the link
    is jumped to at once); returns (url, pages in)."""
    url, seen = "/archive/", 0
    while seen < depth:
        r = client.get(url)
        older = [html.unescape(h) for h, text in OLDER.findall(r.content.decode()) if "older" in text.lower()]
        if r.status_code != 200 or not older:
            break
        nxt = older[-1]
        jump = re.search(r"([?&])page=(\d+)", nxt)
        if jump and int(jump.group(2)) == seen + 2:  # page numbers: go straight to the depth asked
            candidate = re.sub(r"([?&])page=\d+", rf"\g<1>page={depth + 1}", nxt)
            if client.get(candidate).status_code == 200:
                return candidate, depth
        url = nxt if nxt.startswith("/") else "/archive/" + nxt.lstrip("/")
        seen += 1
    return (url if seen else None), seen


def unbounded_query_log() -> None:
    """Django keeps the last 9,000 queries of a connection: once full, ``CaptureQueriesContext``
    counts nothing more. An empty log with no such bound for each count."""
    import collections

    from django.db import connection

    connection.queries_log = collections.deque()


def count_queries(info: dict, page_list, user, token: str) -> dict:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    counts = {}
    client = Client()
    client.force_login(user)
    anon = Client()
    for name, path, who in page_list:
        c = anon if who == "anon" else client
        extra = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if who == "api" else {}
        if who == "api":
            c = anon
        status = c.get(path, **extra).status_code  # warm: caches, templates
        unbounded_query_log()
        with CaptureQueriesContext(connection) as ctx:
            status = c.get(path, **extra).status_code
        counts[name] = {"queries": len(ctx.captured_queries), "status": status}
    return counts


class Server:
    """gunicorn with sync workers on the bench database (DEBUG off), as bench_web.py runs it."""

    def __init__(self, database_url: str, redis: str, workers: int, queue: str):
        import secrets as _secrets

        self.port = benchkit.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = benchkit.service_env(database_url, redis, HANSEWEB_SECRET_KEY=os.environ["HANSEWEB_SECRET_KEY"]
                                   if os.environ.get("HANSEWEB_SECRET_KEY") else _secrets.token_urlsafe(50),
                                   HANSEWEB_DEBUG="0", HANSEWEB_ALLOWED_HOSTS="127.0.0.1,testserver",
                                   HANSEWEB_SECURE_COOKIES="0", CELERY_QUEUE=queue, **RATES)
        cmd = [str(benchkit.VENV_BIN / "gunicorn"), "hanseweb.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
               "--workers", str(workers), "--log-level", "warning"]
        self.log = tempfile.NamedTemporaryFile("w+", prefix="bench-site-gunicorn-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(cmd, cwd=benchkit.ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.cmd = " ".join(cmd[1:])

    def wait(self) -> None:
        if not benchkit.wait_for_http(self.proc, f"{self.base}/healthz", 90):
            self.stop()
            raise RuntimeError(f"gunicorn did not come up; see {self.log.name}")

    def stop(self) -> None:
        benchkit.stop_process(self.proc)


def login(base: str, email: str):
    import requests

    s = requests.Session()
    url = f"{base}/accounts/login/"
    s.get(url).raise_for_status()
    r = s.post(url, data={"csrfmiddlewaretoken": s.cookies["csrftoken"], "username": email, "password": PASSWORD,
                          "next": "/healthz"}, allow_redirects=False, headers={"Referer": url})
    if r.status_code != 302 or "sessionid" not in s.cookies:
        raise RuntimeError(f"login as {email} failed: HTTP {r.status_code}")
    return s


def time_pages(base: str, page_list, email: str, token: str, rounds: int, warmup: int) -> dict:
    """One client. Each round times the floor and the page, in alternating order."""
    import requests

    user = login(base, email)
    anon = requests.Session()
    found = {}
    for name, path, who in page_list:
        session = anon if who in ("anon", "api") else user
        headers = {"Authorization": f"Bearer {token}"} if who == "api" else {}
        floor, page, failures = [], [], 0
        for k in range(warmup + rounds):
            pair = []
            for what in (("floor", "page") if k % 2 == 0 else ("page", "floor")):
                t0 = time.perf_counter()
                if what == "floor":
                    r = user.get(f"{base}/healthz")
                else:
                    r = session.get(base + path, headers=headers)
                elapsed = time.perf_counter() - t0
                if r.status_code != 200:
                    failures += 1
                    continue
                pair.append((what, elapsed))
            if k >= warmup:
                for what, elapsed in pair:
                    (floor if what == "floor" else page).append(elapsed)
        found[name] = {"floor": floor, "page": page, "failures": failures}
        p95 = benchkit.percentile(page, 95) * 1000 if page else float("nan")
        f95 = benchkit.percentile(floor, 95) * 1000 if floor else float("nan")
        log(f"    {name}: p95 {p95:.1f} ms, floor p95 {f95:.1f} ms" + (f", {failures} failed" if failures else ""))
    return found


def beat_tasks() -> list[tuple[str, str]]:
    """(short name, dotted task path) of every periodic task in the beat schedule (IMAP polling aside)."""
    from django.conf import settings

    found = []
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        path = entry["task"]
        if path.endswith("poll_imap"):
            continue
        found.append((path.rsplit(".", 1)[1], path))
    return found


def time_tasks() -> dict:
    """Each periodic task run in-process, twice: the first run does what the built site has due
    (timeouts, reminders, digests, ...), the second, right after, finds (almost) nothing left to do:
    what the task costs for what the site holds. Time and queries of each run."""
    import importlib

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    found = {}
    for run in ("first", "second"):
        for name, path in beat_tasks():
            module, attr = path.rsplit(".", 1)
            task = getattr(importlib.import_module(module), attr)
            unbounded_query_log()
            with CaptureQueriesContext(connection) as ctx:
                t0 = time.perf_counter()
                try:
                    did = task()
                except Exception as exc:  # noqa: BLE001 - shown in the table
                    did = f"error: {exc!r}"[:80]
                elapsed = time.perf_counter() - t0
            found.setdefault(name, {})[run] = {"ms": elapsed * 1000, "queries": len(ctx.captured_queries), "did": did}
            log(f"    {run} run of {name}: {elapsed * 1000:.0f} ms, {len(ctx.captured_queries)} queries, "
                f"returned {did!r}")
    return found


def run_one(args) -> dict:
    """Build (or reuse) the site of ``args.one`` games in its own database and measure it."""
    size = args.one
    name = f"{args.db}_{size}"
    database_url = f"{args.pg}/{name}"
    queue = f"bench-site-{os.getpid()}"
    reuse = args.reuse and benchkit.database_exists(args.pg, name)
    if not reuse:
        benchkit.create_database(args.pg, name, drop=True)
    benchkit.setup_django(database_url, args.redis, CELERY_QUEUE=queue, HANSEWEB_ALLOWED_HOSTS="127.0.0.1,testserver",
                          HANSEWEB_SECURE_COOKIES="0", HANSEWEB_EMAIL_BACKEND="anymail.backends.test.EmailBackend",
                          **RATES)
    benchkit.migrate()
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("CREATE TABLE IF NOT EXISTS bench_site_info (info jsonb)")
        cur.execute("SELECT info FROM bench_site_info")
        row = cur.fetchone()
    if row and reuse:
        info = row[0] if isinstance(row[0], dict) else json.loads(row[0])
        log(f"site of {size} games reused from {name}")
    else:
        info = build_site(size, seed=args.seed, templates_per_title=args.templates, running=args.running,
                          heavy_share_of_games=args.heavy, games_per_club=args.games_per_club)
        with connection.cursor() as cur:
            cur.execute("DELETE FROM bench_site_info")
            cur.execute("INSERT INTO bench_site_info VALUES (%s::jsonb)", [json.dumps(info)])
    from django.test import Client

    from hanseweb.accounts.models import User
    from hanseweb.api.models import ApiToken

    heavy = User.objects.get(pk=info["heavy"])
    _row, token = ApiToken.issue(heavy, "bench-site")
    client = Client()
    client.force_login(heavy)
    depth = max(1, info["finished"] // 25 // 2)
    deep_url, info["deep_depth"] = deep_archive_url(client, depth)
    page_list = pages(info, deep_url)
    log("counting queries per page (in-process)")
    queries = count_queries(info, page_list, heavy, token)
    connection.close()
    server = Server(database_url, args.redis, args.workers, queue)
    try:
        server.wait()
        log(f"timing pages: gunicorn {server.cmd}")
        times = time_pages(server.base, page_list, heavy.email, token, args.requests, args.warmup)
    finally:
        server.stop()
    log("periodic tasks, once each")
    tasks = time_tasks()
    try:
        import redis

        r = redis.Redis.from_url(args.redis)
        r.delete(queue, *r.keys(f"_kombu.binding.{queue}*"))
    except Exception as exc:  # noqa: BLE001 - cleaning up is best effort
        log(f"could not remove the bench queue {queue}: {exc}")
    return {"info": info, "pages": [[n, p, w] for n, p, w in page_list], "queries": queries, "times": times,
            "tasks": tasks, "server": server.cmd}


# --- the report ----------------------------------------------------------------------------------

def report(results: dict[int, dict], args) -> None:
    sizes = sorted(results)
    print()
    print(f"bench_site.py --games {','.join(map(str, sizes))}: gunicorn {args.workers} sync workers on PostgreSQL, "
          f"DEBUG off, one client; {args.requests} timed rounds per page after {args.warmup} untimed, each round "
          f"also timing the floor (GET /healthz logged in); latencies in ms")
    print("target: page p95 <= 2x the floor p95 of the same rounds, and the same number of queries at every size")
    print()
    keys = ["games", "users", "clubs", "leagues", "seasons", "running", "finished", "games_move", "games_chatmessage",
            "leagues_ratingchange", "mail_outboundemail", "mail_inboundemail", "heavy_games", "build_seconds"]
    print(benchkit.markdown_table(["site"] + [f"{s} games" for s in sizes],
                                  [[k] + [f"{results[s]['info'].get(k, 'n/a'):,}" if isinstance(results[s]['info'].get(k), int)
                                          else str(results[s]['info'].get(k, 'n/a')) for s in sizes] for k in keys]))
    print()
    names = []
    for s in sizes:
        for n, _p, _w in results[s]["pages"]:
            base = re.sub(r" \(\d+ pages in\)", "", n)
            if base not in names:
                names.append(base)
    header = ["page"]
    for s in sizes:
        header += [f"{s}: floor p50/p95", f"{s}: page p50/p95", f"{s}: p95/floor", f"{s}: queries"]
    header.append("<= 2x floor and fixed queries")
    rows = []
    for base in names:
        row = [base]
        ratios, counts = [], []
        for s in sizes:
            r = results[s]
            name = next((n for n, _p, _w in r["pages"] if re.sub(r" \(\d+ pages in\)", "", n) == base), None)
            if name is None:
                row += ["n/a"] * 4
                continue
            t = r["times"][name]
            f, p = t["floor"], t["page"]
            if not p or not f:
                row += ["n/a", f"failed ({t['failures']})", "n/a", str(r["queries"][name]["queries"])]
                continue
            f50, f95 = benchkit.percentile(f, 50) * 1000, benchkit.percentile(f, 95) * 1000
            p50, p95 = benchkit.percentile(p, 50) * 1000, benchkit.percentile(p, 95) * 1000
            q = r["queries"][name]
            ratios.append(p95 / f95)
            counts.append(q["queries"] if q["status"] == 200 else None)
            row += [f"{f50:.1f} / {f95:.1f}", f"{p50:.1f} / {p95:.1f}" + (f" ({t['failures']} failed)" if t["failures"] else ""),
                    f"{p95 / f95:.1f}", str(q["queries"]) + ("" if q["status"] == 200 else f" (HTTP {q['status']})")]
        fixed = len(counts) == len(sizes) and None not in counts and len(set(counts)) == 1
        fast = len(ratios) == len(sizes) and all(round(x, 1) <= 2.0 for x in ratios)
        row.append({(True, True): "yes", (True, False): "queries fixed; slower than 2x",
                    (False, True): "within 2x; queries grow", (False, False): "no"}[(fixed, fast)])
        rows.append(row)
    print(benchkit.markdown_table(header, rows))
    if any("deep_depth" in results[s]["info"] for s in sizes):
        print("deep page: " + ", ".join(f"{s} games: {results[s]['info'].get('deep_depth')} pages in" for s in sizes))
    print()
    tasks = []
    for s in sizes:
        for t in results[s]["tasks"]:
            if t not in tasks:
                tasks.append(t)
    header = ["periodic task"]
    for s in sizes:
        header += [f"{s}: first run ms / queries / returned", f"{s}: second run ms / queries / returned"]
    rows = []
    for t in tasks:
        row = [t]
        for s in sizes:
            x = results[s]["tasks"].get(t) or {}
            for run in ("first", "second"):
                y = x.get(run)
                row.append(f"{y['ms']:.0f} / {y['queries']} / {y['did']}" if y else "n/a")
        rows.append(row)
    print(benchkit.markdown_table(header, rows))
    print("first run: what the built site has due; second run, right after: (almost) nothing left to do")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="600", help="site sizes in games, comma-separated (e.g. 2500,10000)")
    parser.add_argument("--templates", type=int, default=24, help="games played per title, copied to make the site")
    parser.add_argument("--running", type=float, default=0.19, help="share of the casual games still running")
    parser.add_argument("--heavy", type=float, default=0.03, help="share of all games the heavy player (the viewer) sits in")
    parser.add_argument("--games-per-club", type=int, default=250, help="one club per this many games")
    parser.add_argument("--requests", type=int, default=30, help="timed rounds per page")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds per page first")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (deploy/ runs 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default=benchkit.DEFAULT_PG, help="PostgreSQL server URL without a database")
    parser.add_argument("--db", default="hanseweb_benchsite", help="database name prefix (one per size: <db>_<games>)")
    parser.add_argument("--redis", default=benchkit.DEFAULT_REDIS)
    parser.add_argument("--reuse", action="store_true", help="reuse a size's database built by an earlier run")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process of one size
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        result = run_one(args)
        Path(args.out).write_text(json.dumps(result, default=str))
        return
    results = {}
    for size in sorted({int(n) for n in args.games.split(",") if n}):
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
            out = f.name
        cmd = [sys.executable, __file__, "--one", str(size), "--out", out, "--templates", str(args.templates),
               "--running", str(args.running), "--heavy", str(args.heavy), "--games-per-club", str(args.games_per_club),
               "--requests", str(args.requests), "--warmup", str(args.warmup), "--workers", str(args.workers),
               "--seed", str(args.seed), "--pg", args.pg, "--db", args.db, "--redis", args.redis]
        if args.reuse:
            cmd.append("--reuse")
        subprocess.run(cmd, check=True)
        results[size] = json.loads(Path(out).read_text())
        os.unlink(out)
    report(results, args)


if __name__ == "__main__":
    main()
