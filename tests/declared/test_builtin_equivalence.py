"""Four built-in Python kinds written as declared kinds (`tests/declared/builtin/kinds/*.yaml`,
not part of the course) diagnose every mistake of the Python kind's catalogue on the same
problems: for many seeds per level the Python kind's problem is generated, its numbers are given
to the declared kind as parameters, each of the Python catalogue's mistaken answers (built by the
Python kind itself, `grading.mistaken_answers`) is typed and graded by the declared kind, and the
declared kind must name the corresponding mistake and terms (the table `EXPECTED` below, one
function per kind). The right answer is graded correct by both.

Every Python mistake is reproduced by a derived one but for one reading of `predict_clean`'s
`beta_for_alpha_bar`, which the declared file gives as an author's own mistake (`AUTHORED`, and
docs/authoring.md, "The built-in kinds declared"). `EQUIVALENCE_SEEDS=200 pytest ...` runs more.
"""

from __future__ import annotations

import os
from collections import Counter
from contextlib import ExitStack
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

import grading
from grading.declared import read_kind_file
from grading.spec import load_problem
from practice.generators import generate
from practice.kind_check import check_kind_file, registered

from ..answers import typed as typed_answer

BUILTIN = Path(__file__).resolve().parent / "builtin"
SEEDS = int(os.environ.get("EQUIVALENCE_SEEDS", "40"))
LEVELS = (1, 2, 3, 4)
KINDS = ("weighted_sum", "lookup", "contrast", "predict_clean")


def declared_name(kind: str) -> str:
    return f"builtin_{kind}"


def kind_path(kind: str) -> Path:
    return BUILTIN / "kinds" / f"{declared_name(kind)}.yaml"


# ---- the Python kind's numbers as the declared kind's parameters --------------------------


def weighted_sum_params(spec: dict) -> dict:
    rows = spec["rows"]
    return {
        "n": str(len(rows)),
        "d": str(len(rows[0])),
        "i": str(spec["position"]),
        "w": list(spec["weights"]),
        "X": [list(row) for row in rows],
    }


def lookup_params(spec: dict) -> dict:
    vocab, table = spec["vocab"], spec["table"]
    return {
        "V": str(len(vocab)),
        "n": str(len(spec["tokens"])),
        "d": str(len(table[0])),
        "i": str(spec["position"]),
        "t": [str(vocab.index(token)) for token in spec["tokens"]],
        "E": [list(row) for row in table],
    }


def contrast_params(spec: dict) -> dict:
    rows_a = spec["rows_a"]
    return {
        "n": str(len(rows_a)),
        "d": str(len(rows_a[0])),
        "i": str(spec["position"]),
        "w": list(spec["weights"]),
        "A": [list(row) for row in rows_a],
        "B": [list(row) for row in spec["rows_b"]],
    }


def as_list(value) -> list[str]:
    """A number or a list of numbers of the built-in spec as the declared vector's entries (a
    one-number problem is a vector of length 1)."""
    return [str(x) for x in value] if isinstance(value, list) else [str(value)]


def predict_clean_params(spec: dict) -> dict:
    x = as_list(spec["x_t"])
    return {
        "t": str(spec["t"]),
        "d": str(len(x)),
        "a": spec["alpha_bar"],
        "b": spec["beta"],
        "x": x,
        "e": as_list(spec["eps_hat"]),
    }


PARAMS = {
    "weighted_sum": weighted_sum_params,
    "lookup": lookup_params,
    "contrast": contrast_params,
    "predict_clean": predict_clean_params,
}


# ---- the Python kind's mistake as the declared kind names it ------------------------------
# Each function maps a Python diagnosis (code, terms, detail) on a spec to the declared code and
# terms that must come back. Codes are the derive rules' (grading/declared/derive.py), renamed
# where the kind file's `mistakes:` says (contrast: swapped_parameters -> reversed_difference).


