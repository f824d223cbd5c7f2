#!/usr/bin/env python3
"""Turn mails per second that ONE Celery worker sends from Redis through the outbox, and the time
from a move's commit to its mail leaving the outbox (a benchmark script that prints figures, not a
test).

    .venv/bin/python scripts/bench_mail.py                          # before/after configurations
    .venv/bin/python scripts/bench_mail.py --emails 300 --mails 20 --config pool=solo

For each worker configuration (``--config``, repeatable; ``key=value`` pairs separated by commas:
``pool`` prefork|solo|threads, ``concurrency``, ``prefetch`` = ``--prefetch-multiplier``, ``conn``
= HANSEWEB_DB_CONN_MAX_AGE of the worker, ``loglevel`` (info), ``esp`` = milliseconds the test
backend waits per message, as a real ESP's API would, see ``bench_esp.py``; ``render`` = processes
of a second, prefork worker on a render queue of its own (``HANSEWEB_RENDER_QUEUE``, as deploy/
runs it): the first worker then only sends; 0, the default: the one worker renders and sends):

1. throughput: ``--emails`` outbox rows (turn mails, ``--mode``) are queued in Redis, one task
   each as the outbox hands them over, then ``celery -A hanseweb worker -l info`` is started as a
   subprocess (two with ``render``); rate = rows / (last sent_at - the moment the workers were
   ready), CPU = all the workers' CPU time in that span per row. Checks that every row was sent
   once (attempts = 1, one "sent" task result per row in the worker's log).
2. latency: with that worker running, moves are submitted through the write path
   (``games.services.submit_move``) one after another until ``--mails`` turn mails are timed; for
   each, the time from the commit of its move to its ``sent_at``.

Mail goes to anymail's test backend (``anymail.backends.test.EmailBackend``) in the worker: what is
measured is the worker, the broker and the database, not an ESP.
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone as dt_timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit  # noqa: E402

PASSWORD = "bench-mail-password-5512"
DEFAULT_CONFIGS = [
    "pool=prefork,concurrency=1,conn=0",  # before: the connection closed around every task
    "pool=prefork,concurrency=1",         # persistent, health-checked connection (the settings' default)
    "pool=solo",
    "pool=threads,concurrency=8",         # deploy/: overlaps database, Redis and ESP round trips
]


MODES = {"full": "rendered by the worker, copies of one position sharing one board picture",
         "fresh": "rendered by the worker, each of its own position and board picture",
         "send": "already rendered, no picture"}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_config(text: str) -> dict:
    config = {"pool": "prefork", "concurrency": "1", "prefetch": None, "conn": None, "loglevel": "info", "esp": None,
              "render": "0"}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        if key not in config:
            raise SystemExit(f"unknown config key {key!r} in {text!r}")
        config[key] = value
    return config


def describe(config: dict) -> str:
    parts = [f"--pool {config['pool']}"]
    if config["pool"] != "solo":
        parts.append(f"-c {config['concurrency']}")
    if config["prefetch"]:
        parts.append(f"--prefetch-multiplier {config['prefetch']}")
    if config["loglevel"] != "info":
        parts.append(f"-l {config['loglevel']}")
    if config["conn"] is not None:
        parts.append(f"HANSEWEB_DB_CONN_MAX_AGE={config['conn']}")
    if config["esp"]:
        parts.append(f"(ESP answers in {config['esp']} ms)")
    if int(config["render"]):
        parts.append(f"+ render worker --pool prefork -c {config['render']}")
    return " ".join(parts)


def render_queue(config: dict, queue: str) -> str:
    return f"{queue}-render" if int(config["render"]) else ""


class Worker:
    def __init__(self, config: dict, database_url: str, redis_url: str, queue: str, *, consume: str = ""):
        backend = "anymail.backends.test.EmailBackend"
        extra = {}
        if config["esp"]:  # the test backend, slowed down like a real ESP's API
            backend = "bench_esp.EmailBackend"
            extra = {"BENCH_ESP_MS": config["esp"], "PYTHONPATH": str(Path(__file__).resolve().parent)}
        env = benchkit.service_env(database_url, redis_url, CELERY_QUEUE=queue, HANSEWEB_EMAIL_BACKEND=backend,
                                   HANSEWEB_DB_CONN_MAX_AGE=config["conn"],
                                   HANSEWEB_RENDER_QUEUE=render_queue(config, queue), **extra)
        consume = consume or queue
        pool, concurrency = (config["pool"], config["concurrency"]) if consume == queue else ("prefork", config["render"])
        cmd = [str(benchkit.VENV_BIN / "celery"), "-A", "hanseweb", "worker", "-l", config["loglevel"], "-Q", consume,
               "--pool", pool, "-n", f"{consume}@%h"]
        if pool != "solo":
            cmd += ["--concurrency", concurrency]
        if config["prefetch"]:
            cmd += ["--prefetch-multiplier", config["prefetch"]]
        self.quiet = config["loglevel"] != "info"
        self.log = tempfile.NamedTemporaryFile("w+", prefix="bench-mail-worker-", suffix=".log", delete=False)
        self.started = time.monotonic()
        self.proc = subprocess.Popen(cmd, cwd=benchkit.ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def text(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def wait_ready(self, timeout: float = 60) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text()
            if " ready." in text or (self.quiet and "[queues]" in text):  # -l warning: no "ready" line
                return time.monotonic() - self.started
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the worker did not start; see {self.log.name}:\n{self.text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def bench_users(players: int):
    from hanseweb.accounts.models import User

    users = []
    for i in range(players):
        email = f"mailbench{i}@bench.invalid"
        user = User.objects.filter(email=email).first() or User.objects.create_user(
            email, PASSWORD, display_name=f"MailBench{i}")
        users.append(user)
    User.objects.filter(pk__in=[u.pk for u in users]).update(notify=User.NOTIFY_EVERY_TURN, email_confirmed=True)
    return users


def new_game(users, slug: str, seed: int):
    from games import services
    from games.models import Game

    game = services.create_game(creator=users[0], engine=slug, title=f"mail bench {slug} {seed}",
                                players=len(users), listed=False, seat_order=Game.SEAT_ORDER_JOINED)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in users[1:]:
        services.join_game(game.pk, user, invite_code=game.invite_code)
    return Game.objects.get(pk=game.pk)


def purge(redis_url: str, queue: str) -> None:
    import redis

    r = redis.Redis.from_url(redis_url)
    r.delete(queue, *r.keys(f"_kombu.binding.{queue}*"), *r.keys(f"{queue}\x06\x16*"))


def fresh_rows(users, count: int, args, queue: str) -> list[int]:
    """``count`` turn mails as moves queue them, each of its own game position and board (so no
    two share a PNG, as in real play): random moves through the write path, games of
    ``args.game`` one after another. They are rendered as of their own move (the game has moved
    on since: ``replay.state_at``, from snapshots every 100 moves). Not yet handed to a worker."""
    from games import services
    from games.engines import get_engine
    from games.models import Game
    from hanseweb.mail.models import OutboundEmail

    engine = get_engine(args.game)
    rng = random.Random(f"{args.seed}:fresh")
    made, games = [], 1
    game = new_game(users, args.game, args.seed + 1000)
    while len(made) < count:
        if game.status != Game.RUNNING:
            game, games = new_game(users, args.game, args.seed + 1000 + games), games + 1
        seat = min(game.to_act)
        last = OutboundEmail.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        services.submit_move(game.pk, users[seat], rng.choice(engine.legal_moves(services.current_state(game), seat)))
        made += OutboundEmail.objects.filter(pk__gt=last, render__isnull=False).values_list("pk", flat=True)
        game = Game.objects.get(pk=game.pk)
    from django.conf import settings

    for name in filter(None, (queue, settings.HANSEWEB_RENDER_QUEUE)):
        purge(args.redis, name)  # what the moves handed to the broker: the run hands them over itself
    log(f"  {len(made)} turn mails of their own positions from {games} game(s)")
    return made[:count]


def queue_copies(template, count: int, mode: str) -> list[int]:
    """``count`` outbox rows like ``template`` (a real turn mail as a move queues it), unsent; a
    send task each. ``mode`` "full": as queued, so the worker renders each (text, HTML and the
    board picture as PNG) and sends it; "send": the mail already rendered, without its picture,
    so the worker only sends it (what this benchmark measured before turn mails were rendered
    by the worker)."""
    from hanseweb.mail.models import OutboundEmail
    from hanseweb.mail.outbox import render_pending
    from hanseweb.mail.tasks import send_email

    if mode == "send" and template.render:
        done = OutboundEmail.objects.get(pk=template.pk)
        if done.render:  # a worker may have made it meanwhile
            render_pending(done)  # the row is marked sent already: only its text is used
        template = done
    fields = dict(subject=template.subject, text=template.text, html=template.html, headers=template.headers,
                  render=template.render if mode == "full" else None)
    rows = [OutboundEmail(user_id=template.user_id, to=f"reader{i}@bench.invalid", kind=template.kind,
                          message_id=f"<bench-{i}-{time.time_ns()}@bench.invalid>", **fields)
            for i in range(count)]
    ids = [row.pk for row in OutboundEmail.objects.bulk_create(rows, batch_size=1000)]
    hand_over(ids, mode)
    return ids


def hand_over(ids: list[int], mode: str) -> None:
    """One task per row, as the outbox hands them over: rows to render to ``render_email`` (on the
    render queue when there is one), the others to ``send_email``."""
    from django.conf import settings

    from hanseweb.mail.tasks import render_email, send_email

    for pk in ids:
        if mode == "send":
            send_email.delay(pk)
        elif settings.HANSEWEB_RENDER_QUEUE:
            render_email.apply_async((pk,), queue=settings.HANSEWEB_RENDER_QUEUE)
        else:
            render_email.delay(pk)


def throughput(config: dict, args, database_url: str, queue: str, template, users) -> tuple[dict, list[Worker]]:
    from django.conf import settings
    from django.db.models import Max, Min

    from hanseweb.mail.models import OutboundEmail

    settings.HANSEWEB_RENDER_QUEUE = render_queue(config, queue)  # as the workers have it
    for name in filter(None, (queue, settings.HANSEWEB_RENDER_QUEUE)):
        purge(args.redis, name)
    OutboundEmail.objects.exclude(pk=template.pk).filter(kind=template.kind, to__startswith="reader").delete()
    if args.mode == "fresh":
        from django.core.cache import cache

        ids = fresh_rows(users, args.emails, args, queue)
        cache.clear()  # the bench's own Redis database: no board picture left from an earlier round
        hand_over(ids, args.mode)
    else:
        ids = queue_copies(template, args.emails, args.mode)
    workers = [Worker(config, database_url, args.redis, queue)]
    if settings.HANSEWEB_RENDER_QUEUE:
        workers.append(Worker(config, database_url, args.redis, queue, consume=settings.HANSEWEB_RENDER_QUEUE))
    worker = workers[0]
    startup = max(w.wait_ready() for w in workers)
    # From here on the workers take tasks: the rate is mails over the time from now to the last
    # one sent, and the CPU is all the workers spent in that time (a worker that makes mails
    # before it sends any is measured whole, not only its burst of sending).
    ready = datetime.now(dt_timezone.utc)
    cpu_ready = sum(benchkit.process_tree_cpu(w.proc.pid) for w in workers)
    pending = OutboundEmail.objects.filter(pk__in=ids, sent_at__isnull=True)
    samples = []  # (mails sent, workers' CPU s)
    deadline = time.monotonic() + 60 + args.emails / 10
    while time.monotonic() < deadline and all(w.proc.poll() is None for w in workers):
        left = pending.count()
        samples.append((len(ids) - left, sum(benchkit.process_tree_cpu(w.proc.pid) for w in workers)))
        if not left:
            break
        time.sleep(0.1)
    rows = OutboundEmail.objects.filter(pk__in=ids)
    sent = rows.filter(sent_at__isnull=False)
    span = sent.aggregate(first=Min("sent_at"), last=Max("sent_at"))
    n = sent.count()
    cpu_ms = (samples[-1][1] - cpu_ready) * 1000 / n if samples and n else None
    seconds = (span["last"] - ready).total_seconds() if n else None
    once = rows.filter(attempts=1).count() == len(ids)
    sent_results = len(re.findall(r"send_email\[[^\]]+\] succeeded in [^:]+: 'sent'", worker.text()))
    if config["loglevel"] != "info":  # no task results in the log to count
        sent_results = len(ids)
    return {
        "sent": n, "rows": len(ids), "startup": startup, "cpu_ms": cpu_ms,
        "rate": n / seconds if seconds and seconds > 0 else None,
        "once": once and sent_results == len(ids),
        "sent_results": sent_results,
    }, workers


def latency(args, users, queue: str, worker: Worker) -> tuple[list[float], int]:
    """Moves through the write path, one at a time, until ``args.mails`` turn mails have been
    timed: for each, commit of its move -> its sent_at (s); and the number of moves."""
    from django.db import transaction

    from games import services
    from games.engines import get_engine
    from games.models import Game
    from hanseweb.mail.models import OutboundEmail

    engine = get_engine(args.game)
    rng = random.Random(args.seed)
    game, games = new_game(users, args.game, args.seed), 1
    delays, moves = [], 0
    while len(delays) < args.mails and moves < 20 * args.mails:
        moves += 1
        if game.status != Game.RUNNING:
            game, games = new_game(users, args.game, args.seed + games), games + 1
        seat = min(game.to_act)
        move = rng.choice(engine.legal_moves(services.current_state(game), seat))
        last = OutboundEmail.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        committed = []
        with transaction.atomic():
            # Registered first, so it runs first at commit, before the mail task is handed to Redis.
            transaction.on_commit(lambda: committed.append(datetime.now(dt_timezone.utc)))
            services.submit_move(game.pk, users[seat], move)
        mails = OutboundEmail.objects.filter(pk__gt=last)
        deadline = time.monotonic() + 30
        while mails.filter(sent_at__isnull=True).exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        delays += [(sent - committed[0]).total_seconds() for sent in mails.values_list("sent_at", flat=True) if sent]
        game = Game.objects.get(pk=game.pk)
        time.sleep(args.pause)
    return delays[:args.mails], moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", action="append", help="a worker configuration (repeatable); default: "
                        + " ; ".join(DEFAULT_CONFIGS))
    parser.add_argument("--emails", type=int, default=2000, help="outbox rows for the throughput run")
    parser.add_argument("--mails", type=int, default=100,
                        help="turn mails to time in the latency run (moves are submitted until there are as many)")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between moves in the latency run")
    parser.add_argument("--game", default="hansa", help="engine of the latency game (2 players)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds over the configurations (interleaved)")
    parser.add_argument("--mode", choices=["full", "fresh", "send"], default="full",
                        help="full: copies of one turn mail as a move queues it (the worker renders each, with its "
                             "board picture, then sends it; the copies share one PNG); fresh: turn mails of as many "
                             "positions (each its own PNG, as in play); send: copies already rendered, without "
                             "the picture")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default=benchkit.DEFAULT_PG)
    parser.add_argument("--db", default="hanseweb_benchmail", help="the bench database (created here)")
    parser.add_argument("--redis", default=benchkit.DEFAULT_REDIS)
    args = parser.parse_args()
    configs = [parse_config(c) for c in (args.config or DEFAULT_CONFIGS)]

    benchkit.create_database(args.pg, args.db)
    database_url = f"{args.pg}/{args.db}"
    queue = f"bench-mail-{benchkit.free_port()}"
    benchkit.setup_django(database_url, args.redis, CELERY_QUEUE=queue, CELERY_TASK_ALWAYS_EAGER="0",
                          HANSEWEB_EMAIL_BACKEND="anymail.backends.test.EmailBackend")
    benchkit.migrate()

    from hanseweb.mail.models import OutboundEmail

    OutboundEmail.objects.all().delete()
    users = bench_users(2)
    new_game(users, args.game, args.seed)  # queues a real turn mail: the template of the copies
    template = OutboundEmail.objects.filter(kind="your_turn").latest("pk")
    OutboundEmail.objects.filter(pk=template.pk).update(sent_at=datetime.now(dt_timezone.utc))
    log(f"template: a turn mail to seat {template.render and template.render['params']['seat']} ({args.mode} mode)")

    results = {i: [] for i in range(len(configs))}
    delays = {i: [] for i in range(len(configs))}
    moves = {i: 0 for i in range(len(configs))}
    try:
        for round_ in range(args.repeat):
            for i, config in enumerate(configs):  # interleaved, so that a busy moment hits every one
                log(f"worker {describe(config)}: {args.emails} mails (round {round_ + 1}/{args.repeat})")
                result, workers = throughput(config, args, database_url, queue, template, users)
                results[i].append(result)
                try:
                    log(f"  {result['rate'] or 0:.0f} mails/s, worker CPU {result['cpu_ms'] or 0:.2f} ms/mail"
                        + (f"; moves until {args.mails} turn mails are timed" if args.mails else ""))
                    if args.mails:
                        timed, made = latency(args, users, queue, workers[0])
                        delays[i] += timed
                        moves[i] += made
                finally:
                    for worker in workers:
                        worker.stop()
    finally:
        purge(args.redis, queue)
    rows = []
    for i, config in enumerate(configs):
        rates = [r["rate"] or 0 for r in results[i]]
        once = all(r["once"] for r in results[i])
        d = delays[i]
        p = (lambda q: f"{benchkit.percentile(d, q) * 1000:.0f}") if d else (lambda q: "n/a")
        rows.append([
            describe(config),
            f"{statistics.median(rates):.0f}"
            + (f" ({', '.join(f'{r:.0f}' for r in rates)})" if len(rates) > 1 else ""),
            f"{sum(r['sent'] for r in results[i])}/{sum(r['rows'] for r in results[i])}"
            + ("" if once else " (NOT all once: see the worker logs)"),
            f"{statistics.median(r['cpu_ms'] or 0 for r in results[i]):.2f}",
            f"{p(50)} / {p(95)}", f"{len(d)} ({moves[i]})",
        ])
    print()
    print(f"ONE worker, Redis broker, PostgreSQL ({args.db}), anymail test backend; {args.emails} queued "
          f"turn mails per round ({MODES[args.mode]}), {args.repeat} round(s); "
          f"latency: {args.game} moves through the write path, {args.pause * 1000:.0f} ms apart, "
          f"until {args.mails} turn mails per round are timed")
    print()
    print(benchkit.markdown_table(
        ["worker", "mails/s, median (each round)", "sent once", "worker CPU ms/mail", "commit -> sent p50 / p95 ms",
         "mails timed (moves)"], rows))


if __name__ == "__main__":
    main()
