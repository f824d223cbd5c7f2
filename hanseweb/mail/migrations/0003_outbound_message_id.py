"""Every outbox row gets its own Message-ID, fixed when it is queued; the ESP's id moves to
``esp_message_id``."""
from email.utils import make_msgid, parseaddr

from django.conf import settings
from django.db import migrations, models


def fill_message_ids(apps, schema_editor):
    OutboundEmail = apps.get_model("mail", "OutboundEmail")
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "hanseweb.localhost"
    for pk in OutboundEmail.objects.filter(message_id="").values_list("pk", flat=True).iterator():
        OutboundEmail.objects.filter(pk=pk).update(message_id=make_msgid(domain=domain))


class Migration(migrations.Migration):

    dependencies = [
        ("mail", "0002_inbound_email"),
    ]

    operations = [
        migrations.RenameField(model_name="outboundemail", old_name="message_id", new_name="esp_message_id"),
        migrations.AddField(
            model_name="outboundemail", name="message_id",
            field=models.CharField(max_length=300, default=""), preserve_default=False,
        ),
        migrations.RunPython(fill_message_ids, migrations.RunPython.noop),
    ]
