"""What a problem page shows beside its statement: the picture, fresh or with an answer."""

from django.utils.safestring import SafeString, mark_safe

from practice.generators import render_svg

from .answers import answer_vector


def problem_picture(spec: dict, *, answer: tuple | None = None) -> SafeString | None:
    """Return the problem's SVG picture (with the learner's answer drawn when given), or None."""
    svg = render_svg(spec, answer=answer)
    # Safe only because the generators build the SVG themselves and escape every text in it.
    return mark_safe(svg) if svg else None  # noqa: S308


def answer_picture(spec: dict, text: str) -> SafeString | None:
    """Draw the learner's vector beside the right one, when the text reads as one vector."""
    vector = answer_vector(text)
    return problem_picture(spec, answer=vector) if vector is not None else None
