"""What two shapes' `matches` and `describe_differences` share: the decimal policy for one
number (`rounds`), an offset between two numbers told in words (`describe_offset`), and the
positions at which two sequences differ (`sequence_differences`, `describe_sequence`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..compare import Scalar, approx, as_fraction, bound_sum, equal, float_bound
from ..fraction_parts import num_den
from ..rounding import Rounding, rounding
from ..tex import ratio_tex, scalar_tex
from .base import listed, ordinal

# An offset at least this large is told as "far too large/small", not as a number.
FAR_OFF = 1e12


def rounds(text: str | None, got: Scalar, want: Scalar) -> bool:
    """Return True when a decimal typed as `text` rounds `want`, or else `got` equals it."""
    if text is not None:
        return rounding(text, Fraction(text), want) != Rounding.WRONG
    return equal(got, want)


def describe_offset(index: int, what: str, got: Scalar, want: Scalar) -> str | None:
    """Return how far the `index`-th `what` is off ("the first coordinate is off by $+1/2$"),
    or None when it is not."""
    if type(got) is Fraction and type(want) is Fraction:
        # the commonest: got - want from integers, written as scalar_tex writes the Fraction
        (gn, gd), (wn, wd) = num_den(got), num_den(want)
        top = gn * wd - wn * gd
        if not top:
            return None
        sign = "+" if top > 0 else ""
        off = ratio_tex(top, gd * wd)
        return f"the {ordinal(index)} {what} is off by ${sign}{off}$"
    got_fraction, want_fraction = as_fraction(got), as_fraction(want)
    if got_fraction is not None and want_fraction is not None:
        diff = got_fraction - want_fraction
        if diff == 0:
            return None
        sign = "+" if diff > 0 else ""
        return f"the {ordinal(index)} {what} is off by ${sign}{scalar_tex(diff)}$"
    told = told_offset(got, want)
    if told is None:  # the float filter cannot say it: 40 digits
        off = float(approx(got) - approx(want))
        if abs(off) < 1e-12:
            return None
        if not abs(off) < FAR_OFF:  # inf included: no figure a learner can use
            return f"the {ordinal(index)} {what} is far too {'large' if off > 0 else 'small'}"
        told = f"{off:+.4g}"
    elif not told:
        return None
    elif "inf" in told or not abs(float(told)) < FAR_OFF:
        return f"the {ordinal(index)} {what} is far too {'large' if told[0] == '+' else 'small'}"
    return f"the {ordinal(index)} {what} is off by about ${told}$"


def told_offset(got: Scalar, want: Scalar) -> str | None:
    """Return got − want written to 4 significant figures, "" when it is below 1e-12 in size,
    from floats with error bounds, when every value within the bounds is written the same
    (else None): what the 40-digit difference gives, without computing it."""
    bounds = float_bound(got), float_bound(want)
    if bounds[0] is None or bounds[1] is None:
        return None
    (g, eg), (w, ew) = bounds
    try:
        off, error = bound_sum([(g, eg), (-w, ew)])
    except OverflowError:
        return None
    error += 1e-30 * (abs(g) + abs(w))  # the 40-digit approximations' own error
    if not (math.isfinite(off - error) and math.isfinite(off + error)):
        return None
    if abs(off) + error < 1e-12:
        return ""
    if abs(off) - error < 1e-12:
        return None
    low, high = f"{off - error:+.4g}", f"{off + error:+.4g}"
    return low if low == high else None


def sequence_differences(answer: Sequence[Any], expected: Sequence[Any]) -> tuple[int, ...]:
    """Return the 0-based positions at which two sequences differ, one missing included."""
    longest = max(len(answer), len(expected))
    return tuple(
        k
        for k in range(longest)
        if k >= len(answer) or k >= len(expected) or answer[k] != expected[k]
    )


def describe_sequence(answer: Sequence[Any], expected: Sequence[Any], noun: str, show) -> str:
    """Return the lengths and positions at which two sequences differ, in words."""
    parts = []
    if len(answer) != len(expected):
        parts.append(
            f"your answer has {len(answer)} {noun}{'s' if len(answer) != 1 else ''}, the "
            f"answer has {len(expected)}"
        )
    wrong = [
        k for k in sequence_differences(answer, expected) if k < len(answer) and k < len(expected)
    ]
    if wrong:
        # Positions counted from 1, as every position a learner is told (docs/kinds.md).
        shown = listed([f"{k + 1} ({show(answer[k])})" for k in wrong[:6]])
        more = f" and {len(wrong) - 6} more" if len(wrong) > 6 else ""
        many = len(wrong) > 1
        parts.append(f"position{'s' if many else ''} {shown}{more} differ{'' if many else 's'}")
    return listed(parts) if parts else "your answer is not the right one"
