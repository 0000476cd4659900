"""System checks of the review settings an operator sets (``manage.py check`` runs them, as
does every management command and the development server)."""

from django.conf import settings
from django.core.checks import Error, register

from .models import MAX_DESIRED_RETENTION, MIN_DESIRED_RETENTION


@register()
def check_site_desired_retention(app_configs, **kwargs) -> list[Error]:
    """Refuse a ``REVIEW_DESIRED_RETENTION`` outside the range a learner may choose."""
    value = settings.REVIEW_DESIRED_RETENTION
    if isinstance(value, int | float) and MIN_DESIRED_RETENTION <= value <= MAX_DESIRED_RETENTION:
        return []
    return [
        Error(
            f"REVIEW_DESIRED_RETENTION={value!r} lies outside "
            f"{MIN_DESIRED_RETENTION}-{MAX_DESIRED_RETENTION}",
            hint="Set it to the chance of recall new learners' reviews aim for, e.g. 0.9.",
            id="review.E001",
        )
    ]
