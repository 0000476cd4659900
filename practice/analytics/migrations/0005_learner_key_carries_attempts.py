"""On PostgreSQL the learner rows' unique key also carries the attempts (``INCLUDE``), so a
class's table is summed from the index alone (an index-only scan). SQLite has no covering
unique constraint (Django would leave the constraint out there altogether), so the model keeps
the plain one and this migration changes PostgreSQL's only; the name, the key columns and so
the upserts' ``ON CONFLICT`` stay the same."""

from django.db import migrations

TABLE = "analytics_learnermistakecount"
NAME = "analytics_learner_count_key"
KEY = "copy_id, course_id, page_slug, idea_slug, kind, level, code, try_class"


def _replace(include: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(
            f"ALTER TABLE {TABLE} DROP CONSTRAINT {NAME},"
            f" ADD CONSTRAINT {NAME} UNIQUE ({KEY}){include}"
        )

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("analytics", "0004_explained_kind_index_carries_problem"),
    ]

    operations = [
        migrations.RunPython(_replace(" INCLUDE (attempts)"), _replace("")),
    ]
