"""Mark the copies of learners who already came through a link (``CourseCopy.lti_linked``)."""

from django.db import migrations


def mark_linked_copies(apps, schema_editor) -> None:
    CourseCopy = apps.get_model("courses", "CourseCopy")
    LinkLearner = apps.get_model("lti", "LinkLearner")
    CourseCopy.objects.filter(
        owner_id__in=LinkLearner.objects.values("lti_user__user_id")
    ).update(lti_linked=True)


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0004_copy_lti_linked"),
        ("lti", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(mark_linked_copies, migrations.RunPython.noop),
    ]
