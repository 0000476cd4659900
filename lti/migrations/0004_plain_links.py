"""Plain resource links: what a link shows (a page, an idea, the whole course, or not chosen
yet) and whether its launches' custom parameters name it.

Every link stored before this came from a launch naming its page or idea (a launch without
them was refused), so each gets the target its slugs say, from the launch.
"""

from django.db import migrations, models


def targets_of_deep_linked_links(apps, schema_editor):
    ResourceLink = apps.get_model("lti", "ResourceLink")
    ResourceLink.objects.exclude(idea_slug="").update(target="idea", target_from_launch=True)
    ResourceLink.objects.filter(idea_slug="").update(target="page", target_from_launch=True)


class Migration(migrations.Migration):

    dependencies = [
        ('lti', '0003_score_retries_lineitems_roster_left'),
    ]

    operations = [
        migrations.AddField(
            model_name='resourcelink',
            name='target',
            field=models.CharField(blank=True, choices=[('', 'not chosen yet'), ('page', 'a page'), ('idea', 'an idea'), ('course', 'the whole course')], default='', max_length=8),
        ),
        migrations.AddField(
            model_name='resourcelink',
            name='target_from_launch',
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name='resourcelink',
            name='page_slug',
            field=models.SlugField(blank=True, max_length=100),
        ),
        migrations.RunPython(targets_of_deep_linked_links, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='resourcelink',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('idea_slug', ''), ('page_slug', ''), ('target__in', ['', 'course'])), models.Q(('idea_slug', ''), ('target', 'page'), models.Q(('page_slug', ''), _negated=True)), models.Q(('target', 'idea'), models.Q(('page_slug', ''), _negated=True), models.Q(('idea_slug', ''), _negated=True)), _connector='OR'), name='lti_link_target_slugs'),
        ),
    ]
