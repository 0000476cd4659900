"""Template filters for practice words: ``{% load practice_labels %}``."""

from django import template

from courses.labels import kind_label as _kind_label
from practice import labels

register = template.Library()


@register.filter
def kind_label(kind: str) -> str:
    """Render a problem kind code as words."""
    return _kind_label(kind)


@register.filter
def mistake_label(code: str | None, kind: str | None = None) -> str:
    """Render a mistake code as words, in the words of its kind when given
    (``{{ attempt.mistake|mistake_label:attempt.problem.kind }}``): a kind declared in a
    course folder may give a built-in code words of its own."""
    return labels.mistake_label(code, kind)


@register.filter
def status_label(status: str) -> str:
    """Render a verdict status as words."""
    return labels.status_label(status)
