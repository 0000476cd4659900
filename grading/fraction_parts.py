"""A Fraction's numerator and denominator, read as fast as this Python allows.

CPython's ``fractions.Fraction`` keeps its integers in two slots, ``_numerator`` and
``_denominator``, and exposes them through the ``numerator`` and ``denominator`` properties, a
Python-level call each: reading the slots takes a third of the time of the grader's exact sums
(``grading.exact``). The slots are private, so whether they hold the parts is checked once, at
import, on this interpreter's Fraction (CPython 3.11 to 3.13 have them); where they do not, the
public properties are read instead, with the same results. ``num_den`` is one C call either way
(``operator.attrgetter``).
"""

from collections.abc import Callable
from fractions import Fraction
from operator import attrgetter

SLOT_NAMES = ("_numerator", "_denominator")
PUBLIC_NAMES = ("numerator", "denominator")
# Values whose lowest terms differ from how they are written (sign and common factor).
_PROBES = ((6, -4), (0, 5), (7, 1), (-(10**30), 3 * 10**12))


def slots_hold_the_parts(fraction_type: type = Fraction) -> bool:
    """Return True when ``fraction_type``'s private slots hold each value's parts in lowest
    terms, exactly as its public properties give them."""
    try:
        for top, bottom in _PROBES:
            value = fraction_type(top, bottom)
            slots = (value._numerator, value._denominator)
            if slots != (value.numerator, value.denominator) or type(slots[0]) is not int:
                return False
    except (AttributeError, TypeError):
        return False
    return True


def reader(*, slots: bool) -> Callable[[Fraction], tuple[int, int]]:
    """Return a function of a Fraction giving ``(numerator, denominator)``: from the private
    slots when ``slots``, else from the public properties (also right for an int)."""
    return attrgetter(*(SLOT_NAMES if slots else PUBLIC_NAMES))


SLOTS = slots_hold_the_parts()
num_den: Callable[[Fraction], tuple[int, int]] = reader(slots=SLOTS)
