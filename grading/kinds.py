"""Problem kinds, verdict statuses and mistake codes: defined once, imported everywhere."""

from enum import StrEnum


class ProblemKind(StrEnum):
    LOOKUP = "lookup"
    WEIGHTED_SUM = "weighted_sum"
    CONTRAST = "contrast"
    CONTENT_WEIGHTS = "content_weights"


class Status(StrEnum):
    CORRECT = "correct"
    INCORRECT = "incorrect"
    INVALID = "invalid"


class MistakeCode(StrEnum):
    # weighted_sum
    OMITTED_TERM = "omitted_term"
    WRONG_WEIGHT = "wrong_weight"
    WRONG_ROW = "wrong_row"
    SWAPPED_WEIGHTS = "swapped_weights"
    UNWEIGHTED_SUM = "unweighted_sum"
    PLAIN_AVERAGE = "plain_average"
    # lookup
    ROW_BY_POSITION = "row_by_position"
    OFF_BY_ONE_ROW = "off_by_one_row"
    OTHER_TOKEN_ROW = "other_token_row"  # noqa: S105 - a mistake code, not a password
    # contrast
    FORGOT_WEIGHT = "forgot_weight"
    REVERSED_DIFFERENCE = "reversed_difference"
    ANSWERED_ONE_SIDE = "answered_one_side"
    # content_weights: weights are softmax_j(x_i . x_j)
    UNNORMALISED_WEIGHTS = "unnormalised_weights"
    POSITIONAL_WEIGHTS = "positional_weights"
    OMITTED_SELF_SCORE = "omitted_self_score"
    RAW_SCORES = "raw_scores"


MISTAKES_BY_KIND: dict[ProblemKind, tuple[MistakeCode, ...]] = {
    ProblemKind.WEIGHTED_SUM: (
        MistakeCode.OMITTED_TERM,
        MistakeCode.WRONG_WEIGHT,
        MistakeCode.WRONG_ROW,
        MistakeCode.SWAPPED_WEIGHTS,
        MistakeCode.UNWEIGHTED_SUM,
        MistakeCode.PLAIN_AVERAGE,
    ),
    ProblemKind.LOOKUP: (
        MistakeCode.ROW_BY_POSITION,
        MistakeCode.OFF_BY_ONE_ROW,
        MistakeCode.OTHER_TOKEN_ROW,
    ),
    ProblemKind.CONTRAST: (
        MistakeCode.FORGOT_WEIGHT,
        MistakeCode.REVERSED_DIFFERENCE,
        MistakeCode.ANSWERED_ONE_SIDE,
    ),
    ProblemKind.CONTENT_WEIGHTS: (
        MistakeCode.UNNORMALISED_WEIGHTS,
        MistakeCode.POSITIONAL_WEIGHTS,
        MistakeCode.OMITTED_SELF_SCORE,
        MistakeCode.RAW_SCORES,
    ),
}
