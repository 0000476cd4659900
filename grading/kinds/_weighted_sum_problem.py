"""The data of one `weighted_sum` problem, shared by the kind (`weighted_sum.py`) and the
solver of its mistakes (`_weighted_sum_solver.py`), so neither imports the other back."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, eq=False)
class WeightedSumProblem:
    """The sentence, the position i, the weights w_ij over j and the rows x_j. Compared by
    identity (``eq=False``): one loaded spec is one problem, which keeps the caches keyed on
    it cheap."""

    tokens: tuple[str, ...]
    position: int
    weights: tuple[Fraction, ...]
    rows: tuple[tuple[Fraction, ...], ...]
