"""How a number typed as a decimal stands to an exact value: exact, rounded, too few digits,
or wrong (the rule partial credit and the explanations of rounding follow)."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

import mpmath

from .compare import DIGITS, Scalar, approx, as_fraction


class Rounding(StrEnum):
    """How a number typed as a decimal stands to an exact value."""

    EXACT = "exact"
    ROUNDED = "rounded"  # rounds the exact value correctly, at least 3 significant figures
    TOO_FEW_DIGITS = "too_few_digits"  # rounds correctly, fewer than 3 significant figures
    WRONG = "wrong"


MIN_SIGNIFICANT = 3


def significant_figures(text: str) -> int:
    """Return the significant figures of a typed decimal (`"0.0330"` has 3)."""
    digits = text.lstrip("+-").replace(".", "").lstrip("0")
    return len(digits)


def decimal_places(text: str) -> int:
    """Return the digits typed after the decimal point."""
    return len(text.split(".", 1)[1]) if "." in text else 0


def rounding(text: str, typed: Fraction, exact: Scalar) -> Rounding:
    """Classify a typed decimal against the exact value it stands for.

    A decimal rounds the exact value correctly when it lies within half a unit of its last
    typed digit of it. Truncation (0.666 for 2/3) is not rounding.
    """
    half_unit = Fraction(1, 2 * 10 ** decimal_places(text))
    exact_fraction = as_fraction(exact)
    if exact_fraction is not None:
        if typed == exact_fraction:
            return Rounding.EXACT
        within = abs(typed - exact_fraction) <= half_unit
    else:
        # A decimal is rational; an exp/sqrt value is not, so only rounding can apply.
        with mpmath.workdps(DIGITS + 10):
            within = bool(abs(approx(typed) - approx(exact)) <= approx(half_unit))
    if not within:
        return Rounding.WRONG
    if significant_figures(text) >= MIN_SIGNIFICANT:
        return Rounding.ROUNDED
    return Rounding.TOO_FEW_DIGITS
