from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "practice.analytics"
    label = "analytics"
    verbose_name = "Mistake analytics"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (a deleted copy leaves the counts)
