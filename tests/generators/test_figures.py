import itertools
import xml.etree.ElementTree as ET

import pytest
import sympy

from practice.generators import generate, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def arrows(root: ET.Element, role: str | None = None) -> list[ET.Element]:
    return [
        line
        for line in root.iter(f"{SVG}line")
        if "data-role" in line.attrib and (role is None or line.get("data-role") == role)
    ]


def panel_of(root: ET.Element, line: ET.Element) -> ET.Element:
    for panel in root.iter(f"{SVG}g"):
        if panel.get("class") == "panel" and line in list(panel):
            return panel
    raise AssertionError("arrow outside a panel")


def pixel_tip(root: ET.Element, line: ET.Element) -> tuple[float, float]:
    """Return the tip in problem coordinates, read back from the pixels."""
    panel = panel_of(root, line)
    ox, oy = (float(v) for v in panel.get("data-origin").split(","))
    scale = float(panel.get("data-scale"))
    return (float(line.get("x2")) - ox) / scale, (oy - float(line.get("y2"))) / scale


def test_weighted_sum_draws_rows_terms_and_the_sum_at_the_right_point(make_spec):
    root = parse(render_svg(make_spec("weighted_sum"), solution=True))

    assert len(arrows(root, "row")) == 3
    assert len(arrows(root, "term")) == 3
    (total,) = arrows(root, "sum")
    assert (total.get("data-x"), total.get("data-y")) == ("1/2", "3/4")
    assert pixel_tip(root, total) == pytest.approx((0.5, 0.75), abs=1e-3)
    assert total.get("x1") == panel_of(root, total).get("data-origin").split(",")[0]


def test_weighted_terms_run_tip_to_tail_and_end_at_the_sum(make_spec):
    root = parse(render_svg(make_spec("weighted_sum"), solution=True))
    terms = arrows(root, "term")

    for before, after in itertools.pairwise(terms):
        assert (before.get("x2"), before.get("y2")) == (after.get("x1"), after.get("y1"))
    (total,) = arrows(root, "sum")
    assert (terms[-1].get("x2"), terms[-1].get("y2")) == (total.get("x2"), total.get("y2"))


def test_rows_are_labelled_with_their_tokens(make_spec):
    root = parse(render_svg(make_spec("weighted_sum")))
    texts = [t.text for t in root.iter(f"{SVG}text")]

    for token in ("the", "river", "bank"):
        assert token in texts


def test_svg_is_accessible_with_title_desc_and_role(make_spec):
    root = parse(render_svg(make_spec("weighted_sum"), solution=True))

    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and title.text
    assert desc is not None and "(1/2, 3/4)" in desc.text
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"


def test_learner_answer_is_drawn_dashed_beside_the_right_one(make_spec):
    root = parse(render_svg(make_spec("weighted_sum"), answer=("1", "1/4")))

    (answer,) = arrows(root, "answer")
    (total,) = arrows(root, "sum")
    assert answer.get("stroke-dasharray")
    assert not total.get("stroke-dasharray")
    assert answer.get("stroke") != total.get("stroke")
    assert pixel_tip(root, answer) == pytest.approx((1, 0.25), abs=1e-3)
    legend = [t.text for g in root.iter(f"{SVG}g") if g.get("class") == "legend" for t in g]
    assert "your answer" in legend


def test_answer_of_another_length_is_not_drawn(make_spec):
    root = parse(render_svg(make_spec("weighted_sum"), answer=("1", "2", "3")))

    assert arrows(root, "answer") == []


def test_sympy_answers_are_accepted():
    import sympy

    spec = generate("content_weights", seed=3, level=1)
    answer = (sympy.exp(1) / (1 + sympy.exp(1)), sympy.Rational(1, 3))
    root = parse(render_svg(spec, answer=answer))

    (line,) = arrows(root, "answer")
    assert pixel_tip(root, line) == pytest.approx((0.7310586, 1 / 3), abs=1e-3)


