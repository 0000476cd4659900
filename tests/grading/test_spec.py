import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading import SpecError, validate_spec
from grading.spec import MAX_DIM, list_field, load_problem, number, numbers, rows

from .conftest import content_spec, contrast_spec, lookup_spec, seed_weighted_sum, three_terms


@pytest.mark.parametrize(
    "spec", [seed_weighted_sum(), three_terms(), lookup_spec(), contrast_spec(), content_spec()]
)
def test_valid_spec_of_every_kind_is_returned_normalised(spec):
    normal = validate_spec(spec)
    assert next(iter(normal)) == "kind"
    assert normal["kind"] == spec["kind"]
    assert validate_spec(normal) == normal


def test_numbers_are_normalised_to_canonical_rationals():
    spec = seed_weighted_sum() | {"weights": ["2/4", "0.5"], "rows": [[1, "0"], ["-0", "4/2"]]}
    normal = validate_spec(spec)
    assert normal["weights"] == ["1/2", "1/2"]
    assert normal["rows"] == [["1", "0"], ["0", "2"]]


def test_keys_grading_does_not_read_are_kept():
    generator = {"name": "ws", "version": 1, "seed": 7, "level": 1, "target": None}
    normal = validate_spec(seed_weighted_sum() | {"level": 2, "generator": generator})
    assert normal["level"] == 2
    assert normal["generator"] == generator


def test_validate_returns_a_fresh_dict_each_time():
    first = validate_spec(seed_weighted_sum())
    first["weights"].append("9")
    assert validate_spec(seed_weighted_sum())["weights"] == ["1/2", "1/2"]


@pytest.mark.parametrize("data", [None, [], "spec", {"kind": "lookup", "vocab": {1, 2}}])
def test_non_object_spec_is_a_spec_error(data):
    with pytest.raises(SpecError):
        validate_spec(data)


def _rows_one_by_one(data: dict, field: str) -> tuple:
    """Read rows number by number, as `rows` did before its shortcut for the usual spelling."""
    items = list_field(data, field, low=1, high=12)
    out: list[tuple] = []
    for index, row in enumerate(items):
        name = f"{field}[{index}]"
        if not isinstance(row, list) or not 1 <= len(row) <= MAX_DIM:
            raise SpecError(name, f"must be a list of 1 to {MAX_DIM} numbers")
        out.append(tuple(number(x, f"{name}[{j}]") for j, x in enumerate(row)))
        if len(out[-1]) != len(out[0]):
            raise SpecError(name, f"has {len(row)} coordinates; {field}[0] has {len(out[0])}")
    return tuple(out)


def _outcome(read, *args, **kwargs):
    try:
        return "value", read(*args, **kwargs)
    except SpecError as error:
        return "error", error.field, error.message


_SPEC_NUMBERS = st.one_of(
    st.integers(-30, 30).map(str),
    st.tuples(st.integers(-9, 9), st.integers(0, 9)).map(lambda p: f"{p[0]}/{p[1]}"),
    st.sampled_from(["0.5", "-0", "007", " 1", "1 ", "+1", "1/", "/2", "1/2/3", "", "x", "１"]),
    st.sampled_from(["1" * 24, "1" * 25, "-" + "9" * 23, "12345678901/123456789012"]),
    st.integers(-5, 5),
    st.sampled_from([None, True, 1.5, [], ["1"], {}]),
)


@given(
    st.lists(
        st.one_of(st.lists(_SPEC_NUMBERS, max_size=10), st.sampled_from([None, "1", 3, {}])),
        max_size=14,
    )
)
@settings(max_examples=400, deadline=None)
def test_rows_read_as_number_by_number(items):
    # given rows of numbers in every spelling, good and bad (a JSON spec's values)
    data = {"rows": items}
    # then `rows` returns what reading every number with `number` returns, or the same error
    assert _outcome(rows, data, "rows", low=1, high=12) == _outcome(_rows_one_by_one, data, "rows")
    if isinstance(items, list) and items and isinstance(items[0], list):
        expected = _outcome(lambda: tuple(number(x, f"w[{j}]") for j, x in enumerate(items[0])))
        assert _outcome(numbers, items[0], "w") == expected


def test_a_spec_that_holds_itself_or_is_nested_too_deep_is_refused_as_before():
    # a cycle (found without recording every list: it recurses, then the checking encoder
    # names it) is a SpecError; data nested deeper than the recursion limit stays the
    # RecursionError json gives it
    cyclic: dict = {"kind": "weighted_sum"}
    cyclic["rows"] = cyclic
    looped: list = []
    looped.append(looped)
    for spec in (cyclic, {"kind": "lookup", "table": looped}):
        with pytest.raises(SpecError) as raised:
            load_problem(spec)
        assert (raised.value.field, raised.value.message) == ("spec", "must hold only JSON values")
    deep: list = []
    inner = deep
    for _ in range(5000):
        inner.append([])
        inner = inner[0]
    with pytest.raises(RecursionError):
        load_problem({"kind": "lookup", "table": deep})
