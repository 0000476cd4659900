"""Classes (contexts) kept per deployment: a context belongs to the deployment it was launched
from, so two deployments naming the same context id are two classes, with their own links,
roster and members.

No row before this records the deployment a context was launched with, so each existing
context gets its platform's deployment when the platform has exactly one. On a platform with
several deployments (or none) it is left without one: the first launch naming that context id
claims it for its deployment (lti.services.launches), and the migration says how many.
"""

import django.db.models.deletion
from django.db import migrations, models


def deployment_of_existing_contexts(apps, schema_editor):
    Platform = apps.get_model("lti", "Platform")
    Context = apps.get_model("lti", "Context")
    unclaimed = 0
    for platform in Platform.objects.all():
        deployments = list(platform.deployments.order_by("pk")[:2])
        contexts = Context.objects.filter(platform=platform, deployment__isnull=True)
        if len(deployments) == 1:
            contexts.update(deployment=deployments[0])
        else:
            unclaimed += contexts.count()
    if unclaimed:
        print(
            f"\n  {unclaimed} LTI context(s) of platforms with several deployments (or none) "
            "are left for the first launch naming each to claim (docs/lti.md)."
        )


class Migration(migrations.Migration):

    dependencies = [
        ('lti', '0004_plain_links'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='context',
            name='lti_context_per_platform',
        ),
        migrations.AddField(
            model_name='context',
            name='deployment',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='contexts', to='lti.deployment'),
        ),
        migrations.AddConstraint(
            model_name='context',
            constraint=models.UniqueConstraint(fields=('deployment', 'context_id'), name='lti_context_per_deployment'),
        ),
        migrations.AddConstraint(
            model_name='context',
            constraint=models.UniqueConstraint(condition=models.Q(('deployment__isnull', True)), fields=('platform', 'context_id'), name='lti_context_unclaimed_once'),
        ),
        # Last: no schema change after the rows are written (PostgreSQL's deferred FK checks).
        migrations.RunPython(deployment_of_existing_contexts, migrations.RunPython.noop),
    ]