def test_contrast_stacks_sentence_a_over_sentence_b_over_the_difference(make_spec):
    root = parse(render_svg(make_spec("contrast"), answer=("-1", "1")))

    panels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]
    assert len(panels) == 3
    (ax, ay), (bx, by), (_, dy) = (
        tuple(float(v) for v in p.get("data-origin").split(",")) for p in panels
    )
    assert ax == bx and ay < by < dy  # stacked, one panel a row, none shrunk beside another
    assert float(root.get("width")) <= 312  # a phone's verdict column
    sums = arrows(root, "sum")
    assert [(s.get("data-x"), s.get("data-y")) for s in sums] == [("1/2", "3/4"), ("1", "-1/4")]
    (right,) = arrows(root, "right")
    assert (right.get("data-x"), right.get("data-y")) == ("1/2", "-1")
    assert pixel_tip(root, right) == pytest.approx((0.5, -1), abs=1e-3)
    (answer,) = arrows(root, "answer")
    assert panel_of(root, answer) is panel_of(root, right)
    assert len(arrows(root, "row")) == 6
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "river" in texts and "savings" in texts


def test_lookup_draws_every_table_row_and_highlights_the_right_one(make_spec):
    root = parse(render_svg(make_spec("lookup"), solution=True))

    assert len(arrows(root, "row")) == 4
    (right,) = arrows(root, "right")
    assert (right.get("data-x"), right.get("data-y")) == ("1", "0")
    assert pixel_tip(root, right) == pytest.approx((1, 0), abs=1e-3)


def test_content_weights_sum_is_the_softmax_mix(make_spec):
    root = parse(render_svg(make_spec("content_weights"), solution=True))

    # Scores with x_2 = [1, 0]: 0, 1, 1, so the weights are 1/(1+2e), e/(1+2e), e/(1+2e).
    e = 2.718281828459045
    expected = ((2 * e) / (1 + 2 * e), (1 + e) / (1 + 2 * e))
    (total,) = arrows(root, "sum")
    assert pixel_tip(root, total) == pytest.approx(expected, abs=1e-3)
    assert float(total.get("data-x")) == pytest.approx(expected[0], abs=1e-4)
    assert len(arrows(root, "term")) == 3


def test_tokens_are_escaped_in_the_markup(make_spec):
    spec = make_spec("weighted_sum", tokens=["<script>", "a&b", 'q"uote'])
    svg = render_svg(spec)

    root = parse(svg)
    assert "<script>" not in svg
    assert "<script>" in [t.text for t in root.iter(f"{SVG}text")]


def test_ids_differ_between_pictures_on_one_page(make_spec):
    first = parse(render_svg(make_spec("weighted_sum")))
    second = parse(render_svg(make_spec("weighted_sum", position=1)))

    assert first.find(f"{SVG}title").get("id") != second.find(f"{SVG}title").get("id")


def test_problems_in_more_than_two_dimensions_have_no_picture(make_spec):
    spec = make_spec("weighted_sum", rows=[["0", "1", "0"], ["0", "2", "1"], ["1", "0", "0"]])

    assert render_svg(spec) is None


# The kinds drawn as arrows in the plane (the picture tests here are about them).
ARROW_KINDS = ["lookup", "weighted_sum", "contrast", "content_weights"]


@pytest.mark.parametrize("kind", ARROW_KINDS)
@pytest.mark.parametrize("level", [1, 2])
def test_generated_two_dimensional_problems_draw_the_right_answer(kind, level):
    import grading

    for seed in range(5):
        spec = generate(kind, seed=seed, level=level)
        right = tuple(float(x) for x in grading.expected_answer(spec))
        root = parse(render_svg(spec, solution=True))
        (line,) = arrows(root, "right" if kind in ("lookup", "contrast") else "sum")
        assert pixel_tip(root, line) == pytest.approx(right, abs=1e-3)


@pytest.mark.parametrize(
    "answer",
    [
        ("nan", "1"),
        (float("inf"), 0),
        ("not a number", "1"),
        ("10**100", "1"),
        (10**100, 1),
    ],
)
def test_answers_that_cannot_share_the_picture_are_left_out(make_spec, answer):
    root = parse(render_svg(make_spec("weighted_sum"), answer=answer))

    assert arrows(root, "answer") == []
    assert len(arrows(root, "sum")) == 1


def test_a_complex_answer_is_left_out(make_spec):
    import sympy

    root = parse(render_svg(make_spec("weighted_sum"), answer=(sympy.sqrt(-1), 1)))

    assert arrows(root, "answer") == []


