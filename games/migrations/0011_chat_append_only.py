"""The database refuses UPDATE, DELETE and TRUNCATE of the chat and its moderation log, as it
does for the move log (0002, 0007): PostgreSQL and SQLite row triggers, PostgreSQL statement
triggers for TRUNCATE (also through CASCADE). Private notes (games_seatnote) are not part of the
log and stay editable."""
from django.db import migrations

TABLES = ("games_chatmessage", "games_chatmoderation")

PG_UP = """
CREATE OR REPLACE FUNCTION games_chat_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN  -- worded as games_no_truncate (0007) words it
        RAISE EXCEPTION USING
            MESSAGE = TG_TABLE_NAME || ' may not be truncated: the chat is append-only',
            ERRCODE = 'restrict_violation';
    END IF;
    RAISE EXCEPTION USING
        MESSAGE = TG_TABLE_NAME || ' is append-only: ' || TG_OP || ' refused',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
""" + "".join(
    f"CREATE TRIGGER {t}_no_update BEFORE UPDATE ON {t} FOR EACH ROW EXECUTE FUNCTION games_chat_append_only();\n"
    f"CREATE TRIGGER {t}_no_delete BEFORE DELETE ON {t} FOR EACH ROW EXECUTE FUNCTION games_chat_append_only();\n"
    f"CREATE TRIGGER {t}_no_truncate BEFORE TRUNCATE ON {t} FOR EACH STATEMENT EXECUTE FUNCTION games_chat_append_only();\n"
    for t in TABLES
)
PG_DOWN = "".join(
    f"DROP TRIGGER IF EXISTS {t}_no_update ON {t};\nDROP TRIGGER IF EXISTS {t}_no_delete ON {t};\n"
    f"DROP TRIGGER IF EXISTS {t}_no_truncate ON {t};\n" for t in TABLES
) + "DROP FUNCTION IF EXISTS games_chat_append_only();\n"
SQLITE_UP = [
    f"CREATE TRIGGER {t}_no_{op.lower()} BEFORE {op} ON {t} "
    f"BEGIN SELECT RAISE(ABORT, '{t} is append-only: {op} refused'); END;"
    for t in TABLES for op in ("UPDATE", "DELETE")
]
SQLITE_DOWN = [f"DROP TRIGGER IF EXISTS {t}_no_{op};" for t in TABLES for op in ("update", "delete")]


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
    dependencies = [("games", "0010_chat")]
    operations = [migrations.RunPython(forwards, backwards)]
