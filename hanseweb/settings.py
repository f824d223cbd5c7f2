"""Hanseweb settings: one file, driven by environment variables (see docs/configuration.md).

With nothing configured it runs embedded: SQLite, Celery tasks in-process (eager, after commit),
mail printed to the console. Each variable below switches one part to a real service.
"""
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("HANSEWEB_DEBUG", default=not env("HANSEWEB_SECRET_KEY"))
SECRET_KEY = env("HANSEWEB_SECRET_KEY") or "embedded-default-insecure-key-change-me"
ALLOWED_HOSTS = [h for h in env("HANSEWEB_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in env("HANSEWEB_CSRF_TRUSTED_ORIGINS").split(",") if o]
# Absolute base URL used in emails (links, unsubscribe).
SITE_URL = env("HANSEWEB_SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "anymail",
    "hanseweb.accounts",
    "hanseweb.mail",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "hanseweb.urls"
WSGI_APPLICATION = "hanseweb.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database -------------------------------------------------------------
# DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/hanseweb ; default: SQLite file.
DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(env("HANSEWEB_DB_CONN_MAX_AGE", "0")),
    )
}
if env_bool("HANSEWEB_REQUIRE_SERVICES") and DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    raise RuntimeError("HANSEWEB_REQUIRE_SERVICES is set but DATABASE_URL does not name PostgreSQL")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- persistent database connections ------------------------------------------
# Web processes and Celery workers keep their database connection for CONN_MAX_AGE seconds
# (PostgreSQL: 60 by default; SQLite, the embedded default: 0, a fresh connection per request),
# and check it with a cheap query before reusing it after a request or task (CONN_HEALTH_CHECKS).
# HANSEWEB_DB_CONN_MAX_AGE overrides (0: close after every request and task). Celery's Django
# fixup would close the connection around every task: CELERY_DB_REUSE_MAX tells it not to, and
# hanseweb/celery.py applies Django's own per-request rule (close_old_connections) per task.
_conn_max_age = env("HANSEWEB_DB_CONN_MAX_AGE") or ("0" if DATABASES["default"]["ENGINE"].endswith("sqlite3") else "60")
DATABASES["default"]["CONN_MAX_AGE"] = int(_conn_max_age)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = DATABASES["default"]["CONN_MAX_AGE"] != 0
CELERY_DB_REUSE_MAX = 1_000_000 if DATABASES["default"]["CONN_MAX_AGE"] != 0 else None

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
if env_bool("HANSEWEB_FAST_PASSWORD_HASHER"):  # tests only
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en"
TIME_ZONE = env("HANSEWEB_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "hanseweb" / "static"]

# --- cache ----------------------------------------------------------------
REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}

# --- Celery ---------------------------------------------------------------
# REDIS_URL switches Celery to a real broker; without it tasks run in-process.
CELERY_BROKER_URL = env("CELERY_BROKER_URL") or REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not (env("CELERY_BROKER_URL") or REDIS_URL))
# In-process (eager) tasks: a failing task must not turn a committed move into an error page,
# except in tests, which want to see it.
CELERY_TASK_EAGER_PROPAGATES = env_bool("CELERY_TASK_EAGER_PROPAGATES")
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", "hanseweb")
CELERY_BEAT_SCHEDULE = {
    "outbox-sweep": {"task": "hanseweb.mail.tasks.sweep_outbox", "schedule": timedelta(minutes=1)},
    "inbound-sweep": {"task": "hanseweb.mail.tasks.sweep_inbound", "schedule": timedelta(minutes=1)},
    "deadline-sweep": {"task": "games.tasks.sweep_deadlines", "schedule": timedelta(minutes=5)},
    "deadline-reminders": {"task": "games.tasks.send_reminders", "schedule": timedelta(minutes=5)},
}

# --- email ----------------------------------------------------------------
# HANSEWEB_EMAIL_BACKEND: any Django/anymail backend path, e.g.
# anymail.backends.mailgun.EmailBackend (+ ANYMAIL_* credentials). Default: console.
EMAIL_BACKEND = env("HANSEWEB_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = env("HANSEWEB_EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
DEFAULT_FROM_EMAIL = env("HANSEWEB_FROM_EMAIL", "Hanseweb <noreply@hanseweb.localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Replies by email: turn mails get a Reply-To of play+<signed token>@HANSEWEB_REPLY_DOMAIN, and
# the ESP's inbound webhook (/anymail/<esp>/inbound/) delivers replies. Empty: no replies.
HANSEWEB_REPLY_DOMAIN = env("HANSEWEB_REPLY_DOMAIN")
ANYMAIL = {
    key[len("ANYMAIL_"):]: value for key, value in os.environ.items() if key.startswith("ANYMAIL_")
}

# --- security for real deployments -----------------------------------------
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("HANSEWEB_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("HANSEWEB_SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("HANSEWEB_LOG_LEVEL", "INFO")},
}
