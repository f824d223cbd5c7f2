#!/usr/bin/env python3
"""What a game page and a move cost as the game grows, on the production server (a benchmark
script that prints figures, not a test).

    .venv/bin/python scripts/bench_web.py                       # the full run (all titles and lengths)
    .venv/bin/python scripts/bench_web.py --titles hansa --lengths 50,200 --requests 10   # a quick look

It starts gunicorn (DEBUG off, a fresh secret key) on a dedicated PostgreSQL database (created and
migrated here; ``--rebuild`` drops it first), builds one game per title through the write path
(``games.services.submit_move``, random legal moves from a seeded ``random.Random``) and copies it
at each length asked for. The copies are kept in the bench database and reused by the next run.
Then, for each title and length, at each client count, side by side:

- floor: ``GET /healthz`` logged in (middleware, session, user, a tiny template);
- page: ``GET /games/<id>/`` as the player to act, logged in;
- submit: ``POST`` of a legal move read from the page (the form's action, its ``seq`` token and
  CSRF token), as the player to act. Every client plays its own copy of the game (one game's moves
  are serialised by its row lock), and a copy is the game's rows copied as they are. In each round
  all clients first read their pages (not timed), then all POST together (timed), so that a timed
  POST never waits behind another client's page read;
- fresh page: those page reads of the timed rounds that show a new move, timed on their own:
  each is the first view of that move, so no cached page fits it and it is made afresh (what a
  player sees after sending a move, or on opening a turn mail's link). Reported, not a target:
  the targets' page is the page as a player reloads it.

The floor is timed in the same rounds as what it is compared with: every round of the page
measurement and of the submit measurement also times one floor request, before the page or POST
in one round and after it in the next. This machine is shared: measured in a phase of its own,
a fraction of a second long at one client, the floor could meet a quiet moment and the page or
the POST a busy one (or the other way round), and that alone moved a row's ratio by a third.
Each ratio is over the floor of its own rounds; the fresh page's, over the submit rounds' floor.
The floor timed alone, in a phase of its own as before, is printed too (not a ratio's base). The
same floor request is slower among the submit rounds, after a page made afresh and a move, than in
a loop of floors: the POST it is compared with meets the same conditions.

Clients are threads with ``requests`` sessions, each logged in once per player through the login
form. Before anything is timed, every gunicorn worker is warmed up on each title. A game that
ended before a length is measured at its end, and the table says so; its moves are then submitted
to copies of the game as it was a little before the end (the build keeps a copy every 100 moves).
"""
from __future__ import annotations

import argparse
import json
import random
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit  # noqa: E402

TITLES = ["hansa", "hansa-teutonica", "die-hanse", "zanzibar"]
LENGTHS = [50, 500, 2000, 4000]
OPTIONS = {"die-hanse": {"round_limit": 0}}  # no round limit: random games never fill a storage
PASSWORD = "bench-web-password-8271"
TARGETS = "targets: page p95 <= 2x floor p95, submit p95 <= 3x floor p95, page HTML < 100 KB, snapshot < 30 KB"
BUILD = "bench-build"
PAGE = "bench-page"
CHECKPOINT = "bench-checkpoint"
COPY = "bench-copy"
CHECKPOINT_EVERY = 100  # moves: where the submit copies of a game that ended start from


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- games in the bench database --------------------------------------------------------------

def bench_users(players: int):
    from hanseweb.accounts.models import User

    users = []
    for i in range(players):
        email = f"bench{i}@bench.invalid"
        user = User.objects.filter(email=email).first()
        if user is None:
            user = User.objects.create_user(email, PASSWORD, display_name=f"Bench{i}", email_confirmed=True)
        users.append(user)
    return users


def set_turn_mail(users, on: bool) -> None:
    """Off while building (the build is not measured), on while measuring (a move queues its mail)."""
    from hanseweb.accounts.models import User

    User.objects.filter(pk__in=[u.pk for u in users]).update(
        notify=User.NOTIFY_EVERY_TURN if on else User.NOTIFY_OFF, email_confirmed=True)


