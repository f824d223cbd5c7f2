"""Settings as each kind of start sees them, and the refusal to start without a real secret key.

Each case runs in a fresh process with a controlled environment (settings are read once, at import)."""
import json
import os
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from hanseweb import secret_key
from hanseweb.secret_key import embedded_key, problem_with

from .embedded_server import REPO, embedded_env

GOOD_KEY = "k3Q9-zv_8pLx2mTqR7sWn4YbC6dHfJ1uEaGoVi5N0"
PG = "postgres://postgres@127.0.0.1:5432/hanseweb_unused"

SHOW = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "debug": settings.DEBUG, "embedded": settings.EMBEDDED, "site_url": settings.SITE_URL,
    "secure_cookies": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
    "proxy_ssl": bool(getattr(settings, "SECURE_PROXY_SSL_HEADER", None)),
    "key": settings.SECRET_KEY, "problem": settings.HANSEWEB_SECRET_KEY_PROBLEM,
    "engine": db["ENGINE"], "options": db.get("OPTIONS", {}), "name": str(db["NAME"]),
}))
"""


def run(args, tmp_path, timeout=60, **env):
    base = embedded_env(tmp_path, 8000)
    base.pop("PORT")
    base["DJANGO_SETTINGS_MODULE"] = "hanseweb.settings"
    return subprocess.run(args, cwd=REPO, env={**base, **env}, capture_output=True, text=True, timeout=timeout)


def settings_with(tmp_path, **env) -> dict:
    done = run([sys.executable, "-c", "import django; django.setup()\n" + SHOW], tmp_path, **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_embedded_default(tmp_path):
    s = settings_with(tmp_path)
    assert s["embedded"] and not s["debug"]
    assert s["site_url"] == "http://127.0.0.1:8000"
    assert s["secure_cookies"] == [False, False] and not s["proxy_ssl"]  # plain http on 127.0.0.1
    assert s["problem"] is None
    # SQLite set up for a threaded web server
    assert s["engine"].endswith("sqlite3") and s["name"] == str(tmp_path / "db.sqlite3")
    assert s["options"]["transaction_mode"] == "IMMEDIATE"
    pragmas = s["options"]["init_command"].replace(" ", "").lower()
    for pragma in ("journal_mode=wal", "synchronous=normal", "busy_timeout="):
        assert pragma in pragmas


def test_sqlite_really_runs_in_wal_mode(tmp_path):
    done = run([sys.executable, "-c", "import django; django.setup()\nfrom django.db import connection\n"
                "c = connection.cursor(); print(c.execute('PRAGMA journal_mode').fetchone()[0], "
                "c.execute('PRAGMA busy_timeout').fetchone()[0])"], tmp_path)
    assert done.stdout.split() == ["wal", "20000"], done.stderr


def test_debug_only_on_request(tmp_path):
    assert settings_with(tmp_path, HANSEWEB_DEBUG="1")["debug"] is True
    assert settings_with(tmp_path, HANSEWEB_DEBUG="0")["debug"] is False
    assert settings_with(tmp_path, HANSEWEB_SECRET_KEY=GOOD_KEY)["debug"] is False


def test_site_url_follows_port(tmp_path):
    assert settings_with(tmp_path, PORT="8765")["site_url"] == "http://127.0.0.1:8765"
    assert settings_with(tmp_path, PORT="8765", HANSEWEB_SITE_URL="https://play.example.org/")["site_url"] == \
        "https://play.example.org"


def test_a_deployment_keeps_secure_cookies(tmp_path):
    s = settings_with(tmp_path, DATABASE_URL=PG, HANSEWEB_SECRET_KEY=GOOD_KEY)
    assert not s["embedded"] and not s["debug"]
    assert s["secure_cookies"] == [True, True] and s["proxy_ssl"]
    s = settings_with(tmp_path, DATABASE_URL=PG, HANSEWEB_SECRET_KEY=GOOD_KEY, HANSEWEB_SECURE_COOKIES="0")
    assert s["secure_cookies"] == [False, False]


def test_embedded_key_is_generated_once_and_private(tmp_path):
    first = settings_with(tmp_path)["key"]
    path = tmp_path / "secret_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().strip() == first and len(first) >= 50 and problem_with(first) is None
    assert settings_with(tmp_path)["key"] == first  # kept across restarts
    other = tmp_path / "other"
    other.mkdir()
    assert settings_with(other)["key"] != first  # random, not a public default


def test_processes_starting_together_agree_on_one_key(tmp_path):
    path = tmp_path / "var" / "secret_key"
    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: embedded_key(path), range(32)))
    assert keys == {path.read_text().strip()}
    assert sorted(p.name for p in path.parent.iterdir()) == ["secret_key"]  # no temporary files left


@pytest.mark.parametrize("env", [
    {"DATABASE_URL": PG},
    {"REDIS_URL": "redis://127.0.0.1:6379/11"},
    {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/11"},
])
def test_a_deployment_without_a_key_gets_no_usable_default(tmp_path, env):
    s = settings_with(tmp_path, **env)
    assert not s["embedded"]
    assert "HANSEWEB_SECRET_KEY is not set" in s["problem"]
    assert s["key"] != settings_with(tmp_path, **env)["key"]  # a throw-away key per process
    assert not (tmp_path / "secret_key").exists()


@pytest.mark.parametrize("key,words", [
    ("", "not set"),
    ("change-me-to-a-long-random-string", "published example"),
    ("embedded-default-insecure-key-change-me", "published example"),
    ("django-insecure-" + "x1y2z3" * 10, "published example"),
    ("short", "too weak"),
    ("a" * 60, "too weak"),
])
def test_weak_keys_are_named(key, words):
    assert words in problem_with(key)


@pytest.mark.parametrize("command", [["check"], ["migrate", "--check"]])
def test_manage_py_refuses_without_a_key(tmp_path, command):
    done = run([sys.executable, "manage.py", *command], tmp_path, DATABASE_URL=PG)
    assert done.returncode != 0
    assert "hanseweb.E001" in done.stderr and "HANSEWEB_SECRET_KEY is not set" in done.stderr
    weak = run([sys.executable, "manage.py", "check"], tmp_path, DATABASE_URL=PG,
               HANSEWEB_SECRET_KEY="change-me-to-a-long-random-string")
    assert weak.returncode != 0 and "published example" in weak.stderr
    good = run([sys.executable, "manage.py", "check"], tmp_path, DATABASE_URL=PG, HANSEWEB_SECRET_KEY=GOOD_KEY)
    assert good.returncode == 0, good.stderr


def test_the_web_server_refuses_without_a_key(tmp_path):
    done = run([sys.executable, "-c", "import hanseweb.wsgi"], tmp_path, DATABASE_URL=PG)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "HANSEWEB_SECRET_KEY is not set" in done.stderr
    good = run([sys.executable, "-c", "import hanseweb.wsgi"], tmp_path, DATABASE_URL=PG, HANSEWEB_SECRET_KEY=GOOD_KEY)
    assert good.returncode == 0, good.stderr
    embedded = run([sys.executable, "-c", "import hanseweb.wsgi"], tmp_path)
    assert embedded.returncode == 0, embedded.stderr


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
@pytest.mark.parametrize("role", ["worker", "beat"])
def test_celery_refuses_without_a_key(tmp_path, role):
    args = [sys.executable, "-m", "celery", "-A", "hanseweb", role, "-l", "warning"]
    args += ["--pool", "solo"] if role == "worker" else ["--schedule", str(tmp_path / "beat-schedule")]
    done = run(args, tmp_path, timeout=60, REDIS_URL=os.environ["REDIS_URL"])
    assert done.returncode == 1
    assert "Hanseweb refuses to start" in done.stderr + done.stdout


def test_the_test_run_itself_has_a_real_key(settings):
    """scripts/test exports a fresh key; plain pytest runs against PostgreSQL get a throw-away one."""
    assert problem_with(settings.SECRET_KEY) is None
    assert settings.SECRET_KEY not in secret_key.PLACEHOLDERS


def test_a_deployment_is_warned_about_links_to_localhost(tmp_path):
    done = run([sys.executable, "manage.py", "check"], tmp_path, DATABASE_URL=PG, HANSEWEB_SECRET_KEY=GOOD_KEY)
    assert "hanseweb.W001" in done.stderr + done.stdout
    done = run([sys.executable, "manage.py", "check"], tmp_path, DATABASE_URL=PG, HANSEWEB_SECRET_KEY=GOOD_KEY,
               HANSEWEB_SITE_URL="https://play.example.org")
    assert done.returncode == 0 and "W001" not in done.stderr + done.stdout
