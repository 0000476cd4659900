"""Specs for the grading tests: the seed's two sentences and one problem of each of the first four
kinds (`tests/kinds/first_four.py`), as fixtures."""

import pytest

from tests.kinds.first_four import (
    content_spec,
    contrast_spec,
    lookup_spec,
    seed_weighted_sum,
    three_terms,
)

# The grading tests import these from here too (``from .conftest import ...``).
__all__ = ["content_spec", "contrast_spec", "lookup_spec", "seed_weighted_sum", "three_terms"]


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