def copy_game(src, title: str, upto: int | None = None):
    """A new game with ``src``'s rows copied as they are: the game row, and every row of the games
    app that points at it (seats, moves, whatever else a game keeps). ``upto``: only the first
    ``upto`` moves, with the snapshot and what derives from it rebuilt from that log."""
    from django.db import transaction

    from games import services
    from games.models import Game, Move, new_invite_code

    with transaction.atomic():
        src = Game.objects.get(pk=src.pk)
        fields = [f for f in Game._meta.concrete_fields if not f.primary_key]
        game = Game(**{f.attname: getattr(src, f.attname) for f in fields})
        game.title, game.invite_code, game.listed = title[:100], new_invite_code(), False
        game.save(force_insert=True)
        for rel in Game._meta.related_objects:
            model = rel.related_model
            if not rel.one_to_many or model._meta.app_label != "games":
                continue
            rows = model.objects.filter(**{rel.field.name: src}).order_by("pk")
            if upto is not None and model is Move:
                rows = rows.filter(seq__lte=upto)
            copied = []
            for row in rows.iterator(chunk_size=2000):
                data = {f.attname: getattr(row, f.attname) for f in model._meta.concrete_fields if not f.primary_key}
                data[rel.field.attname] = game.pk
                copied.append(model(**data))
            model.objects.bulk_create(copied, batch_size=2000)
        if upto is not None:
            engine = game.engine_obj
            state = services.replay(game)
            game.move_count, game.state_cache, game.state_seq = upto, state, upto
            game.to_act, game.undo_state, game.undo_seat = engine.to_act(state), None, None
            game.status, game.result, game.finished_at = Game.RUNNING, None, None
            game.save()
    return game


def build_name(slug: str, players: int, seed: int) -> str:
    return f"{BUILD} {slug} {players}p s{seed}"


def page_name(slug: str, players: int, seed: int, n: int) -> str:
    return f"{PAGE} {slug} {players}p s{seed} n{n}"


def checkpoint_name(slug: str, players: int, seed: int, n: int) -> str:
    return f"{CHECKPOINT} {slug} {players}p s{seed} n{n}"


def checkpoint_before(slug: str, players: int, seed: int, n: int):
    """The built game's latest copy taken at most ``n`` moves in (None if there is none)."""
    from games.models import Game

    prefix = checkpoint_name(slug, players, seed, 0)[:-1]
    best = None
    for pk, title in Game.objects.filter(title__startswith=prefix, engine=slug).values_list("pk", "title"):
        at = int(title[len(prefix):])
        if at <= n and (best is None or at > best[1]):
            best = (pk, at)
    return Game.objects.get(pk=best[0]) if best else None


def build(slug: str, players: int, seed: int, lengths: list[int], users) -> dict[int, object]:
    """The game of ``slug`` at each length, built through the write path (reused when cached):
    {length: game}; a game that ended earlier is its end for every longer length."""
    from games import services
    from games.engines import get_engine
    from games.models import Game

    builder = Game.objects.filter(title=build_name(slug, players, seed), engine=slug, players=players).first()
    if builder is None:
        builder = services.create_game(
            creator=users[0], engine=slug, title=build_name(slug, players, seed), players=players,
            options=OPTIONS.get(slug, {}), listed=False, seat_order=Game.SEAT_ORDER_JOINED)
        Game.objects.filter(pk=builder.pk).update(seed=seed)
        for user in users[1:players]:
            services.join_game(builder.pk, user, invite_code=builder.invite_code)
    engine = get_engine(slug)
    found = {}

    def page_game(n):
        return Game.objects.filter(title=page_name(slug, players, seed, n), engine=slug).first()

    for length in sorted(lengths):
        game = page_game(length)
        if game is None:
            builder.refresh_from_db()
            if builder.status == Game.FINISHED and builder.move_count < length:
                game = page_game(builder.move_count) or copy_game(
                    builder, page_name(slug, players, seed, builder.move_count))
            elif builder.move_count > length:
                log(f"  {slug}: {length} moves is not cached and the built game is past it: "
                    f"copying its first {length} moves")
                game = copy_game(builder, page_name(slug, players, seed, length), upto=length)
            else:
                started, t0 = builder.move_count, time.monotonic()
                while builder.move_count < length and builder.status == Game.RUNNING:
                    seat = min(builder.to_act)
                    moves = engine.legal_moves(services.current_state(builder), seat)
                    move = random.Random(f"{seed}:{slug}:{builder.move_count}").choice(moves)
                    services.submit_move(builder.pk, users[seat], move, expected_seq=None)
                    builder = Game.objects.get(pk=builder.pk)
                    if builder.move_count % CHECKPOINT_EVERY == 0 and builder.status == Game.RUNNING:
                        copy_game(builder, checkpoint_name(slug, players, seed, builder.move_count))
                    if builder.move_count % 250 == 0:
                        rate = (builder.move_count - started) / (time.monotonic() - t0)
                        log(f"  building {slug}: {builder.move_count}/{max(lengths)} moves ({rate:.0f} moves/s)")
                game = copy_game(builder, page_name(slug, players, seed, builder.move_count))
        found[length] = game
    return found


