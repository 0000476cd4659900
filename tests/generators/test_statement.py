import pytest

from courses.mathml import iter_tex, render_markdown, tex_to_mathml
from practice.generators import GENERATORS, generate, render_statement


@pytest.mark.parametrize("kind", ["lookup", "weighted_sum", "contrast", "content_weights"])
def test_statement_renders_to_html_with_mathml_and_no_tex_errors(kind, make_spec):
    text = render_statement(make_spec(kind))

    html = render_markdown(text)
    assert "<math" in html
    assert "tex-error" not in html
    # Every formula converts on its own too (render_markdown would hide a failure as code).
    for _line, tex, display in iter_tex(text):
        tex_to_mathml(tex, display=display)


def test_negative_fractions_are_written_with_the_sign_outside(make_spec):
    text = render_statement(make_spec("weighted_sum", rows=[["-1/2", "1"], ["0", "2"], ["1", "0"]]))

    assert r"-\frac{1}{2}" in text


def test_hostile_tokens_are_escaped_in_the_html(make_spec):
    spec = make_spec(
        "lookup", vocab=["<script>", "a$b$c", "*x*", "bank"], tokens=["<script>", "a$b$c", "*x*"]
    )
    spec["position"] = 0

    html = render_markdown(render_statement(spec))
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "tex-error" not in html
    # A token with dollars opens no formula: the only formulas are the statement's own.
    assert html.count("<math") == render_markdown(render_statement(make_spec("lookup"))).count(
        "<math"
    )


@pytest.mark.parametrize(
    ("kind", "level"), [(kind, level) for kind, g in GENERATORS.items() for level in g.levels]
)
def test_generated_statements_render_at_every_level(kind, level):
    for seed in range(3):
        html = render_markdown(render_statement(generate(kind, seed=seed, level=level)))
        assert "<math" in html and "tex-error" not in html


def test_unknown_kind_is_refused(make_spec):
    spec = make_spec("lookup")
    spec["kind"] = "telepathy"

    with pytest.raises(ValueError):
        render_statement(spec)
