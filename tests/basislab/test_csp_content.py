"""What the generators and the grader write into a page passes the Content-Security-Policy.

The policy allows no inline style and no inline script (``style-src 'self'``, ``script-src
'self'``): a ``style`` attribute is dropped by the browser (and reported), an ``on...`` handler
never runs. Every kind in the registry is walked, over many seeds and every level: its
statement and every catalogued mistake's explanation as the page renders them (Markdown with
MathML, ``courses.mathml.render_markdown``), and its pictures (fresh and solved). A kind added
later is walked without being named here.
"""

import re
from collections.abc import Iterator

import pytest

import grading
from courses.mathml import render_markdown
from practice.generators import GENERATORS, generate, render_statement, render_svg
from tests.answers import typed

# An attribute the policy governs as inline style or script, or a scheme that runs script.
INLINE = re.compile(r"\sstyle\s*=|<style|\son[a-z]+\s*=|javascript:|<script", re.I)
STATEMENT_SEEDS = range(12)
EXPLANATION_SEEDS = range(2)


def _statements(kind: str) -> Iterator[tuple[str, str]]:
    for level in GENERATORS[kind].levels:
        for seed in STATEMENT_SEEDS:
            spec = generate(kind, seed=seed, level=level)
            where = f"{kind} level {level} seed {seed}"
            yield f"{where} statement", render_markdown(render_statement(spec))
            for solution in (False, True):
                svg = render_svg(spec, solution=solution)
                if svg:
                    yield f"{where} picture (solution={solution})", svg


def _explanations(kind: str) -> Iterator[tuple[str, str]]:
    for level in GENERATORS[kind].levels:
        for seed in EXPLANATION_SEEDS:
            spec = generate(kind, seed=seed, level=level)
            for diagnosis, value in grading.mistaken_answers(spec):
                verdict = grading.grade(spec, typed(value, spec))
                if verdict.explanation:
                    where = f"{kind} level {level} seed {seed} {diagnosis.mistake}"
                    yield where, render_markdown(verdict.explanation)
            loaded = grading.kind(kind).load(spec)
            yield (
                f"{kind} level {level} seed {seed} hint",
                render_markdown(grading.kind(kind).hint(loaded)),
            )


@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_statements_and_pictures_have_no_inline_style_or_script(kind):
    pieces = list(_statements(kind))

    assert len(pieces) >= len(GENERATORS[kind].levels) * len(STATEMENT_SEEDS)
    offenders = [(where, m.group(0)) for where, html in pieces for m in INLINE.finditer(html)]
    assert offenders == []


@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_explanations_have_no_inline_style_or_script(kind):
    pieces = list(_explanations(kind))

    assert len(pieces) > len(GENERATORS[kind].levels) * len(EXPLANATION_SEEDS)
    offenders = [(where, m.group(0)) for where, html in pieces for m in INLINE.finditer(html)]
    assert offenders == []


def test_letters_in_pieces_tables_align_by_class():
    html = "".join(
        render_markdown(render_statement(generate("letters_in_pieces", seed=seed, level=level)))
        for level in GENERATORS["letters_in_pieces"].levels
        for seed in range(4)
    )
    assert "<table" in html
    assert 'class="align-right"' in html
    assert "text-align" not in html


def test_markdown_table_alignment_becomes_classes():
    html = render_markdown("| a | b | c | d |\n|:--|--:|:-:|---|\n| 1 | 2 | 3 | 4 |")

    classes = re.findall(r'<t[hd] class="([^"]+)"', html)
    assert classes == ["align-left", "align-right", "align-center"] * 2
    assert "<th>d</th>" in html and "<td>4</td>" in html
    assert "style" not in html
