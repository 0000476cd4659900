"""The daily goal form: a unit and an amount, each unit with its own bounds."""

from django import forms
from django.utils.translation import gettext_lazy as _

from practice.models import GOAL_BOUNDS, DailyGoal


class DailyGoalForm(forms.Form):
    """How much to practise each day: 1 to 100 problems, or 1 to 240 minutes."""

    amount = forms.IntegerField(label=_("Each day, at least"), min_value=1)
    unit = forms.ChoiceField(label=_("Counted in"), choices=DailyGoal.Unit.choices)

    def clean(self) -> dict:
        cleaned = super().clean()
        unit, amount = cleaned.get("unit"), cleaned.get("amount")
        if unit is not None and amount is not None and amount > GOAL_BOUNDS[unit]:
            self.add_error(
                "amount",
                _("At most %(most)d %(unit)s a day.")
                % {"most": GOAL_BOUNDS[unit], "unit": DailyGoal.Unit(unit).label},
            )
        return cleaned
