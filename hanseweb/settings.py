"""Hanseweb settings: one file, driven by environment variables (see docs/configuration.md).

With nothing configured it runs embedded: SQLite, Celery tasks in-process (eager, after commit),
mail printed to the console. Each variable below switches one part to a real service.
"""
import os
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url

from hanseweb import secret_key as _secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# The embedded default: no database server and no broker configured (SQLite, tasks in-process).
EMBEDDED = not (env("DATABASE_URL") or env("REDIS_URL") or env("CELERY_BROKER_URL"))

# Debug pages show tracebacks with local variables (game states, seeds): only on request.
DEBUG = env_bool("HANSEWEB_DEBUG")
# A real key from the environment; on the embedded default one generated once into var/secret_key.
# Without one elsewhere, HANSEWEB_SECRET_KEY_PROBLEM says why and every server refuses to start
# (hanseweb/secret_key.py: wsgi.py, the Celery worker and beat, a system check for manage.py).
SECRET_KEY, HANSEWEB_SECRET_KEY_PROBLEM = _secret_key.resolve(
    env("HANSEWEB_SECRET_KEY"), EMBEDDED, Path(env("HANSEWEB_SECRET_KEY_FILE") or BASE_DIR / "var" / "secret_key")
)
ALLOWED_HOSTS = [h for h in env("HANSEWEB_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in env("HANSEWEB_CSRF_TRUSTED_ORIGINS").split(",") if o]
# Absolute base URL used in emails (links, unsubscribe); by default the local server's port.
SITE_URL = (env("HANSEWEB_SITE_URL") or f"http://127.0.0.1:{env('PORT') or '8000'}").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "anymail",
    "csp",
    "hanseweb.accounts",
    "hanseweb.mail",
    "games",
    "hanseweb.leagues",
    "hanseweb.players",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy with a nonce per response (below)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # visitors: cookie, then Accept-Language (docs/i18n.md)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "hanseweb.headers.PrivateCacheMiddleware",  # a signed-in account's pages: Cache-Control: private
    "hanseweb.i18n.AccountLanguageMiddleware",  # a signed-in player: the language of the account
    "hanseweb.timezones.TimeZoneMiddleware",  # the reader's time zone: the account's, else the browser's
    "hanseweb.throttle.RefusedPostsMiddleware",  # after CSRF: counts a signed-in account's refused POSTs
    "hanseweb.method_not_allowed.FriendlyMethodNotAllowedMiddleware",  # a GET on a form's address: a page, not a blank 405
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
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- database -------------------------------------------------------------
# DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/hanseweb ; default: SQLite file.
DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL") or f"sqlite:///{env('HANSEWEB_SQLITE_PATH') or BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(env("HANSEWEB_DB_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3") and DATABASES["default"]["NAME"] not in ("", ":memory:"):
    # The embedded database holds session keys, seeds, password hashes and inbound mail: owner only.
    from hanseweb.private_files import private_dir as _private_dir, private_file as _private_file

    _private_dir(Path(DATABASES["default"]["NAME"]).parent)
    _private_file(Path(DATABASES["default"]["NAME"]))
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # SQLite behind a threaded web server: readers never block the writer (WAL), a writer waits
    # for another instead of failing with "database is locked" (busy timeout), and every write
    # transaction takes the lock at BEGIN, so a read-then-write transaction never finds its
    # snapshot outdated when it comes to write (SQLite ignores SELECT ... FOR UPDATE).
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000",
    })
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
# The three languages (docs/i18n.md): chosen per account, by the browser (Accept-Language) or the
# switcher for visitors. Catalogues in locale/ (scripts/i18n updates and compiles them).
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("HANSEWEB_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "hanseweb" / "static"]
# WhiteNoise serves static files in every mode; deployments run collectstatic into STATIC_ROOT,
# the embedded default serves them straight from the source folders (no collectstatic needed).
WHITENOISE_USE_FINDERS = EMBEDDED or DEBUG
if WHITENOISE_USE_FINDERS:  # then an absent STATIC_ROOT (no collectstatic run) is expected
    warnings.filterwarnings("ignore", message=f"No directory at: {STATIC_ROOT}")

# --- cache ----------------------------------------------------------------
REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    # Redis down or hanging degrades to "no cache" (hanseweb/cache.py): each call waits at most
    # HANSEWEB_CACHE_TIMEOUT_SECONDS, and after a failure the cache is left alone for
    # HANSEWEB_CACHE_RETRY_SECONDS; /healthz says "degraded".
    _cache_timeout = float(env("HANSEWEB_CACHE_TIMEOUT_SECONDS", "1"))
    CACHES = {"default": {"BACKEND": "hanseweb.cache.ResilientRedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": _cache_timeout, "socket_timeout": _cache_timeout}}}
