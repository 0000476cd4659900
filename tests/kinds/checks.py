"""Checks every kind of the text pages passes, written once and called from each kind's tests.

Answers are typed by `tests.answers`: `typed(value, shape)` as a learner types it,
`typed_forms(shape, value)` in every accepted way (pieces with spaces, bars or a quoted list;
ratios as fractions or decimals).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import grading
from courses.mathml import iter_tex, render_markdown, tex_to_mathml
from grading.kinds import Status
from practice.generators import GENERATORS, generate, render_statement, render_svg
from tests.answers import shape_of, typed, typed_forms

SVG = "{http://www.w3.org/2000/svg}"


def check_own_answer_in_every_form(name: str, seeds: int) -> None:
    """Assert each generated problem's own answer grades correct in every accepted form."""
    for level in GENERATORS[name].levels:
        for seed in range(seeds):
            spec = generate(name, seed=seed, level=level)
            right = grading.expected_answer(spec)
            for text in typed_forms(shape_of(spec), right):
                verdict = grading.grade(spec, text)
                assert verdict.status == Status.CORRECT, (seed, level, text, verdict)


def check_every_mistake_is_itself(name: str, seeds: int) -> None:
    """Assert every catalogued mistake applied is diagnosed as exactly itself (code and terms),
    and every mistake of the kind comes up on every problem."""
    codes = set(grading.kind(name).codes)
    for level in GENERATORS[name].levels:
        for seed in range(seeds):
            spec = generate(name, seed=seed, level=level)
            shape = shape_of(spec)
            found = set()
            for listed, value in grading.mistaken_answers(spec):
                verdict = grading.grade(spec, typed(value, shape))
                assert verdict.status == Status.INCORRECT, (seed, level, listed, verdict)
                assert verdict.diagnosis is not None, (seed, level, listed, verdict.explanation)
                assert verdict.diagnosis.mistake == listed.mistake, (seed, level, verdict)
                assert tuple(verdict.diagnosis.terms) == tuple(listed.terms), (seed, verdict)
                assert verdict.explanation, (seed, level, listed)
                found.add(str(listed.mistake))
            assert found == codes, (seed, level, codes - found)


def check_targets(name: str, seeds: int = 3) -> None:
    """Assert ``target=`` gives, for every mistake, a problem on which it shows."""
    for code in grading.kind(name).codes:
        for level in GENERATORS[name].levels:
            for seed in range(seeds):
                spec = generate(name, seed=seed, level=level, target=code)
                assert spec["generator"]["target"] == code
                right = grading.expected_answer(spec)
                values = [v for d, v in grading.mistaken_answers(spec) if d.mistake == code]
                assert values and all(v != right for v in values), (code, level, seed)


def check_explanations_render(name: str, seeds: int = 3) -> None:
    """Assert every mistake's explanation, and the hint, render with no TeX error."""
    for level in GENERATORS[name].levels:
        for seed in range(seeds):
            spec = generate(name, seed=seed, level=level)
            shape = shape_of(spec)
            texts = [
                grading.grade(spec, typed(v, shape)).explanation
                for _, v in grading.mistaken_answers(spec)
            ]
            kind = grading.kind(name)
            texts.append(kind.hint(kind.load(spec)))
            for text in texts:
                html = render_markdown(text)
                assert text and "tex-error" not in html, (level, seed, text)


def check_statements_render(name: str, seeds: int = 3) -> None:
    """Assert each level's statements render to HTML with MathML and no TeX error."""
    for level in GENERATORS[name].levels:
        for seed in range(seeds):
            text = render_statement(generate(name, seed=seed, level=level))
            html = render_markdown(text)
            assert "<math" in html and "tex-error" not in html, (level, seed)
            for _line, tex, display in iter_tex(text):
                tex_to_mathml(tex, display=display)


def parse_svg(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.find(f"{SVG}title").text
    assert root.find(f"{SVG}desc").text
    return root


def boxes(root: ET.Element, role: str) -> list[str]:
    """Return the ``data-text`` of the boxes with that ``data-role``, in document order."""
    return [
        rect.get("data-text", "")
        for rect in root.iter(f"{SVG}rect")
        if rect.get("data-role") == role
    ]


def check_pictures(name: str, seeds: int = 3) -> None:
    """Assert every level's picture parses, with and without a (wrong) answer."""
    for level in GENERATORS[name].levels:
        for seed in range(seeds):
            spec = generate(name, seed=seed, level=level)
            parse_svg(render_svg(spec))
            wrong = grading.mistaken_answers(spec)[0][1]
            parse_svg(render_svg(spec, answer=wrong))
            parse_svg(render_svg(spec, solution=True))


def arrow_ends(markup: str) -> tuple[float, float, list[tuple[float, float]]]:
    """Return a picture's width, height and the ends of its arrows (both ends of every line of
    class ``arrow``) in the picture's pixels, the outer ``translate`` of a cropped panel
    applied."""
    root = parse_svg(markup)
    dx = dy = 0.0
    outer = root.find(f"{SVG}g")
    if outer is not None and outer.get("transform", "").startswith("translate("):
        dx, dy = (float(v) for v in outer.get("transform")[10:-1].split(","))
    ends = [
        (float(line.get(f"x{n}")) + dx, float(line.get(f"y{n}")) + dy)
        for line in root.iter(f"{SVG}line")
        if "arrow" in line.get("class", "").split()
        for n in (1, 2)
    ]
    return float(root.get("width")), float(root.get("height")), ends
