"""Template filters for the pictures of problems: ``{% load practice_pictures %}``."""

from django import template

from practice.generators.draw.svg import draws_answer as _draws_answer

register = template.Library()


@register.filter
def draws_answer(picture: object) -> bool:
    """Return whether a rendered picture draws the learner's answer (see ``svg.draws_answer``)."""
    return picture is not None and _draws_answer(str(picture))
