from django.apps import AppConfig
from django.db.models.signals import post_save


class CoursesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "courses"
    verbose_name = "Courses"

    def ready(self) -> None:
        from . import selectors
        from .models import CourseVersion

        # A version saved again (never by the site: a test, the admin) is read afresh.
        post_save.connect(
            selectors.version_caches_clear, sender=CourseVersion, dispatch_uid="version_caches"
        )