HANSEWEB_CACHE_RETRY_SECONDS = float(env("HANSEWEB_CACHE_RETRY_SECONDS", "5"))

# A started game's page body is cached per game version and viewer (games.views.game_page) for
# this many seconds; 0 turns it off. Each entry is one page (tens of KB): size the cache for
# (moves per hour x viewers per game) of them, e.g. Redis with maxmemory-policy allkeys-lru.
HANSEWEB_PAGE_CACHE_SECONDS = int(env("HANSEWEB_PAGE_CACHE_SECONDS", "3600"))
# List pages (lobby, archive, players, clubs, leagues, seasons, feeds, API lists) are kept whole per
# version and viewer for at most this many seconds (hanseweb/pagecache.py); 0 turns it off. Only
# with Redis (REDIS_URL): the embedded default's per-process cache could not share invalidations.
HANSEWEB_LIST_CACHE_SECONDS = int(env("HANSEWEB_LIST_CACHE_SECONDS", "300"))
# Vacation days each account may take per calendar year (hanseweb/accounts/vacation.py).
HANSEWEB_VACATION_DAYS_PER_YEAR = int(env("HANSEWEB_VACATION_DAYS_PER_YEAR", "28"))
# "say:" lines and "vacation N"/"back" by mail: taken from a reply address only while its game runs and
# its seat's decision is still the one mailed, or for this many days after the mail (issue 27)
HANSEWEB_REPLY_COMMAND_DAYS = int(env("HANSEWEB_REPLY_COMMAND_DAYS", "3"))

