"""The kind file reader: each fault is refused with the file, the field and its line, and
nothing is registered; hostile and unbounded expressions never run."""

from __future__ import annotations

import re

import pytest

import grading
from grading.declared import KindFileError, read_kind_file
from grading.declared.expr import ExpressionError, evaluate, parse

from .kinds import EXAMPLE, write

TEXT = EXAMPLE.read_text(encoding="utf-8")


def refused(tmp_path, old: str, new: str) -> KindFileError:
    assert old in TEXT
    path = write(tmp_path, TEXT.replace(old, new, 1), name="scaled_dot_score")
    with pytest.raises(KindFileError) as caught:
        read_kind_file(path)
    assert caught.value.path == str(path)
    return caught.value


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_the_example_file_reads():
    source = read_kind_file(EXAMPLE)
    assert source.name == "scaled_dot_score"
    assert [s.name for s in source.steps] == ["p", "s"]
    assert len(source.tests) == 4


def test_a_typo_in_a_key_names_the_key_and_its_line(tmp_path):
    error = refused(tmp_path, "statement: |", "statment: |")
    assert error.field == "statment"
    assert error.line == line_of(TEXT, "statement: |")
    assert "unknown key 'statment'" in str(error) and f"line {error.line}" in str(error)


def test_an_unbounded_expression_is_refused_before_it_runs(tmp_path):
    error = refused(tmp_path, "value: p / sqrt(d)", "value: p / sqrt(d) + 10^10^10")
    assert error.field == "steps"
    assert "too large" in error.message


def test_a_range_that_empties_the_constraints_is_refused(tmp_path):
    error = refused(tmp_path, "  - dot(q, k) != 0", "  - dot(q, k) > 1000")
    assert error.field == "constraints"
    assert error.line == line_of(TEXT, "constraints:")
    assert "no problem of level 1 satisfies them" in error.message


def test_a_statement_naming_an_unknown_parameter_is_refused(tmp_path):
    error = refused(tmp_path, "$d = {{d}}$", "$d = {{z}}$")
    assert error.field == "statement"
    assert "{{z}} names no parameter" in error.message


def test_an_empty_range_names_the_level(tmp_path):
    levels = "{1: [2, 2], 2: [2, 2], 3: [3, 3]"
    error = refused(tmp_path, levels, levels.replace("[3, 3]", "[3, 1]"))
    assert error.field == "parameters.d.levels.3"
    assert "is empty" in error.message
    assert error.line == line_of(TEXT, "levels: {1: [2, 2]")


def test_a_length_naming_no_parameter_is_refused(tmp_path):
    error = refused(tmp_path, "    length: d\n", "    length: e\n")
    assert error.field == "parameters.q.length"


def test_an_answer_of_the_wrong_shape_is_refused(tmp_path):
    error = refused(tmp_path, "shape: scalar", "shape: vector")
    assert error.field == "shape"


def test_a_key_given_twice_is_refused_with_its_line(tmp_path):
    error = refused(tmp_path, "version: 1\n", "version: 1\nversion: 2\n")
    assert "given twice" in error.message
    assert error.line == line_of(TEXT, "version: 1") + 1


def test_a_kind_named_unlike_its_file_is_refused(tmp_path):
    error = refused(tmp_path, "kind: scaled_dot_score", "kind: other_name")
    assert error.field == "kind"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("__import__('os').getpid()", "ASCII letters"),
        ("q.__class__", "Attribute"),
        ("eval(q)", "not one of"),
        ("[1] * 10", "List"),
        ("lambda: 1", "ASCII letters"),
        ("(lambda x=1: x)()", "ASCII letters"),
        ("__ｉｍｐｏｒｔ__", "ASCII"),
        ("1.5 * d", "whole numbers"),
        ("d" + " + d" * 200, "at most 400"),
        ("d" + "+d" * 150, "too large"),
        ("-" * 399 + "d", "too large"),
        ("zz + d", "'zz'"),
        ("Sum(q[j], j)", re.escape("Sum(body, (j, low, high))")),
        ("Sum(d, (d, 0, 1))", "already a name"),
        ("Sum(Sum(Sum(d, (a, 0, 9)), (b, 0, 9)), (c, 0, 9))", "nests more than 2"),
    ],
)
def test_hostile_or_malformed_expressions_are_refused_by_the_reader(text, reason):
    with pytest.raises(ExpressionError, match=reason):
        parse(text, names={"q", "k", "d"})


def test_a_hostile_answer_in_a_file_names_the_field(tmp_path):
    error = refused(tmp_path, "value: p / sqrt(d)", "value: q.__class__")
    assert error.field == "steps[1].value"
    assert error.line == line_of(TEXT, "value: p / sqrt(d)")


def test_a_huge_power_is_refused_when_computed():
    from fractions import Fraction

    from grading.declared.expr import EvaluationError

    tree = parse("d ^ (d ^ d)", names={"d"})
    with pytest.raises(EvaluationError, match="too large"):
        evaluate(tree, {"d": Fraction(9)})


def test_a_refused_file_registers_nothing(tmp_path):
    before = set(grading.KINDS)
    refused(tmp_path, "statement: |", "statment: |")
    assert set(grading.KINDS) == before
