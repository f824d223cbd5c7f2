from django.db import migrations, models


class Migration(migrations.Migration):
    """A separate migration (own transaction): PostgreSQL does not alter a table in the transaction
    that has just updated its rows."""

    dependencies = [
        ("mail", "0003_outbound_message_id"),
    ]

    operations = [
        migrations.AlterField(
            model_name="outboundemail", name="message_id",
            field=models.CharField(max_length=300, unique=True),
        ),
    ]
