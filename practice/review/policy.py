"""The review policies, each a boolean setting read at call time (never at import time), so a
test or the learner simulator can switch one with ``override_settings`` inside one process.

With all four off, review behaves as it did before implicit credit existed.
"""

from django.conf import settings


def implicit_credit() -> bool:
    """Return whether a right first-try answer credits the learner's other items of its kind.

    The same switch makes a wrong answer on a review variant rate the item Again only when it
    is explained by the item's own mistake, and counts a failed review and its retry once.
    """
    return bool(getattr(settings, "REVIEW_IMPLICIT_CREDIT", True))


def graph_credit() -> bool:
    """Return whether a right answer passes fractional credit down the course's idea graph."""
    return bool(getattr(settings, "REVIEW_GRAPH_CREDIT", True))


def unexplained_items() -> bool:
    """Return whether a wrong answer no catalogued mistake explains creates a review item."""
    return bool(getattr(settings, "REVIEW_UNEXPLAINED_ITEMS", True))


def queue_clearing() -> bool:
    """Return whether a queue longer than the daily limit puts reviews that clear others first."""
    return bool(getattr(settings, "REVIEW_QUEUE_CLEARING", True))
