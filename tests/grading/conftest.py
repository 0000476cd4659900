"""Specs for the grading tests: the seed's two sentences and one problem of every kind."""

import pytest


def seed_weighted_sum() -> dict:
    """Return the seed's sentence B: bank [1, 0] with weight 1/2, its neighbour [0, 2]."""
    return {
        "kind": "weighted_sum",
        "tokens": ["bank", "river"],
        "position": 0,
        "weights": ["1/2", "1/2"],
        "rows": [["1", "0"], ["0", "2"]],
    }


def three_terms() -> dict:
    """Return a three-term weighted sum whose mistakes all give different vectors."""
    return {
        "kind": "weighted_sum",
        "tokens": ["the", "bank", "river"],
        "position": 1,
        "weights": ["1/6", "1/2", "1/3"],
        "rows": [["1", "1"], ["2", "0"], ["0", "3"]],
    }


def lookup_spec() -> dict:
    """Return a lookup problem where the position (2) and the id (1) differ."""
    return {
        "kind": "lookup",
        "vocab": ["the", "bank", "river", "money", "flows"],
        "table": [["1", "1"], ["1", "0"], ["0", "1"], ["2", "2"], ["3", "-1"]],
        "tokens": ["the", "river", "bank"],
        "position": 2,
    }


def contrast_spec() -> dict:
    """Return the seed's two sentences A and B as a contrast problem."""
    return {
        "kind": "contrast",
        "position": 0,
        "weights": ["1/2", "1/2"],
        "rows_a": [["1", "0"], ["0", "1"]],
        "rows_b": [["1", "0"], ["0", "2"]],
        "tokens_a": ["bank", "river"],
        "tokens_b": ["bank", "money"],
    }


def content_spec() -> dict:
    """Return a content_weights problem with three positions."""
    return {
        "kind": "content_weights",
        "tokens": ["bank", "of", "river"],
        "position": 0,
        "rows": [["1", "0"], ["0", "1"], ["1", "1"]],
    }


@pytest.fixture
def seed_spec() -> dict:
    return seed_weighted_sum()


@pytest.fixture
def three_spec() -> dict:
    return three_terms()


@pytest.fixture
def lookup() -> dict:
    return lookup_spec()


@pytest.fixture
def contrast() -> dict:
    return contrast_spec()


@pytest.fixture
def content() -> dict:
    return content_spec()


@pytest.fixture
def toy_kinds():
    """Register the toy kinds of every answer shape for one test, then remove them."""
    from grading.kinds.base import REGISTRY, register

    from .toy_kinds import TOYS

    for toy in TOYS:
        register(toy)
    yield {toy.name: REGISTRY[toy.name] for toy in TOYS}
    for toy in TOYS:
        REGISTRY.pop(toy.name, None)
