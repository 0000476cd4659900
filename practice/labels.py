"""Words for learners and authors: what each problem kind, mistake code and status means.

A kind's label and its mistakes' labels are defined once, with the kind
(`grading/kinds/<kind>.py`, marked for translation with `gettext_noop`); mistake and status
labels are translated here, at display time, and a kind's label by `courses.labels.kind_label`.
"""

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from grading.declared.kind import DeclaredKind
from grading.kinds import KINDS, Status

from .review.codes import REVEALED

STATUS_LABELS: dict[Status, Promise] = {
    Status.CORRECT: _("correct"),
    Status.INCORRECT: _("incorrect"),
    Status.INVALID: _("could not be read"),
}

# Review codes that stand for a kind as a whole (no kind's catalog uses them).
_KIND_LEVEL_LABELS: dict[str, Promise] = {
    REVEALED: _("asked to be shown how (the worked solution)"),
}

# A code names one mistake within its kind; where a label is asked for by code alone, the
# first built-in kind (by name) that has the code gives it, then the first declared kind: a
# kind declared in a course folder may reuse a built-in code (omitted_term) in its own words,
# and must not change what the built-in kinds' attempts are called.
_BY_CODE: dict[str, str] = {}
for _kind in sorted(KINDS.values(), key=lambda k: (isinstance(k, DeclaredKind), k.name)):
    for _mistake in _kind.mistakes:
        _BY_CODE.setdefault(_mistake.code, _mistake.label)


def mistake_label(code: str | None, kind: str | None = None) -> str:
    """Return the words for a mistake code (of `kind` when given); None means no catalogued
    mistake explains it; an unknown code is returned as it is."""
    if code is None:
        return str(_("no catalogued mistake explains it"))
    found = KINDS.get(str(kind)) if kind is not None else None
    if found is not None and code in found.codes:
        return gettext(found.mistake(code).label)
    if str(code) in _KIND_LEVEL_LABELS:
        return str(_KIND_LEVEL_LABELS[str(code)])
    label = _BY_CODE.get(str(code))
    return gettext(label) if label is not None else str(code)


def status_label(status: str) -> str:
    """Return the words for a verdict status."""
    try:
        return str(STATUS_LABELS[Status(status)])
    except (ValueError, KeyError):
        return str(status)