# --- Celery ---------------------------------------------------------------
# REDIS_URL switches Celery to a real broker; without it tasks run in-process.
CELERY_BROKER_URL = env("CELERY_BROKER_URL") or REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not (env("CELERY_BROKER_URL") or REDIS_URL))
# In-process (eager) tasks: a failing task must not turn a committed move into an error page,
# except in tests, which want to see it.
CELERY_TASK_EAGER_PROPAGATES = env_bool("CELERY_TASK_EAGER_PROPAGATES")
# A task is acknowledged when it has run, not when it was taken: a worker that dies mid-task
# leaves it to another. A prefork child that dies (the render worker) has its task given back at
# once (reject on worker lost); a whole worker process that dies leaves its tasks in Redis's
# "unacked" set, restored to the queue by any running worker once they are older than the
# visibility timeout (HANSEWEB_BROKER_VISIBILITY_TIMEOUT, 5 min: longer than any task runs, since
# a task still running when it passes would be run a second time; sending a mail takes at most
# 2 x EMAIL_TIMEOUT). Mail and received mail do not wait for that: the beat's minute sweeps
# re-queue their rows (deploy/README.md, "When a worker dies").
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
_visibility = int(env("HANSEWEB_BROKER_VISIBILITY_TIMEOUT", "300"))
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": _visibility,
                                   # look for abandoned tasks every few seconds, not every 100 s
                                   "unacked_restore_interval": max(1, min(10, _visibility // 3)),
                                   "unacked_restore_throttle": 1}
# While the broker (Redis) is down, publishing a task fails fast and is then skipped for
# HANSEWEB_BROKER_RETRY_SECONDS; the outbox and inbound rows stay pending for the beat's sweeps.
CELERY_BROKER_CONNECTION_TIMEOUT = float(env("HANSEWEB_BROKER_CONNECTION_TIMEOUT", "2"))
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
HANSEWEB_BROKER_RETRY_SECONDS = float(env("HANSEWEB_BROKER_RETRY_SECONDS", "10"))
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", "hanseweb")
# Rendering turn mails (their board as a PNG: tens of ms of CPU each) on workers of their own:
# HANSEWEB_RENDER_QUEUE names the queue of ``render_email`` (deploy/ runs a prefork worker on it);
# unset, it is the default queue, so one worker does everything.
HANSEWEB_RENDER_QUEUE = env("HANSEWEB_RENDER_QUEUE", "")
# Table talk by mail on its own, for "every decision" readers, when no turn mail carried it within
# this many minutes (games/chat_mail.py).
HANSEWEB_CHAT_MAIL_AFTER_MINUTES = int(env("HANSEWEB_CHAT_MAIL_AFTER_MINUTES", "15"))
CELERY_BEAT_SCHEDULE = {
    "outbox-sweep": {"task": "hanseweb.mail.tasks.sweep_outbox", "schedule": timedelta(minutes=1)},
    "inbound-sweep": {"task": "hanseweb.mail.tasks.sweep_inbound", "schedule": timedelta(minutes=1)},
    "deadline-sweep": {"task": "games.tasks.sweep_deadlines", "schedule": timedelta(minutes=5)},
    "bots-sweep": {"task": "games.tasks.sweep_bots", "schedule": timedelta(minutes=1)},
    "deadline-reminders": {"task": "games.tasks.send_reminders", "schedule": timedelta(minutes=5)},
    "daily-digests": {"task": "games.tasks.send_digests", "schedule": timedelta(minutes=15)},
    "chat-news": {"task": "games.tasks.send_chat_news", "schedule": timedelta(minutes=1)},
    "league-rounds": {"task": "hanseweb.leagues.tasks.start_due_rounds", "schedule": timedelta(minutes=5)},
    "ratings": {"task": "hanseweb.leagues.tasks.rate_finished_games", "schedule": timedelta(minutes=1)},
    "mail-retention": {"task": "hanseweb.mail.tasks.delete_old_mail", "schedule": timedelta(hours=1)},
}

# --- email ----------------------------------------------------------------
# HANSEWEB_EMAIL_BACKEND: any Django/anymail backend path, e.g.
# anymail.backends.mailgun.EmailBackend (+ ANYMAIL_* credentials). Default: console.
EMAIL_BACKEND = env("HANSEWEB_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = env("HANSEWEB_EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
# With HANSEWEB_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend: the SMTP server (a
# relay, or an ESP's SMTP endpoint). HANSEWEB_SMTP_SECURITY: starttls | ssl | none.
EMAIL_HOST = env("HANSEWEB_SMTP_HOST", "localhost")
EMAIL_PORT = int(env("HANSEWEB_SMTP_PORT", "25"))
EMAIL_HOST_USER = env("HANSEWEB_SMTP_USER")
EMAIL_HOST_PASSWORD = env("HANSEWEB_SMTP_PASSWORD")
EMAIL_USE_TLS = env("HANSEWEB_SMTP_SECURITY", "starttls") == "starttls"
EMAIL_USE_SSL = env("HANSEWEB_SMTP_SECURITY") == "ssl"
DEFAULT_FROM_EMAIL = env("HANSEWEB_FROM_EMAIL", "Hanseweb <noreply@hanseweb.localhost>")
# Retrying mail the ESP did not take (hanseweb/mail/tasks.py): exponential backoff from the first
# wait to the longest; a mail still unsent HANSEWEB_MAIL_RETRY_HOURS after it was queued is given
# up as failed (manage.py mail_status, the admin, /healthz/mail show it).
HANSEWEB_MAIL_RETRY_HOURS = float(env("HANSEWEB_MAIL_RETRY_HOURS", "48"))
HANSEWEB_MAIL_RETRY_FIRST_SECONDS = int(env("HANSEWEB_MAIL_RETRY_FIRST_SECONDS", "60"))
HANSEWEB_MAIL_RETRY_MAX_SECONDS = int(env("HANSEWEB_MAIL_RETRY_MAX_SECONDS", "3600"))
# Retention (hanseweb.mail.tasks.delete_old_mail, hourly): outbox rows sent or given up more than
# HANSEWEB_OUTBOX_RETENTION_DAYS ago, and received mail processed more than
# HANSEWEB_INBOUND_RETENTION_DAYS ago, are deleted (unsent mail and the move log never). The
# inbound age is at least HANSEWEB_INBOUND_DEDUP_DAYS: a received mail is its Message-ID's
# de-duplication key, kept longer than any ESP retries a webhook. docs/configuration.md.
HANSEWEB_OUTBOX_RETENTION_DAYS = float(env("HANSEWEB_OUTBOX_RETENTION_DAYS", "30"))
HANSEWEB_INBOUND_RETENTION_DAYS = float(env("HANSEWEB_INBOUND_RETENTION_DAYS", "90"))
HANSEWEB_INBOUND_DEDUP_DAYS = 7
# The periodic tasks read what is due in batches of this many rows, oldest first, and go on to the
# next batch while the run is younger than HANSEWEB_TASK_SECONDS (the next beat goes on from there).
HANSEWEB_TASK_BATCH_SIZE = int(env("HANSEWEB_TASK_BATCH_SIZE", "200"))
HANSEWEB_TASK_SECONDS = float(env("HANSEWEB_TASK_SECONDS", "45"))
# /healthz/full reports mail as late (503) when a mail has waited longer than this
HANSEWEB_HEALTH_MAIL_LATE_MINUTES = int(env("HANSEWEB_HEALTH_MAIL_LATE_MINUTES", "15"))
# How long one attempt to hand a mail to the ESP may take (SMTP; anymail's HTTP ESPs: 30 s by
# default), and after how long a row still marked "sending" counts as abandoned by a dead worker.
EMAIL_TIMEOUT = int(env("HANSEWEB_EMAIL_TIMEOUT", "30"))
HANSEWEB_MAIL_SEND_LEASE_SECONDS = int(env("HANSEWEB_MAIL_SEND_LEASE_SECONDS", str(2 * EMAIL_TIMEOUT + 30)))
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Replies by email: turn mails get a Reply-To of play+<signed token>@HANSEWEB_REPLY_DOMAIN, and
# the ESP's inbound webhook (/anymail/<esp>/inbound/) delivers replies. Empty: no replies.
HANSEWEB_REPLY_DOMAIN = env("HANSEWEB_REPLY_DOMAIN")
ANYMAIL = {
    key[len("ANYMAIL_"):]: value for key, value in os.environ.items() if key.startswith("ANYMAIL_")
}

# --- inbound mail (hanseweb/mail/inbound.py) --------------------------------
# Largest post an ESP's inbound webhook may make (a reply with attachments), in bytes; larger
# posts are refused with 413 (so a stored inbound row is at most this). Ordinary forms keep
# Django's DATA_UPLOAD_MAX_MEMORY_SIZE. The webhook exists only with ANYMAIL_WEBHOOK_SECRET set.
HANSEWEB_INBOUND_MAX_BYTES = int(env("HANSEWEB_INBOUND_MAX_BYTES", str(10 * 1024 * 1024)))

# --- optional IMAP poller (hanseweb/mail/imap.py) -----------------------------
# For a club with a mailbox but no ESP inbound webhook: the unread messages of one folder are taken
# through the inbound path by `manage.py poll_imap`, and by the beat every
# HANSEWEB_IMAP_POLL_SECONDS when HANSEWEB_IMAP_HOST is set.
HANSEWEB_IMAP_HOST = env("HANSEWEB_IMAP_HOST")
HANSEWEB_IMAP_PORT = int(env("HANSEWEB_IMAP_PORT", "0"))  # 0: 993 for ssl, 143 otherwise
HANSEWEB_IMAP_SECURITY = env("HANSEWEB_IMAP_SECURITY", "ssl")  # ssl | starttls | none
HANSEWEB_IMAP_USER = env("HANSEWEB_IMAP_USER")
HANSEWEB_IMAP_PASSWORD = env("HANSEWEB_IMAP_PASSWORD")
HANSEWEB_IMAP_FOLDER = env("HANSEWEB_IMAP_FOLDER", "INBOX")
HANSEWEB_IMAP_DONE_FOLDER = env("HANSEWEB_IMAP_DONE_FOLDER")  # empty: taken messages are marked read
HANSEWEB_IMAP_TIMEOUT = int(env("HANSEWEB_IMAP_TIMEOUT", "30"))
HANSEWEB_IMAP_POLL_SECONDS = int(env("HANSEWEB_IMAP_POLL_SECONDS", "60"))
if HANSEWEB_IMAP_HOST:
    CELERY_BEAT_SCHEDULE["imap-poll"] = {"task": "hanseweb.mail.tasks.poll_imap",
                                         "schedule": timedelta(seconds=max(10, HANSEWEB_IMAP_POLL_SECONDS))}

# --- security for real deployments -----------------------------------------
# Secure cookies behind TLS; the embedded default is plain http on 127.0.0.1, where secure cookies
# would never come back and login would fail.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("HANSEWEB_SECURE_COOKIES", not (DEBUG or EMBEDDED))
if not (DEBUG or EMBEDDED):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # HSTS (sent on https responses only): browsers keep to https for a year once they have seen
    # it. HANSEWEB_HSTS_SECONDS=0 turns it off (e.g. while trying TLS out); subdomains and preload
    # are the operator's choice (they bind every name under the domain).
    SECURE_HSTS_SECONDS = int(env("HANSEWEB_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HANSEWEB_HSTS_INCLUDE_SUBDOMAINS")
    SECURE_HSTS_PRELOAD = env_bool("HANSEWEB_HSTS_PRELOAD")

# Content-Security-Policy (django-csp; docs/architecture.md "Scripts and the Content-Security-
# Policy"): scripts only from this site's static files or inline with this response's nonce
# (<script nonce="{{ request.csp_nonce }}">), no plug-ins, no framing, forms post only here.
# Styles may be inline (the players' colours are style attributes, the boards inline SVG).
from csp.constants import NONCE as _NONCE, NONE as _NONE, SELF as _SELF, UNSAFE_INLINE as _UNSAFE_INLINE  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [_SELF],
        "script-src": [_SELF, _NONCE],
        "style-src": [_SELF, _UNSAFE_INLINE],
        "img-src": [_SELF, "data:"],
        "font-src": [_SELF],
        "connect-src": [_SELF],
        "object-src": [_NONE],
        "base-uri": [_SELF],
        "form-action": [_SELF],
        "frame-ancestors": [_NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("HANSEWEB_LOG_LEVEL", "INFO")},
}

# --- abuse: login lockout (django-axes) and rate limits (django-ratelimit) -----
# See hanseweb/throttle.py and docs/configuration.md ("Abuse").
INSTALLED_APPS += ["axes", "django_ratelimit"]
MIDDLEWARE += [
    "django_ratelimit.middleware.RatelimitMiddleware",  # a rate-limited view answers 429
    "axes.middleware.AxesMiddleware",  # last, as axes asks: turns a lockout into its page
]
AUTHENTICATION_BACKENDS = [
    "hanseweb.throttle.LoginLockoutBackend",  # axes: refuses logins while locked out
    "django.contrib.auth.backends.ModelBackend",
]
# Behind a reverse proxy, the header it sets to the client's address (nginx example: X-Real-IP).
HANSEWEB_CLIENT_IP_HEADER = env("HANSEWEB_CLIENT_IP_HEADER")
AXES_FAILURE_LIMIT = int(env("HANSEWEB_LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(env("HANSEWEB_LOGIN_COOLOFF_MINUTES", "15")))
# An (account, client address) pair, and a client address whatever the accounts: failures from
# other addresses never lock an account's owner out (a player cannot lock an opponent out before
# a deadline), while one address (IPv6: its /64, hanseweb.throttle.client_ip) is throttled.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_USERNAME_CALLABLE = "hanseweb.throttle.login_username"
AXES_CLIENT_IP_CALLABLE = "hanseweb.throttle.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_VERBOSE = False
# the default storage, noting errors: a POST answered with an error message was refused (throttle)
MESSAGE_STORAGE = "hanseweb.throttle.MessageStorage"
RATELIMIT_USE_CACHE = "default"
# A cache that does not answer counts nothing (hanseweb/cache.py): forms and moves go on.
RATELIMIT_FAIL_OPEN = True
RATELIMIT_IP_META_KEY = "hanseweb.throttle.client_ip"
RATELIMIT_VIEW = "hanseweb.throttle.too_many_requests"
# count/period (s, m, h, d); each can be set as HANSEWEB_RATE_<NAME>, e.g. HANSEWEB_RATE_SIGNUP_PER_IP=20/h
HANSEWEB_RATES = {
    name: env(f"HANSEWEB_RATE_{name.upper()}", default) for name, default in {
        "signup_per_ip": "20/h",
        "password_reset_per_ip": "20/h",
        "account_mail_per_address": "5/h",  # confirmations, "you have an account", resets: to one address
        "create_game_per_user": "30/h",
        "game_export_per_ip": "60/h",  # downloads of games as JSON (docs/fairness.md)
        "club_invite_mail_per_user": "20/h",  # club invitations mailed by one account
        "reply_answers_per_sender": "20/h",  # answers to email replies, to one address
        "reply_answers_per_reply_address": "5/h",  # answers to replies sent to one reply address
        "search_pages_per_user": "600/h",  # player pages and archive searches (they count and search)
        "chat_per_user": "120/h",  # table talk: messages one account writes (page, mail, API)
        "chat_hide_per_user": "120/h",  # moderators hiding chat messages
        "notes_per_user": "240/h",  # saving private notes, muting a chat
        "set_language_per_ip": "60/m",  # the language switcher
        "create_club_per_user": "10/h",  # clubs an account may found
        "inbound_per_ip": "600/h",  # posts to the inbound mail webhooks per client address (the ESP's)
        # refused POSTs of one signed-in account (illegal or stale moves, forms that do not
        # validate, the wrong seat, ...); past it, all its POSTs answer 429 until the period ends
        "refused_posts_per_user": "60/10m",
    }.items()
}
# django_ratelimit checks for a shared cache with atomic increments: Django's own RedisCache has
# them (W001 only says it is not on the library's list); the embedded default (no REDIS_URL) runs
# one process, where the local-memory cache is shared enough (E003).
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"] + ([] if REDIS_URL else ["django_ratelimit.E003"])

# --- JSON API (hanseweb/api, docs/api.md) ------------------------------------
# django-ninja serves /api/v1/ (its app gives the docs page's scripts as static files); each
# request is authenticated by a per-user token and counted per account (and per client address
# for the OpenAPI document, the docs page and failed authentications).
INSTALLED_APPS += ["ninja", "hanseweb.api"]
HANSEWEB_RATES.update({
    name: env(f"HANSEWEB_RATE_{name.upper()}", default) for name, default in {
        "api_per_user": "120/m",  # API requests of one account (all its tokens together)
        "api_per_ip": "60/m",  # OpenAPI document, docs page and failed authentications, per address
        "api_token_per_user": "20/h",  # tokens made or revoked on the profile page
    }.items()
})
# Largest request body the API reads, in bytes: every body its schema allows fits (a 1,000-character
# chat message written as JSON escapes of characters outside the BMP is 12,000 bytes).
HANSEWEB_API_MAX_BODY = int(env("HANSEWEB_API_MAX_BODY", "16384"))

# --- Bots (games/bots, docs/bots.md) ----------------------------------------------
# The level the autopilot of a resigned or dropped-out seat plays at: random, basic or strong.
HANSEWEB_AUTOPILOT_LEVEL = env("HANSEWEB_AUTOPILOT_LEVEL", "basic")
# Practice games with bots: the bots' task waits this long after a bot's turn comes, runs on this
# queue ("" = the default queue; deploy/ uses "bots") and plays for at most this long per task.
HANSEWEB_BOT_DELAY_SECONDS = int(env("HANSEWEB_BOT_DELAY_SECONDS", "3"))
HANSEWEB_BOT_QUEUE = env("HANSEWEB_BOT_QUEUE", "")
HANSEWEB_BOT_TASK_SECONDS = int(env("HANSEWEB_BOT_TASK_SECONDS", "20"))
# A game whose bot (or autopilot) is to act and has not moved for this long is stalled: its task
# was refused by a broker that was down, or failed. The beat's bots sweep (every minute) queues it
# again, at most once per this many seconds a game (games.tasks.sweep_bots).
HANSEWEB_BOT_STALL_SECONDS = int(env("HANSEWEB_BOT_STALL_SECONDS", "120"))
