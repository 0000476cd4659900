"""Small display filters for the site's templates: ``{% load site_extras %}``."""

import re
from datetime import timedelta

from django import template
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def in_minutes(value: timedelta | None) -> str:
    """Say a duration in whole minutes, rounded up ("15 minutes", "1 minute")."""
    if value is None:
        return ""
    minutes = max(1, -(-int(value.total_seconds()) // 60))
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


_MARKUP = re.compile(r"[$*_`]|\\(?:mathrm|text|mathbf)\b")


@register.filter
def plain_text(value: str) -> str:
    """Drop Markdown and TeX marks from a short text (for titles and meta descriptions)."""
    return " ".join(_MARKUP.sub("", str(value)).replace("{", "").replace("}", "").split())