def delete_copies() -> None:
    """Remove the submit copies of earlier runs (moves are append-only: triggers are bypassed
    for this bench database's session only) and the outbox of earlier runs."""
    from django.db import connection, transaction

    from games.models import Game, Move
    from hanseweb.mail.models import OutboundEmail

    ids = list(Game.objects.filter(title__startswith=COPY).values_list("pk", flat=True))
    with transaction.atomic():
        if ids:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = replica")
                cursor.execute(f"DELETE FROM {Move._meta.db_table} WHERE game_id = ANY(%s)", [ids])
            Game.objects.filter(pk__in=ids).delete()
        OutboundEmail.objects.all().delete()


# --- HTTP clients ----------------------------------------------------------------------------

class MoveForm(HTMLParser):
    """The move form of a game page: the form holding a ``seq`` input, its action, hidden inputs
    and the moves offered as buttons."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms, self._current = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._current = {"action": a.get("action") or "", "hidden": {}, "moves": []}
            self.forms.append(self._current)
        elif self._current is not None and tag == "input" and a.get("type") == "hidden" and a.get("name"):
            self._current["hidden"][a["name"]] = a.get("value") or ""
        elif self._current is not None and tag == "button" and a.get("name") == "move" and a.get("value"):
            self._current["moves"].append(a["value"])

    def handle_endtag(self, tag):
        if tag == "form":
            self._current = None

    @classmethod
    def parse(cls, html: str):
        parser = cls()
        parser.feed(html)
        forms = [f for f in parser.forms if "seq" in f["hidden"] and f["moves"]]
        return forms[0] if forms else None


class Client:
    """One simulated browser: a requests session per player, each logged in through the form."""

    def __init__(self, base: str, users):
        self.base, self.users, self.sessions = base, users, {}

    def session(self, seat: int):
        import requests

        if seat not in self.sessions:
            s = requests.Session()
            login = f"{self.base}/accounts/login/"
            s.get(login).raise_for_status()
            r = s.post(login, data={"csrfmiddlewaretoken": s.cookies["csrftoken"], "username": self.users[seat].email,
                                    "password": PASSWORD, "next": "/healthz"}, allow_redirects=False,
                       headers={"Referer": login})
            if r.status_code != 302 or "sessionid" not in s.cookies:
                raise RuntimeError(f"login as {self.users[seat].email} failed: HTTP {r.status_code}")
            self.sessions[seat] = s
        return self.sessions[seat]


STOP = object()  # a client's game is over: it has nothing more to submit


def run_clients(clients: list[Client], work, warmup: int, requests_: int, lockstep: bool = False) -> dict:
    """One thread per client, all starting together, each ``warmup + requests_`` rounds: prepare
    with ``work(client, index)`` (not timed), which returns the round's shots (``{label: shot}``,
    fired in that order; a lone shot is labelled "main") or STOP; fire each shot (timed: it
    returns the seconds of its request, or None if the request failed). ``lockstep``: every
    round, all clients prepare, then all fire together, so what is timed never overlaps a
    preparation. Returns, per label, the timed latencies (s) of the rounds after the warm-up and
    the failures: ``{label: {"times": [...], "failures": n}}``."""
    barrier = threading.Barrier(len(clients))
    results = [None] * len(clients)

    def main(i):
        from django.db import connection

        times, failures, error, stopped = {}, {}, None, False
        try:
            barrier.wait()
            for k in range(warmup + requests_):
                shots = {}
                if not stopped:
                    try:
                        shots = work(clients[i], i)
                    except Exception as exc:  # noqa: BLE001 - counted and shown, the run goes on
                        failures["main"], error = failures.get("main", 0) + 1, error or repr(exc)
                        shots = {}
                    if shots is STOP:
                        stopped, shots = True, {}
                    elif callable(shots):
                        shots = {"main": shots}
                if lockstep:
                    barrier.wait()
                elif stopped:
                    break
                for label, shot in shots.items():
                    try:
                        elapsed = shot()
                    except Exception as exc:  # noqa: BLE001
                        elapsed, error = None, error or repr(exc)
                    if elapsed is None:
                        failures[label] = failures.get(label, 0) + 1
                    elif k >= warmup:
                        times.setdefault(label, []).append(elapsed)
                if lockstep:
                    barrier.wait()
        finally:
            connection.close()
            results[i] = (times, failures, error)

    threads = [threading.Thread(target=main, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    errors = [r[2] for r in results if r[2]]
    if errors:
        log(f"    failed requests, first error: {errors[0]}")
    labels = {label for r in results for label in (*r[0], *r[1])}
    return {label: {"times": [t for r in results for t in r[0].get(label, [])],
                    "failures": sum(r[1].get(label, 0) for r in results)} for label in labels}


def with_floor(base, work, label: str):
    """Each round of ``work`` also times a floor request, first in one round and second in the
    next, so that a measurement and its floor share the same moments of the machine (a busy
    moment in one phase would otherwise skew a ratio): ``{"floor": ..., label: ...}``."""
    floor = floor_work(base)
    rounds = {}

    def paired(client, i):
        shot = work(client, i)
        if shot is STOP:
            return STOP
        k = rounds[i] = rounds.get(i, -1) + 1
        pair = [("floor", floor(client, i)), (label, shot)]
        return dict(pair if k % 2 == 0 else reversed(pair))
    return paired


def timed_get(session, url, check):
    def shot():
        t0 = time.perf_counter()
        r = session.get(url)
        elapsed = time.perf_counter() - t0
        return elapsed if check(r) else None
    return shot


def floor_work(base):
    def work(client, i):
        return timed_get(client.session(0), f"{base}/healthz", lambda r: r.status_code == 200 and r.text == "ok\n")
    return work


def page_work(base, game, seat, sizes):
    def check(r):
        sizes.append(len(r.content))
        return r.status_code == 200

    def work(client, i):
        return timed_get(client.session(seat), f"{base}/games/{game.pk}/", check)
    return work


def submit_work(base, games, seed, fresh: list | None = None):
    """Each client plays its own game. Prepare: the player to act (``Game.to_act``) reads the
    page and picks a random move of its form. Shot: POST it (timed), then check that the game
    moved on (not timed). ``fresh`` collects ``(client, seconds, new move)`` of each prepare's
    page read; one that shows a new move is its first view, made afresh (no cached page fits it)."""
    from games.models import Game

    rngs = [random.Random(f"{seed}:submit:{i}") for i in range(len(games))]
    last_read = {}  # client -> the move count its last page read showed

    def work(client, i):
        game = games[i]
        row = Game.objects.filter(pk=game.pk).values("to_act", "status", "move_count").get()
        if row["status"] != Game.RUNNING or not row["to_act"]:
            return STOP
        session = client.session(min(row["to_act"]))
        t0 = time.perf_counter()
        page = session.get(f"{base}/games/{game.pk}/")
        new_move = last_read.get(i) not in (None, row["move_count"])  # a refused move makes none
        last_read[i] = row["move_count"]
        if fresh is not None and page.status_code == 200:
            fresh.append((i, time.perf_counter() - t0, new_move))
        form = MoveForm.parse(page.text)
        if page.status_code != 200 or form is None:
            raise RuntimeError(f"no move form on {page.url} (HTTP {page.status_code})")
        moves = [m for m in form["moves"] if m != "undo"] or form["moves"]
        data = {**form["hidden"], "move": rngs[i].choice(moves)}

        def shot():
            t0 = time.perf_counter()
            r = session.post(urljoin(page.url, form["action"]), data=data, allow_redirects=False,
                             headers={"Referer": page.url})
            elapsed = time.perf_counter() - t0
            after = Game.objects.filter(pk=game.pk).values_list("move_count", flat=True).get()
            return elapsed if r.status_code == 302 and after > row["move_count"] else None
        return shot
    return work


def copies_of(game, count: int, ended_margin: int, checkpoint=None) -> list:
    """``count`` copies of ``game`` for the submit clients. Of a game that ended: copies of the
    built game's checkpoint at least ``ended_margin`` moves before the end (a copy's own random
    moves may end it sooner), else its first checkpoint (a short game: 304 moves of Hansa have
    checkpoints at 100, 200 and 300, and 1 client's 62 moves from 300 would end it at once);
    without one (built by an older run), its log up to there with the snapshot rebuilt (what else
    a game derives from its log is then as at the end, so its moves may be refused as stale)."""
    from games.models import Game

    if game.status != Game.FINISHED:
        return [copy_game(game, f"{COPY} {game.title} c{i}") for i in range(count)]
    target = max(0, game.move_count - ended_margin)
    source = (checkpoint(target) or checkpoint(CHECKPOINT_EVERY)) if checkpoint else None
    if source is not None:
        return [copy_game(source, f"{COPY} {source.title} c{i}") for i in range(count)]
    log(f"    no checkpoint before move {target} (built by an older run; --rebuild makes them): copying the log")
    return [copy_game(game, f"{COPY} {game.title} c{i}", upto=target) for i in range(count)]


def warm_up(base: str, clients: list[Client], games: list, seed: int) -> None:
    """Every gunicorn worker loads its code, templates and connections before anything is timed.
    ``games``: (game, its checkpoint look-up) per title."""
    for game, checkpoint in games:
        seat = min(game.to_act) if game.to_act else 0
        run_clients(clients, floor_work(base), 2, 0)
        run_clients(clients, page_work(base, game, seat, []), 2, 0)
        copies = copies_of(game, len(clients), 20, checkpoint)
        run_clients(clients, submit_work(base, copies, seed), 2, 0, lockstep=True)


# --- the server --------------------------------------------------------------------------------

class Server:
    def __init__(self, args, database_url: str):
        self.port = benchkit.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.queue = f"bench-web-{self.port}"
        self.redis = args.redis
        extra = {
            "HANSEWEB_SECRET_KEY": secrets.token_urlsafe(50),
            "HANSEWEB_DEBUG": "0",
            "HANSEWEB_ALLOWED_HOSTS": "127.0.0.1",
            "HANSEWEB_SECURE_COOKIES": "0",  # plain HTTP on the loopback; behind TLS in production
            "CELERY_QUEUE": self.queue,  # turn mails are queued for a worker that is not running
            "HANSEWEB_DB_CONN_MAX_AGE": args.conn_max_age,
        }
        env = benchkit.service_env(database_url, args.redis, **extra)
        cmd = [str(benchkit.VENV_BIN / "gunicorn"), "hanseweb.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
               "--workers", str(args.workers), "--log-level", "warning"]
        if args.threads > 1:
            cmd += ["--worker-class", "gthread", "--threads", str(args.threads)]
        self.log = tempfile.NamedTemporaryFile("w+", prefix="bench-web-gunicorn-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(cmd, cwd=benchkit.ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.cmd = " ".join(cmd[1:])

    def wait(self) -> None:
        if not benchkit.wait_for_http(self.proc, f"{self.base}/healthz", 60):
            self.stop()
            raise RuntimeError(f"gunicorn did not come up; see {self.log.name}:\n{Path(self.log.name).read_text()[-3000:]}")

    def stop(self) -> None:
        benchkit.stop_process(self.proc)
        try:
            import redis

            r = redis.Redis.from_url(self.redis)
            r.delete(self.queue, *r.keys(f"_kombu.binding.{self.queue}*"))
        except Exception as exc:  # noqa: BLE001 - cleaning up is best effort
            log(f"could not remove the bench queue {self.queue}: {exc}")


# --- main ----------------------------------------------------------------------------------------

def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def summary(result: dict, expected: int) -> tuple[str, float | None]:
    times = result["times"]
    if not times:
        return "n/a", None
    p50, p95 = benchkit.percentile(times, 50), benchkit.percentile(times, 95)
    text = f"{ms(p50)} / {ms(p95)}"
    if len(times) < expected:
        text += f" (n={len(times)})"
    if result["failures"]:
        text += f" ({result['failures']} failed)"
    return text, p95


def ratio(value, floor) -> str:
    return f"{value / floor:.1f}" if value and floor else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--titles", default=",".join(TITLES), help="comma-separated engine slugs")
    parser.add_argument("--lengths", default=",".join(map(str, LENGTHS)), help="moves per game, comma-separated")
    parser.add_argument("--clients", default="1,8", help="concurrent clients, comma-separated")
    parser.add_argument("--requests", type=int, default=40,
                        help="timed requests per measurement, shared among the clients")
    parser.add_argument("--warmup", type=int, default=2, help="untimed requests per client first")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (deploy/ runs 3)")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker (>1: gthread)")
    parser.add_argument("--conn-max-age", default=None,
                        help="HANSEWEB_DB_CONN_MAX_AGE for the server (default: the settings')")
    parser.add_argument("--pg", default=benchkit.DEFAULT_PG, help="PostgreSQL server URL without a database")
    parser.add_argument("--db", default="hanseweb_benchweb", help="the bench database (created here)")
    parser.add_argument("--redis", default=benchkit.DEFAULT_REDIS)
    parser.add_argument("--rebuild", action="store_true", help="drop the bench database and build the games anew")
    args = parser.parse_args()
    titles = [t for t in args.titles.split(",") if t]
    lengths = sorted({int(n) for n in args.lengths.split(",") if n})
    client_counts = [int(c) for c in args.clients.split(",") if c]

    created = benchkit.create_database(args.pg, args.db, drop=args.rebuild)
    database_url = f"{args.pg}/{args.db}"
    benchkit.setup_django(database_url, args.redis, HANSEWEB_EMAIL_BACKEND="anymail.backends.test.EmailBackend",
                          CELERY_TASK_ALWAYS_EAGER="1")
    benchkit.migrate()
    log(f"bench database {args.db}: {'created' if created else 'reused (--rebuild to build anew)'}")

    from games.models import Game

    users = bench_users(args.players)
    delete_copies()
    set_turn_mail(users, on=False)
    built = {}
    for slug in titles:
        log(f"{slug}: games of {', '.join(map(str, lengths))} moves")
        built[slug] = build(slug, args.players, args.seed, lengths, users)
    set_turn_mail(users, on=True)

    server = Server(args, database_url)
    try:
        server.wait()
        clients = [Client(server.base, users) for _ in range(max(client_counts))]
        log(f"gunicorn {server.cmd}; logging in {len(clients)} clients as {args.players} players each")
        logins = [threading.Thread(target=lambda c=c: [c.session(seat) for seat in range(args.players)])
                  for c in clients]
        for t in logins:
            t.start()
        for t in logins:
            t.join()
        if any(len(c.sessions) != args.players for c in clients):
            raise RuntimeError(f"some logins failed; see {server.log.name}")
        log("warming up every gunicorn worker")
        def checkpoint(slug):
            return lambda n: checkpoint_before(slug, args.players, args.seed, n)

        warm_up(server.base, clients, [(built[slug][lengths[0]], checkpoint(slug)) for slug in titles], args.seed)
        rows = []
        for slug in titles:
            measured = set()
            for length in lengths:
                game = built[slug][length]
                if game.pk in measured:  # ended before an earlier length: measured already
                    continue
                measured.add(game.pk)
                ended = game.status == Game.FINISHED
                snapshot = len(json.dumps(game.state_cache).encode()) if game.state_cache is not None else 0
                seat = min(game.to_act) if game.to_act else 0
                for count in client_counts:
                    group = clients[:count]
                    per_client = -(-args.requests // count)
                    log(f"  {slug} {game.move_count} moves, {count} client(s) x {per_client} requests")
                    nothing = {"times": [], "failures": 0}
                    alone = run_clients(group, floor_work(server.base), args.warmup, per_client).get("main", nothing)
                    sizes = []
                    paged = run_clients(group, with_floor(server.base, page_work(server.base, game, seat, sizes), "page"),
                                        args.warmup, per_client)
                    copies = copies_of(game, count, ended_margin=3 * (args.warmup + per_client) + 20,
                                       checkpoint=checkpoint(slug))
                    fresh = []
                    moved = run_clients(group, with_floor(server.base, submit_work(server.base, copies, args.seed, fresh),
                                                          "submit"), args.warmup, per_client, lockstep=True)
                    a_text, _a95 = summary(alone, per_client * count)
                    f_text, f95 = summary(paged.get("floor", nothing), per_client * count)
                    p_text, p95 = summary(paged.get("page", nothing), per_client * count)
                    g_text, g95 = summary(moved.get("floor", nothing), per_client * count)
                    s_text, s95 = summary(moved.get("submit", nothing), per_client * count)
                    if moved.get("main"):  # a prepare that failed
                        s_text += f" ({moved['main']['failures']} prepares failed)"
                    # the prepare reads of each client's timed rounds that show a new move
                    seen = {}
                    fresh_times = []
                    for i, seconds, new_move in fresh:
                        seen[i] = seen.get(i, 0) + 1
                        if seen[i] > args.warmup and new_move:
                            fresh_times.append(seconds)
                    n_text, n95 = summary({"times": fresh_times, "failures": 0}, per_client * count)
                    moves = str(game.move_count)
                    if ended:
                        longer = [n for n in lengths if n > game.move_count]
                        moves += f" (ended before {longer[0]}; submit from {copies[0].move_count})" if longer \
                            else f" (ended; submit from {copies[0].move_count})"
                    rows.append([slug, moves, str(count), a_text, f_text, p_text, ratio(p95, f95), g_text, s_text,
                                 ratio(s95, g95), n_text, ratio(n95, g95),
                                 f"{max(sizes) / 1000:.0f}" if sizes else "n/a", f"{snapshot / 1000:.0f}"])
                    log("    " + " | ".join(rows[-1][3:]))
        print()
        print(f"gunicorn {server.cmd} on PostgreSQL ({args.db}), DEBUG off; {args.players} players; "
              f"{args.requests} timed requests per measurement, shared among the clients, after {args.warmup} "
              f"untimed per client; latencies in ms, p50 / p95")
        print(TARGETS)
        print()
        print(benchkit.markdown_table(
            ["game", "moves", "clients", "floor alone p50 / p95", "floor p50 / p95 (page rounds)", "page p50 / p95", "page/floor p95",
             "floor p50 / p95 (submit rounds)", "submit p50 / p95", "submit/floor p95", "fresh page p50 / p95",
             "fresh/floor p95", "page KB",
             "snapshot KB"], rows))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
