"""The words a learner reads for a problem kind, for the pages and the reads that list kinds."""

from django.utils.translation import gettext

from grading.kinds import KIND_LABELS


def kind_label(kind: str) -> str:
    """Return the words a learner reads for a problem kind (its label in the kinds registry,
    translated), or the code itself when unknown; the one place courses read kind labels."""
    label = KIND_LABELS.get(str(kind))
    return gettext(label) if label is not None else str(kind)
