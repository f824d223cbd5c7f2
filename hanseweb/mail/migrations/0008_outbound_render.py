from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mail', '0007_outbound_inline_svg'),
    ]

    operations = [
        migrations.AddField(
            model_name='outboundemail',
            name='render',
            field=models.JSONField(blank=True, null=True, help_text='rendered by the sending worker: {"name": renderer, "params": {...}}; cleared once rendered'),
        ),
    ]
