"""PostgreSQL refuses TRUNCATE of the move log and of the games table (also through CASCADE).

Row triggers (0002) do not fire on TRUNCATE, so ``TRUNCATE games_move`` or
``TRUNCATE games_game CASCADE`` emptied the log. Statement-level ``BEFORE TRUNCATE`` triggers fire
for every table a TRUNCATE empties, including the ones reached by CASCADE. Like every trigger they
are skipped under ``session_replication_role = replica``, which only a superuser can set, and can be
disabled only by the table's owner: the application's database role must be neither (see
deploy/README.md). SQLite has no TRUNCATE (``DELETE FROM games_move`` meets the row trigger).
"""
from django.db import migrations

TABLES = ("games_move", "games_game")

PG_UP = """
CREATE OR REPLACE FUNCTION games_no_truncate() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING
        MESSAGE = TG_TABLE_NAME || ' may not be truncated: the move log is append-only',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
""" + "".join(
    f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
    f"FOR EACH STATEMENT EXECUTE FUNCTION games_no_truncate();\n"
    for table in TABLES
)
PG_DOWN = "".join(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};\n" for table in TABLES) + \
    "DROP FUNCTION IF EXISTS games_no_truncate();\n"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_UP)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_DOWN)


class Migration(migrations.Migration):
    dependencies = [("games", "0006_seat_seen_n")]
    operations = [migrations.RunPython(forwards, backwards)]