@pytest.mark.parametrize("kind", ARROW_KINDS)
def test_the_picture_of_a_fresh_problem_does_not_give_the_answer_away(kind, make_spec):
    spec = make_spec(kind)
    svg = render_svg(spec)
    root = parse(svg)

    assert {line.get("data-role") for line in arrows(root)} == {"row"}
    solved = parse(render_svg(spec, solution=True))
    (right,) = arrows(solved, "right" if kind in ("lookup", "contrast") else "sum")
    answer_text = f"({right.get('data-x')}, {right.get('data-y')})"
    assert answer_text in solved.find(f"{SVG}desc").text
    assert answer_text not in root.find(f"{SVG}desc").text
    assert "answer is not drawn" in root.find(f"{SVG}desc").text


def test_a_fresh_contrast_shows_the_two_sentences_without_the_difference(make_spec):
    root = parse(render_svg(make_spec("contrast")))

    panels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]
    assert len(panels) == 2
    assert len(arrows(root, "row")) == 6


def test_a_small_contrast_difference_fills_its_own_panel_and_its_caption_says_so():
    spec = {
        "kind": "contrast",
        "tokens_a": ["the", "river", "bank"],
        "tokens_b": ["the", "money", "bank"],
        "position": 2,
        "weights": ["1/10", "1/10", "4/5"],
        "rows_a": [["4", "0"], ["4", "4"], ["0", "4"]],
        "rows_b": [["4", "0"], ["4", "3"], ["0", "4"]],
    }
    root = parse(render_svg(spec, solution=True))

    panels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]
    scales = [float(p.get("data-scale")) for p in panels]
    assert scales[0] == scales[1]  # the two sentences share one scale
    assert scales[2] > 10 * scales[0]  # the difference (0, -1/10) is enlarged to be seen
    (right,) = arrows(root, "right")
    (x1, y1), (x2, y2) = [(float(right.get(f"x{k}")), float(right.get(f"y{k}"))) for k in (1, 2)]
    assert abs(y2 - y1) > 100 and x1 == x2  # a long arrow straight down, not a dot
    assert pixel_tip(root, right) == pytest.approx((0, -0.1), abs=1e-6)
    captions = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert captions[2].startswith("h₂ᴮ − h₂ᴬ, drawn ") and captions[2].endswith("× larger")
    assert "own scale" in root.find(f"{SVG}desc").text


def test_a_learner_answer_a_few_times_the_difference_fits_the_difference_panel():
    spec = generate("contrast", seed=0, level=1)
    root = parse(render_svg(spec, answer=(sympy.Integer(2), sympy.Integer(-2))))

    (answer,) = arrows(root, "answer")
    assert answer.get("data-clipped") is None
    assert pixel_tip(root, answer) == pytest.approx((2, -2), abs=1e-6)


def test_an_answer_brings_the_solution_unless_told_otherwise(make_spec):
    with_answer = parse(render_svg(make_spec("weighted_sum"), answer=(1, 1)))
    without_solution = parse(render_svg(make_spec("weighted_sum"), answer=(1, 1), solution=False))

    assert len(arrows(with_answer, "sum")) == 1
    assert arrows(without_solution, "sum") == []
    assert len(arrows(without_solution, "answer")) == 1


def test_a_far_wrong_answer_keeps_the_right_answers_scale_and_is_cut_at_the_edge():
    spec = generate("content_weights", seed=3, level=1)
    right = parse(render_svg(spec, solution=True))
    wrong = parse(render_svg(spec, answer=(sympy.Integer(9), sympy.Integer(-8))))

    def scale(root):
        (panel,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]
        return panel.get("data-scale")

    assert scale(wrong) == scale(right)
    (line,) = arrows(wrong, "answer")
    assert line.get("data-clipped") == "true"
    assert (line.get("data-x"), line.get("data-y")) == ("9", "-8")  # the exact answer, still
    width, height = float(wrong.get("width")), float(wrong.get("height"))
    assert 0 < float(line.get("x2")) < width and 0 < float(line.get("y2")) < height
    assert "runs off the picture" in wrong.find(f"{SVG}desc").text


def test_a_cut_short_answer_says_so_in_the_legend():
    spec = generate("content_weights", seed=3, level=1)
    wrong = parse(render_svg(spec, answer=(sympy.Integer(9), sympy.Integer(-8))))
    near = parse(render_svg(spec, answer=(sympy.Integer(0), sympy.Integer(0))))

    def legend(root):
        (group,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "legend"]
        return [t.text for t in group.iter(f"{SVG}text")]

    assert "your answer, cut short: it runs off the picture" in legend(wrong)
    assert "your answer" in legend(near)
