"""Display names unique per site, case- and confusable-insensitive (hanseweb.names.name_keys).

Existing accounts get their keys; where two names already look the same, the later account's
display name gets a number (" 2", " 3", ...) so that both keys can be unique. A name that holds
control or invisible characters is not changed here (the forms refuse new ones)."""
import hanseweb.names
from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from hanseweb.names import name_keys

    User = apps.get_model("accounts", "User")
    taken: set[str] = set()
    for user in User.objects.order_by("pk").only("pk", "display_name"):
        name = user.display_name
        folded, shape = name_keys(name)
        number = 1
        while folded and (folded in taken or shape in taken):
            number += 1
            suffix = f" {number}"
            name = user.display_name[: 40 - len(suffix)].rstrip() + suffix
            folded, shape = name_keys(name)
        taken |= {folded, shape} - {""}
        User.objects.filter(pk=user.pk).update(display_name=name, display_name_key=folded or None,
                                               display_name_shape=shape or None)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_time_zone"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_name_key",
            field=models.CharField(editable=False, max_length=200, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="display_name_shape",
            field=models.CharField(editable=False, max_length=200, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="display_name_key",
            field=models.CharField(editable=False, max_length=200, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name="user",
            name="display_name_shape",
            field=models.CharField(editable=False, max_length=200, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name="user",
            name="display_name",
            field=models.CharField(max_length=40, validators=[hanseweb.names.validate_name],
                                   verbose_name="display name"),
        ),
    ]
