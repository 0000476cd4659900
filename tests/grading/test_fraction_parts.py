"""Fraction's parts are read from its private slots only where a check at import found them,
and from the public properties otherwise: both paths give the same numbers and the same
Verdicts."""

import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grading import fraction_parts, grade, mistaken_answers
from grading.fraction_parts import SLOT_NAMES, num_den, reader, slots_hold_the_parts
from practice.generators import generate

from .conftest import contrast_spec, three_terms


class PublicOnly:
    """A rational with the public properties and no private slots (as a future Fraction might)."""

    def __init__(self, top: int, bottom: int) -> None:
        value = Fraction(top, bottom)
        self.numerator, self.denominator = value.numerator, value.denominator


class WrongSlots(PublicOnly):
    """A rational whose private names hold something other than its parts in lowest terms."""

    def __init__(self, top: int, bottom: int) -> None:
        super().__init__(top, bottom)
        self._numerator, self._denominator = top, bottom


def test_this_python_has_the_slots_and_reads_them():
    assert sys.version_info[:2] >= (3, 11)
    assert fraction_parts.SLOTS is True
    assert slots_hold_the_parts(Fraction)
    assert repr(num_den) == repr(reader(slots=True))
    assert all(name in repr(num_den) for name in SLOT_NAMES)


def test_a_type_without_the_slots_or_with_other_contents_falls_back():
    assert not slots_hold_the_parts(PublicOnly)
    assert not slots_hold_the_parts(WrongSlots)  # 6/-4 left unreduced in its private names
    assert reader(slots=False)(PublicOnly(6, -4)) == (-3, 2)
    with pytest.raises(AttributeError):
        reader(slots=True)(PublicOnly(6, -4))


@given(st.lists(st.fractions() | st.integers(-(10**40), 10**40), min_size=1, max_size=8))
def test_both_readers_give_the_parts_in_lowest_terms(values):
    fractions_only = [Fraction(x) for x in values]
    slots, public = reader(slots=True), reader(slots=False)
    for x in fractions_only:
        assert slots(x) == public(x) == (x.numerator, x.denominator)
    for x in values:  # an int has the properties too (the sums take ints)
        assert public(x) == (Fraction(x).numerator, Fraction(x).denominator)


def _specs() -> list[dict]:
    specs = [three_terms(), contrast_spec()]
    for kind in ("weighted_sum", "contrast", "content_weights", "two_layers"):
        specs += [
            generate(kind, seed=7000 + seed, level=level) for seed in range(3) for level in (1, 3)
        ]
    return specs


def _verdicts(specs: list[dict]) -> list[dict]:
    out = []
    for spec in specs:
        for _diagnosis, answer in mistaken_answers(spec):
            text = "[" + ", ".join(str(x) for x in answer) + "]"
            out.append(grade(spec, text).to_dict())
    return out


def _clear_grading_caches() -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith("grading"):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def test_grading_with_the_public_properties_gives_the_same_verdicts(monkeypatch):
    specs = _specs()
    _clear_grading_caches()
    fast = _verdicts(specs)

    calls = 0
    public = reader(slots=False)

    def counted(value):
        nonlocal calls
        calls += 1
        return public(value)

    patched = []
    for name, module in list(sys.modules.items()):
        if name.startswith("grading") and getattr(module, "num_den", None) is num_den:
            monkeypatch.setattr(module, "num_den", counted)
            patched.append(name)
    assert {"grading.exact", "grading.tex", "grading.kinds.contrast"} <= set(patched)
    _clear_grading_caches()

    fallback = _verdicts(specs)

    assert calls > 1000  # the fallback was really taken, throughout
    assert len(fast) > 100
    assert fallback == fast
    assert {v["status"] for v in fast} >= {"incorrect"}
