from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LtiConfig(AppConfig):
    name = "lti"
    verbose_name = _("LTI 1.3 (practice inside a learning platform)")

    def ready(self) -> None:
        # Connect the attempt hook: a learner who came through a link gets their score sent.
        from . import signals  # noqa: F401
