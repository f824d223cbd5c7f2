"""The database itself refuses UPDATE and DELETE on the move log (PostgreSQL and SQLite)."""
from django.db import migrations

PG_UP = """
CREATE OR REPLACE FUNCTION games_move_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING
        MESSAGE = 'games_move is append-only: ' || TG_OP || ' refused',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_move_no_update BEFORE UPDATE ON games_move
    FOR EACH ROW EXECUTE FUNCTION games_move_append_only();
CREATE TRIGGER games_move_no_delete BEFORE DELETE ON games_move
    FOR EACH ROW EXECUTE FUNCTION games_move_append_only();
"""
PG_DOWN = """
DROP TRIGGER IF EXISTS games_move_no_update ON games_move;
DROP TRIGGER IF EXISTS games_move_no_delete ON games_move;
DROP FUNCTION IF EXISTS games_move_append_only();
"""
SQLITE_UP = [
    """CREATE TRIGGER games_move_no_update BEFORE UPDATE ON games_move
       BEGIN SELECT RAISE(ABORT, 'games_move is append-only: UPDATE refused'); END;""",
    """CREATE TRIGGER games_move_no_delete BEFORE DELETE ON games_move
       BEGIN SELECT RAISE(ABORT, 'games_move is append-only: DELETE refused'); END;""",
]
SQLITE_DOWN = ["DROP TRIGGER IF EXISTS games_move_no_update;", "DROP TRIGGER IF EXISTS games_move_no_delete;"]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_UP)
    elif vendor == "sqlite":
        for sql in SQLITE_UP:
            schema_editor.execute(sql)
    else:
        raise RuntimeError(f"no append-only trigger for database vendor {vendor!r}")


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_DOWN)
    elif vendor == "sqlite":
        for sql in SQLITE_DOWN:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
