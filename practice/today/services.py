"""The one write of today's practice: setting the learner's daily goal."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from practice.models import GOAL_BOUNDS, DailyGoal


def daily_goal_set(*, user: AbstractBaseUser, unit: str, amount: int) -> DailyGoal:
    """Store the learner's daily goal (one per learner); raise ValueError naming a unit that is
    not known or an amount out of its unit's bounds, changing nothing."""
    try:
        unit = DailyGoal.Unit(unit)
    except ValueError:
        raise ValueError(f"unit unknown: {unit!r}") from None
    if isinstance(amount, bool) or not 1 <= amount <= GOAL_BOUNDS[unit]:
        raise ValueError(f"amount out of range for {unit.value}: {amount!r}")
    with transaction.atomic():
        goal, _created = DailyGoal.objects.update_or_create(
            user=user, defaults={"unit": unit.value, "amount": amount}
        )
    return goal
