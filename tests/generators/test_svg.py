"""The one SVG toolkit: coordinates, attributes, the root, ids, and what a caption may claim."""

import xml.etree.ElementTree as ET

import grading
from practice.generators import GENERATORS, generate, render_svg
from practice.generators.draw import svg

NS = "{http://www.w3.org/2000/svg}"


def test_coordinates_have_at_most_two_decimals_and_no_negative_zero():
    assert svg.px(1.23456) == "1.23"
    assert svg.px(2.0) == "2"
    assert svg.px(-0.001) == "0"


def test_keyword_attributes_are_named_as_svg_names_them_and_escaped():
    markup = svg.text(
        1, 2, "a < b", class_="caption", text_anchor="end", data_role='x"y', fill=None
    )
    assert markup == (
        '<text x="1" y="2" class="caption" text-anchor="end" data-role=\'x"y\'>a &lt; b</text>'
    )


def test_the_root_is_accessible_and_its_ids_are_the_pictures_own():
    one = svg.document(100, 50, "T", "D", [svg.line(0, 0, 1, 1)], key="one", markers=["row"])
    two = svg.document(100, 50, "T", "D", [svg.line(0, 0, 1, 1)], key="two")
    root = ET.fromstring(one)
    assert root.get("role") == "img" and root.get("width") == "100"
    assert root.get("viewBox") == "0 0 100 50"
    title_id, desc_id = root.get("aria-labelledby").split()
    assert root.find(f"{NS}title").get("id") == title_id
    assert root.find(f"{NS}desc").get("id") == desc_id
    assert root.find(f"{NS}defs/{NS}marker").get("id") == f"{svg.picture_id('one')}-row"
    assert svg.picture_id("one") != svg.picture_id("two") and "style=" not in one + two


def test_a_picture_draws_the_answer_only_where_an_element_names_it():
    assert svg.draws_answer('<line data-role="answer"/>')
    assert svg.draws_answer('<rect data-role="band-answer"/>')
    assert svg.draws_answer('<circle data-role="answer-count"/>')
    assert not svg.draws_answer('<text data-role="label">your answer</text>')
    assert not svg.draws_answer('<rect data-role="answers-row"/>')


def test_every_kind_draws_with_one_root_and_one_coordinate_format():
    for kind in GENERATORS:
        spec = generate(kind, seed=0, level=1)
        for markup in filter(None, [render_svg(spec), render_svg(spec, solution=True)]):
            assert markup.count("<svg ") == 1, kind
            assert 'font-family="system-ui, sans-serif"' in markup.split(">", 1)[0], kind
            root = ET.fromstring(markup)
            for element in root.iter():
                for name in ("x", "y", "x1", "y1", "x2", "y2", "width", "height"):
                    value = element.get(name)
                    if value is not None and "." in value:
                        assert len(value.split(".")[1]) <= 2, (kind, element.tag, name, value)


def test_kinds_that_do_not_draw_the_answer_are_told_apart_from_those_that_do():
    def drawn(kind: str) -> bool:
        spec = generate(kind, seed=0, level=1)
        _, value = grading.mistaken_answers(spec)[0]
        return svg.draws_answer(render_svg(spec, answer=value))

    assert drawn("weighted_sum") and drawn("whitespace_pieces") and drawn("noise_step")
    # letters_in_pieces writes the learner's count when it is wrong ("your count: 6").
    assert drawn("letters_in_pieces") and drawn("cosine_similarity")
    assert not drawn("char_vs_word_unknowns")
