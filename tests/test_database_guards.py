"""PostgreSQL guards of the move log beyond the row triggers: TRUNCATE is refused, and the
application's database role of deploy/ (owner of nothing, no superuser) cannot switch the guards off."""
import os
import secrets
import shutil
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings
from django.db import IntegrityError, InternalError, connection, transaction

from games.models import Game, Move

from .conftest import act
from .embedded_server import REPO

pytestmark = pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                                reason="PostgreSQL only")

GOOD_KEY = "k3Q9-zv_8pLx2mTqR7sWn4YbC6dHfJ1uEaGoVi5N0"


@pytest.mark.django_db
@pytest.mark.parametrize("sql", [
    "TRUNCATE games_move",
    "TRUNCATE games_game CASCADE",  # empties games_move through the foreign key
    # every table with a foreign key to games_game is named, or PostgreSQL refuses before the trigger
    "TRUNCATE games_move, games_seat, games_game, leagues_table, leagues_ratedgame, leagues_ratingchange, "
    "games_chatmessage, games_chatmoderation, games_seatnote, games_seattakeover "
    "RESTART IDENTITY",
])
def test_truncate_of_the_log_is_refused(started_game, sql):
    game, _ = started_game("hansa", 2)
    game.refresh_from_db()
    act(game, game.to_act[0], game.engine_obj.legal_moves(game.state_cache, game.to_act[0])[0])
    with connection.cursor() as cursor:  # run the deferred foreign-key checks of this test's rows now,
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # or TRUNCATE stops at "pending trigger events"
    with pytest.raises((IntegrityError, InternalError)) as excinfo:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert "may not be truncated" in str(excinfo.value)
    assert Move.objects.filter(game=game).count() == 1 and Game.objects.filter(pk=game.pk).exists()


def _url(user, password, dbname):
    db = settings.DATABASES["default"]
    return f"postgres://{user}:{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{dbname}"


@pytest.fixture
def deployed_database():
    """A database set up as deploy/ does: deploy/postgres/10-hanseweb-roles.sh (with roles.sql)
    creates the owner and application roles and the database, then ``manage.py migrate`` runs as
    the owner. Yields (application URL, owner URL); everything is dropped afterwards."""
    if not shutil.which("psql"):
        pytest.skip("needs psql")
    db = settings.DATABASES["default"]
    tag = f"{os.getpid()}_{secrets.token_hex(3)}"
    name, owner, app = f"hanseweb_roles_{tag}", f"hanseweb_owner_{tag}", f"hanseweb_app_{tag}"
    owner_url, app_url = _url(owner, secrets.token_urlsafe(12), name), _url(app, secrets.token_urlsafe(12), name)
    env = {**os.environ, "PGHOST": db["HOST"] or "127.0.0.1", "PGPORT": str(db["PORT"] or 5432),
           "POSTGRES_USER": db["USER"], "POSTGRES_DB": "postgres",
           "HANSEWEB_ROLES_SQL": str(REPO / "deploy" / "postgres" / "roles.sql"),
           "MIGRATE_DATABASE_URL": owner_url, "DATABASE_URL": app_url}
    superuser = psycopg.connect(_url(db["USER"], db["PASSWORD"] or "", "postgres"), autocommit=True)
    try:
        init = subprocess.run([str(REPO / "deploy" / "postgres" / "10-hanseweb-roles.sh")], env=env,
                              capture_output=True, text=True, timeout=60)
        assert init.returncode == 0, init.stderr
        app_env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        migrate = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=REPO,
                                 env={**app_env, "DATABASE_URL": owner_url, "HANSEWEB_SECRET_KEY": GOOD_KEY,
                                      "HANSEWEB_SITE_URL": "http://127.0.0.1:8000"},
                                 capture_output=True, text=True, timeout=120)
        assert migrate.returncode == 0, migrate.stderr
        yield app_url, owner_url
    finally:
        superuser.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        for role in (app, owner):
            superuser.execute(f'DROP ROLE IF EXISTS "{role}"')
        superuser.close()


PLAY_AS_APP = """
import django; django.setup()
from games import services
from games.models import Game
from hanseweb.accounts.models import User
a = User.objects.create_user("a@example.com", "pw-a-123456", display_name="A")
b = User.objects.create_user("b@example.com", "pw-b-123456", display_name="B")
game = services.create_game(creator=a, engine="hansa", title="t", players=2, seat_order=Game.SEAT_ORDER_JOINED)
services.join_game(game.pk, b)
game.refresh_from_db()
seat = game.to_act[0]
user = game.seats.get(number=seat).user
services.submit_move(game.pk, user, game.engine_obj.legal_moves(game.state_cache, seat)[0], expected_seq=0)
print(Game.objects.get().move_count)
"""


def test_the_application_role_plays_but_cannot_switch_the_guards_off(deployed_database):
    app_url, owner_url = deployed_database
    env = {**os.environ, "DATABASE_URL": app_url, "HANSEWEB_SECRET_KEY": GOOD_KEY,
           "CELERY_TASK_ALWAYS_EAGER": "1", "HANSEWEB_EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    env.pop("REDIS_URL", None)
    played = subprocess.run([sys.executable, "-c", PLAY_AS_APP], cwd=REPO, env=env, capture_output=True, text=True,
                            timeout=120)
    assert played.returncode == 0 and played.stdout.split()[-1] == "1", played.stderr[-3000:]

    refused = {
        "ALTER TABLE games_move DISABLE TRIGGER ALL": "must be owner",
        "ALTER TABLE games_move DISABLE TRIGGER games_move_no_truncate": "must be owner",
        "DROP TRIGGER games_move_no_delete ON games_move": "must be owner",
        "ALTER TABLE games_move OWNER TO CURRENT_USER": "must be owner",
        "TRUNCATE games_move": "permission denied",
        "TRUNCATE games_game CASCADE": "permission denied",
        "SET session_replication_role = replica": "permission denied",
        "UPDATE games_move SET text = 'forged'": "append-only",
        "DELETE FROM games_move": "append-only",
        "CREATE TABLE sneaky (id int)": "permission denied",
    }
    with psycopg.connect(app_url, autocommit=True) as app:
        for sql, words in refused.items():
            with pytest.raises(psycopg.Error) as excinfo:
                app.execute(sql)
            assert words in str(excinfo.value), sql
        assert app.execute("SELECT count(*) FROM games_move").fetchone() == (1,)
        assert app.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() == (False,)
    # the owner (migrations only) could truncate through its privileges; the trigger still refuses
    with psycopg.connect(owner_url, autocommit=True) as owner:
        with pytest.raises(psycopg.Error, match="may not be truncated"):
            owner.execute("TRUNCATE games_move")
        assert owner.execute("SELECT count(*) FROM games_move").fetchone() == (1,)
