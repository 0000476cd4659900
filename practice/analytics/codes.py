"""The codes a count is kept under, besides a kind's catalogued mistakes, and the attempt
classes. Defined once: the services, the rebuild's SQL and the views read them from here."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from practice.review.codes import KIND_LEVEL, UNEXPLAINED

CORRECT = "correct"  # a right answer (no kind's catalog may use the code)
# The parameter counts' rows over every graded answer, whatever its code (nor may this one).
ANY_CODE = "any"
# Re-exported: a wrong answer no catalogued mistake explains.
__all__ = ["ALL_LEVELS", "ANY_CODE", "CORRECT", "KIND_LEVEL", "UNEXPLAINED", "TryClass"]

# The level of the rows that count over every level of a key (levels start at 1).
ALL_LEVELS = 0


class TryClass(models.TextChoices):
    """Which try at a problem an attempt was."""

    FIRST = "first", _("first try")
    RETRY = "retry", _("retry")
    REVIEW = "review", _("review")
    # The rows that count over every class of a key.
    ALL = "all", _("all tries")
