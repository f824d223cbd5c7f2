"""Shared helpers of the benchmark scripts (``bench_web.py``, ``bench_mail.py``): a dedicated
PostgreSQL database, Django set up on it in this process, free ports, percentiles, tables.

Benchmarks are scripts that print figures, not tests. They use only the standard library and what
``requirements.lock`` already installs (psycopg, redis, requests).
"""
from __future__ import annotations

import math
import os
import secrets
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"


def admin_connect(pg: str):
    import psycopg

    return psycopg.connect(f"{pg}/postgres", autocommit=True)


def database_exists(pg: str, name: str) -> bool:
    with admin_connect(pg) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def create_database(pg: str, name: str, *, drop: bool = False) -> bool:
    """Create the bench database (dropping it first with ``drop``). True if it was created."""
    from psycopg import sql

    with admin_connect(pg) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and drop:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
            exists = None
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return True
    return False


def drop_database(pg: str, name: str) -> None:
    from psycopg import sql

    with admin_connect(pg) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


_SECRET_KEY = secrets.token_urlsafe(50)


def service_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of a production-like process (web server, worker) on the bench services."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "HANSEWEB_"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "hanseweb.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "HANSEWEB_REQUIRE_SERVICES": "1",
        "HANSEWEB_LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        # a real key for this run (servers and workers refuse to start without one)
        "HANSEWEB_SECRET_KEY": _SECRET_KEY,
    })
    env.update({k: str(v) for k, v in extra.items() if v is not None})
    return env


def setup_django(database_url: str, redis_url: str, **extra: str) -> None:
    """Configure this process like ``service_env`` and run ``django.setup()``."""
    for key in [k for k in os.environ if k.startswith(("CELERY_", "HANSEWEB_"))]:
        del os.environ[key]
    os.environ.update(service_env(database_url, redis_url, **extra))
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)])


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and its direct children (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")

    def stat(p):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return None
        return int(fields[1]), (int(fields[11]) + int(fields[12])) / tick  # ppid, utime + stime

    total = (stat(pid) or (0, 0.0))[1]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and entry.name != str(pid):
            info = stat(entry.name)
            if info and info[0] == pid:
                total += info[1]
    return total


def wait_for_http(proc, url: str, seconds: float) -> bool:
    """Poll ``url`` until it answers 200 (True) or ``proc`` exits or ``seconds`` pass (False): a
    server the benchmark started, coming up."""
    import time

    import requests

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if requests.get(url, timeout=5).status_code == 200:
                return True
        except requests.RequestException:  # not listening yet, or too busy starting
            pass
        time.sleep(0.2)
    return False


def stop_process(proc, seconds: float = 30) -> None:
    """Terminate ``proc`` (a server the benchmark started), killing it after ``seconds``."""
    import subprocess

    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