def weighted_sum_expected(spec: dict, d) -> tuple[str, tuple[int, ...]]:
    code, terms = d.mistake, tuple(d.terms)
    if code == "omitted_term":
        return "omitted_term", terms  # the Sum's term j = k left out
    if code == "wrong_weight":
        (k,) = terms
        used = Fraction(d.detail["weight"])
        if used == 1:  # "as if the row had no weight": the factor w_j left out of term k
            return "left_out_term_factor", (0, k, 0)
        weights = [Fraction(w) for w in spec["weights"]]
        m = next(j for j, w in enumerate(weights) if j != k and w == used)
        return "wrong_term_entry", (0, k, m)  # site 0 is w[j]: term k read w[m]
    if code == "wrong_row":
        (k,) = terms
        return "wrong_term_entry", (1, k, int(d.detail["row"]))  # site 1 is X[j]
    if code == "swapped_weights":
        return "swapped_term_entries", (0, *terms)
    if code == "unweighted_sum":
        return "left_out_factor", (0, 0)  # w[j] left out of every term
    if code == "plain_average":
        return "equal_weights", (0, 0)  # the mean of X[j], w[j] left out
    raise AssertionError(code)


def lookup_expected(spec: dict, d) -> tuple[str, tuple[int, ...]]:
    code = d.mistake
    if code == "row_by_position":
        return "skipped_lookup", (0,)  # E[i] for E[t[i]]
    if code == "off_by_one_row":
        right = spec["vocab"].index(spec["tokens"][spec["position"]])
        return "index_off_by_one", (0, 1 if int(d.detail["row"]) == right + 1 else 0)
    if code == "other_token_row":
        return "wrong_entry", (0, int(d.detail["position"]))  # t[m] for t[i]
    raise AssertionError(code)


def contrast_expected(spec: dict, d) -> tuple[str, tuple[int, ...]]:
    code, terms = d.mistake, tuple(d.terms)
    if code == "forgot_weight":
        return "left_out_term_factor", (0, terms[0], 0)  # w[j] left out of term k
    if code == "reversed_difference":
        return "reversed_difference", (4, 5)  # A and B exchanged (parameters 4 and 5)
    if code == "answered_one_side":
        return "one_side", (0, 0 if d.detail["side"] == "b" else 1)
    raise AssertionError(code)


def predict_clean_expected(spec: dict, d) -> tuple[str, tuple[int, ...]]:
    code = d.mistake
    if code == "no_rescale":
        return "forgot_normalisation", (0,)
    if code == "added_noise":
        return "flipped_sign", (0,)
    if code == "beta_for_alpha_bar":
        if d.detail.get("reading") == "literal":
            return "wrong_parameter", (0, 3)  # b (parameter 3) at a's first place
        return "beta_one_step", ()  # the author's own (AUTHORED)
    if code == "no_square_roots":
        return "forgot_every_sqrt", ()
    if code == "multiplied_by_root":
        return "multiplied_for_division", (0,)
    raise AssertionError(code)


EXPECTED = {
    "weighted_sum": weighted_sum_expected,
    "lookup": lookup_expected,
    "contrast": contrast_expected,
    "predict_clean": predict_clean_expected,
}

# Python mistakes (kind, code, reading) the declared file reproduces with an author's own
# mistake (an `answer` expression in its `mistakes:`), not a derived one. Everything else is
# derived. docs/authoring.md says which and why.
AUTHORED = {("predict_clean", "beta_for_alpha_bar", "one step")}


def reading(kind: str, d) -> str:
    if kind == "predict_clean" and d.mistake == "beta_for_alpha_bar":
        return "literal" if d.detail.get("reading") == "literal" else "one step"
    return ""


@pytest.fixture(scope="module")
def declared():
    """Register the four declared versions (and their generators) for this module's tests."""
    with ExitStack() as stack:
        kinds = {
            kind: stack.enter_context(registered(read_kind_file(kind_path(kind)))) for kind in KINDS
        }
        yield kinds


def same(u: tuple, v: tuple) -> bool:
    """Return whether two vectors are equal exactly (SymPy writes one root several ways)."""
    return len(u) == len(v) and all(
        sympy.expand(sympy.nsimplify(x) - sympy.nsimplify(y)) == 0
        if not (isinstance(x, Fraction) and isinstance(y, Fraction))
        else x == y
        for x, y in zip(u, v, strict=True)
    )


def vector(value):
    """A built-in answer as the declared kind's vector (a number is a vector of length 1)."""
    return tuple(value) if isinstance(value, tuple) else (value,)


