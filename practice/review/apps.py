from django.apps import AppConfig


class ReviewConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "practice.review"
    label = "review"
    verbose_name = "Spaced review"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
