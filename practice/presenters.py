"""What a problem page shows beside its statement: the picture, fresh or with an answer."""

from django.utils.safestring import SafeString, mark_safe

from practice.generators import render_svg

from .answers import answer_value


def problem_picture(spec: dict, *, answer: object = None) -> SafeString | None:
    """Return the problem's SVG picture (with the learner's answer drawn when given), or None."""
    svg = render_svg(spec, answer=answer)
    # Safe only because the generators build the SVG themselves and escape every text in it.
    return mark_safe(svg) if svg else None  # noqa: S308


def answer_picture(spec: dict, text: str) -> SafeString | None:
    """Draw the learner's answer beside the right one, when the text reads as an answer of the
    problem's shape."""
    value = answer_value(text, spec)
    return problem_picture(spec, answer=value) if value is not None else None


def solved_picture(spec: dict) -> SafeString | None:
    """Return the problem's picture drawn solved (the right answer in it), or None."""
    svg = render_svg(spec, solution=True)
    # Safe for the same reason as problem_picture: the generators escape every text.
    return mark_safe(svg) if svg else None  # noqa: S308