def relevant(kind: str, spec: dict, d) -> bool:
    """Return False for a Python variant that is no mistake on its problem (contrast: the weight
    of a position whose row is the same in both sentences left out changes nothing)."""
    from practice.generators import GENERATORS

    return GENERATORS[kind].relevant(spec, d)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_declared_version_diagnoses_every_python_mistake_on_the_same_problems(
    declared, kind, level
):
    name = declared_name(kind)
    seen: Counter = Counter()
    authored = set()
    for seed in range(SEEDS):
        spec = generate(kind, seed=seed, level=level)
        mine = {"kind": name, "params": PARAMS[kind](spec)}
        shape = load_problem(mine).shape
        right = grading.expected_answer(spec)
        assert same(vector(right), grading.expected_answer(mine)), (seed, spec)
        assert grading.grade(spec, typed_answer(right, spec)).status == grading.Status.CORRECT
        assert grading.grade(mine, shape.typed(vector(right))).status == grading.Status.CORRECT
        for listed, value in grading.mistaken_answers(spec):
            typed = shape.typed(vector(value))
            if not relevant(kind, spec, listed):
                assert same(vector(value), vector(right))
                assert grading.grade(mine, typed).status == grading.Status.CORRECT
                continue
            code, terms = EXPECTED[kind](spec, listed)
            verdict = grading.grade(mine, typed)
            got = verdict.diagnosis
            assert verdict.status == grading.Status.INCORRECT, (seed, listed, verdict)
            assert got is not None, (seed, listed, code, terms, verdict.explanation)
            assert (got.mistake, tuple(got.terms)) == (code, terms), (seed, listed, spec)
            assert verdict.explanation
            seen[listed.mistake] += 1
            if got.mistake not in {r.code for r in _rules()}:
                authored.add((kind, listed.mistake, reading(kind, listed)))
    # every mistake of the Python catalogue came up on this level's problems, but those the
    # Python kind lists only at some levels
    expected = set(grading.MISTAKES_BY_KIND[kind])
    assert set(seen) == expected, (set(seen) ^ expected, level)
    # and only the documented ones needed an author's own mistake
    assert authored <= AUTHORED


def _rules():
    from grading.declared.derive import RULES

    return RULES


def test_exactly_the_documented_python_mistakes_are_authored_not_derived(declared):
    """The documented list is what the files say: each entry is an author's own mistake of its
    declared kind, and every other mistake the declared kinds list is a derived rule's."""
    from grading.declared.derive import RULE_BY_CODE

    own = {
        (kind, words.code)
        for kind in KINDS
        for words in read_kind_file(kind_path(kind)).mistakes
        if words.answer is not None
    }
    assert own == {("predict_clean", "beta_one_step")}
    assert {(kind, code) for kind, code, _ in AUTHORED} == {("predict_clean", "beta_for_alpha_bar")}
    for kind, found in declared.items():
        sources = dict(found.codes_of_rules)
        for code in found.codes:
            assert code in sources.values() or (kind, code) in own, (kind, code)
        assert all(rule in RULE_BY_CODE for rule in sources)


@pytest.mark.parametrize("kind", KINDS)
def test_each_declared_version_passes_the_authors_check(kind):
    report = check_kind_file(kind_path(kind), seeds=15)
    assert report.levels == LEVELS and report.seeds == 15
    assert report.tests == len(read_kind_file(kind_path(kind)).tests)
    assert report.answers_graded > 0


def test_the_declared_versions_are_not_course_kinds():
    """Learners never get a duplicate kind: the files are test data, not in a course folder."""
    from grading.declared import course_kind_files

    names = {path.stem for path in course_kind_files()}
    assert not names & {declared_name(kind) for kind in KINDS}
    assert all(kind_path(kind).is_file() for kind in KINDS)


def test_a_rule_a_file_turns_on_must_be_one_of_them(tmp_path):
    from grading.declared import KindFileError

    from .kinds import RULES_DEMO, write

    for listed, message in (
        ("[nope]", "is not one of the rules"),
        ("[one_side, one_side]", "twice"),
    ):
        path = write(tmp_path, RULES_DEMO + f"rules: {listed}\n")
        with pytest.raises(KindFileError) as caught:
            read_kind_file(path)
        assert caught.value.field == "rules[0]" or caught.value.field == "rules[1]"
        assert message in caught.value.message
