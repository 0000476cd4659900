"""The kind registry and the Kind base class (grading/kinds/__init__.py, base.py)."""

from dataclasses import FrozenInstanceError

import pytest

import grading
from grading.kinds import KINDS, MISTAKES_BY_KIND, MistakeCode, ProblemKind, kind
from grading.kinds.base import REGISTRY, Kind, MistakeDef, Variant, register, variant
from grading.verdict import Diagnosis

from .toy_kinds import ToyBytes


def test_every_module_of_the_package_registers_its_kind():
    assert {"lookup", "weighted_sum", "contrast", "content_weights"} <= set(KINDS)
    assert KINDS is REGISTRY
    assert list(KINDS) == sorted(KINDS)
    for name, registered in KINDS.items():
        assert registered.name == name
        assert isinstance(registered, Kind)
        assert registered.label and registered.mistakes


def test_the_four_first_kinds_keep_their_codes_and_numbers():
    first = ("lookup", "weighted_sum", "contrast", "content_weights")
    # Codes are per kind (a declared kind may name its own omitted_term); these are the four's.
    numbers = {m.code: m.number for name in first for m in KINDS[name].mistakes}
    assert numbers["omitted_term"] == 1 and numbers["plain_average"] == 6
    assert numbers["row_by_position"] == 7 and numbers["other_token_row"] == 9
    assert numbers["forgot_weight"] == 10 and numbers["answered_one_side"] == 12
    assert numbers["unnormalised_weights"] == 13 and numbers["raw_scores"] == 16


def test_enums_and_labels_are_built_from_the_registry():
    assert set(ProblemKind) == set(KINDS)
    assert set(MistakeCode) == {m.code for k in KINDS.values() for m in k.mistakes}
    assert MISTAKES_BY_KIND[ProblemKind.LOOKUP] == KINDS["lookup"].codes
    assert grading.KIND_LABELS["lookup"] == "Look up a row"
    assert grading.MISTAKE_LABELS["weighted_sum", "omitted_term"] == "left a term out of the sum"


def test_kind_lookup_names_the_known_kinds():
    assert kind("lookup") is KINDS["lookup"]
    with pytest.raises(KeyError, match="is not one of"):
        kind("telepathy")
    with pytest.raises(KeyError):
        kind(None)  # type: ignore[arg-type]


def test_a_mistake_is_found_by_its_code_only_in_its_kind():
    assert kind("lookup").mistake("off_by_one_row").number == 8
    with pytest.raises(KeyError):
        kind("lookup").mistake("omitted_term")


def _kind(name: str, *mistakes: MistakeDef) -> type[Kind]:
    return type(name.title(), (ToyBytes,), {"name": name, "mistakes": mistakes})


def _mistake(code: str, number: int) -> MistakeDef:
    return MistakeDef(code=code, number=number, label=code, explain=lambda p, d: code)


def test_register_refuses_a_repeated_code_or_number_or_a_missing_name():
    with pytest.raises(TypeError, match="code is repeated"):
        register(_kind("toy_a", _mistake("x", 1), _mistake("x", 2)))
    with pytest.raises(TypeError, match="numbers must be distinct"):
        register(_kind("toy_b", _mistake("x", 1), _mistake("y", 1)))
    with pytest.raises(TypeError, match="positive"):
        register(_kind("toy_c", _mistake("x", 0)))
    with pytest.raises(TypeError, match="has no name"):
        register(type("Nameless", (ToyBytes,), {"name": ""}))
    assert not {"toy_a", "toy_b", "toy_c"} & set(REGISTRY)


def test_register_refuses_a_second_kind_of_the_same_name():
    with pytest.raises(TypeError, match="two kinds are named 'lookup'"):
        register(_kind("lookup", _mistake("x", 1)))
    assert type(KINDS["lookup"]).__module__ == "grading.kinds.lookup"


def test_variants_read_as_diagnoses_do():
    made = variant("dropped_byte", (2,), {"why": "test"})
    assert made == Variant("dropped_byte", (2,), {"why": "test"})
    assert made.mistake == made.code == "dropped_byte"
    diagnosis = made.diagnosis()
    assert diagnosis == Diagnosis("dropped_byte", (2,), detail={"why": "test"})
    assert diagnosis.code == "dropped_byte" and diagnosis.detail == {"why": "test"}


def test_a_mistake_without_variants_has_one_with_no_terms():
    mistake = _mistake("x", 1)
    assert list(mistake.variants_of(object())) == [Variant("x")]
    assert mistake.phrase(object(), Diagnosis("x")) == "x"
    with pytest.raises(FrozenInstanceError):
        mistake.code = "y"  # type: ignore[misc]
