"""``{% optional_include "app/template.html" %}``: include a template when it exists, else nothing.

Lets another app add a block to a page (the review engineer's badge on the dashboard) without
this app depending on it.
"""

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def optional_include(context: template.Context, template_name: str) -> SafeString:
    """Render the named template with the current context, or return '' when it does not exist."""
    try:
        found = get_template(template_name)
    except template.TemplateDoesNotExist:
        return mark_safe("")
    return mark_safe(found.render(context.flatten(), context.get("request")))  # noqa: S308 (a rendered template)
