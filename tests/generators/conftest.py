"""Factories for specs with known numbers, so pictures and statements can be checked by hand."""

import pytest


def weighted_sum_spec(**overrides) -> dict:
    """Return *the river bank* at *bank*: h = 1/4 [0, 1] + 1/4 [0, 2] + 1/2 [1, 0] = [1/2, 3/4]."""
    spec = {
        "kind": "weighted_sum",
        "tokens": ["the", "river", "bank"],
        "position": 2,
        "weights": ["1/4", "1/4", "1/2"],
        "rows": [["0", "1"], ["0", "2"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


def contrast_spec(**overrides) -> dict:
    spec = {
        "kind": "contrast",
        "tokens_a": ["the", "river", "bank"],
        "tokens_b": ["the", "savings", "bank"],
        "position": 2,
        "weights": ["1/4", "1/4", "1/2"],
        "rows_a": [["0", "1"], ["0", "2"], ["1", "0"]],
        "rows_b": [["0", "1"], ["2", "-2"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


def lookup_spec(**overrides) -> dict:
    spec = {
        "kind": "lookup",
        "vocab": ["river", "bank", "the", "money"],
        "table": [["0", "1"], ["1", "0"], ["1", "1"], ["2", "0"]],
        "tokens": ["the", "river", "bank"],
        "position": 2,
    }
    spec.update(overrides)
    return spec


def content_weights_spec(**overrides) -> dict:
    spec = {
        "kind": "content_weights",
        "tokens": ["the", "river", "bank"],
        "position": 2,
        "rows": [["0", "1"], ["1", "1"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


@pytest.fixture
def make_spec():
    """Return a factory: ``make_spec(kind, **overrides)``."""
    factories = {
        "weighted_sum": weighted_sum_spec,
        "contrast": contrast_spec,
        "lookup": lookup_spec,
        "content_weights": content_weights_spec,
    }
    return lambda kind, **overrides: factories[str(kind)](**overrides)
