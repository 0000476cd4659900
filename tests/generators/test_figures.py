import pytest
import sympy

from practice.generators import generate, render_svg
from tests.kinds.first_four import SVG, arrows, parse, pixel_tip


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
