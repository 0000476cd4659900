"""Template filters for practice words: ``{% load practice_labels %}``."""

from django import template

from practice import labels

register = template.Library()


@register.filter
def kind_label(kind: str) -> str:
    """Render a problem kind code as words."""
    return labels.kind_label(kind)


@register.filter
def mistake_label(code: str | None) -> str:
    """Render a mistake code as words."""
    return labels.mistake_label(code)


@register.filter
def status_label(status: str) -> str:
    """Render a verdict status as words."""
    return labels.status_label(status)
