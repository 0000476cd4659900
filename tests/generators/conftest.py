"""Fixtures for the generator tests: the first four kinds' drawn problems (`make_spec`).
Answers are typed as a learner types them by `tests.answers.typed`."""

import pytest

from tests.kinds.first_four import drawn_spec


@pytest.fixture
def make_spec():
    """Return a factory: ``make_spec(kind, **overrides)``, the drawn problems of the first four
    kinds (`tests/kinds/first_four.py`)."""
    return drawn_spec
