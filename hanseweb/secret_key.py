"""Where the secret key comes from, and the refusal to serve without a real one.

- ``HANSEWEB_SECRET_KEY`` set: it is used, if it is a real key (long enough, not a placeholder).
- Embedded default (no ``DATABASE_URL``, no broker): a random key is generated once and kept in
  ``var/secret_key`` (mode 0600), so sessions and mailed links survive a restart.
- Anything else (a real deployment without a key): the settings get a random key for this process
  only, so nothing can be forged, and every server entry point refuses to start: ``wsgi.py``, the
  Celery worker and beat (``hanseweb.celery``), and ``manage.py`` commands through a system check.
  Tests (pytest-django) run no system checks and import no ``wsgi.py``, so they still run.

No Django import at module level: ``hanseweb.settings`` imports this.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

MIN_LENGTH = 32
# Keys that are public (examples in this repository, Django's own start-project prefix).
PLACEHOLDERS = {
    "change-me-to-a-long-random-string",
    "embedded-default-insecure-key-change-me",
}

GENERATE_HINT = "generate one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


def new_key() -> str:
    return secrets.token_urlsafe(50)


def problem_with(key: str) -> str | None:
    """Why ``key`` is not a real secret key, or None."""
    if not key:
        return ("HANSEWEB_SECRET_KEY is not set. Outside the embedded default (DATABASE_URL or a broker "
                "is configured) Hanseweb refuses to start without its own secret key; " + GENERATE_HINT + ".")
    if key.strip() in PLACEHOLDERS or key.startswith("django-insecure"):
        return "HANSEWEB_SECRET_KEY is a published example value, not a secret; " + GENERATE_HINT + "."
    if len(key) < MIN_LENGTH or len(set(key)) < 8:
        return (f"HANSEWEB_SECRET_KEY is too weak (at least {MIN_LENGTH} characters, not repetitive); "
                + GENERATE_HINT + ".")
    return None


def embedded_key(path: Path) -> str:
    """The embedded default's key: read from ``path``, or created there once (mode 0600).

    Creation is atomic (a hard link of a finished temporary file), so two processes starting at
    once agree on one key."""
    path = Path(path)
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if key:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        return key
    from hanseweb.private_files import private_dir

    private_dir(path.parent)  # var/: owner only, as the key
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(new_key() + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process was first: use its key
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_text().strip()


def resolve(env_key: str, embedded: bool, key_file: Path) -> tuple[str, str | None]:
    """(the key the settings use, why the server must refuse to start or None)."""
    if env_key:
        return env_key, problem_with(env_key)
    if embedded:
        return embedded_key(key_file), None
    return new_key(), problem_with("")


def refuse_without_secret_key() -> None:
    """Raise ImproperlyConfigured when the configured key is missing or not real (server start)."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    problem = getattr(settings, "HANSEWEB_SECRET_KEY_PROBLEM", None)
    if problem:
        raise ImproperlyConfigured(problem)
