"""Scores retried for a bounded time (since when owed, the next try), line items the tool may
create (the platform's line items URL and AGS scopes per link), roster members who left."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('lti', '0002_copies_of_linked_learners'),
    ]

    operations = [
        migrations.AddField(
            model_name='resourcelink',
            name='ags_scopes',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='resourcelink',
            name='lineitems_url',
            field=models.URLField(blank=True, max_length=500),
        ),
        migrations.AddField(
            model_name='rosterentry',
            name='left_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='score',
            name='next_try_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='score',
            name='pending_since',
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
    ]
