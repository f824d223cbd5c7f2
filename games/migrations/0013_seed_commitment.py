"""Verifiable fairness (docs/fairness.md): a salt and the SHA-256 commitment to the seed for
every game. Games that exist already get theirs now, after the fact: they are marked
``commitment_late`` and their pages and exports say so."""
import hashlib
import secrets

from django.db import migrations, models

import games.models


def commit_existing(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("pk", "seed").iterator(chunk_size=500):
        salt = secrets.token_hex(32)
        # the scheme of games.engines.fairness.commitment, frozen here as it was when written
        digest = hashlib.sha256(f"hanseweb-seed:v1:{int(game.seed)}:{salt}".encode("utf-8")).hexdigest()
        Game.objects.filter(pk=game.pk).update(salt=salt, commitment=digest, commitment_late=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_move_timeout_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="salt",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="game",
            name="commitment",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="game",
            name="commitment_late",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(commit_existing, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="salt",
            field=models.CharField(default=games.models.new_salt, editable=False, max_length=64),
        ),
    ]
