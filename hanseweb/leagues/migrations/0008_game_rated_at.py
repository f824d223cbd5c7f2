from django.db import migrations
from django.db.models import Exists, OuterRef


# The database marks a game rated (Game.rated_at) when its RatedGame row is inserted, whoever
# inserts it (rate_game sets it itself too; a bulk insert by a script or a data fix does not).
PG_UP = """
CREATE OR REPLACE FUNCTION leagues_ratedgame_marks_game() RETURNS trigger AS $$
BEGIN
    UPDATE games_game SET rated_at = NEW.at WHERE id = NEW.game_id AND rated_at IS NULL;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER leagues_ratedgame_marks_game AFTER INSERT ON leagues_ratedgame
    FOR EACH ROW EXECUTE FUNCTION leagues_ratedgame_marks_game();
ALTER TABLE leagues_ratedgame ENABLE ALWAYS TRIGGER leagues_ratedgame_marks_game;  -- also under replica
"""
PG_DOWN = """
DROP TRIGGER IF EXISTS leagues_ratedgame_marks_game ON leagues_ratedgame;
DROP FUNCTION IF EXISTS leagues_ratedgame_marks_game();
"""
SQLITE_UP = """CREATE TRIGGER leagues_ratedgame_marks_game AFTER INSERT ON leagues_ratedgame
    BEGIN UPDATE games_game SET rated_at = NEW.at WHERE id = NEW.game_id AND rated_at IS NULL; END;"""
SQLITE_DOWN = "DROP TRIGGER IF EXISTS leagues_ratedgame_marks_game;"


def trigger(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor in ("postgresql", "sqlite"):
        schema_editor.execute(PG_UP if vendor == "postgresql" else SQLITE_UP)


def no_trigger(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor in ("postgresql", "sqlite"):
        schema_editor.execute(PG_DOWN if vendor == "postgresql" else SQLITE_DOWN)


def mark_rated(apps, schema_editor):
    """Games applied to the ratings before ``Game.rated_at`` existed leave the ratings task's index."""
    Game = apps.get_model("games", "Game")
    RatedGame = apps.get_model("leagues", "RatedGame")
    from django.utils import timezone

    Game.objects.filter(Exists(RatedGame.objects.filter(game=OuterRef("pk")))).update(rated_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0007_entry_bot_plays"),
        ("games", "0019_periodic_task_indexes"),
    ]

    operations = [
        migrations.RunPython(mark_rated, migrations.RunPython.noop),
        migrations.RunPython(trigger, no_trigger),
    ]
