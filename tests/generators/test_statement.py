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


def test_weighted_sum_statement_names_tokens_rows_weights_and_the_task(make_spec):
    text = render_statement(make_spec("weighted_sum"))

    assert "*the river bank*" in text
    assert r"\begin{bmatrix}0\\2\end{bmatrix}" in text
    assert r"w_{2,2} = \frac{1}{2}" in text
    assert "*bank* (the word itself)" in text
    assert r"**Compute** $\mathbf{h}_{2}$" in text
    assert "with the vector" in text and "sum written out" in text


def test_contrast_statement_shows_both_sentences_and_asks_for_the_difference(make_spec):
    text = render_statement(make_spec("contrast"))

    assert "*the river bank*" in text and "*the savings bank*" in text
    assert r"\mathbf{x}_{1}^{A} = \begin{bmatrix}0\\2\end{bmatrix}" in text
    assert r"\mathbf{x}_{1}^{B} = \begin{bmatrix}2\\-2\end{bmatrix}" in text
    assert r"\mathbf{h}_{2}^{B} - \mathbf{h}_{2}^{A}" in text


def test_lookup_statement_lists_the_table_by_id(make_spec):
    text = render_statement(make_spec("lookup"))

    assert r"- id 1, *bank*: $E[1] = \begin{bmatrix}1\\0\end{bmatrix}$" in text
    assert r"E[\mathrm{id}(\text{bank})]" in text


def test_content_weights_statement_gives_the_softmax_and_how_to_write_exp(make_spec):
    text = render_statement(make_spec("content_weights"))

    assert r"s_{2,j} = \mathbf{x}_{2} \cdot \mathbf{x}_j" in text
    assert r"\frac{e^{s_{2,j}}}{\sum_k e^{s_{2,k}}}" in text
    assert "`exp(2)`" in text


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
