from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0005_game_undo")]
    operations = [migrations.RenameField(model_name="seat", old_name="seen_seq", new_name="seen_n")]
