import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mail', '0008_outbound_render'),
    ]

    operations = [
        migrations.AddField(
            model_name='outboundemail',
            name='next_attempt_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='outboundemail',
            name='sending_since',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='outboundemail',
            name='possible_duplicates',
            field=models.PositiveIntegerField(default=0, help_text='attempts begun after an earlier one that never recorded its outcome (it may have been delivered)'),
        ),
        migrations.AddField(
            model_name='outboundemail',
            name='given_up_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='outboundemail',
            name='given_up_reason',
            field=models.CharField(blank=True, choices=[('failed', 'failed'), ('obsolete', 'obsolete')], max_length=16),
        ),
        migrations.AddField(
            model_name='outboundemail',
            name='wanted_while',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name='outboundemail',
            index=models.Index(condition=models.Q(('sent_at__isnull', True)), fields=['next_attempt_at'], name='mail_outbox_unsent_due'),
        ),
        migrations.AddField(
            model_name='inboundemail',
            name='message_id',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name='inboundemail',
            name='esp_event_id',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name='inboundemail',
            name='repeat_of',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='repeats', to='mail.inboundemail'),
        ),
        migrations.AlterField(
            model_name='inboundemail',
            name='status',
            field=models.CharField(choices=[('pending', 'pending'), ('accepted', 'accepted'), ('rejected', 'rejected'), ('ignored', 'ignored'), ('unreadable', 'unreadable'), ('repeat', 'repeat')], db_index=True, default='pending', max_length=16),
        ),
        migrations.AddConstraint(
            model_name='inboundemail',
            constraint=models.UniqueConstraint(condition=models.Q(('repeat_of__isnull', True), models.Q(('message_id', ''), _negated=True)), fields=('sender', 'message_id'), name='mail_inbound_one_per_message_id'),
        ),
        migrations.AddConstraint(
            model_name='inboundemail',
            constraint=models.UniqueConstraint(condition=models.Q(('repeat_of__isnull', True), models.Q(('esp_event_id', ''), _negated=True)), fields=('esp', 'esp_event_id'), name='mail_inbound_one_per_esp_event'),
        ),
    ]
