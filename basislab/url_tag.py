"""``{% url %}`` with its reversals remembered per process: a template builtin (settings.TEMPLATES).

Django's ``{% url %}`` reverses its route on every render: about 27 microseconds for a route
with two ids on this machine, and a problem page renders 18 of them (the header's links, the
forms' actions, the attempt list, Continue), about a tenth of the page. The same routes with
the same ids come back request after request (a learner's problem, their copy's pages), so the
answer is remembered: by the URLconf, the script prefix and the active language (each can change
the URL), the route's name, its arguments and the current namespace. Everything else is
Django's tag: it parses exactly as Django's does (its own parser is called) and renders the same
text, ``as var`` included; a route that does not reverse raises as it does, and nothing is
remembered for it. Only whole numbers and strings are remembered as arguments: anything else
(a model, whose text may change, or a list) is reversed each time.

It is listed in ``TEMPLATES["OPTIONS"]["builtins"]``, so every template's ``{% url %}`` is this
one without a ``{% load %}``; ``url_reverse`` is the same for Python code on a hot path.
"""

from functools import lru_cache

from django import template
from django.conf import settings
from django.template import defaulttags
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()

# Distinct routes a process remembers: a learner's problem, attempts and pages each make a few.
REMEMBERED_ROUTES = 8192


@lru_cache(maxsize=REMEMBERED_ROUTES)
def _reverse(where: tuple, view_name: str, args: tuple, kwargs: tuple, app: str | None) -> str:
    # ``where`` is only part of the key: reverse() reads the same URLconf, prefix and language.
    return reverse(view_name, args=args, kwargs=dict(kwargs), current_app=app)


def url_reverse(
    view_name: str, *, args: tuple = (), kwargs: dict | None = None, current_app: str | None = None
) -> str:
    """Return ``reverse(view_name, args=args, kwargs=kwargs)``, remembered for these values."""
    kwargs = kwargs or {}
    values = (*args, *kwargs.values())
    if not isinstance(view_name, str) or any(type(v) not in (int, str) for v in values):
        return reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
    where = (get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), get_language())
    return _reverse(where, view_name, tuple(args), tuple(sorted(kwargs.items())), current_app)


class RememberedURLNode(defaulttags.URLNode):
    def render(self, context: template.Context) -> str:
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        # The current namespace as Django's tag finds it.
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        url = ""
        try:
            url = url_reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser: template.base.Parser, token: template.base.Token) -> RememberedURLNode:
    """Parse as Django's ``{% url %}`` does; render with the remembered reversal."""
    node = defaulttags.url(parser, token)
    return RememberedURLNode(node.view_name, node.args, node.kwargs, node.asvar)
