"""TeX to MathML, and Markdown with TeX to safe HTML."""

import pytest
from django.template import Context, Template
from hypothesis import given, settings
from hypothesis import strategies as st

from courses.mathml import MathError, iter_tex, render_markdown, tex_to_mathml


def test_bmatrix_becomes_a_table_between_brackets():
    mathml = tex_to_mathml(r"\begin{bmatrix}\frac{1}{2}\\1\end{bmatrix}", display=True)

    assert mathml.startswith("<math")
    assert 'display="block"' in mathml
    assert "<mtable>" in mathml and "<mfrac>" in mathml
    assert mathml.count("<mtr>") == 2


def test_inline_is_the_default():
    assert 'display="inline"' in tex_to_mathml("x_i")


@pytest.mark.parametrize("tex", [r"\frac{1}{", r"\begin{bmatrix}1", r"x \nosuchcommand y"])
def test_malformed_tex_raises_math_error(tex):
    with pytest.raises(MathError):
        tex_to_mathml(tex)


def test_text_inside_tex_is_escaped():
    mathml = tex_to_mathml(r"\text{<script>alert(1)</script>}")

    assert "<script>" not in mathml
    assert "&lt;script&gt;" in mathml


def test_markdown_renders_inline_and_display_math():
    html = render_markdown("The row $x_i$ and *more*.\n\n$$\n\\mathbf{h}_i = a_1\n$$\n\nAfter.")

    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in html
    assert '<div class="math-display"><math' in html
    assert "<em>more</em>" in html
    # Underscores inside TeX are not read as Markdown emphasis.
    assert "<em>i" not in html
    assert "<p>After.</p>" in html


def test_raw_html_in_markdown_is_escaped():
    html = render_markdown('<script>alert(1)</script>\n\nHi <img src=x onerror="alert(1)">')

    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html


def test_script_links_are_neutralised():
    html = render_markdown("[click](javascript:alert(1)) and [ok](https://example.org/)")

    assert "javascript:" not in html
    assert 'href="https://example.org/"' in html


def test_dollars_in_code_are_not_math():
    html = render_markdown("Use `$x$` literally.\n\n```\n$$ y $$\n```")

    assert "<math" not in html
    assert "<code>$x$</code>" in html


def test_malformed_tex_in_markdown_shows_the_source_not_an_error_page():
    html = render_markdown(r"Broken $\frac{1}{$ here.")

    assert '<code class="tex-error">' in html


def test_iter_tex_reports_line_numbers_and_kinds():
    found = list(iter_tex("a $x$\n\n$$\ny\n$$\nb $z$ `$no$`"))

    assert found == [(1, "x", False), (3, "y", True), (6, "z", False)]


def test_template_filters_render_mathml():
    html = Template(
        "{% load mathml %}{{ a|mathml }}|{{ a|mathml_display }}|{{ b|markdown_math }}"
    ).render(Context({"a": r"\frac{1}{2}", "b": "*x* $y$"}))

    inline, display, markdown = html.split("|")
    assert 'display="inline"' in inline and "<mfrac>" in inline
    assert 'display="block"' in display
    assert "<em>x</em>" in markdown and "<math" in markdown


def test_template_filter_shows_malformed_tex_escaped():
    html = Template("{% load mathml %}{{ a|mathml }}").render(Context({"a": r"\frac{<b>}{"}))

    assert '<code class="tex-error">' in html
    assert "<b>" not in html


@settings(max_examples=60, deadline=2000)
@given(st.text(max_size=80))
def test_markdown_never_passes_raw_tags_through(text):
    html = render_markdown(text + "<script>x</script>")

    assert "<script>" not in html
