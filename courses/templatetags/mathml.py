"""Math filters: ``{% load mathml %}``, then ``mathml``, ``mathml_display``, ``markdown_math``."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from courses.mathml import MathError, render_markdown, tex_to_mathml

register = template.Library()


def _safe_math(tex: str, *, display: bool) -> SafeString:
    try:
        return mark_safe(tex_to_mathml(str(tex), display=display))  # noqa: S308 (built by latex2mathml, which escapes text)
    except MathError:
        return mark_safe(f'<code class="tex-error">{template.defaultfilters.escape(tex)}</code>')  # noqa: S308


@register.filter(name="mathml")
def mathml(tex: str) -> SafeString:
    """Render a TeX formula as inline MathML."""
    return _safe_math(tex, display=False)


@register.filter(name="mathml_display")
def mathml_display(tex: str) -> SafeString:
    """Render a TeX formula as display (block) MathML."""
    return _safe_math(tex, display=True)


@register.filter(name="markdown_math")
def markdown_math(text: str) -> SafeString:
    """Render Markdown with `$...$`/`$$...$$` TeX as HTML; raw HTML in the text is escaped."""
    return mark_safe(render_markdown(str(text)))  # noqa: S308 (raw HTML is escaped by render_markdown)
