"""Words for learners and authors: what each problem kind and mistake code means."""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from grading.kinds import MistakeCode, ProblemKind, Status

KIND_LABELS: dict[ProblemKind, Promise] = {
    ProblemKind.LOOKUP: _("Look up a row"),
    ProblemKind.WEIGHTED_SUM: _("Weighted sum of rows"),
    ProblemKind.CONTRAST: _("Same word, two sentences"),
    ProblemKind.CONTENT_WEIGHTS: _("Weights from content"),
}

STATUS_LABELS: dict[Status, Promise] = {
    Status.CORRECT: _("correct"),
    Status.INCORRECT: _("incorrect"),
    Status.INVALID: _("could not be read"),
}

MISTAKE_LABELS: dict[MistakeCode, Promise] = {
    MistakeCode.OMITTED_TERM: _("left a term out of the sum"),
    MistakeCode.WRONG_WEIGHT: _("multiplied a row by the wrong weight"),
    MistakeCode.WRONG_ROW: _("used the wrong row in a term"),
    MistakeCode.SWAPPED_WEIGHTS: _("exchanged the weights of two terms"),
    MistakeCode.UNWEIGHTED_SUM: _("added the rows without weights"),
    MistakeCode.PLAIN_AVERAGE: _("averaged the rows with equal weights"),
    MistakeCode.ROW_BY_POSITION: _("took the row numbered by the position, not the token's id"),
    MistakeCode.OFF_BY_ONE_ROW: _("took the row next to the right one"),
    MistakeCode.OTHER_TOKEN_ROW: _("took the row of another token in the sentence"),
    MistakeCode.FORGOT_WEIGHT: _("gave a row difference without its weight"),
    MistakeCode.REVERSED_DIFFERENCE: _("subtracted the wrong way round"),
    MistakeCode.ANSWERED_ONE_SIDE: _("gave one sentence's vector instead of the difference"),
    MistakeCode.UNNORMALISED_WEIGHTS: _("used exp of the scores as weights, without dividing"),
    MistakeCode.POSITIONAL_WEIGHTS: _("weighted by position instead of content"),
    MistakeCode.OMITTED_SELF_SCORE: _("left the position's own score out"),
    MistakeCode.RAW_SCORES: _("used the raw scores as weights"),
}


def kind_label(kind: str) -> str:
    """Return the words for a problem kind, or the code itself when unknown."""
    try:
        return str(KIND_LABELS[ProblemKind(kind)])
    except (ValueError, KeyError):
        return str(kind)


def mistake_label(code: str | None) -> str:
    """Return the words for a mistake code; None means no catalogued mistake explains it."""
    if code is None:
        return str(_("no catalogued mistake explains it"))
    try:
        return str(MISTAKE_LABELS[MistakeCode(code)])
    except (ValueError, KeyError):
        return str(code)


def status_label(status: str) -> str:
    """Return the words for a verdict status."""
    try:
        return str(STATUS_LABELS[Status(status)])
    except (ValueError, KeyError):
        return str(status)
